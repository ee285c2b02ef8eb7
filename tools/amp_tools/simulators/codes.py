# SPDX-License-Identifier: BSD-3-Clause
"""CODES 1.5.0 on ROSS 8.1.0 as AMP's simulator `codes` (AMP_CODES names its model-net-mpi-replay): the
replay of a trace's CODES copy (`amp-trace codes`: the records stock CODES refuses left out, communicators'
calls in world ranks) on the machine of the network file (codes_machine.py), sequentially on one simulator
rank or with ROSS' optimistic engine on N (--sim-ranks N, through the launcher that runs the proxies); its
prediction, per-rank times and network figures from its own statistics (--lp-io-dir, codes_figures.py).
"""
import os
import re
import shutil
import sys
import time

from amp_tools import launch
from amp_tools import simulated_profile
from amp_tools.network_metrics import MetricsError
from amp_tools.simgrid_export import run_cleaning_up
from amp_tools.simulate_errors import SimulatorError, UsageError
from amp_tools.simulator_process import exit_text, run_in_what_is_left
from amp_tools.simulators import codes_figures, codes_machine
from amp_tools.simulators.replay import Outcome, missing_executable

NAME = "codes"
TITLE = "CODES"
PARALLEL = True  # ROSS' optimistic engine over MPI ranks (--synch=3); sequential (--synch=1) on one
VERSION = "1.5.0"  # the CODES whose models and compiled-in constants codes_machine.py translates for
# CODES' torus model routes in dimension order only; dragonfly-dally has minimal, non-minimal (Valiant) and
# adaptive (UGAL) routing. Its fat tree and its older dragonfly are not used: the first has no
# translation here yet, the second stopped ROSS' optimistic engine ("We never look for non-existent events!").
ROUTING = {"torus": {"minimal"}, "dragonfly": {"minimal", "valiant", "ugal"}}
# Memory CODES needs per node of the machine, beside the trace's share (simulators.memory_estimate), measured
# here: 4.9 GB resident for 4096-rank SVAF (64^3, 40 variables, 1 step) on dragonfly-4096, 1.3 GB for a
# 1024-rank replay on dragonfly-1024 (docs/PERFORMANCE.md).
BYTES_PER_NODE = 1 << 20
# CODES reads every rank's whole trace into its operation queues before the replay starts: 3.8 GB resident
# for CTH's seed-deck SVAF at 1024 ranks (53 million actions, about 72 bytes each) on xt6-seastar; 200 bounds it.
BYTES_PER_ACTION = 200
SEQUENTIAL, OPTIMISTIC = 1, 3   # ROSS' --synch
# ROSS 8.1.0's optimistic engine now and then aborts in the tree where it keeps the events other simulator
# ranks sent ("node: N: error: .../avl_tree.c:276": "We never look for non-existent events!", a cancelled event
# it cannot find), on a trace it replays well the next time with the same prediction: measured here once in 30
# 2-rank replays of a 1024-rank trace on dragonfly-1024 beside a busy core, and in CI; its sequential engine
# has not been seen to. A replay that aborts so runs again, at most this many times in all, within one --timeout.
OPTIMISTIC_TRIES = 3
ROSS_ERROR = r"node: \d+: error:"  # the start of the line ROSS' tw_error prints on stdout before it aborts
ROSS_TREE_ABORT = re.compile(ROSS_ERROR + r" \S*avl_tree\.c:\d+")


def unavailable():
    """What is missing when AMP_CODES names no executable file ("needs ..."; its callers name the simulator),
    else None."""
    return missing_executable("AMP_CODES", "CODES' model-net-mpi-replay", f"CODES {VERSION}")


def refusal(network, where):
    """One line naming the key CODES cannot express for this machine (beyond its ROUTING), or None."""
    s = network.shape
    if network.topology == "torus":
        if len({bw for bw, _ in network.link_classes().values()}) > 1:
            return f"{where}'s torus gives every link one bandwidth: dimension_bandwidth differs from link_bandwidth"
        if codes_machine.torus_bandwidth(network) is None:
            return (f"{where}'s torus holds every packet {codes_machine.TORUS_PORT_DELAY_NS:g} ns on every link: "
                    f"a packet of {codes_machine.packet_bytes(network)} bytes (at most "
                    f"{codes_machine.TORUS_PACKET_LIMIT}) at link_bandwidth must take longer than that")
    if network.topology == "dragonfly" and codes_machine.global_links_per_router(network) is None:
        return (f"{where}'s dragonfly-dally gives every router the same number of global links: "
                f"global_links_per_pair x (groups - 1) = {s['global_links_per_pair'] * (s['groups'] - 1)} must be a "
                f"multiple of routers_per_group ({s['routers_per_group']})")
    return None


def network_memory(network):
    """Bytes CODES needs for the machine (BYTES_PER_NODE, measured)."""
    return network.nodes * BYTES_PER_NODE


def notes(network, summary, timeout):
    """What to expect before the replay starts: lines for stderr (none yet)."""
    return []


def executable():
    """AMP_CODES, refused unless it names an executable file."""
    problem = unavailable()
    if problem:
        raise UsageError(f"--simulator {NAME} {problem}")
    return os.environ["AMP_CODES"]


def replay_copy(trace_dir, amp_trace, workdir):
    """(workload prefix, ranks) of the trace's CODES copy, written into workdir by `amp-trace codes`."""
    out = os.path.join(workdir, "codes-trace")
    done = run_cleaning_up([amp_trace, "codes", trace_dir, out])
    named = re.search(r"--num_net_traces=(\d+) --workload_file=(\S+)\s*$", done.stdout)
    if done.returncode != 0 or not named:
        line = (done.stderr.strip().splitlines() or ["amp-trace codes failed"])[-1]
        line = line.removeprefix("amp-trace: ").removeprefix("error: ")
        if done.returncode == 2:  # a call the copy cannot translate: the trace, not CODES, is refused
            raise UsageError(f"{trace_dir}: the copy CODES replays: {line}")
        raise SimulatorError(f"the copy CODES replays: {line}")
    return named.group(2), int(named.group(1))


def prediction(code, stdout, tail):
    """CODES' prediction (its slowest rank's simulated time, in seconds) from a replay that ended well:
    exit 0, every rank's sends and receives matched, and its `max runtime` line."""
    match = re.search(r"max runtime\s+([0-9.eE+-]+)\s+ns", stdout)
    if code != 0 or not match:
        lines = [line for line in stdout.strip().splitlines() if line.strip()] + tail
        named = [line.strip() for line in lines if re.match(r"\s*" + ROSS_ERROR, line)]
        raise SimulatorError("model-net-mpi-replay failed (%s): %s" % (exit_text(code),
                                                                      " | ".join(named[:1] + lines[-3:])))
    unmatched = re.search(r"nw-id (\d+) unmatched irecvs (\d+) unmatched sends (\d+)", stdout)
    if unmatched:
        raise SimulatorError(f"CODES ended with rank {unmatched.group(1)}'s {unmatched.group(2)} receives and "
                             f"{unmatched.group(3)} sends unmatched: its {float(match.group(1)) * 1e-9:.6g} s is "
                             f"not a prediction")
    return float(match.group(1)) * 1e-9


def engine(sim_ranks):
    """The engine's name as the JSON records it."""
    return "ROSS sequential" if sim_ranks == 1 else f"ROSS optimistic ({sim_ranks} simulator ranks)"


def command_line(job, binary, conf, prefix, ranks, lp_io, allocation):
    """model-net-mpi-replay's command: sequential on one simulator rank, else ROSS' optimistic engine on
    job.sim_ranks MPI ranks through the proxies' launcher."""
    replay = [binary, f"--synch={SEQUENTIAL if job.sim_ranks == 1 else OPTIMISTIC}", f"--num_net_traces={ranks}",
              "--workload_type=dumpi", f"--workload_file={prefix}", f"--alloc_file={allocation}",
              f"--lp-io-dir={lp_io}",
              f"--eager_threshold={codes_machine.EAGER_THRESHOLD}", "--", conf]
    return replay if job.sim_ranks == 1 else launch.mpiexec(job.mpiexec, job.sim_ranks, replay)


def replayed(command, run_dir, lp_io, timeout):
    """(exit code, stdout, stderr's tail, wall seconds of the last try) of model-net-mpi-replay's run of
    command, run again where ROSS' optimistic engine aborted in its tree of remote events (ROSS_TREE_ABORT),
    at most OPTIMISTIC_TRIES times, each try with what the ones before left of timeout."""
    started = time.monotonic()
    for attempt in range(1, OPTIMISTIC_TRIES + 1):
        tried = time.monotonic()
        code, stdout, tail = run_in_what_is_left("model-net-mpi-replay", command, run_dir, timeout, started)
        wall = time.monotonic() - tried
        if code == 0 or not ROSS_TREE_ABORT.search(stdout + "\n".join(tail)):
            return code, stdout, tail, wall
        if attempt == OPTIMISTIC_TRIES:
            raise SimulatorError(f"ROSS' optimistic engine aborted in its tree of remote events (avl_tree.c) "
                                 f"on each of {OPTIMISTIC_TRIES} tries: give --sim-ranks 1 (its sequential "
                                 f"engine, the same prediction)")
        print(f"amp simulate: note: ROSS' optimistic engine aborted in its tree of remote events (avl_tree.c, "
              f"a fault of ROSS 8.1.0 that the next try does not meet as a rule: docs/TRACE_SIMULATORS.md); "
              f"replaying again (try {attempt + 1} of {OPTIMISTIC_TRIES})", file=sys.stderr)
        for folder in (run_dir, lp_io):  # the aborted try's logs and statistics are not the next one's
            shutil.rmtree(folder, ignore_errors=True)
        os.mkdir(run_dir)


def run(job):
    """Replays job's trace (its CODES copy) in model-net-mpi-replay: an Outcome."""
    network, summary, workdir = job.network, job.summary, job.workdir
    binary = executable()
    prefix, ranks = replay_copy(job.trace_dir, job.amp_trace, workdir)
    if ranks != len(summary["ranks"]):
        raise SimulatorError(f"the copy CODES replays has {ranks} ranks, the trace {len(summary['ranks'])}")
    conf = codes_machine.write(network, workdir)
    allocation = os.path.join(workdir, "amp-allocation.txt")  # each rank on its node, as the file places it
    with open(allocation, "w") as f:
        f.write(codes_machine.allocation(network, ranks))
    lp_io = os.path.join(workdir, "lp-io")
    run_dir = os.path.join(workdir, "run")  # CODES writes its logs into its working folder
    os.mkdir(run_dir)
    command = command_line(job, binary, conf, prefix, ranks, lp_io, allocation)
    code, stdout, tail, wall = replayed(command, run_dir, lp_io, job.timeout)
    predicted = prediction(code, stdout, tail)
    try:
        per_rank = codes_figures.per_rank(lp_io, ranks)
        figures = codes_figures.figures(network, lp_io, job.export_dir, summary["ranks"], predicted)
    except (MetricsError, OSError, ValueError) as e:
        raise SimulatorError(f"CODES' statistics: {e}") from None
    finish = [r["elapsed"] for r in per_rank]
    profile = simulated_profile.profile([{"compute": r["compute"], "p2p": r["elapsed"] - r["compute"],
                                          "collective": 0.0} for r in per_rank], finish)
    events = re.search(r"Net Events Processed\s+(\d+)", stdout)
    figures.update(profile=profile, profile_note=codes_figures.PROFILE_NOTE, codes_replay_wall_seconds=round(wall, 3),
                   codes_events=int(events.group(1)) if events else None)
    description = codes_machine.description(network, "", " ".join(command))
    return Outcome(predicted, finish, VERSION, description, engine(job.sim_ranks), figures)
