# SPDX-License-Identifier: BSD-3-Clause
"""The report's figures of measured runs, one set per proxy, each drawn over its points (report_points):
time breakdown per strategy (bars grouped by strategy; the time outside compute in a panel of its own),
message-size histograms, per-rank imbalance, scaling curves (when the rank count varies) and the
communication matrix of traced runs.
"""
import matplotlib

from amp_tools import machine_load
from amp_tools import report_simulation
from amp_tools import results
from amp_tools.report_points import (SPREAD_UNKNOWN, common_title, point_name, ranks_text, repetitions_note,
                                     step_ms, versus_fastest)

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
    return step_ms(run) - results.per_step_ms(run, "compute")


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
        if key == "compute" or all(results.timing(r, key) is None for r in runs):
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
    bins = sorted({(b["min_bytes"], b["max_bytes"]) for p in points for b in results.size_histogram(p.runs[0])})
    fig, ax = plt.subplots(figsize=(min(11, max(6, 1.2 * len(bins) + 4)), 5))
    width = 0.8 / max(1, len(points))
    spreads = any(len(p.runs) > 1 for p in points)
    colours = plt.get_cmap("tab20" if len(points) > 10 else "tab10").colors
    for i, p in enumerate(points):
        def per_bin(run, lo, hi):
            steps = results.steps(run)
            count = sum(b["count"] for b in results.size_histogram(run) if (b["min_bytes"], b["max_bytes"]) == (lo, hi))
            return count / steps / run["ranks"]
        heights = [p.median(lambda r: per_bin(r, lo, hi)) for lo, hi in bins]
        bars = [p.error_bar(lambda r: per_bin(r, lo, hi), h) for (lo, hi), h in zip(bins, heights)]
        ax.bar([j + i * width for j in range(len(bins))], heights, width,
               label=point_name(p, with_ranks).replace("\n", ", "),
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
        fom = lambda r: results.fom(r, fom_key, 0.0)  # noqa: E731
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
