#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs a command and checks its exit code and the lines it printed: every --line pattern must match a
whole stdout line, in order; with --rows PREFIX no stdout line starting with PREFIX may go unmatched;
--stderr patterns must match stderr's non-empty lines one for one.

A pattern is literal text with placeholders: {num} a number (1, 0.25, 1.3e+08), {hex} hex digits,
{pct} a share with its spread ("9% (9-9)"), {any} anything; a run of spaces matches any run of spaces.
Lines are compared without their leading and trailing spaces, and stderr without the two banners
Open MPI's launcher adds when a rank exits non-zero (tools/amp_tools/launcher_banners.py, as the driver drops them).

Usage: test_printed_lines.py [--exit N] [--line PATTERN]... [--rows PREFIX] [--stderr PATTERN]... -- COMMAND...
"""
import argparse
import re
import subprocess
import sys

from amp_tools.launcher_banners import without_exit_banners  # noqa: E402

PLACEHOLDERS = {"num": r"-?[0-9][0-9.]*(e[-+][0-9]+)?", "hex": r"[0-9a-f]+", "pct": r"[0-9]+% \([0-9]+-[0-9]+\)",
                "any": r".*"}


def regex(pattern):
    out = []
    for piece in re.split(r"(\{[a-z]+\}| +)", pattern.strip()):
        if piece.startswith("{") and piece[1:-1] in PLACEHOLDERS:
            out.append(PLACEHOLDERS[piece[1:-1]])
        elif piece and piece.strip() == "":
            out.append(" +")
        else:
            out.append(re.escape(piece))
    return re.compile("".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exit", type=int, default=0)
    parser.add_argument("--line", action="append", default=[])
    parser.add_argument("--rows")
    parser.add_argument("--stderr", action="append", default=[])
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    a = parser.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    done = subprocess.run(command, capture_output=True, text=True, timeout=a.timeout)
    out = [line.strip() for line in done.stdout.splitlines()]
    err = [line.strip() for line in without_exit_banners(done.stderr).splitlines() if line.strip()]
    problems = []
    if done.returncode != a.exit:
        problems.append(f"exit {done.returncode}, expected {a.exit}")
    at, matched = 0, set()
    for pattern in a.line:
        compiled = regex(pattern)
        found = next((i for i in range(at, len(out)) if compiled.fullmatch(out[i])), None)
        if found is None:
            problems.append(f"no stdout line (after line {at}) matches: {pattern}")
            continue
        matched.add(found)
        at = found + 1
    if a.rows:
        extra = [line for i, line in enumerate(out) if line.startswith(a.rows) and i not in matched]
        if extra:
            problems.append(f"rows nobody expected: {extra}")
    if len(err) != len(a.stderr) or not all(regex(p).fullmatch(line) for p, line in zip(a.stderr, err)):
        problems.append(f"stderr {err}, expected lines matching {a.stderr}")
    for problem in problems:
        print(f"test_printed_lines: FAIL: {problem}")
    if problems:
        print("--- stdout ---\n" + done.stdout + "--- stderr ---\n" + done.stderr)
        return 1
    print(f"test_printed_lines: ok: exit {done.returncode}, {len(a.line)} lines, {len(a.stderr)} stderr lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
