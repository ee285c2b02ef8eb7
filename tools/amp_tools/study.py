#!/usr/bin/env python3
"""Runs a declared sweep (a study file, TOML) of AMP proxy runs, or writes a Slurm script for it.

Every combination of proxy x deck x flags x strategy x transport x ranks x repetition is one run,
whose results JSON and log go into runs/<name>-<stamp>/. Calling it again with the same study file
resumes that folder: runs whose results exist are skipped, nothing is overwritten (a failed run's
log is kept under a new name). The report (tools/report.py) is drawn at the end. `./amp run` is the
study inputs/studies/default.toml.

A study of more than 1000 runs, syntheses and simulations (study_plan.py) is refused unless --yes is given.

Usage: python3 -m amp_tools.study STUDY.toml --root REPO --build BUILD --mpiexec MPIEXEC [--cores N] [--ranks N]
       [--slurm] [--new] [--plan] [--yes]
"""
import argparse
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib

from amp_tools import combinations
from amp_tools import command_line
from amp_tools import compare_runs
from amp_tools import launch
from amp_tools import machine_load
from amp_tools import predict_at_scale
from amp_tools import results
from amp_tools import study_plan
from amp_tools import study_simulation
from amp_tools import study_slurm
from amp_tools.file_names import component
from amp_tools.study_folder import FolderBusy, keep_aside, open_folder
from amp_tools.whole_file import NotWritten, write_whole
from amp_tools.study_launch import TRACE_FAILED, Stopped, failure, run_logged, signal_name, stop_on_signals

PROXIES = ("ghost", "sage", "nobel")
SLURM_KEYS = {"time", "partition", "account", "nodes", "ntasks_per_node", "cpus_per_task", "modules"}
# Strategy and transport names, [slurm] values: what may reach a run's file names or an sbatch script.
NAME = re.compile(r"[A-Za-z0-9_]+")
MODULE = re.compile(r"[A-Za-z0-9_.,:/+@=-]+")
SLURM_PATTERNS = [("time", re.compile(r"[0-9]+(-[0-9]+)?(:[0-9]+){0,2}"), "a Slurm time such as \"01:30:00\" or \"1-12\""),
                  ("partition", re.compile(r"[A-Za-z0-9_.,+-]+"), "a partition name (letters, digits, '_', '.', ',', '+', '-')"),
                  ("account", re.compile(r"[A-Za-z0-9_.+-]+"), "an account name (letters, digits, '_', '.', '+', '-')")]
KEYS = {"name", "proxies", "decks", "flags", "strategies", "transports", "ranks", "repetitions", "trace", "simulate",
        "oversubscribe", "slurm", "table", "predict"}
# strategies = "all", transports = "all": every one the proxy binary lists, in its listing order.
ALL = "all"
# ranks = "cores": one rank per core here, and at least 2, so that there is something to exchange.
CORES = "cores"
# Repetitions of every run: more than this measure nothing a figure shows (the spread of a mean falls as
# 1/sqrt(N)), and the count alone must stay small enough to list (study_plan.py).
MAX_REPETITIONS = 1000


class StudyError(Exception):
    """A problem with the study file: one line, naming the file and, where known, the line."""


def key_line(text, key):
    """The line where `key = ...` (or the [key] table) is first written, for error messages."""
    pattern = re.compile(rf"^\s*(\[\s*{re.escape(key)}\s*\]|\"?{re.escape(key)}\"?\s*=)")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return None


class Study:
    """The study file, checked: every key known, every value of the right kind, every deck present."""

    def __init__(self, path, root, cores=None, ranks=None):
        """`cores`: this machine's (for ranks = "cores"); `ranks`: one rank count that replaces the file's."""
        self.path, self.root = path, root
        try:
            with open(path, "rb") as f:
                self.text_bytes = f.read()
        except OSError as e:
            raise StudyError(f"cannot read study file '{path}': {e.strerror}")
        self.text = self.text_bytes.decode("utf-8", errors="replace")
        try:
            data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as e:
            raise StudyError(f"{path}: {e}")
        for key in data:
            if key not in KEYS:
                self.fail(key, f"unknown key '{key}' (known: {', '.join(sorted(KEYS))})")
        self.name = self.string(data, "name", required=True)
        # The name starts the study folder's name and the Slurm job's: kept to this strict pattern, not sanitized.
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", self.name):
            self.fail("name", f"'name' must be letters, digits, '.', '_' or '-' (got '{self.name}')")
        self.proxies = self.strings(data, "proxies", required=True)
        for proxy in self.proxies:
            if proxy not in PROXIES:
                self.fail("proxies", f"unknown proxy '{proxy}' in 'proxies' (use {', '.join(PROXIES)})")
        self.decks = self.deck_lists(data)
        self.flags = self.flag_strings(data)
        self.strategies = self.names(data, "strategies", may_be_all=True) or [None]
        self.transports = self.names(data, "transports", may_be_all=True) or [None]
        self.ranks = [ranks] if ranks else self.rank_counts(data, cores)
        self.no_duplicates("proxies", self.proxies)
        self.no_duplicates("ranks", self.ranks)
        self.repetitions = self.positive_int(data, "repetitions", 1, most=MAX_REPETITIONS)
        self.trace = self.trace_setting(data)
        self.table = self.boolean(data, "table")
        self.oversubscribe = self.boolean(data, "oversubscribe")
        self.slurm = data.get("slurm", {})
        if not isinstance(self.slurm, dict):
            self.fail("slurm", "'slurm' must be a table ([slurm])")
        for key in self.slurm:
            if key not in SLURM_KEYS:
                self.fail(key, f"unknown key '{key}' in [slurm] (known: {', '.join(sorted(SLURM_KEYS))})")
        self.check_slurm()
        self.simulation = study_simulation.parse(self, data)
        self.prediction = predict_at_scale.parse(self, data)

    def fail(self, key, message):
        line = key_line(self.text, key)
        raise StudyError(f"{self.path}{f' line {line}' if line else ''}: {message}")

    def section(self, data, name, keys):
        """The study's [name] table (None without one), every key of it one of `keys`."""
        table = data.get(name)
        if table is None:
            return None
        if not isinstance(table, dict):
            self.fail(name, f"'{name}' must be a table ([{name}])")
        for key in table:
            if key not in keys:
                self.fail(key, f"unknown key '{key}' in [{name}] (known: {', '.join(sorted(keys))})")
        return table

    def string(self, data, key, required=False):
        if key not in data:
            if required:
                raise StudyError(f"{self.path}: missing key '{key}'")
            return None
        if not isinstance(data[key], str) or not data[key]:
            self.fail(key, f"'{key}' must be a non-empty string (got {data[key]!r})")
        return data[key]

    def strings(self, data, key, required=False):
        if key not in data:
            if required:
                raise StudyError(f"{self.path}: missing key '{key}'")
            return []
        value = data[key]
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            self.fail(key, f"'{key}' must be a non-empty list of strings (got {value!r})")
        return value

    def names(self, data, key, may_be_all=False):
        """A list of strategy or transport names: each a plain word, none twice (or "all" where allowed)."""
        if may_be_all and data.get(key) == ALL:
            return ALL
        values = self.strings(data, key)
        for value in values:
            if not NAME.fullmatch(value):
                self.fail(key, f"'{key}' value {value!r} is not a name (letters, digits and '_' only)")
        self.no_duplicates(key, values)
        return values

    def flag_strings(self, data):
        """proxy -> the flags axis: a list applies to every proxy, a [flags] table names them per proxy (a
        size is the proxy's own: --nx for amp-ghost, --nbx for amp-nobel). Each entry must split into
        arguments the way a shell would, none twice."""
        value = data.get("flags")
        if isinstance(value, dict):
            for proxy in value:
                if proxy not in self.proxies:
                    self.fail("flags", f"[flags] names '{proxy}', which is not in 'proxies'")
            per_proxy = {p: self.strings(value, p) for p in self.proxies}
        else:
            values = self.strings(data, "flags")
            per_proxy = {p: values for p in self.proxies}
        for values in per_proxy.values():
            for flags in values:
                try:
                    shlex.split(flags)
                except ValueError as e:
                    self.fail("flags", f"'flags' value {flags!r} cannot be split into arguments ({e})")
            self.no_duplicates("flags", values)
        return {p: values or [""] for p, values in per_proxy.items()}

    def no_duplicates(self, key, values):
        seen = set()
        for value in values:
            if value in seen:
                self.fail(key, f"'{key}' gives {value!r} twice (each value is one point of the axis)")
            seen.add(value)

    def check_slurm(self):
        """[slurm] values reach an sbatch script: each must be of its kind, with no newline or shell word."""
        for key, pattern, kind in SLURM_PATTERNS:
            if key in self.slurm:
                value = self.slurm[key]
                if not isinstance(value, str) or not pattern.fullmatch(value):
                    self.fail(key, f"[slurm] '{key}' must be {kind} (got {value!r})")
        for key in ("nodes", "ntasks_per_node", "cpus_per_task"):
            if key in self.slurm:
                value = self.slurm[key]
                if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                    self.fail(key, f"[slurm] '{key}' must be a positive integer (got {value!r})")
        modules = self.slurm.get("modules", [])
        if not isinstance(modules, list) or not all(isinstance(m, str) and MODULE.fullmatch(m) for m in modules):
            self.fail("modules", f"[slurm] 'modules' must be a list of module names without spaces (got {modules!r})")

    def rank_counts(self, data, cores):
        """The ranks axis: a list of counts, or "cores" (one rank per core here, at least 2)."""
        if data.get("ranks") == CORES:
            return [max(2, cores or os.cpu_count() or 1)]
        return self.positive_ints(data, "ranks")

    def trace_setting(self, data):
        """`trace`: true or false for every run, or the list of transports whose runs are traced."""
        value = data.get("trace", False)
        if isinstance(value, list):
            return self.names(data, "trace")
        if not isinstance(value, bool):
            self.fail("trace", f"'trace' must be true, false or a list of transports (got {value!r})")
        return value

    def traced(self, run):
        """Whether this run is traced."""
        return self.trace is True or (isinstance(self.trace, list) and run["transport"] in self.trace)

    def positive_ints(self, data, key):
        if key not in data:
            raise StudyError(f"{self.path}: missing key '{key}'")
        value = data[key]
        ok = isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)
        if not ok:
            self.fail(key, f"'{key}' must be a non-empty list of positive integers (got {value!r})")
        return value

    def positive_int(self, data, key, default, most=None):
        value = data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1 or (most and value > most):
            self.fail(key, f"'{key}' must be a positive integer{f' of at most {most}' if most else ''} (got {value!r})")
        return value

    def boolean(self, data, key):
        value = data.get(key, False)
        if not isinstance(value, bool):
            self.fail(key, f"'{key}' must be true or false (got {value!r})")
        return value

    def deck_lists(self, data):
        """proxy -> decks (absolute paths); a list applies to every proxy, a table names them per proxy."""
        value = data.get("decks")
        if value is None:
            return {p: [None] for p in self.proxies}
        if isinstance(value, list):
            per_proxy = {p: value for p in self.proxies}
        elif isinstance(value, dict):
            for proxy in value:
                if proxy not in self.proxies:
                    self.fail("decks", f"[decks] names '{proxy}', which is not in 'proxies'")
            per_proxy = {p: value.get(p, []) for p in self.proxies}
        else:
            self.fail("decks", f"'decks' must be a list of deck files or a table of them per proxy (got {value!r})")
        out = {}
        for proxy, decks in per_proxy.items():
            if not isinstance(decks, list) or not all(isinstance(d, str) for d in decks):
                self.fail("decks", f"decks of '{proxy}' must be a list of file names (got {decks!r})")
            paths = []
            for deck in decks:
                path = deck if os.path.isabs(deck) else os.path.join(self.root, deck)
                if not os.path.isfile(path):
                    self.fail("decks", f"deck '{deck}' does not exist")
                paths.append(os.path.abspath(path))
            stems = [os.path.splitext(os.path.basename(p))[0] for p in paths]
            if len(set(stems)) != len(stems):
                self.fail("decks", f"two decks of '{proxy}' have the same name; run names must differ")
            out[proxy] = paths or [None]
        return out

    def check_combinations(self, build):
        """Asks each proxy binary about every strategy x transport pair of the study, before any run: a
        name it refuses fails the study; pairs that do not fit (exit 6) are left out, listed once. Returns the
        lines listing them. Without the binary (a --slurm script written elsewhere) nothing is asked."""
        self.skipped, self.axes, lines = set(), {}, []
        for proxy in self.proxies:
            binary = os.path.join(build, "bin", f"amp-{proxy}")
            if not os.access(binary, os.X_OK):
                for key in ("strategies", "transports"):
                    if getattr(self, key) == ALL:
                        self.fail(key, f"'{key}' = \"{ALL}\" asks amp-{proxy} for its list, and it is not built")
                lines.append(f"amp-{proxy} is not built: strategy and transport names not checked")
                continue
            known_strategies, known_transports = combinations.names(binary)
            strategies = known_strategies if self.strategies == ALL else self.strategies
            transports = known_transports if self.transports == ALL else self.transports
            self.axes[proxy] = (strategies, transports)
            verdicts = combinations.verdicts(binary, strategies, transports)
            for (strategy, transport), verdict in verdicts.items():
                if verdict.fits:
                    continue
                if not verdict.not_fitting:
                    key = "strategies" if strategy and strategy.lower() not in known_strategies else "transports"
                    self.fail(key, f"amp-{proxy} refuses strategy {strategy or 'default'} with transport "
                                   f"{transport or 'default'}: {verdict.reason}")
                self.skipped.add((proxy, strategy, transport))
                lines.append(f"skipped (does not fit): amp-{proxy} {strategy} over {transport}: {verdict.reason}")
            if all(verdict.not_fitting for verdict in verdicts.values()):
                self.fail("transports", f"no strategy of amp-{proxy} fits any transport of the study")
        return lines

    def runs(self, build):
        """Every run: id (its file names), the axes, and the proxy's arguments (without --results)."""
        skipped, resolved = getattr(self, "skipped", set()), getattr(self, "axes", {})
        out = []
        for repetition in range(1, self.repetitions + 1):
            for proxy in self.proxies:
                strategies, transports = resolved.get(proxy, (self.strategies, self.transports))
                axes = itertools.product(self.decks[proxy], enumerate(self.flags[proxy]), strategies, transports, self.ranks)
                for deck, (flag_index, flags), strategy, transport, ranks in axes:
                    if (proxy, strategy, transport) in skipped:
                        continue
                    parts = [proxy]
                    args = [os.path.join(build, "bin", f"amp-{proxy}")]
                    # Parts of the run's file names: the deck's file name and a strategy or transport the binary
                    # listed (strategies = "all") made safe (file_names.py); a name the study gave is a plain word.
                    if deck:
                        parts.append(component(os.path.splitext(os.path.basename(deck))[0]))
                        args += ["--input", deck]
                    if len(self.flags[proxy]) > 1:
                        parts.append(f"flags{flag_index + 1}")
                    if strategy:
                        parts.append(component(strategy))
                        args += ["--strategy", strategy]
                    if transport:
                        parts.append(component(transport))
                        args += ["--transport", transport]
                    args += shlex.split(flags)
                    parts += [f"np{ranks}", f"rep{repetition}"]
                    out.append({"id": "-".join(parts), "proxy": proxy, "deck": deck, "flags": flags, "strategy": strategy,
                                "transport": transport, "ranks": ranks, "repetition": repetition, "args": args})
        return out


def write_manifest(folder, runs):
    path = os.path.join(folder, "runs.json")
    if not os.path.exists(path):
        write_whole(path, json.dumps([{k: v for k, v in r.items()} for r in runs], indent=1))


def trace_stats(opts, base):
    """`amp-trace stats --json` of a run's trace into BASE.trace-stats.json (whole or not at all)."""
    part, status = base + ".trace-stats.json.part", None
    try:
        with open(part, "w") as out:
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
        with open(base + ".outcome.json") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def record_outcome(base, status, trace, shared, signum=None):
    """BASE.outcome.json: the launcher's exit status and, when a signal ended the run, its name."""
    outcome = {"exit_code": status, "trace": trace, "shared_cores": shared}
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
        command = launch.mpiexec(opts.mpiexec, r["ranks"], [*r["args"], "--results", base + ".json"], opts.mpiexec_flags)
        if study.traced(r):
            command += ["--trace", base + ".trace"]
        env = dict(os.environ)
        env.setdefault("OMP_NUM_THREADS", str(max(1, opts.cores // r["ranks"])))
        env.setdefault("OMP_PROC_BIND", "false")
        try:
            status, signum = run_logged(command, base + ".log", env, header="# " + shlex.join(command))
        except Stopped as stopped:
            record_outcome(base, stopped.status, "none", None, stopped.signum)
            print(f"study: [{i}/{len(todo)}] {r['id']}: STOPPED by {signal_name(stopped.signum)} (log: {base}.log)")
            raise
        if status in (0, TRACE_FAILED) and not signum and finished(base):
            # The answer is good and kept; the trace may not be (exit 5, or no statistics from it).
            trace = "none" if not study.traced(r) else "failed" if status == TRACE_FAILED or trace_stats(opts, base) != 0 else "written"
        else:
            failed += 1
            record_outcome(base, status, "none", None, signum)
            print(f"study: [{i}/{len(todo)}] {r['id']}: {failure(status, signum, base + '.log')} (log: {base}.log)")
            continue
        per_step = results.step_seconds(results.load(base + ".json"))
        shared = machine_load.warn(base + ".json", prefix="study")
        record_outcome(base, status, trace, shared)
        note = ""
        if trace == "failed":
            trace_failed.append(r["id"])
            note = f"; TRACE FAILED (results kept; log: {base}.log)"
        print(f"study: [{i}/{len(todo)}] {r['id']}: {per_step * 1e3:.3f} ms per step{note}")
    return failed, trace_failed


def positive_count(text):
    if not re.fullmatch(r"[1-9][0-9]{0,9}", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive whole number")
    return int(text)


def main():
    parser = command_line.Parser("study", __doc__.split("\n\n")[0])  # a usage error: one line, exit 2
    parser.add_argument("study")
    parser.add_argument("--root", required=True, help="repository root (relative decks, runs/)")
    parser.add_argument("--build", required=True, help="build folder with bin/amp-*")
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--mpiexec-flags", default="", help="extra launcher flags, space-separated")
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    parser.add_argument("--ranks", type=positive_count, help="one rank count instead of the study file's 'ranks'")
    parser.add_argument("--slurm", action="store_true", help="write runs/<name>-<stamp>/study.sbatch instead of running")
    parser.add_argument("--new", action="store_true", help="start a new folder even if one of this study exists")
    parser.add_argument("--plan", action="store_true",
                        help="print every run, synthesis and simulation the study would make; run nothing")
    parser.add_argument("--yes", action="store_true",
                        help=f"make a study of more than {study_plan.PLAN_LIMIT} runs, syntheses and simulations")
    opts = parser.parse_args()
    root, opts.build = os.path.abspath(opts.root), os.path.abspath(opts.build)
    stop_on_signals()
    try:
        return study_main(opts, root)
    except Stopped as stopped:
        print(f"study: stopped by {signal_name(stopped.signum)}; call again to resume (finished runs are skipped)",
              file=sys.stderr)
        return 128 + stopped.signum
    except FolderBusy as e:
        print(f"study: error: {e}", file=sys.stderr)
        return 2
    except NotWritten as e:
        print(f"study: error: {e}", file=sys.stderr)
        return NOT_WRITTEN
    except OSError as e:  # a run's log or trace statistics on a full disk: the file is named, no traceback
        what = f"'{e.filename}'" if e.filename else "a file of the study's"
        print(f"study: error: cannot write {what}: {e.strerror}", file=sys.stderr)
        return NOT_WRITTEN


def study_main(opts, root):
    try:
        study = Study(opts.study, root, opts.cores, opts.ranks)
        notes = study.check_combinations(opts.build)
        study_plan.check_size(study, opts.yes)  # counted, not listed: a billion runs would never be listed
        runs = study.runs(opts.build)
        if not opts.slurm and not study.oversubscribe and max(study.ranks) > opts.cores:
            study.fail("ranks", f"{max(study.ranks)} ranks exceed the {opts.cores} cores here: studies run one rank per "
                                "core (oversubscribed ranks measure the scheduler); set oversubscribe = true to allow it")
        if opts.slurm:  # before any folder is made
            study_slurm.check_paths(runs_folder=os.path.join(root, "runs"), build_folder=opts.build)
    except (StudyError, study_plan.TooBig, study_slurm.UnsafePath) as e:
        print(f"study: error: {e}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"study: {note}")
    if opts.plan:
        study_plan.print_plan(study, runs)
        return 0
    if not opts.slurm and max(study.ranks) > opts.cores:
        print(f"study: note: {max(study.ranks)} ranks on {opts.cores} cores are oversubscribed: a rank waiting in MPI "
              "busy-polls the core its peer needs, so the per-variable strategies' many waits are inflated; compare "
              "strategies with one rank per core")
    folder, resumed = open_folder(study, root, opts.new)
    write_manifest(folder, runs)
    print(f"study: {study.name}: {'resuming' if resumed else 'new folder'} {os.path.relpath(folder, root)}/")
    if opts.slurm:
        script, path = study_slurm.slurm_script(study, runs, folder, opts), os.path.join(folder, "study.sbatch")
        if os.path.exists(path) and open(path).read() != script:
            keep_aside(path)
        write_whole(path, script)
        print(f"study: wrote {os.path.relpath(path, root)} ({len(runs)} runs); submit it with sbatch, then "
              f"`./amp report {os.path.relpath(folder, root)}`")
        if study.simulation:
            print("study: [simulate] is not in the script: after the jobs, `./amp study` on this file (without "
                  "--slurm, where SimGrid is installed) skips the finished runs, synthesizes and simulates")
        return 0
    opts.root = root
    failed, trace_failed = run_locally(study, runs, folder, opts)
    if study.simulation:
        failed += study_simulation.calibrate(study, opts)
        synthesized = study_simulation.synthesis_runs(study, runs)
        failed += len(study_simulation.run_syntheses(study.simulation, synthesized, folder, opts))
        failed += study_simulation.simulate_all(study.simulation, runs + synthesized, folder, opts)
    tables, checksums_agree = [], True
    if study.table:
        finished_runs = [os.path.join(folder, r["id"] + ".json") for r in runs
                         if r["repetition"] == 1 and finished(os.path.join(folder, r["id"]))]
        if finished_runs:
            tables, checksums_agree = compare_runs.table(finished_runs)
            print("\n".join(tables))
    if study.prediction:
        lines, problem = predict_at_scale.predict_study(study.prediction, runs, folder, opts)
        print("\n".join([f"study: {problem}"] if problem else lines))
        tables += lines
        failed += bool(problem)
    if tables:
        write_whole(os.path.join(folder, "table.txt"), "\n".join(tables) + "\n")
    drawn = 0
    if any(os.path.exists(os.path.join(folder, r["id"] + ".json")) for r in runs):
        from amp_tools import report  # matplotlib: only needed for the figures
        drawn = report.main([folder])
    if failed:
        print(f"study: {failed} runs failed; call again to retry them (finished runs are skipped)", file=sys.stderr)
        return 1
    if not checksums_agree:
        print("study: the runs' checksums differ (table.txt)", file=sys.stderr)
        return 1
    if drawn == NOT_WRITTEN:  # the report said which file (a full disk); the runs are kept
        return NOT_WRITTEN
    if trace_failed:
        print(f"study: {len(trace_failed)} runs' traces failed (their results are kept): {', '.join(trace_failed)}",
              file=sys.stderr)
        return TRACE_FAILED
    return 0


if __name__ == "__main__":
    sys.exit(main())
