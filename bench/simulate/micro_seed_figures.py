#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""003's Gemini latency and bandwidth beside AMP's simulated Gemini (and SeaStar): `amp-micro pingpong` traced at
2 ranks, one size at a time, and replayed with one rank a node (their NICs talk across a link) on the seeds'
torus files in SimGrid and, with AMP_SSTMAC, SST-macro. The two ranks take turns, so along the run's one path
a round trip is two one-way times and both ranks' recorded compute (this machine's time between calls, the
tracer's included); set-up and check (buffers filled and verified on both ranks at once, a few collectives)
come once. So each size is recorded twice, with a few and many round trips, and the one-way time is the
difference of their predictions less the difference of their ranks' summed compute, over the difference of
their point-to-point messages: what comes once cancels, but for how much the two set-ups' recorded times
differ (up to a millisecond on a loaded machine: hence thousands of messages apart). The bandwidth is
the size over that time. Part of a rank's recorded compute (between its send and its receive) overlaps the
message in flight, so taking it all out biases the one-way time a little low; the figures are the median
and range over --records pairs of recordings.

The seed's figures are DMAPP's puts and gets, not MPI (003: "a peak bandwidth of 6911 MB/s and a latency of 1us
for get", put ".9us" and "6681 MB/s", both Inter-NIC); the files' values come from 001 Table I (Gemini: 1.3 us,
6.1 GB/s injection, 4.7 GB/s a 12-bit link, 9.4 GB/s a 24-bit one: SST-macro's two widths), so this compares
001's table, as AMP's simulators turn it into a ping-pong, with 003's measurement.

  bench/simulate/micro_seed_figures.py [--output docs/validation/micro-gemini.json]
(with /usr/bin/python3; it builds nothing: --build names the binaries, --mpiexec the launcher).
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import amp_tools  # noqa: E402
from amp_tools import command_line  # noqa: E402
from amp_tools import networks  # noqa: E402
from amp_tools import proxy_command  # noqa: E402
from amp_tools.whole_file import write_whole  # noqa: E402

ROOT = amp_tools.REPOSITORY
SIZES = {"latency": 8, "bandwidth": 4 << 20}  # bytes: a small message's one-way time, a large one's rate
ITERATIONS = {"latency": (1000, 20000), "bandwidth": (16, 1024)}  # round trips a size (and 10 warm-up ones)
# (label, network file, --set settings, simulators): one rank a node, so that the ping-pong crosses the network
MACHINES = [("xe6-gemini", "xe6-gemini", [], ("simgrid", "sstmac")),
            ("xe6-gemini, X/Z links 24-bit", "xe6-gemini", ["dimension_bandwidth=[9.4e9, 4.7e9, 9.4e9]"], ("sstmac",)),
            ("xt6-seastar", "xt6-seastar", [], ("simgrid", "sstmac"))]
SEED = {"latency_us": {"get": 1.0, "put": 0.9}, "bandwidth_MBps": {"get": 6911, "put": 6681},
        "source": "003 (Cray Gemini, DMAPP): get 1 us and 6911 MB/s, put 0.9 us and 6681 MB/s, Inter-NIC"}


def record(opts, workdir, kind, round_trips, k):
    trace = os.path.join(workdir, f"pingpong-{kind}-{round_trips}-{k}")
    size = str(SIZES[kind])
    command = proxy_command.command("micro", ["pingpong", "--min-size", size, "--max-size", size, "--volume",
                                              str(SIZES[kind] * round_trips), "--iterations", str(round_trips),
                                              "--warmup", "10", "--repetitions", "1", "--trace", trace],
                                    ranks=2, build=opts.build, mpiexec=opts.mpiexec,
                                    mpiexec_flags=opts.mpiexec_flags)
    done = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if done.returncode != 0:
        sys.exit(f"micro_seed_figures: amp-micro pingpong --trace: exit {done.returncode}: {done.stderr.strip()}")
    return trace


def replay(build, trace, name, settings, simulator):
    """(prediction less the ranks' summed compute, point-to-point messages) of `trace` on inputs/networks/NAME.toml."""
    path = os.path.join(ROOT, "inputs", "networks", f"{name}.toml")
    command = [sys.executable, "-m", "amp_tools.simulate", trace, "--network", path, "--simulator", simulator,
               "--build", build, "--root", ROOT, "--set", "ranks_per_node=1"]
    for setting in settings:
        command += ["--set", setting]
    done = subprocess.run(command, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tools")))
    if done.returncode != 0:
        sys.exit(f"micro_seed_figures: {name} in {simulator}: exit {done.returncode}: {done.stderr.strip()}")
    label = networks.load(path, ["ranks_per_node=1", *settings]).label
    with open(os.path.join(trace, f"simulation-{label}-{simulator}.json")) as f:
        result = json.load(f)
    return result["predicted_seconds"] - sum(result["profile"]["per_rank"]["compute"]), result["messages"]


def one_way(build, traces, name, settings, simulator):
    """(seconds one way, messages of the difference) from the replays of the few and many round-trip traces."""
    (short, few), (long, many) = (replay(build, t, name, settings, simulator) for t in traces)
    return (long - short) / (many - few), many - few


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], parents=[command_line.common_options()])
    parser.add_argument("--output", help="write the rows as JSON here (docs/validation/micro-gemini.json)")
    parser.add_argument("--records", type=int, default=3, help="pairs of recordings (the median and range of their "
                                                               "figures are printed; default 3)")
    opts = parser.parse_args()
    if opts.records < 1:
        parser.error(f"--records must be at least 1 (got {opts.records})")
    simulators = ["simgrid"] + (["sstmac"] if os.environ.get("AMP_SSTMAC") else [])
    if "sstmac" not in simulators:
        print("micro_seed_figures: AMP_SSTMAC is not set: SimGrid alone")
    rows = []
    with tempfile.TemporaryDirectory(prefix="amp-micro-seed-") as workdir:
        records = [{kind: [record(opts, workdir, kind, n, k) for n in ITERATIONS[kind]]
                    for kind in SIZES} for k in range(opts.records)]
        print("| machine | simulator | one way, 8 B (us) | bandwidth, 4 MiB (MB/s) | 003 Gemini: get / put |")
        print("|---|---|---|---|---|")
        for label, name, settings, offered in MACHINES:
            for simulator in (s for s in offered if s in simulators):
                latencies, bandwidths = [], []
                for traces in records:
                    latency, small = one_way(opts.build, traces["latency"], name, settings, simulator)
                    seconds, large = one_way(opts.build, traces["bandwidth"], name, settings, simulator)
                    latencies.append(latency * 1e6)
                    bandwidths.append(SIZES["bandwidth"] / seconds / 1e6)
                rows.append({"machine": label, "network": name, "settings": settings, "simulator": simulator,
                             "one_way_us_8B": statistics.median(latencies), "one_way_us_8B_each": latencies,
                             "bandwidth_MBps_4MiB": statistics.median(bandwidths), "bandwidth_MBps_4MiB_each":
                             bandwidths, "messages": {"latency": small, "bandwidth": large}})
                print(f"| {label} | {simulator} | {statistics.median(latencies):.2f} [{min(latencies):.2f}-"
                      f"{max(latencies):.2f}] | {statistics.median(bandwidths):,.0f} [{min(bandwidths):,.0f}-"
                      f"{max(bandwidths):,.0f}] | 1 / 0.9 us, 6,911 / 6,681 MB/s |")
    if opts.output:
        write_whole(opts.output, json.dumps({
            "schema_version": amp_tools.SCHEMA_VERSION, "kind": "micro-seed-figures", "seed": SEED,
            "sizes_bytes": SIZES, "round_trips": ITERATIONS, "records": opts.records, "rows": rows,
            "command": "bench/simulate/micro_seed_figures.py --output " + opts.output,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}, indent=1) + "\n")


if __name__ == "__main__":
    main()
