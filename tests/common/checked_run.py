# SPDX-License-Identifier: BSD-3-Clause
"""What every checker run through cmake/AmpTesting.cmake's amp_add_checked_run shares: the launcher
arguments CMake passes (--mpiexec, --mpiexec-flags, --np, --exe), a failure that prints one line
and exits 1, a command run whose failure is one, and Open MPI's exit banners dropped from a failed run's
error output."""
import argparse
import re
import subprocess
import sys

from amp_tools.launcher_banners import without_exit_banners  # noqa: E402,F401  (for the checkers)


def launcher_parser(description=None):
    """An ArgumentParser that already takes the launcher arguments; the checker adds its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--mpiexec-flags", default="", help="extra mpiexec flags, space-separated")
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--exe", required=True)
    return parser


def parse_with_program_arguments(parser, name):
    """Parses the command line; everything after the checker's own options (a leading '--' dropped)
    goes to the attribute `name`: the arguments for the program under test."""
    parser.add_argument(name, nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    if getattr(arguments, name)[:1] == ["--"]:
        setattr(arguments, name, getattr(arguments, name)[1:])
    return arguments


def failure(checker):
    """fail(message): prints 'CHECKER: FAIL: message' (or 'FAIL: message') and exits 1."""
    def fail(message):
        print(f"{checker}: FAIL: {message}" if checker else f"FAIL: {message}")
        sys.exit(1)
    return fail


def checked(fail):
    """run(command, **kwargs): runs the command with its output captured and returns its standard output;
    a non-zero exit fail(...)s with the command, its exit code and the end of its output."""
    def run(command, **kwargs):
        done = subprocess.run(command, capture_output=True, text=True, **kwargs)
        if done.returncode != 0:
            fail(f"{' '.join(command)} exited {done.returncode}: {(done.stdout + done.stderr).strip()[-600:]}")
        return done.stdout
    return run


def refusal_line(done, regex, fail, exit_code=None):
    """A refused run printed exactly one line (Open MPI's banners aside) matching `regex` and exited
    with `exit_code` (any non-zero when None); returns that line, else fail(...)s."""
    lines = [line for line in (done.stdout + without_exit_banners(done.stderr)).splitlines() if line.strip()]
    if (done.returncode == 0) if exit_code is None else (done.returncode != exit_code):
        fail(f"expected exit {exit_code or 'non-zero'}, got {done.returncode}: {lines}")
    if len(lines) != 1 or not re.search(regex, lines[0]):
        fail(f"expected one line matching '{regex}', got {lines}")
    return lines[0]
