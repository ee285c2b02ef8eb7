# SPDX-License-Identifier: BSD-3-Clause
"""The simulated profile of a replay (README, "Simulating networks"): per rank, the simulated seconds in
compute, in point-to-point MPI (waits included) and in collectives, and the fraction of its time (to
its finish) each takes, mean over ranks: `profile` of simulation-*.json.

SimGrid's replay logs each action as it ends (`--log=smpi_replay.thres:verbose`: "[HOST TIME] ... RANK VERB
ARGS... SECONDS"); a rank's actions run back to back, so an action took the time from the rank's
previous action's end to its own (the logged SECONDS are rounded to microseconds; the timestamps,
with simulators/simgrid.py's log layout, to nanoseconds). SimgridActions sums them by kind as it reads
the log.

SST-macro's replay prints each MPI call's start and end (simulators/sstmac_timeline.py): a rank's collective
seconds are those calls' spans; its compute is the trace's (SST-macro computes exactly the trace's gaps between
calls), or the time outside its calls if that is less (and never below 0); point-to-point is the rest
of its time to entering MPI_Finalize, over which its fractions are taken. The rest, not the point-to-point
calls' spans: SST-macro prints an Isend's line only after the send's CPU overhead and any wait for room in
the NIC (zero-compute SVCP at 1024 ranks spends a quarter of its time there), which a span would count as
compute. Every rank
is counted from the moment the last rank left MPI_Init (SimGrid's start at 0); MPI_Finalize is in no
kind, in both.
"""
import statistics

SSTMAC_NOTE = ("SST-macro's compute is the trace's own; what an MPI call spends before SST-macro prints its "
               "start (an Isend's overhead, a wait for room in the NIC) counts as point-to-point")


def sstmac_profile(timeline, start, trace_compute):
    """The profile from SST-macro's per-rank timeline (sstmac_timeline.Timeline.per_rank) and the trace's
    compute seconds per rank (the export's), counted from `start` (when the last rank left MPI_Init): as
    profile(), each rank over its time from then to entering MPI_Finalize (SST-macro's MPI_Finalize is a
    barrier; SimGrid's takes no time)."""
    # never below 0: a rank that entered MPI_Finalize before the last rank left MPI_Init (a conformance
    # case with no work between them) has no time here, and one whose calls' spans add up to more than its
    # time (an incast gave -6.6 us; rounding, -4e-19 s) computed nothing, not less than nothing
    spans = [max(0.0, rank["entered_finalize"] - start) for rank in timeline]
    per_rank = []
    for span, rank, given in zip(spans, timeline, trace_compute):
        collective = min(rank["collective"], span)
        compute = max(0.0, min(given, span - rank["p2p"] - collective))
        per_rank.append({"compute": compute, "p2p": span - compute - collective, "collective": collective})
    out = profile(per_rank, spans)
    out["per_rank_finish"] = [rank["end"] - start for rank in timeline]
    return out


KINDS = ("compute", "p2p", "collective")
KIND_OF = {"compute": "compute",
           **{verb: "p2p" for verb in ("send", "isend", "recv", "irecv", "wait", "waitall", "waitany", "test")},
           **{verb: "collective" for verb in ("barrier", "bcast", "reduce", "allreduce", "allgather", "allgatherv",
                                             "alltoall", "alltoallv", "gather", "gatherv", "scatter", "scatterv",
                                             "reducescatter", "scan")}}


class SimgridActions:
    """Simulated seconds per rank and kind, from the replay's verbose action lines."""

    def __init__(self):
        self.seconds = {}
        self.last_end = {}

    def add(self, end, text):
        """One action that ended at `end`, e.g. '2 wait 3 2 0 0.000030' (the time of init, finalize and
        the like is counted in no kind)."""
        parts = text.split()
        if len(parts) < 2 or not parts[0].isdigit():
            return
        rank = int(parts[0])
        start = self.last_end.get(rank, 0.0)
        self.last_end[rank] = end
        kind = KIND_OF.get(parts[1])
        if kind is not None:
            per_kind = self.seconds.setdefault(rank, dict.fromkeys(KINDS, 0.0))
            per_kind[kind] += end - start

    def profile(self, ranks, finish):
        """The profile of `ranks`, each against its finish time (list in the same order)."""
        return profile([self.seconds.get(r, dict.fromkeys(KINDS, 0.0)) for r in ranks], finish)


def profile(per_rank, finish):
    """{compute, p2p, collective: mean over ranks of the fraction of the rank's time to its finish;
    per_rank: {kind: [seconds per rank]}, per_rank_finish: [seconds]} from per-rank {kind: seconds}."""
    fractions = {kind: [] for kind in KINDS}
    for seconds, end in zip(per_rank, finish):
        if end:
            for kind in KINDS:
                fractions[kind].append(seconds[kind] / end)
    out = {kind: statistics.fmean(values) if values else 0.0 for kind, values in fractions.items()}
    out["per_rank"] = {kind: [seconds[kind] for seconds in per_rank] for kind in KINDS}
    out["per_rank_finish"] = list(finish)
    return out
