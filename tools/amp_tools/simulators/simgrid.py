# SPDX-License-Identifier: BSD-3-Clause
"""SimGrid 3.32 as AMP's simulator `simgrid`: the TI export replayed by smpirun on the platform of the
network file (simgrid_machine.py), its clock read from its log, its routes for the network figures
(simgrid_figures.py) and its per-action log lines for the profile. One core, SMPI's own engine."""
import json
import os
import re
import subprocess

from amp_tools import simulated_profile
from amp_tools.network_metrics import MetricsError
from amp_tools.simulate_errors import SimulatorError, UsageError
from amp_tools.simulator_process import exit_text, run_simulator
from amp_tools.simulators import simgrid_figures, simgrid_machine
from amp_tools.simulators.replay import Outcome

NAME = "simgrid"
TITLE = "SimGrid"
PARALLEL = False  # SMPI replays on one core
# SimGrid's cluster zones route one fixed way: dimension order on a torus, up to the nearest common ancestor
# on a fat tree, minimal on a dragonfly.
ROUTING = {"torus": {"minimal"}, "fattree": {"minimal"}, "dragonfly": {"minimal"}, "flat": {"minimal"}}
SMPIREPLAY = "/usr/lib/x86_64-linux-gnu/simgrid/smpireplaymain"
NODE_LIMIT = 16384     # SimGrid 3.32 checks each new link's name against every zone: N^2 to build
RANKS_NOTE = 512  # above this, a note that SST-macro is the simulator for the trace's size
# Above this, per-rank finish times and the profile (a log line per action) are skipped: the lines cost
# SimGrid and their reader about 3.3 us per action here (64-rank svcp, 102,272 actions: 1.05 s against
# 0.72 s without), 16 s at the limit, little beside the replay of a trace that size.
PER_RANK_ACTION_LIMIT = 5_000_000


def unavailable():
    """What is missing to run it ("needs ..."), else None: SimGrid is one of AMP's own dependencies (./amp build
    installs it)."""
    return None


def refusal(network, where):
    """One line naming the key SimGrid cannot express for this machine (beyond its ROUTING), or None."""
    s = network.shape
    if network.nodes > NODE_LIMIT:
        return (f"{where} 3.32 builds a platform in time that grows as its nodes squared (4096 nodes: 8-34 s "
                f"here): {network.nodes} nodes is more than {NODE_LIMIT} (use sstmac)")
    if network.topology == "dragonfly" and s["global_latency"] != network.link_latency:
        return f"{where} gives every link one latency: global_latency differs from link_latency"
    classes = {bw for bw, _ in network.link_classes().values()}
    if len(classes) > 1:
        key = "dimension_bandwidth" if network.topology == "torus" else "global_bandwidth"
        return f"{where} gives every link of a cluster zone one bandwidth: {key} differs from link_bandwidth"
    if network.nic_queue == "fifo":
        return (f"{where} shares a NIC among its flows at once (round robin, in effect): it cannot serve one message "
                f"after the other (nic_queue = 'fifo'; use sstmac or codes)")
    if network.topology == "dragonfly" and s["routers_per_group"] < s["groups"]:
        return (f"{where} routes a dragonfly through router g of each group to reach group g: "
                f"routers_per_group ({s['routers_per_group']}) must be at least groups ({s['groups']})")
    return None


# SimGrid's replay holds the time-independent actions it has read: about 200 bytes each (an upper bound).
BYTES_PER_ACTION = 200


def network_memory(network):
    """Bytes SimGrid 3.32 needs for the machine, measured here: about 3 KiB per node and 1 KiB per torus
    link direction."""
    links = network.nodes * (2 * len(network.shape.get("shape", [])) or 4)
    return network.nodes * 3 * 1024 + links * 1024


def notes(network, summary, timeout):
    """What to expect before the replay starts: lines for stderr."""
    ranks = len(summary["ranks"])
    if ranks <= RANKS_NOTE:
        return []
    return [f"SimGrid's replay time grows about as ranks^1.9 for asynchronous strategies (256 ranks of SVAF: about "
            f"4 min here); for {ranks} ranks --simulator sstmac is the one to use (docs/TRACE_SIMULATORS.md)"]


def version():
    done = subprocess.run(["smpirun", "-version"], capture_output=True, text=True)
    match = re.search(r"SimGrid version ([0-9.]+)", done.stdout + done.stderr)
    return match.group(1) if match else "unknown"


def platform(network, build, workdir):
    """The platform smpirun loads, and the environment that goes with it: AMP's platform library reading
    the machine's JSON (cluster zones), or an XML cluster (flat)."""
    if network.topology == "flat":
        path = os.path.join(workdir, "platform.xml")
        with open(path, "w") as f:
            f.write(simgrid_machine.simgrid_flat_platform(network))
        return path, dict(os.environ, TMPDIR=workdir)
    library = os.path.abspath(os.path.join(build, "lib", "libamp_simgrid_platform.so"))
    if not os.path.isfile(library):
        raise UsageError(f"{library} is missing: build AMP with SimGrid installed (./amp build)")
    machine = os.path.join(workdir, "machine.json")
    with open(machine, "w") as f:
        json.dump(simgrid_machine.simgrid_machine(network), f)
    return library, dict(os.environ, AMP_SIMGRID_MACHINE=machine, TMPDIR=workdir)


def run(job):
    """Replays job's TI export in smpirun: an Outcome."""
    network, export_dir, summary, workdir = job.network, job.export_dir, job.summary, job.workdir
    ranks = len(summary["ranks"])
    loaded, env = platform(network, job.build, workdir)
    hosts, hostfile = os.path.join(workdir, "hosts.txt"), simgrid_machine.hostfile(network, ranks)
    with open(hosts, "w") as f:
        f.write(hostfile)
    per_rank = summary["actions"] <= PER_RANK_ACTION_LIMIT
    command = ["smpirun", "-np", str(ranks), "-platform", loaded, "-hostfile", hosts, "-replay", "ranks.txt",
               SMPIREPLAY, *summary["smpirun_cfg"],  # the export's settings, then the network's
               *simgrid_machine.simgrid_config(network)]
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
        network_figures = simgrid_figures.SimgridFigures(network, loaded, export_dir, summary["ranks"],
                                                         hostfile.split(), env)
    except MetricsError as e:
        raise SimulatorError(f"network figures: {e}") from None
    try:
        code, _, tail = run_simulator(command, export_dir, job.timeout, on_line, env)
        if code != 0 or not predicted:
            # e.g. its max-min solver's "Cannot saturate more a constraint that has no active element!" (a
            # rounding effect; 1024 ranks of svcp at zero compute on cascade-dragonfly, 22 us into the replay)
            raise SimulatorError("smpirun failed (%s): %s" % (exit_text(code), critical[0] if critical
                                                                 else " | ".join(tail[-3:])))
        figures = network_figures.figures(predicted[-1])
    except MetricsError as e:
        raise SimulatorError(f"network figures: {e}") from None
    finally:
        network_figures.cancel()  # where the replay failed; nothing to do once the figures are in
    per_rank_times = [finish.get(r) for r in summary["ranks"]] if per_rank else None
    figures["profile"] = actions.profile(summary["ranks"], per_rank_times) if per_rank else None
    if not per_rank:
        figures["per_rank_note"] = f"skipped: more than {PER_RANK_ACTION_LIMIT} actions (one log line each)"
    description = {**simgrid_machine.simgrid_description(network), "command": " ".join(command)}
    return Outcome(predicted[-1], per_rank_times, version(), description, "SMPI (sequential)", figures)
