# SPDX-License-Identifier: BSD-3-Clause
"""A study file (TOML, docs/STUDIES.md) read and checked once: every key known, every value of the right kind,
every deck present, every strategy and transport one the proxy binary lists (combinations.py); and the runs
it declares, one per proxy x deck x flags x strategy x transport x ranks x repetition, each with its id (the
base of its file names) and its proxy's command line. A problem is one line naming the file and the key's
line (StudyError).
"""
import itertools
import os
import re
import shlex
import tomllib

from amp_tools import combinations
from amp_tools import predict_at_scale
from amp_tools import results
from amp_tools import study_simulation
from amp_tools.file_names import component

PROXIES = ("ghost", "sage", "nobel")
SLURM_KEYS = {"time", "partition", "account", "nodes", "ntasks_per_node", "cpus_per_task", "modules"}
# Strategy and transport names, [slurm] values: what may reach a run's file names or an sbatch script.
NAME = re.compile(r"[A-Za-z0-9_]+")
MODULE = re.compile(r"[A-Za-z0-9_.,:/+@=-]+")
SLURM_PATTERNS = [("time", re.compile(r"[0-9]+(-[0-9]+)?(:[0-9]+){0,2}"),
                   "a Slurm time such as \"01:30:00\" or \"1-12\""),
                  ("partition", re.compile(r"[A-Za-z0-9_.,+-]+"),
                   "a partition name (letters, digits, '_', '.', ',', '+', '-')"),
                  ("account", re.compile(r"[A-Za-z0-9_.+-]+"), "an account name (letters, digits, '_', '.', '+', '-')")]
KEYS = {"name", "proxies", "decks", "flags", "strategies", "transports", "ranks", "repetitions", "trace", "simulate",
        "oversubscribe", "slurm", "table", "predict"}
# strategies = "all", transports = "all": every one the proxy binary lists, in its listing order.
ALL = "all"
# ranks = "cores": one rank per core here, and at least 2, so that there is something to exchange.
CORES = "cores"
# Proxy flags a study sets itself, each with the key of the study that sets it: given in `flags` as well,
# the flag would override the axis while the run keeps the axis's name (two strategies run as one).
STUDY_SET_FLAGS = {"--strategy": "strategies", f"--{results.OLD_STRATEGY}": "strategies", "--transport": "transports",
                   "--input": "decks", "--ranks": "ranks", "--results": "the study's own (each run's results file)",
                   "--trace": "trace", "--synthesize": "[simulate]", "--compute_seconds": "[simulate]",
                   "--plan-only": "[simulate]", "--rank": "[simulate]"}
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
        if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", self.name):  # no hidden folder: '.', '.x'
            self.fail("name", f"'name' must be letters, digits, '.', '_' or '-', not starting with '.' or '-' "
                              f"(got '{self.name}')")
        self.proxies = self.strings(data, "proxies", required=True)
        for proxy in self.proxies:
            if proxy not in PROXIES:
                self.fail("proxies", f"unknown proxy '{proxy}' in 'proxies' (use {', '.join(PROXIES)})")
        self.decks = self.deck_lists(data)
        self.flags = self.flag_strings(data)
        self.strategies, self.strategies_by_proxy = self.strategy_axis(data)
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

    def strategy_axis(self, data):
        """(strategies of every proxy: a list, [None] or "all"; {proxy: its own list} from a [strategies]
        table, which names some proxies: the others take none given, i.e. their deck's)."""
        value = data.get("strategies")
        if not isinstance(value, dict):
            return self.names(data, "strategies", may_be_all=True) or [None], {}
        for proxy in value:
            if proxy not in self.proxies:
                self.fail("strategies", f"[strategies] names '{proxy}', which is not in 'proxies'")
        return [None], {proxy: self.names(value, proxy) or [None] for proxy in value}

    def strategies_of(self, proxy):
        """The strategies axis of one proxy (a list, or "all")."""
        return self.strategies_by_proxy.get(proxy, self.strategies)

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
                    words = shlex.split(flags)
                except ValueError as e:
                    self.fail("flags", f"'flags' value {flags!r} cannot be split into arguments ({e})")
                for word in words:
                    flag = word.split("=", 1)[0]
                    if flag in STUDY_SET_FLAGS:
                        key = STUDY_SET_FLAGS[flag]
                        use = key if key.startswith("the ") else f"the key '{key}'"
                        self.fail("flags", f"'flags' value {flags!r} gives {flag}, which the study sets itself: "
                                           f"use {use} instead")
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
        ok = (isinstance(value, list) and value
              and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value))
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
            strategies = known_strategies if self.strategies_of(proxy) == ALL else self.strategies_of(proxy)
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
                strategies, transports = resolved.get(proxy, (self.strategies_of(proxy), self.transports))
                axes = itertools.product(self.decks[proxy], enumerate(self.flags[proxy]), strategies, transports,
                                         self.ranks)
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
                    out.append({"id": "-".join(parts), "proxy": proxy, "deck": deck, "flags": flags,
                                "strategy": strategy,
                                "transport": transport, "ranks": ranks, "repetition": repetition, "args": args})
        return out
