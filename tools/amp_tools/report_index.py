# SPDX-License-Identifier: BSD-3-Clause
"""The report's tables: a row per point (median, spread, against the fastest, verification), the summary
index.html opens with (the fastest point per proxy and rank count, the fastest prediction per network),
and index.html itself, which shows them with the figures.
"""
import html
import os

from amp_tools import machine_load
from amp_tools import results
from amp_tools.report_points import step_ms, versus_fastest
from amp_tools.whole_file import write_whole


def table_rows(proxies):
    rows = []
    for proxy, points in sorted(proxies.items()):
        for p in points:
            lo, hi = p.spread(step_ms)
            rows.append({"proxy": proxy, "point": p.label, "ranks": p.ranks, "repetitions": len(p.runs),
                         "median_ms": p.median(step_ms), "min_ms": lo, "max_ms": hi,
                         "versus_fastest": versus_fastest(p, points),
                         "shared_cores": sum(machine_load.shared_cores(r) is not None for r in p.runs),
                         "verified": all(results.verified(r) for r in p.runs),
                         "checksums": len({results.checksum(r) for r in p.runs})})
    return rows


def fastest_rows(proxies):
    """index.html's summary of the measured points: per proxy and rank count, the fastest point, its
    median time per step, and the next fastest with how it compares (versus_fastest)."""
    rows = []
    for proxy, points in sorted(proxies.items()):
        for ranks in sorted({p.ranks for p in points}):
            peers = sorted((p for p in points if p.ranks == ranks), key=lambda p: p.median(step_ms))
            runner_up = f"{peers[1].label} ({versus_fastest(peers[1], points)})" if len(peers) > 1 else ""
            rows.append({"proxy": proxy, "ranks": ranks, "fastest": peers[0].label,
                         "median_ms": peers[0].median(step_ms),
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
            f"{f' (synthesized: {html.escape(synthesized)})' if synthesized else ''}</td>"
            f"<td>{html.escape(series[0][0])}</td><td>{series[0][1]:.3f}</td>"
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
    images = "".join(f"<h2>{html.escape(title)}</h2><img src=\"{name}\" alt=\"{html.escape(title)}\">" for name,
                     title in written)
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
