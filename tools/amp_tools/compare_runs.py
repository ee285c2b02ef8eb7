#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prints AMP results files as one table, a row per run: the strategy and transport, time per
step and its ratio to the first run, the compute / pack+unpack / MPI (post+wait) / collective split
per step of the average rank, messages per step and rank, average message size, verification and
the checksum; then whether every checksum agrees. Runs traced into RESULTS.trace/ and simulated on
this machine's network file (./amp simulate) get two more columns: the predicted time per step and
how far it is from the trace's own time of its traced region.

Exit 0 when every run verified and the checksums agree, 1 when not; 2 (one line) for a file that is
missing, not JSON or not the results of a run.
"""
import signal
import sys

from amp_tools import command_line
from amp_tools import results
from amp_tools import results_shape
from amp_tools import simulate
from amp_tools.command_line import BadInput

HEADER = ("strategy", "transport", "ms/step", "vs first", "compute", "pack+unpack", "MPI", "of it wait",
          "collect.", "msgs/step/rk", "avg msg B", "verified", "checksum")
WIDTHS = (8, 12, 9, 9, 9, 12, 9, 11, 9, 13, 10, 9, 17)


def load(path):
    """The run at `path`, with its simulation on this machine where there is one (BadInput: one line)."""
    run = results.read(path)
    problem = run_problem(run)
    if problem:
        raise BadInput(f"'{path}' is not the results of a run: {problem}")
    trace = (path[:-len(".json")] if path.endswith(".json") else path) + ".trace"
    simulation = simulate.latest_simulation(trace, "this-machine", "simgrid")
    if simulation:
        try:
            run["_simulation"] = checked_simulation(results.read(simulation), simulation)
        except BadInput as e:
            print(f"compare_runs: warning: {e}; its prediction is left out", file=sys.stderr)
    return run


def run_problem(run):
    """The first problem of a results file for the table (the report's checks, and the fields only the
    table reads), or None."""
    if not isinstance(run, dict):
        return "not a JSON object"
    problem = results_shape.results_problem(run)
    if problem:
        return problem
    for key, value in (("strategy", results.strategy(run)), ("transport", results.transport(run))):
        if not isinstance(value, str):
            return f"'config.{key}' is not a name (got {value!r})"
    per_step = run["messages"].get("per_step_per_rank")
    if not isinstance(per_step, dict) or not results_shape.is_number(per_step.get("avg")):
        return f"'messages.per_step_per_rank.avg' is not a number (got {per_step!r})"
    if not results_shape.is_count(run["messages"].get("total")):
        return f"'messages.total' is not a count (got {run['messages'].get('total')!r})"
    volume = run.get("bytes")
    if not isinstance(volume, dict) or not results_shape.is_number(volume.get("total")):
        return f"'bytes.total' is not a number of bytes (got {volume!r})"
    return None


def checked_simulation(simulation, path):
    """The simulation file's data, or BadInput where it is not one."""
    problem = results_shape.simulation_problem(simulation)
    if problem:
        raise BadInput(f"'{path}' {problem}" if problem == "is not a table" else f"'{path}': {problem}")
    return simulation


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
    versus_first = f"{step / base:.2f}x" if base > 0 else "-"
    return (results.strategy(r), results.transport(r), f"{step * 1e3:.2f}", versus_first, ms("compute"),
            f"{pack:.2f}", ms("mpi"), ms("mpi_wait"), ms("collective"), f"{results.messages_per_step_per_rank(r):.1f}",
            f"{results.average_message_bytes(r):.0f}", "passed" if results.verified(r) else "FAILED",
            results.checksum(r))


def line(values):
    return "  ".join(f"{v:>{w}}" if i > 1 else f"{v:<{w}}" for i, (v, w) in enumerate(zip(values, WIDTHS)))


def table(paths):
    """The table's lines for these results files, and whether every checksum agrees and every run verified
    (BadInput, one line, for a file that is not the results of a run)."""
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


def main():
    parser = command_line.Parser("compare_runs", __doc__)
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="a proxy's results file")
    paths = parser.parse_args().results
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early (| head) ends the table quietly
    try:
        lines, ok = table(paths)
    except BadInput as e:
        command_line.refuse("compare_runs", e)
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
