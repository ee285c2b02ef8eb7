# SPDX-License-Identifier: BSD-3-Clause
"""What each rank did when in an SST-macro replay, read from SST-macro's timestamped MPI debug lines
(`--debug=mpi,timestamp`) as the replay prints them: 'T=    0.00002057 s:MPI Rank 5   : MPI_Init finished'
(to 10 ns). A call's first line is its start ('MPI_Allreduce(8,...)', 'MPI_Comm_dup(...) start'), its
'MPI_X finished' line its end; lines printed inside a call (a Comm_split's allgather, a Waitall's
'MPI_Wait_nonnull') belong to it.

Two uses (docs/TRACE_SIMULATORS.md):
- SST-macro's start-up is left out of its prediction. SST-macro 16.0 launches the ranks one after another
  over the modelled network (the last rank starts 9 us after the first on torus-4x4x4 at 64 ranks, 20 us
  on dragonfly-1024 at 1024 ranks), and its MPI_Init runs an allreduce over every rank
  (sumi-mpi/mpi_queue/mpi_queue.cc, MpiQueue::init), tens of microseconds at 64 ranks. SimGrid starts
  every rank at 0 and its MPI_Init is free; a measured run's time starts after MPI_Init. So a prediction
  is counted from the moment the last rank left MPI_Init. The ranks leave it spread out, and a rank that
  left early may have done work before the last one left, which SimGrid, starting all at once, does not
  see: the prediction may be short by up to that spread (`sstmac_startup_spread_seconds`).
- The simulated profile (simulated_profile.py): each rank's seconds in point-to-point calls and in
  collectives (communicator creation included), from each call's start to its end, as SimGrid's profile
  counts an action, and only from the moment the last rank left MPI_Init: SimGrid's ranks all start
  then, and a rank that left MPI_Init early would otherwise count its wait for the last one in its first
  collective (the start-up spread, 5 % of a 64-rank run of a strategy on torus-4x4x4). MPI_Finalize (a barrier, from
  '... on tag N' to 'MPI_Finalize()', the rank's end) is kept apart, as SimGrid's profile counts it in
  no kind. What a call spends before its first line is not seen here (SST-macro prints an MPI_Isend's
  line after the send's CPU overhead and after any wait for room in the NIC); simulated_profile.py
  takes compute from the trace instead (SST-macro's FTQ statistic is no help: it tags every MPI call
  alike and counts the copies inside MPI calls, and that overhead, as compute).

The replay prints two or more lines per MPI call (about 28 % more of SST-macro's time on a 1024-rank SVCP
trace, 5.6 million lines read in 3.3 s beside it); `Timeline.add` reads them one by one and keeps a few
numbers per rank, so no replay is too long for it.
"""
import re

COLLECTIVES = {"Allgather", "Allgatherv", "Allreduce", "Alltoall", "Alltoallv", "Barrier", "Bcast", "Gather",
               "Gatherv", "Reduce", "Reduce_scatter", "Scan", "Scatter", "Scatterv", "Comm_split", "Comm_dup",
               "Comm_create"}
LINE = re.compile(r"T=\s*([0-9.eE+-]+) s:MPI Rank\s+(\d+)\s*: MPI_([A-Za-z_]+?)(\(| finished| start)(.*)")


class TimelineError(Exception):
    pass


class Rank:
    __slots__ = ("init_entered", "init_left", "p2p", "collective", "finalize_entered", "end", "open")

    def __init__(self):
        self.init_entered = self.init_left = self.finalize_entered = self.end = None
        self.p2p = self.collective = 0.0
        self.open = None   # (call, start) of the call in progress


class Timeline:
    """Per rank: MPI_Init (entered, left), seconds in point-to-point calls and in collectives after `start`
    (when the last of the `count` ranks left MPI_Init), MPI_Finalize's start and the rank's end. The
    lines come in simulated time order (SST-macro prints them as its events happen)."""

    def __init__(self, count):
        self.count = count
        self.ranks = {}
        self.left_init = 0    # ranks that have left MPI_Init
        self.start = None     # when the last one did

    def add(self, line):
        """Reads one line of the replay's output; True if it was a debug line (a 'T=' line)."""
        if not line.startswith("T="):
            return False
        match = LINE.match(line)
        if match is None:
            return True
        seconds, call, mark = float(match.group(1)), match.group(3), match.group(4)
        rank = self.ranks.get(int(match.group(2)))
        if rank is None:
            rank = self.ranks[int(match.group(2))] = Rank()
        if mark == " finished":
            if rank.open is not None and rank.open[0] == call:
                if call == "Init":
                    rank.init_left = seconds
                    self.left_init += 1
                    if self.left_init == self.count:
                        self.start = seconds
                elif self.start is not None:  # a call that ended before it is in no rank's time
                    spent = seconds - max(rank.open[1], self.start)
                    if call in COLLECTIVES:
                        rank.collective += spent
                    else:
                        rank.p2p += spent
                rank.open = None
        elif call == "Finalize":  # no 'finished' line: '... on tag N' when it starts, 'MPI_Finalize()' at the end
            if rank.finalize_entered is None:
                rank.finalize_entered = seconds
            else:
                rank.end = seconds
        elif rank.open is None:  # a call's later lines ('... exit') are not its start
            if call == "Init":
                rank.init_entered = seconds
            rank.open = (call, seconds)
        return True

    def _every(self, ranks, field, what):
        missing = [r for r in range(ranks) if r not in self.ranks or getattr(self.ranks[r], field) is None]
        if missing:
            raise TimelineError(f"SST-macro's debug lines give no {what} of rank {missing[0]} "
                                f"({len(missing)} of {ranks} ranks missing)")
        return [self.ranks[r] for r in range(ranks)]

    def init_times(self):
        """{rank: (entered, left)} of MPI_Init; every rank must be there."""
        return {r: (rank.init_entered, rank.init_left)
                for r, rank in enumerate(self._every(self.count, "init_left", "MPI_Init"))}

    def per_rank(self):
        """[{p2p, collective: seconds after start, from each call's first line to its end; entered_finalize,
        end: simulated time}] of every rank, each of which must have left MPI_Init and ended MPI_Finalize."""
        self._every(self.count, "init_left", "MPI_Init")
        return [{"p2p": rank.p2p, "collective": rank.collective, "entered_finalize": rank.finalize_entered,
                 "end": rank.end} for rank in self._every(self.count, "end", "end of MPI_Finalize")]
