"""The simulated profile of a replay (README, "Simulating networks"): per rank, the simulated seconds in
compute, in point-to-point MPI (waits included) and in collectives, and the fraction of its time (to
its finish) each takes, mean over ranks: `profile` of simulation-*.json.

SimGrid's replay logs each action as it ends (`--log=smpi_replay.thres:verbose`: "[HOST TIME] ... RANK VERB
ARGS... SECONDS"); a rank's actions run back to back, so an action took the time from the rank's
previous action's end to its own (the logged SECONDS are rounded to microseconds; the timestamps,
with simulate.py's log layout, to nanoseconds). SimgridActions sums them by kind as simulate.py reads
the log.

SST-macro's FTQ statistic, kept per rank (`node.app1.ftq` with `aggregate = false`: one row per rank,
`Name` app1.rankR.thread0), gives each rank's ticks in Compute and in MPI. It tags every MPI call alike,
so its profile has `compute` and `mpi` (point-to-point and collectives together; `p2p` and `collective`
are null). Each rank is counted from the moment it left MPI_Init, as SimGrid's (sstmac_startup.py).
"""
import csv
import statistics

SSTMAC_NOTE = ("SST-macro tags every MPI call alike (its FTQ tag MPI): point-to-point and collectives are not "
               "told apart, so the profile gives compute and mpi per rank; a recorded trace's untraced set-up "
               "counts as compute there")
SSTMAC_TICK_SECONDS = 1e-16  # SST-macro 16.0's tick: 100 attoseconds (sstmac/common/timestamp.cc)
SSTMAC_FTQ_FILE = "amp_ftq.csv"


def sstmac_ftq_overrides():
    """`-p` overrides that make SST-macro write each rank's FTQ totals (one epoch) to amp_ftq.csv."""
    return {"node.app1.ftq.type": "ftq_calendar", "node.app1.ftq.output": "ftq",
            "node.app1.ftq.group": SSTMAC_FTQ_FILE[:-4], "node.app1.ftq.epoch_length": "100s",
            "node.app1.ftq.aggregate": "false"}


def read_sstmac_ftq(path, ranks):
    """[{tag: seconds}] per rank 0..ranks-1 from SST-macro's per-rank FTQ CSV (Epoch,Time,<tags>,Name)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, per_rank = rows[0], {}
    tags = header[2:-1]
    for row in rows[1:]:
        if len(row) != len(header):
            raise ValueError(f"{path}: a rank used other FTQ tags than {tags} ({row[-1]})")
        rank = int(row[-1].split(".")[1][len("rank"):])
        seconds = per_rank.setdefault(rank, dict.fromkeys(tags, 0.0))
        for tag, ticks in zip(tags, row[2:-1]):
            seconds[tag] += int(ticks) * SSTMAC_TICK_SECONDS
    missing = [r for r in range(ranks) if r not in per_rank]
    if missing:
        raise ValueError(f"{path}: no FTQ row for rank {missing[0]} ({len(missing)} of {ranks} missing)")
    return [per_rank[r] for r in range(ranks)]


def sstmac_profile(per_rank_tags, init_times, start):
    """The profile from SST-macro's per-rank FTQ seconds (read_sstmac_ftq) and each rank's MPI_Init
    (entered, left) (sstmac_startup.measure), counted from `start` (when the last rank left MPI_Init):
    {compute, mpi: mean fraction of each rank's time after its MPI_Init; p2p, collective: None;
    per_rank: {compute, mpi: [seconds]}, per_rank_finish: [seconds after start]}."""
    compute, mpi, finish, fractions = [], [], [], {"compute": [], "mpi": []}
    for rank, tags in enumerate(per_rank_tags):
        entered, left = init_times[rank]
        rank_compute = tags.get("Compute", 0.0)
        rank_mpi = max(0.0, tags.get("MPI", 0.0) - (left - entered))
        span = sum(tags.values()) - (left - entered)  # from leaving MPI_Init to the rank's end
        compute.append(rank_compute)
        mpi.append(rank_mpi)
        finish.append(entered + sum(tags.values()) - start)
        if span > 0:
            fractions["compute"].append(rank_compute / span)
            fractions["mpi"].append(rank_mpi / span)
    out = {kind: statistics.fmean(values) if values else 0.0 for kind, values in fractions.items()}
    out.update(p2p=None, collective=None, per_rank={"compute": compute, "mpi": mpi}, per_rank_finish=finish)
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
