# SPDX-License-Identifier: BSD-3-Clause
"""A study's runs, here, one after the other (study.py): each run not finished before is launched with its log,
its files of an earlier try set aside, its trace's statistics written; what happened is recorded beside its
results (NAME.outcome.json), and runs.json lists every run of the study.
"""
import hashlib
import json
import os
import shlex
import subprocess

import amp_tools
from amp_tools import launch
from amp_tools import machine_load
from amp_tools import results
from amp_tools.output_places import refuse_link
from amp_tools.study_folder import keep_aside
from amp_tools.study_launch import TRACE_FAILED, Stopped, failure, run_logged, signal_name
from amp_tools.whole_file import write_whole


def write_manifest(folder, runs):
    path = os.path.join(folder, "runs.json")
    if not os.path.exists(path):
        write_whole(path, json.dumps({"schema_version": amp_tools.SCHEMA_VERSION, "runs": [dict(r) for r in runs]},
                                      indent=1))


def trace_stats(opts, base):
    """`amp-trace stats --json` of a run's trace into BASE.trace-stats.json (whole or not at all)."""
    part, status = base + ".trace-stats.json.part", None
    refuse_link(part)
    refuse_link(base + ".trace-stats.json")
    try:
        with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644), "w") as out:
            status = subprocess.call([os.path.join(opts.build, "bin", "amp-trace"), "stats", "--json", base + ".trace"],
                                     stdout=out)
        if status == 0:
            os.rename(part, base + ".trace-stats.json")
    finally:  # failed, or stopped by a signal: no .part is left
        if status != 0 and os.path.exists(part):
            os.remove(part)
    return status


# The study's exit code when a file of its own (study.toml, runs.json, a log, an outcome) cannot be
# written, as the proxies' for a results file they could not write.
NOT_WRITTEN = 4


def finished(base):
    """A run is finished when its results exist and say its answer verified; a run that failed its
    verification (exit 1, results written) is not, and is run again."""
    return results.finished(base + ".json")


def outcome(base):
    """What the study recorded of a run (BASE.outcome.json): exit code, trace state, shared cores."""
    try:
        return results.load(base + ".outcome.json")
    except (OSError, ValueError):
        return {}


def made_from(run):
    """What a run is made from, by content: its arguments (deck path, strategy, transport, flags; not the
    binary's path, which --build may move) and its deck's bytes (a hash). A finished run recorded with
    something else is run again."""
    deck = None
    if run["deck"]:
        try:
            with open(run["deck"], "rb") as f:
                deck = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            deck = "unreadable"
    return {"arguments": run["args"][1:], "deck_sha256": deck}


def made_from_another(base, run):
    """Whether the run's recorded outcome says it was made from other arguments or another deck than now
    (an outcome of an AMP that recorded none is taken as the same)."""
    recorded = outcome(base).get("made_from")
    return recorded is not None and recorded != made_from(run)


def record_outcome(base, status, trace, shared, signum=None, run=None):
    """BASE.outcome.json: the launcher's exit status and, when a signal ended the run, its name; what the run
    was made from (made_from)."""
    outcome = {"schema_version": amp_tools.SCHEMA_VERSION, "exit_code": status, "trace": trace, "shared_cores": shared}
    if run is not None:
        outcome["made_from"] = made_from(run)
    if signum:
        outcome["signal"] = signal_name(signum)
    write_whole(base + ".outcome.json", json.dumps(outcome, indent=1))


# Files a run leaves, each set aside (NAME.attempt-N) before the run is tried again: its log, trace,
# results, and the proxy's NAME.json.partial, which a run killed before it could remove it leaves behind
# (the proxy refuses to start beside it).
RUN_FILES = (".log", ".trace", ".trace-stats.json", ".json", ".json.partial", ".outcome.json")


def run_locally(study, runs, folder, opts):
    """Runs what is not finished, one after the other. Returns (failed runs, runs whose trace failed)."""
    done = [r for r in runs if finished(os.path.join(folder, r["id"]))]
    changed = [r for r in done if made_from_another(os.path.join(folder, r["id"]), r)]
    for r in changed:
        print(f"study: {r['id']}: its deck or flags changed since it ran: run again (the old one kept aside as "
              f".attempt-N)")
    done = [r for r in done if r not in changed]
    todo = [r for r in runs if r not in done]
    print(f"study: {len(runs)} runs, {len(done)} finished before (skipped), {len(todo)} to run")
    trace_failed = []
    for r in done:  # interrupted between its results and its trace statistics
        base = os.path.join(folder, r["id"])
        if outcome(base).get("trace") == "failed":
            trace_failed.append(r["id"])
        elif study.traced(r) and os.path.isdir(base + ".trace") and not os.path.exists(base + ".trace-stats.json"):
            trace_stats(opts, base)
    failed = 0
    for i, r in enumerate(todo, 1):
        base = os.path.join(folder, r["id"])
        for suffix in RUN_FILES:
            keep_aside(base + suffix)
        command = launch.mpiexec(opts.mpiexec, r["ranks"], [*r["args"], "--results", base + ".json"],
                                 opts.mpiexec_flags)
        if study.traced(r):
            command += ["--trace", base + ".trace"]
        env = dict(os.environ)
        env.setdefault("OMP_NUM_THREADS", str(max(1, opts.cores // r["ranks"])))
        env.setdefault("OMP_PROC_BIND", "false")
        try:
            status, signum = run_logged(command, base + ".log", env, header="# " + shlex.join(command))
        except Stopped as stopped:
            record_outcome(base, stopped.status, "none", None, stopped.signum, run=r)
            print(f"study: [{i}/{len(todo)}] {r['id']}: STOPPED by {signal_name(stopped.signum)} (log: {base}.log)")
            raise
        if status in (0, TRACE_FAILED) and not signum and finished(base):
            # The answer is good and kept; the trace may not be (exit 5, or no statistics from it).
            traced = study.traced(r)
            trace_broken = traced and (status == TRACE_FAILED or trace_stats(opts, base) != 0)
            trace = "none" if not traced else "failed" if trace_broken else "written"
        else:
            failed += 1
            record_outcome(base, status, "none", None, signum, run=r)
            print(f"study: [{i}/{len(todo)}] {r['id']}: {failure(status, signum, base + '.log')} (log: {base}.log)")
            continue
        per_step = results.step_seconds(results.load(base + ".json"))
        shared = machine_load.warn(base + ".json", prefix="study")
        record_outcome(base, status, trace, shared, run=r)
        note = ""
        if trace == "failed":
            trace_failed.append(r["id"])
            note = f"; TRACE FAILED (results kept; log: {base}.log)"
        print(f"study: [{i}/{len(todo)}] {r['id']}: {per_step * 1e3:.3f} ms per step{note}")
    return failed, trace_failed
