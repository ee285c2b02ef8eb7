# SPDX-License-Identifier: BSD-3-Clause
"""Runs one command of a study (a launcher and its ranks, or a synthesis) into its log, and tells a run
ended by a signal from one that exited with a code: a study interrupted by Ctrl-C or SIGTERM stops its
command, records the signal and ends; a launcher that reports a rank's signal is read as that signal.
A tool of AMP's own (simulate, its calibration) is passed the signal and given time to clean up."""
import os
import re
import signal
import subprocess
import time

from amp_tools.whole_file import NotWritten
from amp_tools.output_places import refuse_link

# How long a command may take to stop after the signal reached it (Ctrl-C reaches the whole process
# group; a SIGTERM sent to the study alone is passed on after the first wait), then after SIGKILL.
GRACE_SECONDS = 5
# What launchers write when a rank died of a signal: MPICH's Hydra ("... EXIT STRING: Terminated
# (signal 15)"; its "Sending Ctrl-C to processes" when it got SIGINT itself, after which it exits 0),
# Open MPI ("... exited on signal 15 (Terminated)").
LAUNCHER_SIGNAL = re.compile(r"EXIT STRING: .*\(signal (\d+)\)|exited on signal (\d+)")
HYDRA_CTRL_C = "Sending Ctrl-C to processes"
# The proxies' exit code for "the answer is good, the trace could not be written" (README, "Output
# fields"): the run's results are kept, its trace marked failed. Every other non-zero code fails the run.
TRACE_FAILED = 5


class Stopped(BaseException):
    """The study got SIGINT or SIGTERM: the command was stopped and recorded; the study ends."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum, self.status = signum, None  # status: the stopped command's, once it ended


def _raise_stopped(signum, _frame):
    raise Stopped(signum)


def stop_on_signals():
    """SIGINT and SIGTERM raise Stopped in the study (instead of a traceback or a silent death)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _raise_stopped)


def signal_name(signum):
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def failure(status, signum, log_path):
    """How a failed command ended, for its line: a signal is named as one (the launcher's banner after it
    says no more), not read as an exit code; an exit code comes with the log's last line."""
    if signum:
        return f"FAILED (killed by {signal_name(signum)})"
    with open(log_path, errors="replace") as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    return f"FAILED (exit {status}): {lines[-1] if lines else ''}"


def ended_by_signal(status, log_text):
    """The signal that ended a run, or None: the launcher's own death (a negative status, or 128+N from
    a shell between), else a rank's signal as the launcher reports it in the log."""
    if status < 0:
        return -status
    if 128 < status <= 128 + 64:
        return status - 128
    match = LAUNCHER_SIGNAL.search(log_text)
    if match:
        return int(match.group(1) or match.group(2))
    if HYDRA_CTRL_C in log_text:
        return signal.SIGINT
    return None


def _stop(process, signum):
    """Lets the command end on the signal it got; passes the signal on if it did not, then kills it."""
    for send in (None, signum, signal.SIGKILL):
        if send is not None:
            try:
                process.send_signal(send)
            except ProcessLookupError:
                pass
        try:
            process.wait(timeout=GRACE_SECONDS)
            return
        except subprocess.TimeoutExpired:
            continue
        except Stopped:  # a second Ctrl-C: go on stopping it
            continue


def run_logged(command, log_path, env, header=None):
    """Runs `command` with its output into log_path (a first line `header` if given). Returns (exit
    status, the signal that ended it or None). Raises Stopped after stopping it when the study is."""
    refuse_link(log_path)
    with open(os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644), "w") as log:
        if header:
            try:
                log.write(header + "\n")
                log.flush()
            except OSError as e:
                raise NotWritten(f"cannot write '{log_path}': {e.strerror}") from None
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            status = process.wait()
        except Stopped as stopped:
            _stop(process, stopped.signum)
            stopped.status = process.returncode
            raise
    with open(log_path, errors="replace") as log:
        return status, ended_by_signal(status, log.read())


# How long a tool of AMP's own may take to end on the signal passed to it (simulate ends its simulator's
# process group and removes its TMPDIR folder, in well under a second) before it is killed.
TOOL_GRACE_SECONDS = 30


def _children(pid):
    """The pids of `pid`'s children (Linux: /proc/PID/task/PID/children), [] where it cannot tell."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(child) for child in f.read().split()]
    except (OSError, ValueError):
        return []


def _end_tool(process, signum):
    """Passes `signum` on to the tool and waits for it to clean up and end (reading what it writes, so
    that a full pipe cannot hold it); past TOOL_GRACE_SECONDS it is killed, and so is the process group of
    each child it started (a simulator runs in its own session)."""
    try:
        process.send_signal(signum)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + TOOL_GRACE_SECONDS
    while process.poll() is None and time.monotonic() < deadline:
        try:
            process.communicate(timeout=max(0.01, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            break
        except Stopped:  # a second Ctrl-C: the tool is ending already
            continue
    if process.poll() is None:
        children = _children(process.pid)
        process.kill()
        for child in children:
            try:
                os.killpg(child, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        process.wait()


def run_tool(command, env=None):
    """subprocess.run(command, capture_output=True, text=True) for a tool of AMP's own that cleans up when
    sent SIGTERM or SIGINT (amp_tools.simulate). It runs in its own session, so that a Ctrl-C at the
    terminal reaches it once, through the study: stopped, the study passes the signal on, waits for the
    tool (_end_tool), then raises Stopped. A SIGKILL, as subprocess.run sends, would leave the tool's
    TMPDIR folder and its simulator behind."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env, start_new_session=True)
    try:
        stdout, stderr = process.communicate()
    except Stopped as stopped:
        _end_tool(process, stopped.signum)
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
