#!/usr/bin/env python3
"""Bad input through mpiexec: the program must exit 2 with exactly one line (Open MPI's exit banners
dropped) matching --expect, printed once however many ranks run.

Usage: check_one_line_error.py --mpiexec M --np N --exe EXE --expect REGEX [--] PROGRAM ARGS...
"""
import re
import subprocess

from checked_run import failure, launcher_parser, parse_with_program_arguments, without_exit_banners

fail = failure("check_one_line_error")

parser = launcher_parser(__doc__)
parser.add_argument("--expect", required=True, metavar="REGEX")
a = parse_with_program_arguments(parser, "program_arguments")
command = [a.mpiexec, *a.mpiexec_flags.split(), "-n", str(a.np), a.exe, *a.program_arguments]
try:
    done = subprocess.run(command, capture_output=True, text=True, timeout=100)
except subprocess.TimeoutExpired:
    fail(f"did not finish in 100 s: {' '.join(command)}")
lines = [line for line in (done.stdout + without_exit_banners(done.stderr)).splitlines() if line.strip()]
if done.returncode != 2:
    fail(f"expected exit 2, got {done.returncode}: {lines}")
if len(lines) != 1 or not re.search(a.expect, lines[0]):
    fail(f"expected one line matching '{a.expect}', got {lines}")
print(f"check_one_line_error: rejected as expected: {lines[0]}")
