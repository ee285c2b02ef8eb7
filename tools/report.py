#!/usr/bin/env python3
"""Draws the figures of a folder of AMP results (PNG, matplotlib) and an index.html that shows them:
time breakdown per strategy, message-size histograms, per-rank imbalance, scaling curves (when the
rank count varies) and the communication matrix of traced runs (from `amp-trace stats --json`).

Runs with the same configuration and rank count are repetitions: the figures show their median and
their spread (min..max), the table in index.html their median, spread and the difference to the
fastest point at the same rank count, or "within noise" where the two spreads overlap.

Usage: tools/report.py DIR      (writes DIR/report/: *.png and index.html; prints the table)
"""
import glob
import html
import json
import os
import statistics
import sys

import matplotlib

import machine_load
import report_simulation
import report_validation
from results_shape import matrix_problem, results_problem
from whole_file import NotWritten, write_whole

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

# Time components of the stacked breakdown (the Cielo study's split): JSON key, label. "MPI" is the
# posting side (mpi minus mpi_wait); what the components leave of the step is "other".
COMPONENTS = [("compute", "compute"), ("pack", "pack"), ("unpack", "unpack"), ("gather_scatter", "gather/scatter"),
              ("mpi_post", "MPI (post)"), ("mpi_wait", "wait"), ("collective", "collectives"), ("amr", "AMR")]
# The figure of merit each proxy reports per rank (or per PE) and second.
FOM = {"amp-ghost": ("cells_updated_per_second_per_rank", "cell updates / s / rank"),
       "amp-sage": ("cells_per_step_per_pe_per_second", "cells per step / PE / s"),
       "amp-nobel": ("cells_per_step_per_pe_per_second", "cells per step / PE / s")}
# Configuration keys that are no axis: the seed, what the proxy derives from the rank count, and
# whether the transport's trace can be replayed (it follows from the transport).
NOT_AXES = {"seed", "global_grid", "global_cells", "process_grid", "local_block", "replayable"}
# Keys left out of figure titles: derived from others, or settings of the self-check.
QUIET = {"global_cells", "global_grid", "process_grid", "local_block", "summed_vars", "error_tol", "report_diffusion",
         "check_every", "seed", "replayable"}


def warn(message):
    print(f"report: warning: {message}", file=sys.stderr)


def read_json(path):
    """The parsed file, or None with one warning line when it cannot be read or is not JSON."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        warn(f"{path} is not readable JSON ({e.strerror if isinstance(e, OSError) else e}); left out")
        return None


def is_results(data):
    """A proxy's results of a real run: neither another file of the folder nor a plan-only, synthesis
    or amp-micro file (no mode; timing or config)."""
    return isinstance(data, dict) and "proxy" in data and "mode" not in data and ("timing" in data or "config" in data)


def load_runs(folder):
    """Every proxy results file directly in `folder` (a study's runs, `./amp run`'s runs); a malformed
    one (see results_shape) is left out with one warning line."""
    runs = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        if path.endswith((".trace-stats.json", ".outcome.json")):
            continue
        data = read_json(path)
        if not is_results(data):
            continue
        problem = results_problem(data)
        if problem:
            warn(f"{path}: {problem}; left out")
            continue
        data["_path"] = path
        stats = path[:-len(".json")] + ".trace-stats.json"
        if os.path.exists(stats):
            trace_stats = read_json(stats)
            if trace_stats is not None:
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


def versus_fastest(point, points):
    """How a point's time per step compares with the fastest point at its rank count: '' for the
    fastest, 'within noise' when their repetitions' ranges (min..max) overlap, '+N%' when they do
    not, and 'spread unknown' when either has a single repetition (no noise measured)."""
    peers = [p for p in points if p.ranks == point.ranks]
    fastest = min(peers, key=lambda p: p.median(step_ms))
    if fastest is point:
        return "fastest" if len(peers) > 1 else ""
    if len(point.runs) < 2 or len(fastest.runs) < 2:
        return "spread unknown"
    lo, _ = point.spread(step_ms)
    _, fastest_hi = fastest.spread(step_ms)
    if lo <= fastest_hi:
        return "within noise"
    return f"+{point.median(step_ms) / fastest.median(step_ms) - 1:.0%}"


def repetitions_note(points):
    counts = sorted({len(p.runs) for p in points})
    text = "/".join(map(str, counts))
    return f"bars: spread (min–max) of {text} repetition{'s' if counts != [1] else ''}" + (
        "; 1 repetition has no spread" if 1 in counts else "")


def config_key(run):
    config = {k: v for k, v in run["config"].items() if k not in NOT_AXES}
    return json.dumps([run["proxy"], run["ranks"], config], sort_keys=True)


def group(runs):
    """Points (repetitions together), per proxy, labelled by the configuration keys that vary."""
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
            p.label = " ".join(str(p.config.get(k)) for k in varying) or p.config.get("comm_method", "run")
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


def breakdown_figure(proxy, points):
    """Stacked time per step per point: compute, pack, unpack, MPI, wait, collectives, other."""
    with_ranks = len({p.ranks for p in points}) > 1
    fig, ax = plt.subplots(figsize=(max(8, 1.3 * len(points) + 4), 5.5))
    names = [point_name(p, with_ranks) for p in points]
    # The components of each point's median repetition, so that the stack adds up to its time per step.
    runs = [p.median_run() for p in points]
    bottoms = [0.0] * len(points)
    for key, label in COMPONENTS:
        if not any(key in r["timing"] for r in runs):
            continue
        heights = [p.per_step(r, key) for p, r in zip(points, runs)]
        ax.bar(names, heights, bottom=bottoms, label=label)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    totals = [r["timing"]["per_step_seconds"] * 1e3 for r in runs]
    other = [max(0.0, t - b) for t, b in zip(totals, bottoms)]
    ax.bar(names, other, bottom=bottoms, label="other", color="lightgrey")
    bars = [p.error_bar(step_ms, t) for p, t in zip(points, totals)]
    ax.errorbar(names, totals, yerr=[[b[0] for b in bars], [b[1] for b in bars]], fmt="none", ecolor="black", capsize=4,
                label="spread of repetitions")
    # Each point against the fastest at its rank count: a difference inside the spread is not one.
    for name, p, t, b in zip(names, points, totals, bars):
        ax.annotate(versus_fastest(p, points), (name, t + b[1]), textcoords="offset points", xytext=(0, 4),
                    ha="center", fontsize=7)
    ax.set_ylabel("time per step (ms, average rank; median repetition)")
    ax.set_title(f"Time breakdown per strategy\n{common_title(proxy, points)}\n{repetitions_note(points)}; "
                 "above each bar: against the fastest at its rank count", fontsize=9)
    ax.margins(y=0.12)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return fig


def histogram_figure(proxy, points):
    """Messages per step per rank in each power-of-two size bin, one bar group per point."""
    with_ranks = len({p.ranks for p in points}) > 1
    bins = sorted({(b["min_bytes"], b["max_bytes"]) for p in points for b in p.runs[0]["messages"]["size_histogram"]})
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(bins) + 4), 5))
    width = 0.8 / max(1, len(points))
    for i, p in enumerate(points):
        def per_bin(run, lo, hi):
            steps = max(1, run["config"].get("num_tsteps", 1))
            count = sum(b["count"] for b in run["messages"]["size_histogram"] if (b["min_bytes"], b["max_bytes"]) == (lo, hi))
            return count / steps / run["ranks"]
        heights = [p.median(lambda r: per_bin(r, lo, hi)) for lo, hi in bins]
        bars = [p.error_bar(lambda r: per_bin(r, lo, hi), h) for (lo, hi), h in zip(bins, heights)]
        ax.bar([j + i * width for j in range(len(bins))], heights, width, label=point_name(p, with_ranks).replace("\n", ", "),
               yerr=[[b[0] for b in bars], [b[1] for b in bars]], capsize=2, error_kw={"elinewidth": 0.8})
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(bins))])
    ax.set_xticklabels([f"{size_text(lo)}–{size_text(hi + 1)}" for lo, hi in bins], rotation=30, fontsize=8)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("messages per step per rank")
    ax.set_title(f"Message sizes (median)\n{common_title(proxy, points)}\n{repetitions_note(points)}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def size_text(n):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} B"


def imbalance_figure(proxy, points):
    """Min / avg / max over ranks of compute, MPI and collective time, one panel each."""
    with_ranks = len({p.ranks for p in points}) > 1
    keys = [("compute", "compute"), ("mpi", "MPI post + wait"), ("collective", "collectives")]
    fig, axes = plt.subplots(len(keys), 1, figsize=(min(16, max(7, 1.1 * len(points) + 3)), 3.2 * len(keys) + 1), squeeze=False)
    names = [point_name(p, with_ranks) for p in points]
    for ax, (key, label) in zip(axes[:, 0], keys):
        avg = [p.median(lambda r: p.per_step(r, key, "avg")) for p in points]
        low = [a - p.median(lambda r: p.per_step(r, key, "min")) for a, p in zip(avg, points)]
        high = [p.median(lambda r: p.per_step(r, key, "max")) - a for a, p in zip(avg, points)]
        ax.errorbar(range(len(points)), avg, yerr=[low, high], fmt="o", capsize=5, label="min / avg / max over ranks")
        spread = [p.spread(lambda r: p.per_step(r, key, "avg")) for p in points]
        ax.vlines(range(len(points)), [s[0] for s in spread], [s[1] for s in spread], colors="tab:orange", alpha=0.45,
                  linewidth=9, label="avg rank: spread of repetitions")
        ax.set_xticks(range(len(points)))
        ax.set_xticklabels(names, fontsize=7)
        ax.set_title(f"{label}: min / avg / max over ranks (median repetition)", fontsize=9)
        ax.set_ylabel("ms per step")
        ax.legend(fontsize=7, loc="best")
    fig.suptitle(f"Per-rank imbalance\n{common_title(proxy, points)}\n"
                 f"band: {repetitions_note(points).removeprefix('bars: ')}", fontsize=9)
    fig.tight_layout()
    return fig


def scaling_figure(proxy, points):
    """Time per step and FOM against ranks, one line per label (only labels with 2+ rank counts)."""
    lines = {}
    for p in points:
        lines.setdefault(p.label, []).append(p)
    lines = {k: sorted(v, key=lambda p: p.ranks) for k, v in lines.items() if len(v) > 1}
    if not lines:
        return None
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
                 f"bands: {repetitions_note(points).removeprefix('bars: ')}", fontsize=9)
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
    """(file name, title, figure) for every figure the runs call for."""
    out = []
    for proxy, points in sorted(proxies.items()):
        short = proxy.replace("amp-", "")
        for name, draw, title in FIGURES:
            fig = draw(proxy, points)
            if fig is not None:
                out.append((f"{short}-{name}.png", f"{proxy}: {title}", fig))
    return out


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


def write_index(out_dir, folder, written, rows):
    cells = "".join(
        f"<tr><td>{html.escape(r['proxy'])}</td><td>{html.escape(r['point'])}</td><td>{r['ranks']}</td>"
        f"<td>{r['repetitions']}</td><td>{r['median_ms']:.3f}</td><td>{r['min_ms']:.3f} – {r['max_ms']:.3f}</td>"
        f"<td>{html.escape(r['versus_fastest'])}</td><td>{r['shared_cores'] or ''}</td>"
        f"<td>{'passed' if r['verified'] else 'FAILED'}</td></tr>" for r in rows)
    images = "".join(f"<h2>{html.escape(title)}</h2><img src=\"{name}\" alt=\"{html.escape(title)}\">" for name, title in written)
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>AMP report: {html.escape(os.path.basename(os.path.abspath(folder)))}</title>
<style>body{{font-family:sans-serif;margin:2em}} img{{max-width:100%}} td,th{{padding:2px 10px;text-align:right}}</style>
</head><body><h1>AMP report: {html.escape(os.path.abspath(folder))}</h1>
<table><tr><th>proxy</th><th>point</th><th>ranks</th><th>repetitions</th><th>time per step, median (ms)</th>
<th>spread (ms)</th><th>vs fastest</th><th>runs that shared their cores</th><th>verification</th></tr>{cells}</table>
{images}
</body></html>
"""
    write_whole(os.path.join(out_dir, "index.html"), page)


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
    written = []
    seeds = report_validation.figures(report_simulation.load(folder))  # published beside AMP (docs/VALIDATION.md)
    for name, title, fig in figures(proxies) + report_simulation.figures(folder) + seeds:
        save_whole(fig, os.path.join(out_dir, name))
        plt.close(fig)
        written.append((name, title))
    rows = table_rows(proxies)
    write_index(out_dir, folder, written, rows)
    return [name for name, _ in written], rows


def main(args):
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if not os.path.isdir(args[0]):
        print(f"report: error: '{args[0]}' is not a folder", file=sys.stderr)
        return 2
    try:
        names, rows = report(args[0])
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
    print(f"report: {len(names)} figures and index.html in {os.path.join(args[0], 'report')}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
