#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
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
import itertools
import os
import sys

from amp_tools import command_line

# The figures need matplotlib, which `pip install -e .` leaves out unless asked for (its `report` extra).
MATPLOTLIB_MISSING = ("the Python module matplotlib is missing, which draws the figures (pip install matplotlib, "
                      "or pip install -e '.[report]'; Debian: apt-get install python3-matplotlib)")
try:
    import matplotlib
except ModuleNotFoundError:
    if __name__ == "__main__":
        command_line.refuse("report", MATPLOTLIB_MISSING)
    raise
from amp_tools import file_names
from amp_tools.output_places import ThroughLink, make_folder, refuse_link
from amp_tools import report_simulation
from amp_tools import report_validation
from amp_tools.report_figures import figures
from amp_tools.report_index import summary_html, table_rows, write_index
from amp_tools.report_points import group, load_runs
from amp_tools.whole_file import NotWritten

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def save_whole(fig, path):
    """The figure as PNG under PATH, whole or not at all (drawn into PATH.part, then renamed)."""
    part = path + ".part"
    refuse_link(path)
    refuse_link(part)
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
        make_folder(out_dir)
        refuse_link(os.path.join(out_dir, "index.html"))  # before any figure is drawn
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
    if not os.path.lexists(folder):
        print(f"report: error: '{folder}': no such folder", file=sys.stderr)
        return 2
    if not os.path.isdir(folder):
        print(f"report: error: '{folder}' is not a folder", file=sys.stderr)
        return 2
    sys.stdout.reconfigure(errors="backslashreplace")  # the table's labels are text from the results files
    try:
        names, rows = report(folder)
    except (NoResults, ThroughLink) as e:
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
