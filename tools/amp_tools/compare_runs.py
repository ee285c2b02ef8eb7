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

from amp_tools import results
from amp_tools import simulate

HEADER = ("cut", "transport", "ms/step", "vs first", "compute", "pack+unpack", "MPI", "of it wait",
          "collect.", "msgs/step/rk", "avg msg B", "verified", "checksum")
WIDTHS = (6, 12, 9, 9, 9, 12, 9, 11, 9, 13, 10, 9, 17)


def load(path):
    run = results.load(path)
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
    error = (s["predicted_seconds"] - s["measured_seconds"]) / s["measured_seconds"] * 100
    return (f"{s['predicted_seconds'] / results.steps(r) * 1e3:.2f}", f"{error:+.1f}%")


def cells(r, base):
    ms = lambda key: f"{results.per_step_ms(r, key):.2f}"  # noqa: E731
    pack = results.per_step_ms(r, "pack") + results.per_step_ms(r, "unpack")
    step = results.step_seconds(r)
    return (results.cut(r), results.transport(r), f"{step * 1e3:.2f}", f"{step / base:.2f}x", ms("compute"),
            f"{pack:.2f}", ms("mpi"), ms("mpi_wait"), ms("collective"), f"{results.messages_per_step_per_rank(r):.1f}",
            f"{results.average_message_bytes(r):.0f}", "passed" if results.verified(r) else "FAILED",
            results.checksum(r))


def line(values):
    return "  ".join(f"{v:>{w}}" if i > 1 else f"{v:<{w}}" for i, (v, w) in enumerate(zip(values, WIDTHS)))


def table(paths):
    """The table's lines for these results files, and whether every checksum agrees and every run verified."""
    runs = [load(p) for p in paths]
    base = results.step_seconds(runs[0])
    simulated = any("_simulation" in r for r in runs)
    extra = lambda r: (f"  {v:>{w}}" for v, w in zip(validation_cells(r), (12, 12))) if simulated else ()  # noqa: E731
    lines = [line(HEADER) + "".join(f"  {h:>12}" for h in (("sim ms/step", "sim vs trace") if simulated else ()))]
    lines += [line(cells(r, base)) + "".join(extra(r)) for r in runs]
    lines.append("(split columns: ms per step, average rank; 'vs first' is time per step against the first row)")
    if simulated:
        lines.append("(sim: SimGrid's replay of the run's trace on inputs/networks/this-machine.toml, against the "
                     "trace's own time of its traced region)")
    same = len({results.checksum(r) for r in runs}) == 1
    lines.append(f"checksums {'identical' if same else 'DIFFER'} across {len(runs)} runs")
    return lines, same and all(results.verified(r) for r in runs)


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lines, ok = table(paths)
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
