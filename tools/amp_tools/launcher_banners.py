#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Drops the two banners Open MPI's launcher prints whenever a rank exits non-zero ("Primary job
terminated normally, but ..." and "mpiexec detected that one or more processes exited with non-zero
status ..."): the program has already said what went wrong. Every other line is kept, launcher
messages included (MPI errors, signals, aborts), and so is any program line that lands inside a banner.

A filter, stdin to stdout, line by line: COMMAND 2>&1 >&3 | python3 -m amp_tools.launcher_banners >&2
On captured text: from amp_tools.launcher_banners import without_exit_banners
"""
import re
import signal
import sys

from amp_tools import command_line

# Open MPI frames every help message with a line of 74 dashes above and below.
FRAME = "-" * 74

# The banners' lines (help-errmgr-base.txt normal-termination-but, help-orterun.txt non-zero-exit).
BANNER_FIRST_LINES = [
    re.compile(r"Primary job\s+terminated normally, but \d+ process(es)? returned"),
    re.compile(r"\S+ detected that one or more processes exited with non-zero status, thus causing"),
]
BANNER_LINES = BANNER_FIRST_LINES + [
    re.compile(r"(a )?non-zero exit codes?\.* Per user-direction, the job has been aborted\."),
    re.compile(r"the job to be terminated\. The first process to do so was:"),
    re.compile(r"\s*Process name: \[\[\d+,\d+\],\d+\]"),
    re.compile(r"\s*Exit code:\s+-?\d+"),
    re.compile(r""),
]


def _is_banner(framed):
    """framed: the lines between two frame lines."""
    return bool(framed) and any(p.fullmatch(framed[0]) for p in BANNER_FIRST_LINES)


def _kept(block):
    """block: a frame line, the lines it frames, the closing frame line."""
    framed = block[1:-1]
    if not _is_banner(framed):
        return block
    return [line for line in framed if not any(p.fullmatch(line) for p in BANNER_LINES)]


def filter_lines(lines):
    """Yields the lines (without newlines) that are not part of an exit banner."""
    block = []
    for line in lines:
        if block:
            block.append(line)
            if line == FRAME:
                yield from _kept(block)
                block = []
        elif line == FRAME:
            block = [line]
        else:
            yield line
    yield from block  # an unclosed frame is not a banner


def without_exit_banners(text):
    kept = list(filter_lines(text.splitlines()))
    return "\n".join(kept) + ("\n" if kept and text.endswith("\n") else "")


def main():
    command_line.Parser("launcher_banners", __doc__).parse_args()
    # Ctrl-C reaches the whole foreground job: the launcher forwards it to the ranks and prints what
    # it prints; this filter keeps reading until the launcher closes the pipe.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for line in filter_lines(raw.rstrip("\n") for raw in sys.stdin):
        print(line, flush=True)


if __name__ == "__main__":
    main()
