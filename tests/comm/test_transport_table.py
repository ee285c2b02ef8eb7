#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs bench/transports/transport_table.py for one amp-ghost case and checks that it exits 0 and prints
one row for every strategy x transport pair the binary accepts, in order, and no other: each pair with
its strategy's message count under every transport and bspma/isend's checksum. The names and which
pairs fit are asked of amp-ghost (--list-combinations --json, then a --plan-only set-up per pair,
refusals told by exit code 6), never listed here.

Usage: test_transport_table.py --exe AMP-GHOST --case NAME -- PYTHON transport_table.py ARGS...
"""
import argparse
import re
import subprocess
import sys

from amp_tools import combinations  # noqa: E402

NUMBER = r"[0-9]+\.[0-9]+"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--exe", required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    a = parser.parse_args()
    strategies, transports = combinations.names(a.exe)
    verdicts = combinations.verdicts(a.exe, strategies, transports)
    fitting = [pair for pair, verdict in verdicts.items() if verdict.fits]
    bad = {pair: v.line for pair, v in verdicts.items() if not v.fits and not v.not_fitting}
    if bad or len(fitting) < len(strategies):
        print(f"FAIL: amp-ghost refused names it lists itself, or too few pairs fit: {bad}, fitting {fitting}")
        return 1
    done = subprocess.run(a.command[1:] if a.command[:1] == ["--"] else a.command, capture_output=True, text=True,
                          timeout=300)
    rows = [line for line in done.stdout.splitlines() if line.startswith(f"| {a.case} |")]
    problems = [] if done.returncode == 0 else [f"exit {done.returncode}: {done.stderr.strip()}"]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    if [(c[1], c[2]) for c in cells] != fitting:
        problems.append(f"rows {[(c[1], c[2]) for c in cells]}, expected every fitting pair {fitting}")
    row = re.compile(rf"{re.escape(a.case)} \| [a-z]+ \| [a-z]+ \| {NUMBER} \| [0-9.]+-[0-9.]+ \| {NUMBER}x"
                     rf"( \| {NUMBER}){{5}} \| [0-9]+ \| [0-9a-f]{{16}}")
    for text, c in zip(rows, cells):
        if not row.fullmatch(text.strip("| ")):
            problems.append(f"malformed row: {text}")
    if cells and (cells[0][1], cells[0][2], cells[0][5]) != ("bspma", "isend", "1.00x"):
        problems.append(f"the first row is not bspma over isend at 1.00x: {rows[0]}")
    if len({c[-1] for c in cells}) != 1:
        problems.append(f"checksums differ: {sorted({c[-1] for c in cells})}")
    for strategy in strategies:
        counts = {c[-2] for c in cells if c[1] == strategy}
        if len(counts) != 1:
            problems.append(f"{strategy}: message counts differ between transports: {sorted(counts)}")
    for problem in problems:
        print(f"test_transport_table: FAIL: {problem}")
    if problems:
        print(done.stdout + done.stderr)
        return 1
    print(f"test_transport_table: ok: {len(rows)} rows, every fitting pair of {strategies} x {transports}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
