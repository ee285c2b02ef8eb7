#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Predicts a traced run on a modelled network: exports the DUMPI trace to SimGrid's time-independent
form (amp-trace simgrid: what every simulator's figures read), hands the network file and the trace to the
simulator's module (amp_tools.simulators: SimGrid's smpirun, SST-macro where AMP_SSTMAC names an sstmac,
CODES where AMP_CODES names its model-net-mpi-replay), and writes
TRACE_DIR/simulation-<network>-<key>-<simulator>.json, <key> naming the resolved machine (file and
--set together). With --calibrate it measures this machine instead (amp-micro pingpong at 2 ranks) and
writes a network file for it.

Usage: python3 -m amp_tools.simulate TRACE_DIR --network FILE [--set KEY=VALUE ...] [--simulator NAME]
                                     [--sim-ranks N] --build BUILD
       python3 -m amp_tools.simulate --calibrate [--output FILE] --build BUILD --mpiexec MPIEXEC --cores N
Exit codes: 0 done; 2 bad input (one line: missing trace, bad network file, a machine the simulator
cannot express, too many ranks or too little memory); 3 the simulator failed (its last lines are
printed); 4 the result could not be written; 129/130/143 interrupted (SIGHUP/SIGINT/SIGTERM: the
simulator's processes ended, its temporary files removed). --timeout is the seconds the simulator may
run, a positive number up to 1e6 (default 1800, half an hour); past it the simulator is ended, exit 3.
"""
import argparse
import glob
import json
import math
import os
import re
import signal
import sys
import tempfile
import time

import amp_tools
from amp_tools import calibrate
from amp_tools import file_names
from amp_tools import measured_comparison
from amp_tools import command_line
from amp_tools import networks
from amp_tools import simulators
from amp_tools.output_places import ThroughLink, refuse_link
from amp_tools.simgrid_export import export, trace_folder, trace_meta
from amp_tools.simulate_errors import OutputError, SimulatorError, UsageError
from amp_tools.simulators.replay import Job
from amp_tools.simulator_process import INTERRUPTIONS, Interrupted, _interrupt

DEFAULT_TIMEOUT = 1800  # seconds the simulator may run unless --timeout says otherwise
SHELL_SPLIT = re.compile(r"[\s*?\[]")  # what an unquoted path in a shell script is split or expanded at
TIMEOUT_LIMIT = 1e6  # about 11 days: past 2^31 ms the wait for the simulator cannot be expressed
SIM_RANKS_LIMIT = 1 << 16  # simulator ranks: far beyond a cluster a replay of AMP's traces needs


def unsplit_temporary_folder():
    """Where the simulation's temporary folder goes: TMPDIR, or where its path holds a character smpirun
    would split or expand (smpirun, a shell script, passes the hostfile's path and its own temporary
    folder unquoted), the first such folder without one."""
    for folder in (tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm"):
        if not SHELL_SPLIT.search(folder) and os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK):
            return folder
    raise UsageError(f"TMPDIR {tempfile.gettempdir()!r} holds a space or a wildcard, which smpirun splits, and "
                     f"/tmp cannot be written: set TMPDIR to a folder without one")


def write_json(path, data):
    """Writes whole or not at all: a .partial-PID renamed to the name; on failure, or an interruption while
    writing, the partial is removed."""
    partial = f"{path}.partial-{os.getpid()}"
    try:
        refuse_link(path)
    except ThroughLink as e:
        raise UsageError(str(e)) from None
    try:
        with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644), "w") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(partial, path)
    except BaseException as e:
        try:
            os.remove(partial)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise OutputError(f"{path}: cannot write ({e.strerror or e})") from None
        raise


def output_path(trace_dir, network, simulator):
    """Where the simulation of this trace on this machine (file and --set resolved) in this simulator goes."""
    return os.path.join(trace_dir, f"simulation-{network.label}-{simulator}.json")


def simulation_file(trace_dir, network_path, simulator, overrides=()):
    """output_path of a network file (and --set overrides) by its path: for the tools that read results."""
    return output_path(trace_dir, networks.load(network_path, overrides), simulator)


def latest_simulation(trace_dir, network_name, simulator):
    """The newest simulation of this trace on any machine of this network name, or None."""
    found = glob.glob(os.path.join(glob.escape(trace_dir),
                                   f"simulation-{glob.escape(file_names.component(network_name))}-*-{simulator}.json"))
    found = [f for f in found if re.fullmatch(r"[0-9a-f]{8}", f.rsplit("-", 2)[-2])]
    return max(found, key=os.path.getmtime) if found else None


def simulate(args):
    trace_dir = os.path.normpath(trace_folder(args.trace))
    meta = trace_meta(trace_dir)
    try:
        network = networks.load(args.network, args.set or ())
    except networks.NetworkError as e:
        raise UsageError(str(e)) from None
    simulator = simulators.simulator(args.simulator)
    problem = simulators.refusal(network, args.simulator, args.sim_ranks)
    if problem:
        raise UsageError(problem)
    try:  # before minutes of simulation: its JSON is never written through a link
        refuse_link(output_path(trace_dir, network, args.simulator))
    except ThroughLink as e:
        raise UsageError(str(e)) from None
    amp_trace = os.path.join(args.build, "bin", "amp-trace")
    export_dir, summary = export(trace_dir, amp_trace, network.host_speed)
    problem = simulators.check_fits(network, args.simulator, len(summary["ranks"]), summary["actions"],
                                    sim_ranks=args.sim_ranks)
    if problem:
        raise UsageError(problem)
    for note in simulator.notes(network, summary, args.timeout):
        print(f"amp simulate: note: {note}", file=sys.stderr)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="amp-simulate-", dir=unsplit_temporary_folder()) as workdir:
        outcome = simulator.run(Job(network, trace_dir, export_dir, summary, args.build, args.root, amp_trace,
                                    workdir, args.timeout, args.sim_ranks, args.mpiexec))
    predicted, version = outcome.predicted, outcome.version
    shared = None if summary["synthesized"] else measured_comparison.shared_cores(trace_dir)
    measured = None if summary["synthesized"] else summary["recorded_seconds"]
    compared = measured_comparison.comparison(predicted, measured, network.path, meta)
    result = {
        "schema_version": amp_tools.SCHEMA_VERSION,
        "trace": trace_dir,
        "ranks": len(summary["ranks"]),
        "simulator": args.simulator,
        "simulator_version": version,
        "engine": outcome.engine,
        "sim_ranks": args.sim_ranks,
        "network": network.name,
        "network_key": network.key,
        "network_file": network.path,
        "network_overrides": network.overrides,
        "network_parameters": network.parameters(),
        "simulated_network": outcome.description,
        "predicted_seconds": predicted,
        "per_rank_finish_seconds": outcome.per_rank,
        "measured_seconds": measured,
        "measured_trustworthy": shared is None,
        "measured_same_machine": bool(compared),
        "recorded_seconds": summary["recorded_seconds"],
        "synthesized": summary["synthesized"],
        "messages": summary["messages"],
        "bytes": summary["bytes"],
        "actions": summary["actions"],
        "simulation_wall_seconds": round(time.monotonic() - started, 3),
        **outcome.figures,
    }
    if shared:
        result["measured_warning"] = shared
    out = output_path(trace_dir, network, args.simulator)
    write_json(out, result)
    if shared:
        print(f"amp simulate: warning: the traced run shared its cores, so its compute and measured times are "
              f"inflated: {shared}", file=sys.stderr)
    print(f"simulated {trace_dir} on {network.label} ({args.simulator} {version}): predicted {predicted:.6g} s"
          f"{compared} -> {out}")


def sim_ranks(text):
    """--sim-ranks' value: a positive whole number of simulator ranks, at most SIM_RANKS_LIMIT."""
    if not text.isdigit() or not 0 < int(text) <= SIM_RANKS_LIMIT:
        raise argparse.ArgumentTypeError(f"must be a whole number of simulator ranks from 1 to {SIM_RANKS_LIMIT}, "
                                         f"not {text!r}")
    return int(text)


def seconds(text):
    """--timeout's value: a positive number of seconds, at most TIMEOUT_LIMIT."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= TIMEOUT_LIMIT:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds up to {TIMEOUT_LIMIT:g}, not {text!r}")
    return value


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one `amp simulate: error:` line and exit 2."""

    def error(self, message):
        print(f"amp simulate: error: {message} (./amp help)", file=sys.stderr)
        sys.exit(2)


def main():
    parser = OneLineParser(description=__doc__.split("\n\n")[0], parents=[command_line.common_options()])
    parser.add_argument("trace", nargs="?", help="a traced run's directory (recorded or synthesized), or its .meta")
    parser.add_argument("--network", action=command_line.Once, help="network file (inputs/networks/*.toml)")
    parser.add_argument("--set", action="append", metavar="KEY=VALUE",
                        help="a network key on top of the file (repeatable), e.g. --set routing=valiant")
    parser.add_argument("--simulator", default=simulators.DEFAULT, choices=list(simulators.NAMES),
                        action=command_line.Once)
    parser.add_argument("--sim-ranks", type=sim_ranks, default=1, metavar="N",
                        help="simulator ranks the replay runs on, through --mpiexec (a parallel simulator only; "
                             "default 1)")
    parser.add_argument("--calibrate", action="store_true", help="measure this machine, write a network file")
    parser.add_argument("--output", action=command_line.Once, help="with --calibrate: the network file to write "
                                         "(default inputs/networks/this-machine.toml)")
    parser.add_argument("--replace", action="store_true", help="with --calibrate: replace an existing file")
    parser.add_argument("--root", default=amp_tools.REPOSITORY)
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                        help=f"seconds the simulator may run, a positive number (default {DEFAULT_TIMEOUT}: half an "
                             "hour)")
    args = parser.parse_args()
    for signum in INTERRUPTIONS:
        signal.signal(signum, _interrupt)
    try:
        if args.calibrate:
            calibrate.calibrate(args)
        else:
            if not args.trace or not args.network:
                raise UsageError("give a trace directory and --network FILE (or --calibrate)")
            simulate(args)
    except UsageError as e:
        print(f"amp simulate: error: {e}", file=sys.stderr)
        sys.exit(2)
    except SimulatorError as e:
        print(f"amp simulate: error: {e}", file=sys.stderr)
        sys.exit(3)
    except OutputError as e:
        print(f"amp simulate: error: {e}", file=sys.stderr)
        sys.exit(4)
    except Interrupted as e:
        try:  # after a SIGHUP the terminal may be gone
            print(f"amp simulate: interrupted ({e}): the simulator was stopped, nothing written", file=sys.stderr)
        except OSError:
            pass
        sys.exit(128 + e.signum)


if __name__ == "__main__":
    main()
