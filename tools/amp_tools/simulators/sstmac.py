# SPDX-License-Identifier: BSD-3-Clause
"""SST-macro 16.0 as AMP's simulator `sstmac` (AMP_SSTMAC names the executable): the replay of a DUMPI trace
on the machine of the network file (sstmac_machine.py): a recorded trace's copy without its paused set-up,
the replay with each of SST-macro's NIC queues in turn where one stops short, its prediction only from a
replay that reached the trace's end, and the MPI_Init spread that sstmac_timeline takes out of it; the
network figures from its port accumulators (sstmac_figures.py). One core, its own serial engine.
"""
import os
import re
import subprocess
import sys
import time

from amp_tools import simulated_profile
from amp_tools.networks import RANDOMIZED_ROUTINGS
from amp_tools.network_metrics import MetricsError
from amp_tools.simgrid_export import run_cleaning_up, trace_meta
from amp_tools.simulate_errors import SimulatorError, UsageError
from amp_tools.simulator_process import exit_text, run_in_what_is_left
from amp_tools.simulators import sstmac_figures, sstmac_machine, sstmac_timeline
from amp_tools.simulators.replay import Outcome, missing_executable

NAME = "sstmac"
TITLE = "SST-macro"
PARALLEL = False  # built here without its parallel (MPI) engine
ROUTING = {"torus": {"minimal", "valiant", "ugal"}, "dragonfly": {"minimal", "valiant", "ugal"}}
# SST-macro's time follows its packets, at a cost per packet that varies 27-fold: one 256-rank step of the CTH
# seed deck (15.9 million packets, counting the bytes that stay in a node) took 18 s here, about 1 us each; one
# step of 4096-rank SVAF (7.4 million packets of 4 KiB) 200 s, about 27 us (docs/history/performance-log.md,
# "Why, measured"); one 4096-rank step of the routing study's 64 KiB messages at four ranks per NIC with valiant
# routing on cascade-dragonfly (62.7 million packets of 512 B) 1320 s, 21 us (its earlier "over 64 us" was
# SST-macro's seeded router looping forever: sstmac_machine.py). Above this many packets, a note of the range.
PACKETS_NOTE = 5_000_000
SECONDS_PER_PACKET = (1e-6, 27e-6)  # the least and the most measured here


def unavailable():
    """What is missing when AMP_SSTMAC names no executable file ("needs ..."; its callers name the simulator),
    else None."""
    return missing_executable("AMP_SSTMAC", "an sstmac", "SST-macro 16.0")


def refusal(network, where):
    """One line naming the key SST-macro cannot express for this machine (beyond its ROUTING), or None."""
    s = network.shape
    if network.topology == "dragonfly" and s["global_latency"] != network.link_latency:
        return f"{where} gives every link one latency: global_latency differs from link_latency"
    if network.routing in RANDOMIZED_ROUTINGS and not sstmac_machine.sstmac_clock_library():
        return (f"{where} seeds its {network.routing} routing from a clock that libfaketime stops at the seed "
                f"(its own seeded routers can loop forever: docs/TRACE_SIMULATORS.md): install Debian's libfaketime")
    for what, seconds in sstmac_machine.sstmac_times(network).items():
        if seconds >= sstmac_machine.SSTMAC_MAX_SECONDS:
            return (f"{where}'s clock holds less than {sstmac_machine.SSTMAC_MAX_SECONDS} s (uint64 ticks of 100 "
                    f"as): {what} = {seconds:g} s cannot be given to it")
    if network.loopback_latency > 0:
        return (f"{where} copies a message of 64 bytes or less within a node for free (its memory model starts "
                f"above): loopback_latency must be 0")
    if network.topology == "torus" and sstmac_machine.sstmac_torus_scales(network) is None:
        return (f"{where} scales one switch-port bandwidth by whole numbers (redundant links per dimension, "
                f"its ejection port to the NIC): nic_bandwidth and the dimensions' bandwidths must be whole "
                f"multiples of one bandwidth, at most {sstmac_machine.SSTMAC_MAX_PORT_SCALE} times it")
    if network.topology == "dragonfly" and network.nic_bandwidth != network.link_bandwidth:
        return (f"{where}'s dragonfly scales no port (its ejection port is a switch port): nic_bandwidth must "
                f"equal link_bandwidth")
    if network.topology == "dragonfly" and s["global_bandwidth"] != network.link_bandwidth:
        return (f"{where}'s dragonfly gives every switch port one bandwidth: global_bandwidth differs from "
                f"link_bandwidth")
    if network.topology == "dragonfly":
        k, a = s["global_links_per_pair"], s["routers_per_group"]
        if k % a or a % (k // a):
            return (f"{where} wires a dragonfly all-to-all (every router reaches every group over the same "
                    f"number of links): global_links_per_pair ({k}) must be a multiple c of routers_per_group "
                    f"({a}) with c dividing {a}")
    return None


# SST-macro reads each rank's DUMPI file as the replay reaches it, so the trace's length costs it no memory:
# measured here (CTH's seed deck at 1024 ranks on xt6-seastar), 176 MB resident for BSPMA's 1.7 million actions,
# 172 MB for SVAF's first step (17.8 million) and at most 185 MB for its 3 steps (53.3 million; docs/PERFORMANCE.md).
BYTES_PER_ACTION = 0


def network_memory(network):
    """Bytes SST-macro 16.0 needs for the machine, measured here: about 40 KiB per switch."""
    return network.nodes * 40 * 1024


def notes(network, summary, timeout):
    """What to expect before the replay starts: lines for stderr."""
    packet = sstmac_machine.packet_bytes(network)
    packets = summary["bytes"] / packet
    if packets <= PACKETS_NOTE:
        return []
    least, most = (packets * seconds for seconds in SECONDS_PER_PACKET)
    past = (f"; the most is past --timeout {timeout:g} s, which stops it: give --timeout {1.5 * most:.0f} to be safe"
            if most > timeout else "")
    return [f"SST-macro moves this trace's {summary['bytes'] / 1e9:.3g} GB as {packets / 1e6:.3g} million packets "
            f"of {packet} bytes, {SECONDS_PER_PACKET[0] * 1e6:g}-{SECONDS_PER_PACKET[1] * 1e6:g} us each on a "
            f"2-core machine as measured: expect {least / 60:.2g}-{most / 60:.2g} minutes, or more "
            f"(docs/PERFORMANCE.md){past}"]


def sstmac_queues(network):
    """SST-macro's NIC queues to replay with, in turn, each only where the one before stopped short: the
    file's nic_queue alone where it gives one, else SSTMAC_QUEUES (round robin, then FIFO)."""
    return (network.nic_queue,) if network.nic_queue else sstmac_machine.SSTMAC_QUEUES


def stopped_why(network):
    """What the last replay's stopping short means, for the error that ends the simulation."""
    if network.nic_queue == "round_robin":
        return (" (nic_queue = 'round_robin' was given: its ring of 1024 waiting messages loses any more; "
                "without nic_queue the replay goes on with its FIFO queue)")
    if network.nic_queue:
        return f" (nic_queue = {network.nic_queue!r} was given: a deadlock in its model)"
    return " (with each of its NIC queues: a deadlock in its model)"


class SstmacStopped(SimulatorError):
    """SST-macro ran out of events before the end of the trace."""


def sstmac_prediction(code, stdout, tail):
    """SST-macro's predicted seconds, only from a replay that reached the trace's end: when it runs out of
    events first (its round-robin NIC queue lost messages, or its network model deadlocked) it exits 0 and
    prints the time it had reached (a 3-D halo gave 33 us for 487 us), without rank 0's "finalized ...
    successful" line: SstmacStopped."""
    match = re.search(r"Estimated total runtime of\s+([0-9.eE+-]+) seconds", stdout)
    if code != 0 or not match:
        lines = (stdout.strip().splitlines() + tail)[-3:]
        raise SimulatorError("sstmac failed (%s): %s" % (exit_text(code), " | ".join(lines)))
    if not re.search(r"finalized on rank 0 - trace .* successful", stdout):
        progress = re.findall(r"DUMPI trace\s+(\d+) percent complete", stdout)
        raise SstmacStopped(f"sstmac stopped before the end of the trace (rank 0 at {progress[-1] if progress else 0} "
                            f"percent) and its {float(match.group(1)):.6g} s is not a prediction")
    return float(match.group(1))


def unpaused_copy(trace_dir, amp_trace, workdir):
    """(the .meta SST-macro replays, the most paused seconds taken out of one rank): a recorded trace's copy in
    workdir whose paused set-up takes no time (`amp-trace sstmac`; SST-macro would replay it as compute, the
    SimGrid export leaves it out)."""
    out = os.path.join(workdir, "replayed-trace")
    done = run_cleaning_up([amp_trace, "sstmac", trace_dir, out])
    removed = re.search(r"paused time taken out: up to ([0-9.eE+-]+) s per rank", done.stdout)
    if done.returncode != 0 or not removed:
        line = (done.stderr.strip().splitlines() or ["amp-trace sstmac failed"])[-1]
        raise SimulatorError(f"the copy SST-macro replays: {line.removeprefix('amp-trace: ').removeprefix('error: ')}")
    return trace_meta(out), float(removed.group(1))


def sstmac_executable():
    """AMP_SSTMAC, refused unless it names an executable file."""
    problem = unavailable()
    if problem:
        raise UsageError(f"--simulator {NAME} {problem}")
    return os.environ["AMP_SSTMAC"]


def longest_compute(summary):
    """(rank, seconds) of the rank whose trace computes longest: a replay can end no sooner."""
    seconds, rank = max((r["compute_seconds"], rank) for rank, r in zip(summary["ranks"], summary["per_rank"]))
    return rank, seconds


def check_clock(summary):
    """Refuses (UsageError) a trace whose compute alone reaches SST-macro's clock bound: its prediction would
    be cut short without a word (sstmac_machine.SSTMAC_MAX_SECONDS)."""
    rank, seconds = longest_compute(summary)
    if seconds >= sstmac_machine.SSTMAC_MAX_SECONDS:
        raise UsageError(f"rank {rank} of the trace computes {seconds:.6g} s, and SST-macro's clock holds less than "
                         f"{sstmac_machine.SSTMAC_MAX_SECONDS} s of simulated time (uint64 ticks of 100 as): its "
                         f"prediction would be cut short; use --simulator simgrid or a shorter trace")


def check_wrapped(summary, estimated):
    """A replay that ended before its longest rank's compute did passed SST-macro's clock bound and wrapped
    round (SimulatorError): its time is no prediction."""
    rank, seconds = longest_compute(summary)
    if estimated < seconds:
        raise SimulatorError(f"sstmac's clock passed its {sstmac_machine.SSTMAC_MAX_SECONDS} s bound and wrapped "
                             f"round: "
                             f"it ended at {estimated:.6g} s, before rank {rank}'s {seconds:.6g} s of compute; "
                             f"use --simulator simgrid or a shorter trace")


def run(job):
    """Replays job's trace (its DUMPI files) in SST-macro: an Outcome."""
    network, trace_dir, export_dir, summary, workdir, timeout = (job.network, job.trace_dir, job.export_dir,
                                                                 job.summary, job.workdir, job.timeout)
    root, amp_trace = job.root, job.amp_trace
    sstmac = sstmac_executable()
    check_clock(summary)
    params = os.path.abspath(os.path.join(root, "tools", "sstmac", f"{network.topology}.ini"))
    ranks = len(summary["ranks"])
    meta, paused = (trace_meta(trace_dir), 0.0) if summary["synthesized"] else unpaused_copy(trace_dir, amp_trace,
                                                                                              workdir)
    started, stopped = time.monotonic(), []
    queues = sstmac_queues(network)
    environment = sstmac_machine.sstmac_environment(network, sstmac_machine.sstmac_clock_library())
    for queue in queues:  # the next only where the one before stopped the replay short
        overrides = sstmac_machine.sstmac_overrides(network, queue)
        command = [sstmac, "-f", params, "-p", f"node.app1.dumpi_metaname={os.path.abspath(meta)}", "-p",
                   f"node.app1.size={ranks}", "-p",
                   f"node.app1.launch_cmd={sstmac_machine.sstmac_launch(network, ranks)}"]
        for key, value in {**overrides, **sstmac_figures.sstmac_stats_overrides()}.items():
            command += ["-p", f"{key}={value}"]
        command.append("--debug=mpi,timestamp")  # each MPI call's start and end (sstmac_timeline.py)
        timeline = sstmac_timeline.Timeline(ranks)
        # in workdir: its statistics' CSV go there
        code, stdout, tail = run_in_what_is_left("sstmac", command, workdir, timeout, started, on_line=timeline.add,
                                                 lines_from="stdout", env=environment)
        try:
            estimated = sstmac_prediction(code, stdout, tail)
            break
        except SstmacStopped as e:
            stopped.append((queue, str(e)))
            if queue == queues[-1]:
                raise SimulatorError("; ".join(f"{q}: {why}" for q, why in stopped) + stopped_why(network)) from None
            print(f"amp simulate: note: with its {queue} NIC queue (a ring of 1024 waiting messages that loses any "
                  f"more: docs/TRACE_SIMULATORS.md) {e} after {time.monotonic() - started:.0f} s of the "
                  f"{timeout:g} s limit; replaying with its {sstmac_machine.SSTMAC_QUEUES[-1]} queue",
                  file=sys.stderr)
    check_wrapped(summary, estimated)
    # SST-macro's launch and its MPI_Init's allreduce are not the program's time (sstmac_timeline.py)
    try:
        init_times, per_rank = timeline.init_times(), timeline.per_rank()
    except sstmac_timeline.TimelineError as e:
        raise SimulatorError(f"SST-macro's timeline: {e}") from None
    start = timeline.start  # when the last rank left MPI_Init
    spread = start - min(left for _, left in init_times.values())
    predicted = estimated - start
    version = re.search(r"SST-macro\s+([0-9.]+)", subprocess.run([sstmac, "--version"], capture_output=True,
                                                                  text=True).stdout)
    description = sstmac_machine.sstmac_description(network, " ".join(command), queue)
    if stopped:
        first, why = stopped[0]
        description["injection_queue_note"] = (f"replayed with the {queue} queue: with the {first} queue {why} "
                                               f"(SST-macro's round-robin queue loses messages beyond 1024 waiting at "
                                               f"one NIC)")
    try:
        figures = sstmac_figures.sstmac(network, overrides, workdir, export_dir, summary["ranks"], predicted)
    except (MetricsError, OSError, ValueError) as e:
        raise SimulatorError(f"network figures: {e}") from None
    compute = dict(zip(summary["ranks"], (r["compute_seconds"] for r in summary["per_rank"])))  # the trace's
    profile = simulated_profile.sstmac_profile(per_rank, start, [compute[r] for r in range(ranks)])
    figures.update(profile=profile, profile_note=simulated_profile.SSTMAC_NOTE,
                   sstmac_estimated_runtime_seconds=estimated, sstmac_startup_seconds=start,
                   sstmac_startup_spread_seconds=spread, sstmac_paused_seconds_removed=paused)
    return Outcome(predicted, profile["per_rank_finish"], version.group(1) if version else "16.0", description,
                   "SST-macro (serial)", figures)
