#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Predicts a traced run on a modelled network: exports the DUMPI trace to SimGrid's time-independent
form (amp-trace simgrid), writes the platform for the network file, replays it with smpirun (or the
DUMPI trace itself with SST-macro when --simulator sstmac and AMP_SSTMAC names an sstmac), and writes
TRACE_DIR/simulation-<network>-<key>-<simulator>.json, <key> naming the resolved machine (file and
--set together). With --calibrate it measures this machine instead (amp-micro pingpong at 2 ranks) and
writes a network file for it.

Usage: python3 -m amp_tools.simulate TRACE_DIR --network FILE [--set KEY=VALUE ...] [--simulator simgrid|sstmac] --build BUILD
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
import subprocess
import sys
import tempfile
import time

import amp_tools
from amp_tools import calibrate
from amp_tools import file_names
from amp_tools import measured_comparison
from amp_tools import network_metrics
from amp_tools import command_line
from amp_tools import networks
from amp_tools import networks_simgrid
from amp_tools import networks_sstmac
from amp_tools import simulated_profile
from amp_tools.output_places import ThroughLink, refuse_link
from amp_tools.simgrid_export import export, trace_folder, trace_meta
from amp_tools.simulate_errors import OutputError, SimulatorError, UsageError
from amp_tools.simulate_sstmac import run_sstmac
from amp_tools.simulator_process import INTERRUPTIONS, Interrupted, _interrupt, exit_text, run_simulator

SMPIREPLAY = "/usr/lib/x86_64-linux-gnu/simgrid/smpireplaymain"
SIMGRID_RANKS_NOTE = 512  # above this, a note that SST-macro is the simulator for the trace's size
# SST-macro's time follows its packets: one step of 4096-rank SVAF (7.4 million packets of 4 KiB) took 200 s
# here, about 27 us each (docs/PERFORMANCE.md, "Why, measured"), the slowest measured; one 256-rank step of
# the CTH seed deck (15.9 million packets, counting the bytes that stay in a node) took 18 s, about 1 us
# each. Above this many, a note of the most to expect.
SSTMAC_PACKETS_NOTE = 5_000_000
SSTMAC_SECONDS_PER_PACKET = 27e-6
# Above this, per-rank finish times and the profile (a log line per action) are skipped: the lines cost
# SimGrid and their reader about 3.3 us per action here (64-rank svcp, 102,272 actions: 1.05 s against
# 0.72 s without), 16 s at the limit, little beside the replay of a trace that size.
PER_RANK_ACTION_LIMIT = 5_000_000
DEFAULT_TIMEOUT = 1800  # seconds the simulator may run unless --timeout says otherwise
SHELL_SPLIT = re.compile(r"[\s*?\[]")  # what an unquoted path in a shell script is split or expanded at
TIMEOUT_LIMIT = 1e6  # about 11 days: past 2^31 ms the wait for the simulator cannot be expressed


def unsplit_temporary_folder():
    """Where the simulation's temporary folder goes: TMPDIR, or where its path holds a character smpirun
    would split or expand (smpirun, a shell script, passes the hostfile's path and its own temporary
    folder unquoted), the first such folder without one."""
    for folder in (tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm"):
        if not SHELL_SPLIT.search(folder) and os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK):
            return folder
    raise UsageError(f"TMPDIR {tempfile.gettempdir()!r} holds a space or a wildcard, which smpirun splits, and "
                     f"/tmp cannot be written: set TMPDIR to a folder without one")


def simgrid_version():
    done = subprocess.run(["smpirun", "-version"], capture_output=True, text=True)
    match = re.search(r"SimGrid version ([0-9.]+)", done.stdout + done.stderr)
    return match.group(1) if match else "unknown"


def simgrid_platform(network, build, workdir):
    """The platform smpirun loads, and the environment that goes with it: AMP's platform library reading
    the machine's JSON (cluster zones), or an XML cluster (flat)."""
    if network.topology == "flat":
        platform = os.path.join(workdir, "platform.xml")
        with open(platform, "w") as f:
            f.write(networks_simgrid.simgrid_flat_platform(network))
        return platform, dict(os.environ, TMPDIR=workdir)
    library = os.path.abspath(os.path.join(build, "lib", "libamp_simgrid_platform.so"))
    if not os.path.isfile(library):
        raise UsageError(f"{library} is missing: build AMP with SimGrid installed (./amp build)")
    machine = os.path.join(workdir, "machine.json")
    with open(machine, "w") as f:
        json.dump(networks_simgrid.simgrid_machine(network), f)
    return library, dict(os.environ, AMP_SIMGRID_MACHINE=machine, TMPDIR=workdir)


def run_simgrid(network, export_dir, summary, build, workdir, timeout):
    ranks = len(summary["ranks"])
    platform, env = simgrid_platform(network, build, workdir)
    hosts, hostfile = os.path.join(workdir, "hosts.txt"), networks_simgrid.hostfile(network, ranks)
    with open(hosts, "w") as f:
        f.write(hostfile)
    per_rank = summary["actions"] <= PER_RANK_ACTION_LIMIT
    command = ["smpirun", "-np", str(ranks), "-platform", platform, "-hostfile", hosts, "-replay", "ranks.txt",
               SMPIREPLAY, *summary["smpirun_cfg"], *networks_simgrid.simgrid_config(network)]  # the export's, the network's
    if per_rank:
        command.append("--log=smpi_replay.thres:verbose")
    # The clock to the nanosecond (the default layout and "Simulation time" print microseconds).
    command.append("--log=smpi_replay.fmt:[%h:%a:(%i)_%.9d]_[%c/%p]_%m%n")
    finish = {}
    actions = simulated_profile.SimgridActions()
    predicted, critical = [], []

    def on_line(line):
        # "[n1:1:(2)_0.604239123]_[smpi_replay/VERBOSE]_1 wait 0 1 7 0.000012" and "..._Simulation time T"
        match = re.match(r"\[\S+[ _]([0-9.eE+-]+)\][ _](?:\S+:[0-9]+: )?\[smpi_replay/(\w+)\][ _](.*)", line)
        if match and match.group(2) == "VERBOSE":
            rank = match.group(3).split(" ", 1)[0]
            if rank.isdigit():
                finish[int(rank)] = float(match.group(1))
                actions.add(float(match.group(1)), match.group(3))
            return True
        if match and match.group(3).startswith("Simulation time"):
            predicted.append(float(match.group(1)))  # the line's clock: "Simulation time" has 6 decimals
        if "/CRITICAL] " in line and not critical:  # an assertion's message, before its backtrace
            critical.append(line.split("/CRITICAL] ", 1)[1].strip())
        return False

    try:  # SimGrid's routes for the figures are asked while smpirun replays
        network_figures = network_metrics.SimgridFigures(network, platform, export_dir, summary["ranks"],
                                                         hostfile.split(), env)
    except network_metrics.MetricsError as e:
        raise SimulatorError(f"network figures: {e}") from None
    try:
        code, _, tail = run_simulator(command, export_dir, timeout, on_line, env)
        if code != 0 or not predicted:
            # e.g. its max-min solver's "Cannot saturate more a constraint that has no active element!" (a
            # rounding effect; 1024 ranks of svcp at zero compute on cascade-dragonfly, 22 us into the replay)
            raise SimulatorError("smpirun failed (%s): %s" % (exit_text(code), critical[0] if critical
                                                                 else " | ".join(tail[-3:])))
        figures = network_figures.figures(predicted[-1])
    except network_metrics.MetricsError as e:
        raise SimulatorError(f"network figures: {e}") from None
    finally:
        network_figures.cancel()  # where the replay failed; nothing to do once the figures are in
    per_rank_times = [finish.get(r) for r in summary["ranks"]] if per_rank else None
    profile = actions.profile(summary["ranks"], per_rank_times) if per_rank else None
    description = {**networks_simgrid.simgrid_description(network), "command": " ".join(command)}
    return predicted[-1], per_rank_times, simgrid_version(), description, dict(figures, profile=profile)


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
    found = glob.glob(os.path.join(glob.escape(trace_dir), f"simulation-{glob.escape(file_names.component(network_name))}-*-{simulator}.json"))
    found = [f for f in found if re.fullmatch(r"[0-9a-f]{8}", f.rsplit("-", 2)[-2])]
    return max(found, key=os.path.getmtime) if found else None


def simulate(args):
    trace_dir = os.path.normpath(trace_folder(args.trace))
    meta = trace_meta(trace_dir)
    try:
        network = networks.load(args.network, args.set or ())
    except networks.NetworkError as e:
        raise UsageError(str(e)) from None
    problem = networks.refusal(network, args.simulator)
    if problem:
        raise UsageError(problem)
    try:  # before minutes of simulation: its JSON is never written through a link
        refuse_link(output_path(trace_dir, network, args.simulator))
    except ThroughLink as e:
        raise UsageError(str(e)) from None
    amp_trace = os.path.join(args.build, "bin", "amp-trace")
    export_dir, summary = export(trace_dir, amp_trace, network.host_speed)
    problem = networks.check_fits(network, args.simulator, len(summary["ranks"]), summary["actions"])
    if problem:
        raise UsageError(problem)
    if args.simulator == "simgrid" and len(summary["ranks"]) > SIMGRID_RANKS_NOTE:
        print(f"amp simulate: note: SimGrid's replay time grows about as ranks^1.9 for asynchronous strategies "
              f"(256 ranks of SVAF: about 4 min here); for {len(summary['ranks'])} ranks --simulator sstmac is the "
              f"one to use (docs/TRACING.md section 14)", file=sys.stderr)
    packets = summary["bytes"] / networks_sstmac.packet_bytes(network)
    if args.simulator == "sstmac" and packets > SSTMAC_PACKETS_NOTE:
        expected = packets * SSTMAC_SECONDS_PER_PACKET
        past = (f"; that is past --timeout {args.timeout:g} s, which stops it: give --timeout {1.5 * expected:.0f} or more"
                if expected > args.timeout else "")
        print(f"amp simulate: note: SST-macro moves this trace's {summary['bytes'] / 1e9:.3g} GB as {packets / 1e6:.3g} "
              f"million packets of {networks_sstmac.packet_bytes(network)} bytes, up to about {SSTMAC_SECONDS_PER_PACKET * 1e6:g} us "
              f"each on a 2-core machine: expect at most about {expected / 60:.0f} minutes (docs/PERFORMANCE.md){past}", file=sys.stderr)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="amp-simulate-", dir=unsplit_temporary_folder()) as workdir:
        if args.simulator == "simgrid":
            predicted, per_rank, version, given, figures = run_simgrid(network, export_dir, summary, args.build,
                                                                       workdir, args.timeout)
        else:
            predicted, per_rank, version, given, figures = run_sstmac(network, trace_dir, export_dir, summary,
                                                                      args.root, amp_trace, workdir, args.timeout)
    shared = None if summary["synthesized"] else measured_comparison.shared_cores(trace_dir)
    measured = None if summary["synthesized"] else summary["recorded_seconds"]
    compared = measured_comparison.comparison(predicted, measured, network.path, meta)
    result = {
        "schema_version": amp_tools.SCHEMA_VERSION,
        "trace": trace_dir,
        "ranks": len(summary["ranks"]),
        "simulator": args.simulator,
        "simulator_version": version,
        "network": network.name,
        "network_key": network.key,
        "network_file": network.path,
        "network_overrides": network.overrides,
        "network_parameters": network.parameters(),
        "simulated_network": given,
        "predicted_seconds": predicted,
        "per_rank_finish_seconds": per_rank,
        "measured_seconds": measured,
        "measured_trustworthy": shared is None,
        "measured_same_machine": bool(compared),
        "recorded_seconds": summary["recorded_seconds"],
        "synthesized": summary["synthesized"],
        "messages": summary["messages"],
        "bytes": summary["bytes"],
        "actions": summary["actions"],
        "simulation_wall_seconds": round(time.monotonic() - started, 3),
        **figures,
    }
    if shared:
        result["measured_warning"] = shared
    if per_rank is None and args.simulator == "simgrid":
        result["per_rank_note"] = f"skipped: more than {PER_RANK_ACTION_LIMIT} actions (one log line each)"
    out = output_path(trace_dir, network, args.simulator)
    write_json(out, result)
    if shared:
        print(f"amp simulate: warning: the traced run shared its cores, so its compute and measured times are "
              f"inflated: {shared}", file=sys.stderr)
    print(f"simulated {trace_dir} on {network.label} ({args.simulator} {version}): predicted {predicted:.6g} s"
          f"{compared} -> {out}")


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
    parser.add_argument("--simulator", default="simgrid", choices=list(networks.SIMULATORS), action=command_line.Once)
    parser.add_argument("--calibrate", action="store_true", help="measure this machine, write a network file")
    parser.add_argument("--output", action=command_line.Once, help="with --calibrate: the network file to write "
                                         "(default inputs/networks/this-machine.toml)")
    parser.add_argument("--replace", action="store_true", help="with --calibrate: replace an existing file")
    parser.add_argument("--root", default=amp_tools.REPOSITORY)
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT,
                        help=f"seconds the simulator may run, a positive number (default {DEFAULT_TIMEOUT}: half an hour)")
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
