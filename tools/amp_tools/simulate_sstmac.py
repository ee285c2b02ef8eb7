# SPDX-License-Identifier: BSD-3-Clause
"""The replay of a DUMPI trace in SST-macro (--simulator sstmac; AMP_SSTMAC names the executable): a recorded
trace's copy without its paused set-up, the replay with each of SST-macro's NIC queues in turn where one
stops short, its prediction only from a replay that reached the trace's end, and the MPI_Init spread that
sstmac_timeline takes out of it.
"""
import os
import re
import subprocess
import sys
import time

from amp_tools import network_metrics
from amp_tools import networks_sstmac
from amp_tools import simulated_profile
from amp_tools import sstmac_timeline
from amp_tools.simgrid_export import run_cleaning_up, trace_meta
from amp_tools.simulate_errors import SimulatorError, UsageError
from amp_tools.simulator_process import SimulatorTimedOut, exit_text, run_simulator


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
    sstmac = os.environ.get("AMP_SSTMAC")
    if not sstmac or not os.path.isfile(sstmac) or not os.access(sstmac, os.X_OK):
        raise UsageError(f"--simulator sstmac needs AMP_SSTMAC to name an sstmac executable file (SST-macro 16.0; "
                         f"AMP_SSTMAC is {repr(sstmac) if sstmac else 'not set'})")
    return sstmac


def longest_compute(summary):
    """(rank, seconds) of the rank whose trace computes longest: a replay can end no sooner."""
    seconds, rank = max((r["compute_seconds"], rank) for rank, r in zip(summary["ranks"], summary["per_rank"]))
    return rank, seconds


def check_clock(summary):
    """Refuses (UsageError) a trace whose compute alone reaches SST-macro's clock bound: its prediction would
    be cut short without a word (networks_sstmac.SSTMAC_MAX_SECONDS)."""
    rank, seconds = longest_compute(summary)
    if seconds >= networks_sstmac.SSTMAC_MAX_SECONDS:
        raise UsageError(f"rank {rank} of the trace computes {seconds:.6g} s, and SST-macro's clock holds less than "
                         f"{networks_sstmac.SSTMAC_MAX_SECONDS} s of simulated time (uint64 ticks of 100 as): its "
                         f"prediction would be cut short; use --simulator simgrid or a shorter trace")


def check_wrapped(summary, estimated):
    """A replay that ended before its longest rank's compute did passed SST-macro's clock bound and wrapped
    round (SimulatorError): its time is no prediction."""
    rank, seconds = longest_compute(summary)
    if estimated < seconds:
        raise SimulatorError(f"sstmac's clock passed its {networks_sstmac.SSTMAC_MAX_SECONDS} s bound and wrapped round: "
                             f"it ended at {estimated:.6g} s, before rank {rank}'s {seconds:.6g} s of compute; "
                             f"use --simulator simgrid or a shorter trace")


def run_sstmac(network, trace_dir, export_dir, summary, root, amp_trace, workdir, timeout):
    sstmac = sstmac_executable()
    check_clock(summary)
    params = os.path.abspath(os.path.join(root, "tools", "sstmac", f"{network.topology}.ini"))
    ranks = len(summary["ranks"])
    meta, paused = (trace_meta(trace_dir), 0.0) if summary["synthesized"] else unpaused_copy(trace_dir, amp_trace,
                                                                                              workdir)
    started, stopped = time.monotonic(), []
    for queue in networks_sstmac.SSTMAC_QUEUES:  # the next only where the one before stopped the replay short
        overrides = networks_sstmac.sstmac_overrides(network, queue)
        command = [sstmac, "-f", params, "-p", f"node.app1.dumpi_metaname={os.path.abspath(meta)}", "-p",
                   f"node.app1.size={ranks}", "-p", f"node.app1.launch_cmd={networks_sstmac.sstmac_launch(network, ranks)}"]
        for key, value in {**overrides, **network_metrics.sstmac_stats_overrides()}.items():
            command += ["-p", f"{key}={value}"]
        command.append("--debug=mpi,timestamp")  # each MPI call's start and end (sstmac_timeline.py)
        timeline = sstmac_timeline.Timeline(ranks)
        # in workdir: its statistics' CSV go there
        remaining = timeout - (time.monotonic() - started)
        if remaining <= 0:  # the replay before used the whole limit
            raise SimulatorError(f"sstmac ran past {timeout:g} s")
        try:
            code, stdout, tail = run_simulator(command, workdir, remaining, timeline.add, lines_from="stdout")
        except SimulatorTimedOut:  # named with the whole limit, not what the replays before left of it
            raise SimulatorError(f"sstmac ran past {timeout:g} s") from None
        try:
            estimated = sstmac_prediction(code, stdout, tail)
            break
        except SstmacStopped as e:
            stopped.append((queue, str(e)))
            if queue == networks_sstmac.SSTMAC_QUEUES[-1]:
                raise SimulatorError("; ".join(f"{q}: {why}" for q, why in stopped) +
                                     " (with each of its NIC queues: a deadlock in its model)") from None
            print(f"amp simulate: note: with its {queue} NIC queue (a ring of 1024 waiting messages that loses any "
                  f"more: docs/TRACING.md section 14) {e} after {time.monotonic() - started:.0f} s of the "
                  f"{timeout:g} s limit; replaying with its {networks_sstmac.SSTMAC_QUEUES[-1]} queue",
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
    description = networks_sstmac.sstmac_description(network, " ".join(command), queue)
    if stopped:
        first, why = stopped[0]
        description["injection_queue_note"] = (f"replayed with the {queue} queue: with the {first} queue {why} "
                                               f"(SST-macro's round-robin queue loses messages beyond 1024 waiting at "
                                               f"one NIC)")
    try:
        figures = network_metrics.sstmac(network, overrides, workdir, export_dir, summary["ranks"], predicted)
    except (network_metrics.MetricsError, OSError, ValueError) as e:
        raise SimulatorError(f"network figures: {e}") from None
    compute = dict(zip(summary["ranks"], (r["compute_seconds"] for r in summary["per_rank"])))  # the trace's
    profile = simulated_profile.sstmac_profile(per_rank, start, [compute[r] for r in range(ranks)])
    figures.update(profile=profile, profile_note=simulated_profile.SSTMAC_NOTE,
                   sstmac_estimated_runtime_seconds=estimated, sstmac_startup_seconds=start,
                   sstmac_startup_spread_seconds=spread, sstmac_paused_seconds_removed=paused)
    return predicted, profile["per_rank_finish"], version.group(1) if version else "16.0", description, figures
