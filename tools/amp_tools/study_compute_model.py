# SPDX-License-Identifier: BSD-3-Clause
"""A study's compute model, measured once, checked for a quiet machine, kept in the study folder
(compute_model.json) and given to every synthesis of the study with --compute_seconds, so that no
prediction depends on the moment its synthesis ran.

One model per proxy, deck and flags (every strategy, transport and rank count of a point shares it): the
compute of a rank depends on the work it holds, and in a weak-scaling deck (ghost's and sage's default,
`scaling = "weak"`) every rank holds the same block at every rank count, while nobel's model is per
block of a fixed size; only a strong-scaling ghost or sage deck (`--scaling strong` or `scaling =
"strong"`) has one model per rank count. The model is measured by REPETITIONS one-step syntheses of
the point's first strategy (bspma where the study has it) at its smallest rank count, after one more
that warms the machine up and is not counted (the first process after an idle spell ran 44 % slow here):
each times the step's kernel undisturbed (the fastest of its own repeats), the model is their median, and
their spread ((max - min) / median) is recorded beside it. The machine must be quiet while they run:
tools/machine_load.py's rule (other processes took at most a tenth of the node's CPU time) is applied
to /proc/stat around each. The median must be settled: it and its two neighbours among the repetitions
lie within SETTLED of each other (a CI machine once gave 5 repetitions spread 47 %, their median 26 %
off the next five's, with no other process running: memory shared with other machines shows in no
load). A noisy or unsettled measurement is made once more; if it stays so, it is said in one line and
recorded, not hidden.

The node: when the study's network files give `stream_per_core` (the target node's STREAM triad per
core, all its cores busy), the compute of a memory-bound kernel is scaled to it the same way for every
proxy: seconds there = seconds here x (this machine's STREAM triad per core / the target's), this
machine's measured once by `amp-micro stream` with one rank on one thread, as the model is. A
`compute_seconds` given in the study is the target's already: it is used as given, unscaled.
"""
import datetime
import json
import os
import resource
import shutil
import statistics
import time
import tomllib

import amp_tools
from amp_tools import calibrate_share
from amp_tools import machine_load
from amp_tools import proxy_command
from amp_tools import results
from amp_tools.study_folder import keep_aside
from amp_tools.study_launch import Stopped, failure, run_logged, signal_name
from amp_tools.whole_file import write_whole

MODEL_FILE = "compute_model.json"
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OMP_PROC_BIND": "false"}  # as every synthesis of the study runs
PREFERRED_STRATEGY = "bspma"  # the cheapest strategy to synthesize: one message per neighbour
REPETITIONS = 5  # measuring syntheses per model ("its spread over at least 5 repetitions")
SETTLED = 0.05  # the median and its two neighbours agree this closely (models agree within 5 %)
ATTEMPTS = 2  # a noisy or unsettled measurement is made once more
ANY_RANKS = "any"  # the last part of a model's key when every rank count shares it


class NotMeasured(Exception):
    """A measurement failed: one line (its log names the cause)."""


def strong_scaling(run):
    """Whether the run's deck or flags scale strongly (the last --scaling of its arguments wins, then the
    deck's `scaling`): a rank's block then depends on the rank count. A deck that cannot be read counts
    as strong (one model per rank count: never wrong, only measured more often)."""
    words = [w for arg in run["args"] for w in (arg.split("=", 1) if arg.startswith("--scaling=") else [arg])]
    given = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--scaling"]
    if given:
        return given[-1] == "strong"
    if not run.get("deck"):
        return False
    try:
        with open(run["deck"], "rb") as f:
            return tomllib.load(f).get("scaling", "weak") == "strong"
    except (OSError, tomllib.TOMLDecodeError):
        return True


def model_key(run):
    """The runs sharing one compute model: proxy, deck, flags, and the rank count only where a rank's
    work depends on it (strong_scaling; nobel's model is per block of the deck's size). The model is one
    variable's sweep, so --sweeps_per_exchange, which says how many sweeps a step makes and not what one
    costs, is not part of the key: the points of a calibration share one model."""
    ranks = run["ranks"] if run["proxy"] != "nobel" and strong_scaling(run) else ANY_RANKS
    return f"{run['proxy']}|{run['deck'] or ''}|{_without_share(run['flags'])}|{ranks}"


SHARE_FLAG = {"--sweeps_per_exchange"}  # how many sweeps a step makes: no part of a model of one sweep


def _without_share(flags):
    """The flags string without --sweeps_per_exchange VALUE (or =VALUE), as given when it has none."""
    words = str(flags).split()
    kept = proxy_command.without_flags(words, SHARE_FLAG)
    return " ".join(kept) if kept != words else flags


def measure_side_by_side(run, bases):
    """One warm-up synthesis of `run` at its rank count into bases[0]-warm-up, then REPETITIONS more for each
    of `bases` into base-N.{json,log} (the traces are removed at once), taken in turn (repetition 1 of each,
    then 2, ...), so that the models share the machine's state: for each, {step, seconds_here (the median),
    repetitions_here, spread, middle_spread, settled, machine_load (summed), quiet, warning}. Raises
    NotMeasured when one fails.
    A memory-bound kernel's time drifts with the node's memory bandwidth, which no CPU load shows (STREAM
    triad here fell from 25.9 to 22.8 GB/s in ten quiet minutes, sage's model moved within 5.7 %); the
    stability test compares two models made side by side, as a study's points share one."""
    measure_once(run, f"{bases[0]}-warm-up")
    taken = [{"seconds": [], "loads": [], "warnings": [], "step": None} for _ in bases]
    for n in range(1, REPETITIONS + 1):
        for base, one in zip(bases, taken):
            measured, load, warning = measure_once(run, f"{base}-{n}")
            one["step"] = measured["step"]
            one["seconds"].append(measured["seconds"])
            one["loads"].append(load)
            if warning:
                one["warnings"].append(f"repetition {n}: {warning}")
    return [summary(**one) for one in taken]


def summary(seconds, loads, warnings, step):
    """A model from its repetitions: the median, its spread, whether it settled, the machine's load."""
    quiet = not warnings  # the repetitions' own load warnings
    median = statistics.median(seconds)
    ordered = sorted(seconds)
    middle = (ordered[-2] - ordered[1]) / median if median > 0 else 0.0  # the median and its two neighbours
    if middle > SETTLED:
        warnings.append(f"the median and its neighbours spread {100 * middle:.1f} %, more than "
                        f"{100 * SETTLED:.0f} %: not settled")
    load = {"other_cpu_seconds": round(sum(x["other_cpu_seconds"] for x in loads), 3),
            "wall_seconds": round(sum(x["wall_seconds"] for x in loads), 3), "cores": loads[0]["cores"]}
    return {"step": step, "seconds_here": median, "repetitions_here": seconds,
            "spread": (max(seconds) - min(seconds)) / median if median > 0 else 0.0, "middle_spread": middle,
            "settled": middle <= SETTLED, "machine_load": load,
            "quiet": quiet, "warning": "; ".join(warnings) or None}


def measure_settled(run, bases):
    """measure_side_by_side until every model of `bases` is quiet and settled, ATTEMPTS times at most (the
    later ones into base-again-K); the last measurements, each with `attempts` added."""
    for attempt in range(1, ATTEMPTS + 1):
        measured = measure_side_by_side(run, bases if attempt == 1 else [f"{b}-again-{attempt}" for b in bases])
        noisy = [m["warning"] for m in measured if m["warning"]]
        if not noisy:
            break
        if attempt < ATTEMPTS:
            print(f"study: measuring the compute model of {run['proxy']}: {'; '.join(noisy)}; measuring again")
    return [dict(m, attempts=attempt) for m in measured]


def measure_command(run, one):
    """The one-step synthesis that measures `run`'s model into one.{json,trace}. Every variable is swept once
    (--sweeps_per_exchange 1, over the deck's or the flags' share): the model is one sweep's, and a share
    below 1 may sweep nothing in one step (nobel measures its model at its first sweep)."""
    args = [run["args"][0], *proxy_command.without_flags(run["args"][1:], SHARE_FLAG)]
    return [*proxy_command.with_steps(args, run["proxy"], 1), "--sweeps_per_exchange", "1",
            "--synthesize", one + ".trace", "--ranks", str(run["ranks"]), "--results", one + ".json"]


def measure_once(run, one):
    """One one-step synthesis of `run` into one.{json,log}: (its compute step, machine load, warning)."""
    for suffix in (".json", ".json.partial", ".trace", ".log"):
        keep_aside(one + suffix)
    command = measure_command(run, one)
    load, warning = measured_quietly(command, one + ".log")
    shutil.rmtree(one + ".trace", ignore_errors=True)  # only the model is wanted
    return results.synthesized_compute_step(results.load(one + ".json")), load, warning


def _busy_seconds():
    """CPU seconds the whole machine has spent busy (all cores), from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _children_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured_quietly(command, log_path):
    """Runs `command` on one thread into its log; returns its machine load (the results JSON's shape) and
    machine_load.py's warning text or None. Raises NotMeasured when it fails."""
    busy, own, start = _busy_seconds(), _children_seconds(), time.monotonic()
    try:
        status, signum = run_logged(command, log_path, env=dict(os.environ, **ONE_THREAD))
    except Stopped as stopped:
        print(f"study: measuring the compute model: STOPPED by {signal_name(stopped.signum)} (log: {log_path})")
        raise
    if status != 0 or signum:
        raise NotMeasured(f"{' '.join(os.path.basename(c) for c in command[:1])}: {failure(status, signum, log_path)} "
                          f"(log: {log_path})")
    wall = time.monotonic() - start
    other = max(0.0, (_busy_seconds() - busy) - (_children_seconds() - own))
    load = {"other_cpu_seconds": round(other, 3), "wall_seconds": round(wall, 3), "cores": os.cpu_count() or 1}
    return load, machine_load.shared_cores({"machine_load": load})


class ComputeModels:
    """The study folder's compute_model.json: read when the study resumes, written whole after each new entry."""

    def __init__(self, folder, plan, build):
        self.folder, self.plan, self.build = folder, plan, build
        self.path = os.path.join(folder, MODEL_FILE)
        self.data = {"node": None, "models": {}}
        if os.path.isfile(self.path):
            self.data = self._read()

    def _read(self):
        """The recorded models; a file that is not JSON or not of their shape (cut short by a full disk, edited)
        is kept aside as compute_model.json.attempt-N, with one line, and the models are measured again."""
        try:
            data = results.load(self.path)
            models = data.get("models") if isinstance(data, dict) else None
            if (isinstance(models, dict) and isinstance(data.get("node") or {}, dict) and
                    all(isinstance(m, dict) and isinstance(m.get("seconds"), (int, float)) for m in models.values())):
                return data
            problem = "not a table of models"
        except (OSError, ValueError, RecursionError) as e:
            problem = e.strerror if isinstance(e, OSError) else "not JSON"
        keep_aside(self.path)
        print(f"study: {self.path} is unreadable ({problem}): kept aside as {MODEL_FILE}.attempt-N; its models are "
              f"measured again")
        return {"node": None, "models": {}}

    def _save(self):
        write_whole(self.path, json.dumps(dict(self.data, schema_version=amp_tools.SCHEMA_VERSION), indent=2,
                                          sort_keys=True) + "\n")

    def node_scale(self):
        """Seconds on the target node per second here (1 without the networks' stream_per_core)."""
        target = self.plan.stream_per_core
        if not target:
            return 1.0
        node = self.data.get("node")
        if not node or node.get("stream_per_core_target") != target:
            node = self._measure_stream(target)
        return node["scale"]

    def _measure_stream(self, target):
        base = os.path.join(self.folder, "compute-model-stream")
        for suffix in (".json", ".log"):
            keep_aside(base + suffix)
        command = [os.path.join(self.build, "bin", "amp-micro"), "stream", "--results", base + ".json"]
        load, warning = measured_quietly(command, base + ".log")
        triad = next(row for row in results.load(base + ".json")["rows"] if row["kernel"] == "triad")
        here = triad["GBps_per_rank_best"] * 1e9
        node = {"stream_per_core_here": here, "stream_per_core_target": target, "scale": here / target,
                "measured_by": "amp-micro stream, 1 rank, 1 thread (triad, best of its repetitions)",
                "measured_at": _now(), "machine_load": load, "quiet": warning is None, "warning": warning}
        self.data["node"] = node
        self._save()
        print(f"study: node: STREAM triad here {here / 1e9:.2f} GB/s per core, target {target / 1e9:.2f} GB/s: "
              f"compute x {node['scale']:.3g} (recorded in {MODEL_FILE})")
        if warning:
            print(f"study: warning: measuring STREAM: {warning}; call again with --new on a quiet machine")
        return node

    def seconds(self, run, group):
        """The compute seconds per step for `run` (measured once for its key, or given); `group` lists the
        runs sharing it, to choose the cheapest strategy to measure with."""
        key = model_key(run)
        given = self.plan.given_compute(run["proxy"])
        if given is not None:
            entry = {"source": self.plan.compute_sources.get(run["proxy"]) or
                     "given in the study's [simulate] compute_seconds (the target's, unscaled)",
                     "seconds": float(given)}
        else:
            entry = self.data["models"].get(key) or self._measure(key, group)
        if self.data["models"].get(key) != entry:
            self.data["models"][key] = entry
            self._save()
        return entry["seconds"]

    def _measure(self, key, group):
        smallest = min(r["ranks"] for r in group)
        at = [r for r in group if r["ranks"] == smallest and not r.get("first_step")] or group
        run = next((r for r in at if r["strategy"] == PREFERRED_STRATEGY), at[0])
        base = os.path.join(self.folder, f"compute-model-{run['id']}")  # a run id: safe parts (Study.runs)
        measured = measure_settled(run, [base])[0]
        scale = self.node_scale()
        again = "" if measured["attempts"] == 1 else f"-again-{measured['attempts']}"
        entry = {"source": f"measured on this machine by {REPETITIONS} one-step syntheses (their median) after one "
                           "to warm up, scaled to the target node",
                 "measured_by": f"{os.path.basename(base)}{again}-1..N.json", **measured, "node_scale": scale,
                 "seconds": measured["seconds_here"] * scale, "measured_at": _now()}
        print(f"study: compute model of {run['proxy']} ({key.rsplit('|', 1)[1]} ranks; measured at {run['ranks']}): "
              f"{measured['seconds_here']:.4g} s per {measured['step']} here (spread {100 * measured['spread']:.1f} % "
              f"over {REPETITIONS}), {entry['seconds']:.4g} s on the target node (recorded in {MODEL_FILE})")
        if measured["warning"]:
            print(f"study: warning: measured {measured['attempts']} times, the model is still not quiet or settled: "
                  f"{measured['warning']}; its predictions carry that noise (call again with --new on a quiet "
                  f"machine)")
        return entry


def parse_compute(study, table, node):
    """The checked `compute_seconds` (a number, or a table of them per proxy; None: measured) and {proxy: the
    line saying where its seconds come from} for those a calibration record gives: a proxy's value may name its
    record (docs/validation/calibration-PROXY.json), whose model is scaled to the networks' node."""
    compute = table.get("compute_seconds")
    sources = {}
    for proxy, seconds in (compute.items() if isinstance(compute, dict) else [(None, compute)]):
        if proxy is not None and proxy not in study.proxies:
            study.fail("compute_seconds", f"[simulate] 'compute_seconds' names proxy {proxy!r}, which the study "
                                          f"does not run ({', '.join(study.proxies)})")
        if proxy is not None and isinstance(seconds, str):
            record = seconds
            path = record if os.path.isabs(record) else os.path.join(study.root, record)
            if not os.path.isfile(path):
                study.fail("compute_seconds", f"[simulate] 'compute_seconds' must be a number of seconds, or for "
                                              f"{proxy} the path of its calibration record (got {record!r}: no "
                                              "such file)")
            try:
                compute[proxy], sources[proxy] = calibrate_share.recorded_compute_seconds(path, proxy, node,
                                                                                         study.root)
            except calibrate_share.CalibrationError as e:
                study.fail("compute_seconds", f"[simulate] 'compute_seconds' of {proxy}: {e}")
            continue
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or
                                    not 0 <= seconds < 1e3):
            study.fail("compute_seconds", f"[simulate] 'compute_seconds' must be a number of seconds from 0 (no "
                                          f"compute) to below 1000, or a table of them per proxy, each a number or "
                                          f"the path of its calibration record (got {seconds!r})")
    return compute, sources


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
