# SPDX-License-Identifier: BSD-3-Clause
"""What the fault tests share: running a proxy as a user would (through mpiexec, or alone for
--plan-only and --synthesize), a small filesystem that can be filled (a real tmpfs; the test is
skipped with exit 77 where mounting is not allowed), and exact checks of exit code, the one error
line and the files a run leaves."""
import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile

from amp_tools.launcher_banners import without_exit_banners  # noqa: E402
from amp_tools import launch

SKIP = 77
ABORT_BANNER = "BAD TERMINATION"  # MPICH's banner after MPI_Abort or a crash


def parser(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--mpiexec", required=True)
    p.add_argument("--bin", required=True, type=os.path.abspath,
                   help="folder of amp-ghost, amp-sage, amp-nobel, amp-micro")
    return p


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def command(a, proxy, arguments, ranks=1):
    """The command line: under mpiexec with `ranks` ranks, or alone when ranks is None."""
    exe = os.path.join(a.bin, proxy)
    if ranks is None:
        return [exe] + arguments
    return launch.mpiexec(a.mpiexec, ranks, [exe] + arguments)


def run(a, proxy, arguments, ranks=1, env=None, timeout=60, cwd=None):
    full_env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    full_env.update(env or {})
    line = command(a, proxy, arguments, ranks)
    # Its own process group, so that a run past its time is killed with every rank mpiexec started.
    process = subprocess.Popen(line, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full_env, cwd=cwd,
                               start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
        return finished(line, process.returncode, out, err)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return subprocess.CompletedProcess(line, "timeout", "", f"did not finish in {timeout} s")


def finished(line, code, out, err):
    """The run as a user sees it through the driver: without Open MPI's two exit banners."""
    return subprocess.CompletedProcess(line, code, out, without_exit_banners(err))


def lines_of(done):
    return [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def error_lines(done):
    return [line for line in (done.stdout + done.stderr).splitlines() if ": error" in line or "error on rank" in line
            or ABORT_BANNER in line]


def expect_refusal(done, exit_code, line, what):
    """Exit `exit_code`, exactly one line of output, and it is `line` (exactly)."""
    lines = lines_of(done)
    if done.returncode != exit_code or lines != [line]:
        fail(f"{what}: expected exit {exit_code} and only {line!r}; got exit {done.returncode}: {lines}")


def expect_error_line(done, exit_code, line, what):
    """Exit `exit_code`, exactly one error line and it is `line`, no MPI_Abort banner (other output,
    such as the summary, may be there)."""
    errors = error_lines(done)
    if done.returncode != exit_code or errors != [line]:
        fail(f"{what}: expected exit {exit_code} and the one error line {line!r}; got exit {done.returncode}: "
             f"{errors} (all output: {lines_of(done)})")


def expect_files(folder, names, what):
    present = sorted(os.listdir(folder))
    if present != sorted(names):
        fail(f"{what}: expected {sorted(names)} in {folder}, found {present}")


@contextlib.contextmanager
def small_filesystem(size="64k"):
    """A fresh tmpfs of `size`, unmounted afterwards; exits 77 (skipped) where it cannot be mounted."""
    folder = tempfile.mkdtemp(prefix="amp-faults-")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", folder],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        os.rmdir(folder)
        print(f"SKIP: cannot mount a tmpfs here ({mounted.stderr.strip() or 'mount failed'})")
        sys.exit(SKIP)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", folder])
        os.rmdir(folder)


def fill(folder, name="filler"):
    """Fills the filesystem of `folder` to the last byte."""
    with open(os.path.join(folder, name), "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 4096)
        except OSError:
            pass
        try:
            while True:
                out.write(b"\0")
        except OSError:
            pass
