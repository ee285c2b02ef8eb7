#!/usr/bin/env python3
"""Prints AMP results files as one table, a row per run: the cut (strategy) and transport, time per
step and its ratio to the first run, the compute / pack+unpack / MPI (post+wait) / collective split
per step of the average rank, messages per step and rank, average message size, verification and
the checksum; then whether every checksum agrees. Runs traced into RESULTS.trace/ and simulated on
this machine's network file (./amp simulate) get two more columns: the predicted time per step and
how far it is from the trace's own time of its traced region.

Usage: python3 -m amp_tools.compare_runs RESULTS.json [RESULTS.json ...]
"""
import json
import sys

from amp_tools import simulate

HEADER = ("cut", "transport", "ms/step", "vs first", "compute", "pack+unpack", "MPI", "of it wait",
          "collect.", "msgs/step/rk", "avg msg B", "verified", "checksum")
WIDTHS = (6, 12, 9, 9, 9, 12, 9, 11, 9, 13, 10, 9, 17)


def load(path):
    with open(path) as f:
        run = json.load(f)
    simulation = simulate.latest_simulation(path[:-len(".json")] + ".trace", "this-machine", "simgrid")
    try:
        with open(simulation or "") as f:
            run["_simulation"] = json.load(f)
    except (OSError, ValueError):
        pass
    return run


def validation_cells(r):
    s = r.get("_simulation")
    if not s or not s.get("measured_seconds"):
        return ("", "")
    steps = r["config"].get("num_tsteps", 1)
    error = (s["predicted_seconds"] - s["measured_seconds"]) / s["measured_seconds"] * 100
    return (f"{s['predicted_seconds'] / steps * 1e3:.2f}", f"{error:+.1f}%")


def cells(r, base):
    t, c = r["timing"], r["config"]
    ms = lambda key: f"{t[key]['avg'] / c.get('num_tsteps', 1) * 1e3:.2f}"
    pack = (t["pack"]["avg"] + t["unpack"]["avg"]) / c.get("num_tsteps", 1) * 1e3
    return (c.get("comm_method", "?"), c.get("transport", "isend"), f"{t['per_step_seconds'] * 1e3:.2f}",
            f"{t['per_step_seconds'] / base:.2f}x", ms("compute"), f"{pack:.2f}", ms("mpi"), ms("mpi_wait"),
            ms("collective"), f"{r['messages']['per_step_per_rank']['avg']:.1f}",
            f"{r['bytes']['total'] / max(1, r['messages']['total']):.0f}",
            "passed" if r["verification"]["passed"] else "FAILED", r["checksum"])


def line(values):
    return "  ".join(f"{v:>{w}}" if i > 1 else f"{v:<{w}}" for i, (v, w) in enumerate(zip(values, WIDTHS)))


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    runs = [load(p) for p in paths]
    base = runs[0]["timing"]["per_step_seconds"]
    simulated = any("_simulation" in r for r in runs)
    extra = lambda r: (f"  {v:>{w}}" for v, w in zip(validation_cells(r), (12, 12))) if simulated else ()  # noqa: E731
    print(line(HEADER) + "".join(f"  {h:>12}" for h in (("sim ms/step", "sim vs trace") if simulated else ())))
    for r in runs:
        print(line(cells(r, base)) + "".join(extra(r)))
    print("(split columns: ms per step, average rank; 'vs first' is time per step against the first row)")
    if simulated:
        print("(sim: SimGrid's replay of the run's trace on inputs/networks/this-machine.toml, against the trace's "
              "own time of its traced region)")
    same = len({r["checksum"] for r in runs}) == 1
    print(f"checksums {'identical' if same else 'DIFFER'} across {len(runs)} runs")
    return 0 if same and all(r["verification"]["passed"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
