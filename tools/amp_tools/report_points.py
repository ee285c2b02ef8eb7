# SPDX-License-Identifier: BSD-3-Clause
"""The report's points: the results files of a folder, read through results.py (a malformed one left out
with one warning line), grouped into points (the repetitions of one configuration at one rank count),
each labelled by what varies between its proxy's points, with its median, spread, and how it compares
with the fastest point at its rank count. The figures (report_figures) and the tables (report_index)
draw these points.
"""
import glob
import json
import os
import statistics
import sys

from amp_tools import results
from amp_tools.results_shape import matrix_problem, results_problem, shown

# Configuration keys that are no axis: the seed, what the proxy derives from the rank count (amp-ghost's
# block and whether it is swept in place), whether the transport's trace can be replayed (it follows from
# the transport). A run's configuration comes through results.config, which names the strategy `strategy`
# alone, whatever the file's age.
NOT_AXES = {"seed", "global_grid", "global_cells", "process_grid", "local_block", "sweep_in_place", "replayable"}
# Keys left out of figure titles: derived from others, or settings of the self-check.
QUIET = {"global_cells", "global_grid", "process_grid", "local_block", "sweep_in_place", "summed_vars", "error_tol",
         "report_diffusion", "check_every", "seed", "replayable"}


def warn(message):
    print(f"report: warning: {message}", file=sys.stderr)


# read_json's answer for a file it could not read (it has said why): JSON's own null is None.
NOT_READ = object()


def read_json(path):
    """The parsed file, or NOT_READ with one warning line when it cannot be read, is not a regular file or
    is not JSON."""
    try:
        return results.load(path)
    except results.NewerSchema as e:
        warn(f"{path}: {e}; left out")
        return NOT_READ
    except (OSError, ValueError) as e:
        warn(f"{path} is not readable JSON ({e.strerror if isinstance(e, OSError) else e}); left out")
        return NOT_READ


def is_results(data):
    """A proxy's results of a real run: neither another file of the folder nor a plan-only, synthesis
    or amp-micro file (no mode; timing or config)."""
    return isinstance(data, dict) and "proxy" in data and "mode" not in data and ("timing" in data or "config" in data)


# A study's list of its runs (study.write_manifest): the one JSON of a results folder that is no table.
MANIFEST = "runs.json"


def load_runs(folder):
    """Every proxy results file directly in `folder` (a study's runs, `./amp run`'s runs); a malformed
    one (see results_shape) is left out with one warning line."""
    runs = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        if path.endswith((".trace-stats.json", ".outcome.json")) or os.path.basename(path) == MANIFEST:
            continue
        data = read_json(path)
        if data is NOT_READ:
            continue
        if not isinstance(data, dict):
            warn(f"{path}: is not a table of results (got {shown(data)}); left out")
        if not is_results(data):
            continue
        problem = results_problem(data)
        if problem:
            warn(f"{path}: {problem}; left out")
            continue
        data["config"] = results.config(data)  # the strategy under one name, whatever the file's age
        data["_path"] = path
        stats = path[:-len(".json")] + ".trace-stats.json"
        if os.path.exists(stats):
            trace_stats = read_json(stats)
            if trace_stats is not NOT_READ:
                problem = (matrix_problem(trace_stats, data["ranks"]) if isinstance(trace_stats, dict)
                           else "is not a table")
                if problem:
                    warn(f"{stats} {problem}; left out")
                else:
                    data["_trace_stats"] = trace_stats
        runs.append(data)
    return runs


class Point:
    """One configuration at one rank count, with its repetitions."""

    def __init__(self, runs):
        self.runs = runs
        self.proxy = runs[0]["proxy"]
        self.ranks = runs[0]["ranks"]
        self.config = runs[0]["config"]
        self.label = ""  # set by group(): what tells this point from the others of its proxy

    def median(self, value):
        return statistics.median(value(r) for r in self.runs)

    def median_run(self):
        """The repetition with the median time per step (the lower one of the middle two)."""
        ordered = sorted(self.runs, key=results.step_seconds)
        return ordered[(len(ordered) - 1) // 2]

    def spread(self, value):
        values = [value(r) for r in self.runs]
        return min(values), max(values)

    def error_bar(self, value, centre=None):
        """[below, above] the centre (the median unless given): the repetitions' spread, for yerr."""
        lo, hi = self.spread(value)
        centre = self.median(value) if centre is None else centre
        return max(0.0, centre - lo), max(0.0, hi - centre)

    def per_step(self, run, key, field="avg"):
        """One timing entry of a run in ms per step (0 where the run has none)."""
        return results.per_step_ms(run, key, field)


def step_ms(run):
    return results.step_seconds(run) * 1e3


# What versus_fastest says of a point without a measured spread: the breakdown says it once, in its title.
SPREAD_UNKNOWN = "spread unknown"


def versus_fastest(point, points):
    """How a point's time per step compares with the fastest point at its rank count: '' for the
    fastest, 'within noise' when their repetitions' ranges (min..max) overlap, '+N%' when they do
    not, and 'spread unknown' when either has a single repetition (no noise measured)."""
    peers = [p for p in points if p.ranks == point.ranks]
    fastest = min(peers, key=lambda p: p.median(step_ms))
    if fastest is point:
        return "fastest" if len(peers) > 1 else ""
    if len(point.runs) < 2 or len(fastest.runs) < 2:
        return SPREAD_UNKNOWN
    lo, _ = point.spread(step_ms)
    _, fastest_hi = fastest.spread(step_ms)
    if lo <= fastest_hi:
        return "within noise"
    return f"+{point.median(step_ms) / fastest.median(step_ms) - 1:.0%}"


def repetitions_note(points, marks="error bars"):
    """What the figure's marks of the repetitions' spread (error bars, bands) are, said once for all its
    points."""
    counts = sorted({len(p.runs) for p in points})
    if counts == [1]:
        return "one repetition per point: no spread measured"
    text = "/".join(map(str, (c for c in counts if c > 1)))
    return f"{marks}: spread (min–max) of {text} repetitions" + (
        "; points with 1 repetition have none" if 1 in counts else "")


def config_key(run):
    config = {k: v for k, v in run["config"].items() if k not in NOT_AXES}
    return json.dumps([run["proxy"], run["ranks"], config], sort_keys=True)


# The configuration key of the strategy: the breakdown groups its bars by it.
STRATEGY = results.STRATEGY


def shown_value(config, key):
    """A configuration value as a label shows it: '?' where the file has none (as compare_runs shows it),
    never 'None'."""
    return str(config[key]) if config.get(key) is not None else "?"


def group(runs):
    """Points (repetitions together), per proxy, labelled by the configuration keys that vary: `label`
    all of them, `strategy` the strategy's (when it varies) and `within` the others (e.g. the transport)."""
    by_key = {}
    for run in runs:
        by_key.setdefault(config_key(run), []).append(run)
    points = [Point(rs) for rs in by_key.values()]
    proxies = {}
    for p in points:
        proxies.setdefault(p.proxy, []).append(p)
    for proxy_points in proxies.values():
        keys = sorted({k for p in proxy_points for k in p.config})
        varying = [k for k in keys if k not in NOT_AXES
                   and len({json.dumps(p.config.get(k)) for p in proxy_points}) > 1]
        for p in proxy_points:
            p.label = " ".join(shown_value(p.config, k) for k in varying) or p.config.get(STRATEGY, "run")
            p.strategy = shown_value(p.config, STRATEGY) if STRATEGY in varying else ""
            p.within = " ".join(shown_value(p.config, k) for k in varying if k != STRATEGY)
        proxy_points.sort(key=lambda p: (p.label, p.ranks))
    return proxies


def common_title(proxy, points):
    """The configuration every point of this proxy shares, for figure titles."""
    shared = []
    for k in sorted(points[0].config):
        values = {json.dumps(p.config.get(k)) for p in points}
        if len(values) == 1 and k not in QUIET:
            v = points[0].config[k]
            shared.append(f"{k}={'×'.join(map(str, v)) if isinstance(v, list) else v}")
    ranks = sorted({p.ranks for p in points})
    words = [proxy, f"{'/'.join(map(str, ranks))} ranks"] + shared
    lines, line = [], ""
    for w in words:
        if len(line) + len(w) > 70:
            lines.append(line)
            line = ""
        line += (", " if line else "") + w
    return "\n".join(lines + [line])


def point_name(p, with_ranks):
    return f"{p.label}\n{p.ranks} rank{'s' if p.ranks != 1 else ''}" if with_ranks else p.label


def ranks_text(n):
    return f"{n} rank{'s' if n != 1 else ''}"
