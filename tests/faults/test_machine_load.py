#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every proxy's results JSON records the machine's load over the run ("machine_load"): exactly the
fields a study reads, with sane values (load averages >= 0, other CPU seconds >= 0 and at most what
the node's cores could spend in the run's wall time, wall seconds > 0 and within the process's own
lifetime, cores = this machine's online CPUs)."""
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

FIELDS = {"load_average_start": float, "load_average_end": float, "other_cpu_seconds": float,
          "wall_seconds": float, "cores": int}
TINY = ["--nx", "6", "--ny", "6", "--nz", "6", "--num_tsteps", "3", "--progress", "0"]
RUNS = [("amp-ghost", TINY, 2), ("amp-sage", TINY, 2), ("amp-nobel", ["--nbx", "2", "--nby", "2", "--nbz", "2",
        "--num_tsteps", "2"], 1), ("amp-micro", ["pingpong", "--max-size", "64", "--iterations", "5"], 2)]


def check(load, elapsed, what):
    if set(load) != set(FIELDS):
        fr.fail(f"{what}: machine_load has {sorted(load)}, expected {sorted(FIELDS)}")
    for name, kind in FIELDS.items():
        if not isinstance(load[name], kind) or isinstance(load[name], bool):
            fr.fail(f"{what}: {name} = {load[name]!r} is not a {kind.__name__}")
    if load["cores"] != os.sysconf("SC_NPROCESSORS_ONLN"):
        fr.fail(f"{what}: cores {load['cores']}, this machine has {os.sysconf('SC_NPROCESSORS_ONLN')} online")
    if not 0 < load["wall_seconds"] <= elapsed:
        fr.fail(f"{what}: wall_seconds {load['wall_seconds']} not in (0, {elapsed}]")
    if min(load["load_average_start"], load["load_average_end"], load["other_cpu_seconds"]) < 0:
        fr.fail(f"{what}: a negative value in {load}")
    if load["other_cpu_seconds"] > load["cores"] * load["wall_seconds"] + 0.05:
        fr.fail(f"{what}: other_cpu_seconds {load['other_cpu_seconds']} exceeds what {load['cores']} cores give in "
                f"{load['wall_seconds']} s")


def main():
    a = fr.parser(__doc__).parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for proxy, arguments, ranks in RUNS:
            results = os.path.join(tmp, proxy + ".json")
            start = time.monotonic()
            done = fr.run(a, proxy, arguments + ["--results", results], ranks=ranks)
            elapsed = time.monotonic() - start
            if done.returncode != 0:
                fr.fail(f"{proxy}: exit {done.returncode}: {fr.lines_of(done)}")
            with open(results) as f:
                load = json.load(f).get("machine_load")
            if load is None:
                fr.fail(f"{proxy}: no machine_load in its results")
            check(load, elapsed, proxy)
            print(f"{proxy}: machine_load {load}")
    print(f"OK: machine_load present and sane in {len(RUNS)} proxies' results")


if __name__ == "__main__":
    main()
