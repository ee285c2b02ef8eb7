#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp_tools.launcher_banners on Open MPI 4.1.4's own text: the two exit banners go, the program's
lines stay (also one that lands inside a banner), other launcher messages stay whole.
Usage: test_launcher_banners.py   (tools/ on PYTHONPATH, as CTest sets it)"""
import subprocess
import sys

from amp_tools.launcher_banners import without_exit_banners

FRAME = "-" * 74
EXIT_BANNERS = f"""{FRAME}
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
{FRAME}
{FRAME}
mpiexec.openmpi detected that one or more processes exited with non-zero status, thus causing
the job to be terminated. The first process to do so was:

  Process name: [[6148,1],0]
  Exit code:    2
{FRAME}
"""
SIGNAL_NOTICE = f"""{FRAME}
mpiexec.openmpi noticed that process rank 1 with PID 0 on node vm exited on signal 11 (Segmentation fault).
{FRAME}
"""
ABORT_BANNER = f"""{FRAME}
MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD
with errorcode 3.
{FRAME}
"""
ERROR = "amp-ghost: error: grid sizes must be positive (nx=0 ny=4 nz=4)\n"

CASES = [
    ("bad input: only the program's line", ERROR + EXIT_BANNERS, ERROR),
    ("a program line inside a banner is kept",
     EXIT_BANNERS.replace("Exit code:    2\n", "Exit code:    2\n" + ERROR), ERROR),
    ("a signal notice is kept whole", SIGNAL_NOTICE + EXIT_BANNERS, SIGNAL_NOTICE),
    ("an MPI_Abort banner is kept whole", ERROR + ABORT_BANNER, ERROR + ABORT_BANNER),
    ("an unclosed frame is kept", ERROR + FRAME + "\ntable row\n", ERROR + FRAME + "\ntable row\n"),
    ("no banners: unchanged", "line one\n\nline three\n", "line one\n\nline three\n"),
]


def main():
    failures = 0
    for name, text, expected in CASES:
        got = without_exit_banners(text)
        streamed = subprocess.run([sys.executable, "-m", "amp_tools.launcher_banners"], input=text,
                                  capture_output=True, text=True, timeout=30)
        for how, result in (("text", got), ("stream", streamed.stdout)):
            if result != expected:
                failures += 1
                print(f"FAIL {name} ({how}):\n{result!r}\nexpected\n{expected!r}")
    print(f"launcher_banners: {2 * len(CASES) - failures} of {2 * len(CASES)} checks ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
