#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Bad input through mpiexec: the program must exit 2 with exactly one line (Open MPI's exit banners
dropped) matching --expect, printed once however many ranks run.

Usage: test_one_line_error.py --mpiexec M --np N --exe EXE --expect REGEX [--] PROGRAM ARGS...
"""
import subprocess

from checked_run import failure, launcher_parser, parse_with_program_arguments, refusal_line
from amp_tools import launch

fail = failure("test_one_line_error")

parser = launcher_parser(__doc__)
parser.add_argument("--expect", required=True, metavar="REGEX")
a = parse_with_program_arguments(parser, "program_arguments")
command = launch.mpiexec(a.mpiexec, a.np, [a.exe, *a.program_arguments], a.mpiexec_flags)
try:
    done = subprocess.run(command, capture_output=True, text=True, timeout=100)
except subprocess.TimeoutExpired:
    fail(f"did not finish in 100 s: {' '.join(command)}")
line = refusal_line(done, a.expect, fail, exit_code=2)
print(f"test_one_line_error: rejected as expected: {line}")
