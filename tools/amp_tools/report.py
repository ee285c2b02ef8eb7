#!/usr/bin/env python3
"""Draws the figures of a folder of AMP results (PNG, matplotlib) and an index.html that opens with a
summary (the fastest point per proxy, the fastest prediction per network) and shows them: time
breakdown per strategy (bars grouped by strategy; the time outside compute in a panel of its own),
message-size histograms, per-rank imbalance, scaling curves (when the rank count varies) and the
communication matrix of traced runs (from `amp-trace stats --json`), then the simulation figures.

Runs with the same configuration and rank count are repetitions: the figures show their median and
their spread (min..max), the table in index.html their median, spread and the difference to the
fastest point at the same rank count, or "within noise" where the two spreads overlap.

Figure names are made of each proxy's name through amp_tools.file_names: nothing a results file says
becomes a path outside DIR/report/. Only regular files are read (a FIFO named *.json is left out).

Usage: python3 -m amp_tools.report DIR      (writes DIR/report/: *.png and index.html; prints the table)
"""
import glob
import html
import itertools
import json
import os
import statistics
import sys

import matplotlib

from amp_tools import command_line
from amp_tools import file_names
from amp_tools import machine_load
from amp_tools import report_simulation
from amp_tools import report_validation
from amp_tools import results
from amp_tools.results_shape import matrix_problem, results_problem, shown
from amp_tools.whole_file import NotWritten, write_whole

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

# Time components of the stacked breakdown (the Cielo study's split): JSON key, label. "MPI" is the
# posting side (mpi minus mpi_wait); what the components leave of the step is "other".
COMPONENTS = [("compute", "compute"), ("pack", "pack"), ("unpack", "unpack"), ("gather_scatter", "gather/scatter"),
              ("mpi_post", "MPI (post)"), ("mpi_wait", "wait"), ("collective", "collectives"), ("amr", "AMR")]
# One colour per component, the same in every bar.
COLOURS = {key: f"C{i}" for i, (key, _) in enumerate(COMPONENTS)}
# The figure of merit each proxy reports per rank (or per PE) and second.
FOM = {"amp-ghost": ("cells_updated_per_second_per_rank", "cell updates / s / rank"),
       "amp-sage": ("cells_per_step_per_pe_per_second", "cells per step / PE / s"),
       "amp-nobel": ("cells_per_step_per_pe_per_second", "cells per step / PE / s")}
# Configuration keys that are no axis: the seed, what the proxy derives from the rank count, whether
# the transport's trace can be replayed (it follows from the transport). A run's configuration comes
# through results.config, which names the strategy `strategy` alone, whatever the file's age.
NOT_AXES = {"seed", "global_grid", "global_cells", "process_grid", "local_block", "replayable"}
# Keys left out of figure titles: derived from others, or settings of the self-check.
QUIET = {"global_cells", "global_grid", "process_grid", "local_block", "summed_vars", "error_tol", "report_diffusion",
         "check_every", "seed", "replayable"}


def warn(message):
    print(f"report: warning: {message}", file=sys.stderr)


# read_json's answer for a file it could not read (it has said why): JSON's own null is None.
NOT_READ = object()


def read_json(path):
    """The parsed file, or NOT_READ with one warning line when it cannot be read, is not a regular file or
    is not JSON."""
    try:
        return results.load(path)
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
                problem = matrix_problem(trace_stats, data["ranks"]) if isinstance(trace_stats, dict) else "is not a table"
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
        ordered = sorted(self.runs, key=lambda r: r["timing"]["per_step_seconds"])
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
        entry = run["timing"].get(key)
        if entry is None:
            return 0.0
        steps = max(1, run["config"].get("num_tsteps", 1))
        return entry[field] / steps * 1e3


def step_ms(run):
    return run["timing"]["per_step_seconds"] * 1e3


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
            p.label = " ".join(str(p.config.get(k)) for k in varying) or p.config.get(STRATEGY, "run")
            p.strategy = str(p.config.get(STRATEGY)) if STRATEGY in varying else ""
            p.within = " ".join(str(p.config.get(k)) for k in varying if k != STRATEGY)
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


def bar_layout(points):
    """Where the breakdown's bars stand: the points grouped by strategy (a gap between the groups), in
    the order of the strategies and, within one, of what else varies and the rank count. Returns (points
    in order, their x positions, [(strategy, first x, last x)])."""
    ordered = sorted(points, key=lambda p: (p.strategy, p.within, p.ranks))
    xs, groups, x = [], [], 0.0
    for i, p in enumerate(ordered):
        if i and p.strategy != ordered[i - 1].strategy:
            x += 0.8
        xs.append(x)
        if not groups or groups[-1][0] != p.strategy:
            groups.append([p.strategy, x, x])
        groups[-1][2] = x
        x += 1.0
    return ordered, xs, [tuple(g) for g in groups]


def bar_names(ordered):
    """The tick under each bar: what varies within its strategy (the transport), and the rank
    count when that varies; the strategy itself when nothing else does."""
    with_ranks = len({p.ranks for p in ordered}) > 1
    names = []
    for p in ordered:
        words = [w for w in [p.within] + ([ranks_text(p.ranks)] if with_ranks else []) if w]
        names.append("\n".join(words) or p.strategy or p.label)
    return names


def mark_strategies(axes, xs, names, groups):
    """The x axis of panels stacked over the same bars (bar_layout): the names under the lowest panel,
    each strategy's name once over its group on the highest, a dotted line between the groups."""
    for ax in axes:
        for (_, _, last), (_, first, _) in zip(groups, groups[1:]):
            ax.axvline((last + first) / 2, color="grey", linewidth=0.8, linestyle=":")
    many = len(xs) > 8
    axes[-1].set_xticks(xs)
    axes[-1].set_xticklabels(names, fontsize=7, rotation=45 if many else 0, ha="right" if many else "center")
    if any(strategy for strategy, _, _ in groups):
        strategies = axes[0].secondary_xaxis("top")
        strategies.set_xticks([(first + last) / 2 for _, first, last in groups])
        strategies.set_xticklabels([strategy for strategy, _, _ in groups], fontsize=9, fontweight="bold")
        strategies.tick_params(length=0)


def not_compute_ms(run):
    """A run's time per step outside compute: packing, MPI, waits, collectives and the rest."""
    steps = max(1, run["config"].get("num_tsteps", 1))
    return step_ms(run) - run["timing"].get("compute", {}).get("avg", 0.0) / steps * 1e3


def breakdown_figure(proxy, points):
    """Two panels over the same bars, grouped by strategy: above, the whole time per step (compute and
    the rest); below, only the time outside compute, stacked by component, where the strategies and transports
    differ (compute is most of every step and would hide it)."""
    ordered, xs, groups = bar_layout(points)
    names = bar_names(ordered)
    fig, (whole, rest) = plt.subplots(2, 1, figsize=(11, 8.5), sharex=True,
                                         gridspec_kw={"height_ratios": [1, 1.6]})
    # The components of each point's median repetition, so that the stack adds up to its time per step.
    runs = [p.median_run() for p in ordered]
    totals = [step_ms(r) for r in runs]
    compute = [p.per_step(r, "compute") for p, r in zip(ordered, runs)]
    whole.bar(xs, compute, color=COLOURS["compute"], label="compute")
    whole.bar(xs, [t - c for t, c in zip(totals, compute)], bottom=compute, color="dimgrey",
              label="not compute (panel below)")
    bars = [p.error_bar(step_ms, t) for p, t in zip(ordered, totals)]
    if any(len(p.runs) > 1 for p in ordered):
        whole.errorbar(xs, totals, yerr=[[b[0] for b in bars], [b[1] for b in bars]], fmt="none", ecolor="black",
                       capsize=3)
    # Each point against the fastest at its rank count: a difference inside the spread is not one, and
    # without a spread none is stated (the title says so once).
    for x, p, t, b in zip(xs, ordered, totals, bars):
        verdict = versus_fastest(p, points)
        if verdict != SPREAD_UNKNOWN:
            whole.annotate(verdict, (x, t + b[1]), textcoords="offset points", xytext=(0, 3), ha="center", fontsize=7)
    whole.set_ylabel("whole step (ms)")
    whole.margins(y=0.15)

    bottoms = [0.0] * len(ordered)
    for key, label in COMPONENTS:
        if key == "compute" or not any(key in r["timing"] for r in runs):
            continue
        heights = [p.per_step(r, key) for p, r in zip(ordered, runs)]
        rest.bar(xs, heights, bottom=bottoms, label=label, color=COLOURS[key])
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    outside = [not_compute_ms(r) for r in runs]
    rest.bar(xs, [max(0.0, o - b) for o, b in zip(outside, bottoms)], bottom=bottoms, label="other",
             color="lightgrey")
    spread = [p.error_bar(not_compute_ms, o) for p, o in zip(ordered, outside)]
    if any(len(p.runs) > 1 for p in ordered):
        rest.errorbar(xs, outside, yerr=[[s[0] for s in spread], [s[1] for s in spread]], fmt="none", ecolor="black",
                      capsize=3)
    top = max((o + s[1] for o, s in zip(outside, spread)), default=0.0)
    # A point measured while other work shared the cores is marked: its waits are the scheduler's.
    noisy = [any(machine_load.shared_cores(r) is not None for r in p.runs) for p in ordered]
    for x, o, s, t, mark in zip(xs, outside, spread, totals, noisy):
        rest.annotate((f"{o:.3g}\n{o / t:.0%}" if t else f"{o:.3g}") + ("*" if mark else ""), (x, o + s[1]),
                      textcoords="offset points", xytext=(0, 2), ha="center", va="bottom", fontsize=6)
    rest.set_ylim(0, top * 1.25 if top > 0 else 1)
    rest.set_ylabel("outside compute (ms)")
    rest.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    whole.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    mark_strategies([whole, rest], xs, names, groups)
    compared = "; above the upper bars: against the fastest at the rank count" if any(
        len(p.runs) > 1 for p in ordered) else ""
    shared = "; *: other work shared the cores during a run of it (noisy)" if any(noisy) else ""
    fig.suptitle(f"Time per step (median repetition, average rank), and below it the time outside compute "
                 f"with each bar's ms and share of the step\n{common_title(proxy, points)}\n"
                 f"{repetitions_note(points)}{compared}{shared}", fontsize=9)
    fig.tight_layout()
    return fig


def histogram_figure(proxy, points):
    """Messages per step per rank in each power-of-two size bin, one bar group per point."""
    with_ranks = len({p.ranks for p in points}) > 1
    bins = sorted({(b["min_bytes"], b["max_bytes"]) for p in points for b in p.runs[0]["messages"]["size_histogram"]})
    fig, ax = plt.subplots(figsize=(min(11, max(6, 1.2 * len(bins) + 4)), 5))
    width = 0.8 / max(1, len(points))
    spreads = any(len(p.runs) > 1 for p in points)
    colours = plt.get_cmap("tab20" if len(points) > 10 else "tab10").colors
    for i, p in enumerate(points):
        def per_bin(run, lo, hi):
            steps = max(1, run["config"].get("num_tsteps", 1))
            count = sum(b["count"] for b in run["messages"]["size_histogram"] if (b["min_bytes"], b["max_bytes"]) == (lo, hi))
            return count / steps / run["ranks"]
        heights = [p.median(lambda r: per_bin(r, lo, hi)) for lo, hi in bins]
        bars = [p.error_bar(lambda r: per_bin(r, lo, hi), h) for (lo, hi), h in zip(bins, heights)]
        ax.bar([j + i * width for j in range(len(bins))], heights, width, label=point_name(p, with_ranks).replace("\n", ", "),
               color=colours[i % len(colours)], yerr=[[b[0] for b in bars], [b[1] for b in bars]] if spreads else None,
               capsize=2, error_kw={"elinewidth": 0.8})
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(bins))])
    ax.set_xticklabels([f"{size_text(lo)}–{size_text(hi + 1)}" for lo, hi in bins], rotation=30, fontsize=8)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("messages per step per rank")
    ax.set_title(f"Message sizes (median)\n{common_title(proxy, points)}\n{repetitions_note(points)}", fontsize=9)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def size_text(n):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} B"


def imbalance_figure(proxy, points):
    """Min / avg / max over ranks of compute, MPI and collective time, one panel each."""
    keys = [("compute", "compute"), ("mpi", "MPI post + wait"), ("collective", "collectives")]
    ordered, xs, groups = bar_layout(points)
    fig, axes = plt.subplots(len(keys), 1, figsize=(11 if len(points) > 6 else 7, 3.0 * len(keys) + 1.5), sharex=True,
                             squeeze=False)
    for ax, (key, label) in zip(axes[:, 0], keys):
        avg = [p.median(lambda r: p.per_step(r, key, "avg")) for p in ordered]
        low = [a - p.median(lambda r: p.per_step(r, key, "min")) for a, p in zip(avg, ordered)]
        high = [p.median(lambda r: p.per_step(r, key, "max")) - a for a, p in zip(avg, ordered)]
        ax.errorbar(xs, avg, yerr=[low, high], fmt="o", capsize=4, label="min / avg / max over ranks")
        if any(len(p.runs) > 1 for p in ordered):
            spread = [p.spread(lambda r: p.per_step(r, key, "avg")) for p in ordered]
            ax.vlines(xs, [s[0] for s in spread], [s[1] for s in spread], colors="tab:orange", alpha=0.45,
                      linewidth=9, label="avg rank: spread of repetitions")
        ax.set_title(f"{label}: min / avg / max over ranks (median repetition)", fontsize=9)
        ax.set_ylabel("ms per step")
        ax.legend(fontsize=7, loc="best")
    mark_strategies(list(axes[:, 0]), xs, bar_names(ordered), groups)
    fig.suptitle(f"Per-rank imbalance\n{common_title(proxy, points)}\n"
                 f"{repetitions_note(points, 'band')}", fontsize=9)
    fig.tight_layout()
    return fig


def scaling_figure(proxy, points):
    """Time per step and FOM against ranks, one line per label and every rank count it ran at (a label
    at one rank count is a dot); drawn when the rank count varies."""
    if len({p.ranks for p in points}) < 2:
        return None
    lines = {}
    for p in points:
        lines.setdefault(p.label, []).append(p)
    lines = {k: sorted(v, key=lambda p: p.ranks) for k, v in lines.items()}
    fom_key, fom_label = FOM.get(proxy, (None, None))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for label, pts in lines.items():
        ranks = [p.ranks for p in pts]
        fom = lambda r: r["fom"].get(fom_key, 0.0)  # noqa: E731
        for ax, value in ((axes[0], step_ms), (axes[1], fom if fom_key else None)):
            if value is None:
                continue
            line, = ax.plot(ranks, [p.median(value) for p in pts], "o-", label=label)
            spread = [p.spread(value) for p in pts]
            ax.fill_between(ranks, [s[0] for s in spread], [s[1] for s in spread], color=line.get_color(), alpha=0.2)
    axes[0].set_title("time per step", fontsize=9)
    axes[0].set_ylabel("time per step (ms)")
    axes[1].set_title("figure of merit", fontsize=9)
    axes[1].set_ylabel(fom_label or "FOM")
    for ax in axes:
        ax.set_xlabel("ranks")
        ax.set_xscale("log", base=2)
        ax.set_xticks(sorted({p.ranks for pts in lines.values() for p in pts}))
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.legend(fontsize=8)
    fig.suptitle(f"Scaling (median)\n{common_title(proxy, points)}\n"
                 f"{repetitions_note(points, 'bands')}", fontsize=9)
    fig.tight_layout()
    return fig


def matrix_figure(proxy, points):
    """Bytes sent from rank to rank, from the trace stats of the first traced run of each point."""
    # One rank sends nothing; six panels at most.
    traced = [(p, next(r for r in p.runs if "_trace_stats" in r)) for p in points
              if p.ranks > 1 and any("_trace_stats" in r for r in p.runs)][:6]
    if not traced:
        return None
    with_ranks = len({p.ranks for p in points}) > 1
    cols = min(3, len(traced))
    rows = (len(traced) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(max(7.0, 4.5 * cols), 4 * rows + 0.6), squeeze=False)
    for ax in axes.flat[len(traced):]:
        ax.remove()
    for ax, (p, run) in zip(axes.flat, traced):
        matrix = run["_trace_stats"]["matrix_bytes"]
        image = ax.imshow(matrix, cmap="viridis", origin="upper")
        fig.colorbar(image, ax=ax, label="bytes")
        ax.set_title(f"{point_name(p, with_ranks).replace(chr(10), ', ')}\n{matrix_spread(p)}", fontsize=8)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_xlabel("receiving rank")
        ax.set_ylabel("sending rank")
    fig.suptitle(f"Communication matrix (traced time loop)\n{common_title(proxy, points)}", fontsize=9)
    fig.tight_layout()
    return fig


def matrix_spread(point):
    """Whether the traced repetitions of a point moved the same bytes between the same ranks."""
    matrices = [r["_trace_stats"]["matrix_bytes"] for r in point.runs if "_trace_stats" in r]
    if len(matrices) < 2:
        return "1 traced repetition"
    if all(m == matrices[0] for m in matrices):
        return f"identical in all {len(matrices)} traced repetitions"
    return f"differs between its {len(matrices)} traced repetitions (first shown)"


FIGURES = [("breakdown", breakdown_figure, "Time breakdown per strategy"),
           ("message_sizes", histogram_figure, "Message-size histograms"),
           ("imbalance", imbalance_figure, "Per-rank imbalance"),
           ("scaling", scaling_figure, "Scaling curves"),
           ("comm_matrix", matrix_figure, "Communication matrix")]


def figures(proxies):
    """(file name, title, figure) for every figure the runs call for, each drawn when it is asked for (a
    report draws, saves and closes one at a time)."""
    for proxy, points in sorted(proxies.items()):
        short = report_simulation.file_stem(proxy)
        for name, draw, title in FIGURES:
            fig = draw(proxy, points)
            if fig is not None:
                yield f"{short}-{name}.png", f"{proxy}: {title}", fig


def table_rows(proxies):
    rows = []
    for proxy, points in sorted(proxies.items()):
        for p in points:
            t = lambda r: r["timing"]["per_step_seconds"] * 1e3  # noqa: E731
            lo, hi = p.spread(t)
            rows.append({"proxy": proxy, "point": p.label, "ranks": p.ranks, "repetitions": len(p.runs),
                         "median_ms": p.median(t), "min_ms": lo, "max_ms": hi,
                         "versus_fastest": versus_fastest(p, points),
                         "shared_cores": sum(machine_load.shared_cores(r) is not None for r in p.runs),
                         "verified": all(r["verification"]["passed"] for r in p.runs),
                         "checksums": len({r["checksum"] for r in p.runs})})
    return rows


def fastest_rows(proxies):
    """index.html's summary of the measured points: per proxy and rank count, the fastest point, its
    median time per step, and the next fastest with how it compares (versus_fastest)."""
    rows = []
    for proxy, points in sorted(proxies.items()):
        for ranks in sorted({p.ranks for p in points}):
            peers = sorted((p for p in points if p.ranks == ranks), key=lambda p: p.median(step_ms))
            runner_up = f"{peers[1].label} ({versus_fastest(peers[1], points)})" if len(peers) > 1 else ""
            rows.append({"proxy": proxy, "ranks": ranks, "fastest": peers[0].label, "median_ms": peers[0].median(step_ms),
                         "points": len(peers), "runner_up": runner_up})
    return rows


def summary_html(proxies, predicted):
    """The short tables index.html opens with: the fastest measured point per proxy and rank count, and
    per network the fastest predicted strategy x transport with the others relative to it."""
    measured = "".join(
        f"<tr><td>{html.escape(r['proxy'])}</td><td>{r['ranks']}</td><td>{html.escape(r['fastest'])}</td>"
        f"<td>{r['median_ms']:.3f}</td><td>{r['points']}</td><td>{html.escape(r['runner_up'])}</td></tr>"
        for r in fastest_rows(proxies))
    page = ("<h2>Summary</h2><table class=\"summary\"><tr><th>proxy</th><th>ranks</th><th>fastest</th>"
            "<th>its time per step, median (ms)</th><th>points compared</th><th>next fastest</th></tr>"
            f"{measured}</table>")
    if predicted:
        cells = "".join(
            f"<tr><td>{html.escape(proxy)}</td><td>{html.escape(network)} ({html.escape(simulator)})</td><td>{ranks}"
            f"{' (synthesized)' if synthesized else ''}</td><td>{html.escape(series[0][0])}</td><td>{series[0][1]:.3f}</td>"
            f"<td>{html.escape(', '.join(f'{label} {ms / series[0][1]:.2f}x' for label, ms in series[1:]))}</td></tr>"
            for proxy, network, simulator, ranks, synthesized, series in predicted)
        page += ("<table class=\"summary\"><tr><th>proxy</th><th>predicted on</th><th>ranks</th>"
                 "<th>fastest predicted</th><th>its time per step (ms)</th><th>the others, relative to it</th></tr>"
                 f"{cells}</table>")
    single = sum(len(p.runs) == 1 for points in proxies.values() for p in points)
    if single:
        page += (f"<p>{single} point{'s' if single != 1 else ''} ran once: without a spread, a difference to "
                 "the fastest is not judged (\"spread unknown\").</p>")
    return page


def write_index(out_dir, folder, written, rows, summary):
    cells = "".join(
        f"<tr><td>{html.escape(r['proxy'])}</td><td>{html.escape(r['point'])}</td><td>{r['ranks']}</td>"
        f"<td>{r['repetitions']}</td><td>{r['median_ms']:.3f}</td><td>{r['min_ms']:.3f} – {r['max_ms']:.3f}</td>"
        f"<td>{html.escape(r['versus_fastest'])}</td><td>{r['shared_cores'] or ''}</td>"
        f"<td>{'passed' if r['verified'] else 'FAILED'}</td></tr>" for r in rows)
    images = "".join(f"<h2>{html.escape(title)}</h2><img src=\"{name}\" alt=\"{html.escape(title)}\">" for name, title in written)
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>AMP report: {html.escape(os.path.basename(os.path.abspath(folder)))}</title>
<style>body{{font-family:sans-serif;margin:2em}} img{{max-width:100%}}
td,th{{padding:2px 10px;text-align:right}} td{{white-space:nowrap}}
table.summary{{margin-bottom:1em}} table.summary td,table.summary th{{text-align:left}}</style>
</head><body><h1>AMP report: {html.escape(os.path.abspath(folder))}</h1>
{summary}
<h2>Every point</h2>
<table><tr><th>proxy</th><th>point</th><th>ranks</th><th>repetitions</th><th>time per step, median (ms)</th>
<th>spread (ms)</th><th>vs fastest</th><th>runs that shared their cores</th><th>verification</th></tr>{cells}</table>
{images}
</body></html>
"""
    # A lone surrogate (a "\udc80" escape in a results file's text) is written as its escape, not refused.
    write_whole(os.path.join(out_dir, "index.html"), page.encode("utf-8", "backslashreplace"))


def save_whole(fig, path):
    """The figure as PNG under PATH, whole or not at all (drawn into PATH.part, then renamed)."""
    part = path + ".part"
    try:
        fig.savefig(part, dpi=110, format="png")
        os.rename(part, path)
    except OSError as e:
        if os.path.exists(part):
            os.remove(part)
        raise NotWritten(f"cannot write '{path}': {e.strerror}") from None


class NoResults(Exception):
    """The folder holds no results to draw: a usage error (exit 2)."""


def all_figures(proxies, simulations):
    """(file name, title, figure) of every figure of the report: the runs', the simulations' and those
    beside the published seed experiments (docs/VALIDATION.md), each drawn when it is asked for."""
    return itertools.chain(figures(proxies), report_simulation.figures_of(simulations),
                           report_validation.figures(simulations))


def free_name(name, taken):
    """`name`, or NAME-2.png, NAME-3.png ... where a figure of that name was already written (two proxies
    whose names differ only by the 'amp-' prefix): no figure replaces another."""
    stem, extension = os.path.splitext(name)
    count = 1
    while name in taken:
        count += 1
        name = f"{stem}-{count}{extension}"
    return name


def report(folder):
    """Writes folder/report/ and returns (the PNG names written, the table rows)."""
    runs = load_runs(folder)
    if not runs:
        raise NoResults(f"no AMP results files (*.json) in '{folder}'")
    proxies = group(runs)
    out_dir = os.path.join(folder, "report")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise NotWritten(f"cannot create '{out_dir}': {e.strerror}") from None
    simulations = report_simulation.load(folder)
    written = []
    for name, title, fig in all_figures(proxies, simulations):
        path = file_names.output_path(out_dir, free_name(file_names.component(name), {n for n, _ in written}))
        save_whole(fig, path)
        plt.close(fig)
        written.append((os.path.basename(path), title))
    rows = table_rows(proxies)
    write_index(out_dir, folder, written, rows, summary_html(proxies, report_simulation.predictions(simulations)))
    return [name for name, _ in written], rows


def main(args):
    parser = command_line.Parser("report", __doc__)
    parser.add_argument("folder", metavar="DIR", help="a folder of results: a study's, or ./amp run's")
    folder = parser.parse_args(args).folder
    if not os.path.isdir(folder):
        print(f"report: error: '{folder}' is not a folder", file=sys.stderr)
        return 2
    sys.stdout.reconfigure(errors="backslashreplace")  # the table's labels are text from the results files
    try:
        names, rows = report(folder)
    except NoResults as e:
        print(f"report: error: {e}", file=sys.stderr)
        return 2
    except NotWritten as e:  # a full disk: the figures and index.html written before it are whole
        print(f"report: error: {e}", file=sys.stderr)
        return 4
    print(f"{'proxy':<10} {'point':<24} {'ranks':>5} {'reps':>4} {'ms/step median':>15} {'spread':>19}  vs fastest")
    for r in rows:
        failed = "" if r["verified"] else "  VERIFICATION FAILED"
        shared = f"  {r['shared_cores']} runs shared their cores" if r["shared_cores"] else ""
        print(f"{r['proxy']:<10} {r['point']:<24} {r['ranks']:>5} {r['repetitions']:>4} {r['median_ms']:>15.3f}"
              f" {r['min_ms']:>8.3f} – {r['max_ms']:<8.3f}  {r['versus_fastest']:<14}{failed}{shared}".rstrip())
    print(f"report: {len(names)} figures and index.html in {os.path.join(folder, 'report')}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
