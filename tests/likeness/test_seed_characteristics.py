#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Each proxy's seed deck (inputs/*/*-seed.toml) shows its application's characteristics as seeds 000
and 001 state them (docs/LIKENESS.md), checked on real runs at 2 ranks (reduced sizes where a count does not
depend on size) and, for CTH's message sizes, on a synthesized trace of the full deck (no compute). Wall-time
figures (message rates, profiles) are measured, not asserted. Usage: test_seed_characteristics.py
{ghost,sage,nobel} --exe PROXY --trace-tool AMP_TRACE --mpiexec MPIEXEC --workdir DIR --deck DECK. Exit 0
when every check holds, 1 naming each that fails."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

from amp_tools import launch

# 000 section I.A: "Each time step, CTH makes 90 calls to MPI collective functionality, 19 calls to exchange
# boundary data ..., and three calls to propagate data across faces (in the x, y and z directions)."
CTH_EXCHANGES, CTH_PROPAGATIONS, CTH_COLLECTIVES = 19, 3, 90
# 000: "the bulk of traffic comprises messages of between 2 and 3 megabytes".
CTH_MESSAGE_BYTES = (2.0e6, 3.0e6)
# 001 III.C: "many relatively small messages". No seed gives a size: "small" is at most 1 KiB on average
# and "many" at least 10 messages per neighbour rank and step (BSPMA sends 1): this check's choice.
SMALL_MEAN_BYTES, MANY_PER_NEIGHBOUR = 1024, 10


def run(cmd, timeout=120):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise SystemExit(f"test_seed_characteristics: {' '.join(cmd)}: exit {proc.returncode}: {proc.stderr.strip()}")
    return proc.stdout


def fresh(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)
    return path


def proxy_run(opts, ranks, name, extra, trace=False):
    """A real run of the deck with `extra` flags; its results JSON (and trace folder when asked)."""
    results = fresh(os.path.join(opts.workdir, f"{name}.json"))
    flags = ["--input", opts.deck, "--progress", "0", "--results", results] + extra
    if trace:
        flags += ["--trace", fresh(os.path.join(opts.workdir, f"{name}-trace"))]
    run(launch.mpiexec(opts.mpiexec, ranks, [opts.exe] + flags))
    return json.load(open(results))


def recorded_calls(opts, trace, function):
    """How many calls of `function` the trace recorded, all ranks (amp-trace info's footers)."""
    for line in run([opts.trace_tool, "info", trace]).splitlines():
        words = line.split()
        if words and words[0] == function:
            return int(words[1])
    return 0


def isend_bytes(opts, trace):
    """Every MPI_Isend's size in bytes (amp-trace dump; AMP's exchanges send MPI_DOUBLE)."""
    sizes = []
    for line in run([opts.trace_tool, "dump", trace], timeout=300).splitlines():
        if line.startswith("MPI_Isend "):
            assert "MPI_DOUBLE" in line, line
            sizes.append(8 * int(re.search(r"count=(\d+)", line).group(1)))
    return sizes


def expect(failures, what, got, wanted):
    if got != wanted:
        failures.append(f"{what}: got {got}, expected {wanted}")


def check_ghost(opts, failures):
    steps = 2
    small = ["--nx", "8", "--ny", "8", "--nz", "8", "--num_tsteps", str(steps), "--num_spikes", "1"]
    # Real run, 2 ranks (one neighbour each, along one axis): 19 exchanges of one aggregated message, plus
    # the one propagation along the linked axis; 90 MPI_Allreduce calls per step.
    r = proxy_run(opts, 2, "cth-2", small, trace=True)
    expect(failures, "CTH deck, 2 ranks: messages per step per rank", r["messages"]["per_step_per_rank"]["avg"],
           CTH_EXCHANGES * 1 + 1)
    expect(failures, "CTH deck, 2 ranks: MPI_Allreduce calls in the traced steps",
           recorded_calls(opts, os.path.join(opts.workdir, "cth-2-trace"), "MPI_Allreduce"), 2 * steps
           * CTH_COLLECTIVES)
    if not r["verification"]["passed"]:
        failures.append(f"CTH deck, 2 ranks: verification failed: {r['verification']['failure']}")
    # Every strategy gives the same answer with CTH's step, and propagations and reductions change none.
    for name, extra in (("svaf", ["--strategy", "svaf"]), ("svcp", ["--strategy", "svcp"]),
                        ("bare", ["--face_propagations_per_step", "0", "--single_value_reductions_per_step", "0"])):
        other = proxy_run(opts, 2, f"cth-2-{name}", small + extra)
        expect(failures, f"CTH deck, 2 ranks: checksum with {' '.join(extra)}", other["checksum"], r["checksum"])
    # The full deck, synthesized at 8 ranks (2x2x2: three neighbours each, one per axis), no compute:
    # every message 2-3 MB; per rank and step 19 x 3 exchange messages and 3 propagation messages.
    trace = fresh(os.path.join(opts.workdir, "cth-synth-8"))
    run([opts.exe, "--synthesize", trace, "--ranks", "8", "--compute_seconds", "0", "--input", opts.deck,
         "--num_tsteps", "1", "--num_spikes", "1", "--progress", "0"])
    sizes = isend_bytes(opts, trace)
    expect(failures, "CTH deck, 8 synthesized ranks: messages per rank and step", len(sizes) / 8,
           CTH_EXCHANGES * 3 + CTH_PROPAGATIONS)
    outside = [s for s in sizes if not CTH_MESSAGE_BYTES[0] <= s <= CTH_MESSAGE_BYTES[1]]
    if not sizes or outside:
        failures.append(f"CTH deck: {len(outside)} of {len(sizes)} messages outside 2-3 MB (e.g. {outside[:3]} B)")
    expect(failures, "CTH deck, 8 synthesized ranks: MPI_Allreduce calls", recorded_calls(opts, trace, "MPI_Allreduce"),
           8 * CTH_COLLECTIVES)
    # The buffer mix (000: a third contiguous, a third stride y, a third stride x*y): rank 0's three faces
    # are one contiguous z plane, ny strided x-face rows and nz contiguous y-face rows one plane apart.
    plan = run([opts.exe, "--plan-only", "--ranks", "8", "--rank", "0", "--input", opts.deck])
    expect(failures, "CTH deck, rank 0 of 8: links and send pieces",
           re.search(r"links (\d+), pieces (\d+) send", plan).groups(), ("3", str(88 + 88 + 1)))


def check_sage(opts, failures):
    # Bulk-synchronous gather/scatter: one message per neighbour rank and step, each gathered from many
    # runs of cells (an index list, not one block); no refinement (amp-sage has none).
    r = proxy_run(opts, 2, "sage-2", ["--nx", "16", "--ny", "16", "--nz", "16", "--num_tsteps", "2"])
    neighbours = r["partition"]["neighbour_ranks"]["avg"]
    expect(failures, "SAGE deck, 2 ranks: messages per step per rank (one per neighbour)",
           r["messages"]["per_step_per_rank"]["avg"], neighbours)
    runs = r["partition"]["send_runs_per_rank"]["min"]
    if not runs > 2 * neighbours:
        failures.append(f"SAGE deck, 2 ranks: {runs} send runs per rank for {neighbours} neighbours: not a gather")
    if r["config"]["scaling"] != "weak":
        failures.append(f"SAGE deck: scaling {r['config']['scaling']}, the seed's runs are weak scaling")
    if not r["verification"]["passed"]:
        failures.append(f"SAGE deck, 2 ranks: verification failed: {r['verification']['failure']}")


def check_nobel(opts, failures):
    # Many small messages, and adaptive refinement (an AMR step after step 5 of 6), on 4x4x2 root blocks.
    r = proxy_run(opts, 2, "nobel-2", ["--nbx", "4", "--nby", "4", "--nbz", "2", "--num_tsteps", "6"])
    mean = r["bytes"]["total"] / max(1, r["messages"]["total"])
    if not mean <= SMALL_MEAN_BYTES:
        failures.append(f"xNOBEL deck, 2 ranks: mean message {mean:.0f} B, not small (at most {SMALL_MEAN_BYTES} B)")
    per_step = r["messages"]["per_step_per_rank"]["min"]
    if not per_step >= MANY_PER_NEIGHBOUR * 1:  # one neighbour rank at 2 ranks
        failures.append(f"xNOBEL deck, 2 ranks: {per_step} messages per step per rank, not many")
    if not r["amr"]["refined"] + r["amr"]["coarsened"] > 0:
        failures.append("xNOBEL deck, 2 ranks: no block refined or coarsened")
    if not r["verification"]["passed"]:
        failures.append(f"xNOBEL deck, 2 ranks: verification failed: {r['verification']['failure']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("proxy", choices=["ghost", "sage", "nobel"])
    for flag in ("--exe", "--trace-tool", "--mpiexec", "--workdir", "--deck"):
        parser.add_argument(flag, required=True)
    opts = parser.parse_args()
    os.makedirs(opts.workdir, exist_ok=True)
    failures = []
    {"ghost": check_ghost, "sage": check_sage, "nobel": check_nobel}[opts.proxy](opts, failures)
    for failure in failures:
        print(f"FAIL: {failure}")
    print(f"{opts.proxy}: {'every characteristic holds' if not failures else f'{len(failures)} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
