# SPDX-License-Identifier: BSD-3-Clause
"""A simulator's process: run in a process group of its own, its output fed line by line to a reader, ended
with its whole group on a timeout or on SIGHUP, SIGINT or SIGTERM (Interrupted), so that no replay outlives
`amp simulate`.
"""
import os
import signal
import subprocess
import threading
import time

from amp_tools.simulate_errors import SimulatorError


class SimulatorTimedOut(SimulatorError):
    """The simulator ran past the time it was given (and was ended)."""


INTERRUPTIONS = (signal.SIGHUP, signal.SIGINT, signal.SIGTERM)  # each ends the simulator and cleans up


class Interrupted(Exception):
    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _interrupt(signum, _frame):
    raise Interrupted(signum)


def run_simulator(command, cwd, timeout, on_line=None, env=None, lines_from="stderr"):
    """Runs a simulator in its own process group (ended with it on a timeout or a signal); feeds each line
    of its stderr (lines_from="stderr"; its standard output then discarded: a pipe nobody reads while stderr
    is read would fill and stop it) or of its stdout and stderr together (lines_from="stdout") to on_line,
    which returns True for a line it consumed; returns (exit code, stdout, the last lines of stderr). With
    lines_from="stdout", stdout is the lines on_line did not consume."""
    streamed = on_line and lines_from == "stdout"
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE if not on_line or streamed
                               else subprocess.DEVNULL,
                               stderr=subprocess.STDOUT if streamed else subprocess.PIPE, text=True,
                               start_new_session=True, env=env)
    tail, kept = [], []
    # A simulator that prints nothing for a while is still ended on time: a timer ends its process group,
    # which closes the pipe the loop below reads.
    timed_out = threading.Event()
    watchdog = threading.Timer(timeout, lambda: (timed_out.set(), end_process_group(process)))
    try:
        if on_line:
            watchdog.start()
            for line in process.stdout if streamed else process.stderr:
                if not on_line(line):
                    tail = (tail + [line.rstrip()])[-8:]
                    if streamed:
                        kept.append(line)
            process.wait()
            if timed_out.is_set():
                raise SimulatorTimedOut(f"{os.path.basename(command[0])} ran past {timeout:g} s")
            stdout = "".join(kept)
        else:
            try:
                stdout, stderr = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                raise SimulatorTimedOut(f"{os.path.basename(command[0])} ran past {timeout:g} s") from None
            tail = stderr.strip().splitlines()[-8:]
    finally:
        watchdog.cancel()
        if process.poll() is None:
            end_process_group(process)
            process.wait()
    return process.returncode, stdout, tail


def run_in_what_is_left(name, command, cwd, timeout, started, **kwargs):
    """run_simulator (its keyword arguments in kwargs) given what is left of `timeout` seconds counted from
    `started`, where the replays before it in one --timeout used the rest; a SimulatorError named with the whole
    limit ("NAME ran past T s") where nothing is left or this replay runs past it."""
    remaining = timeout - (time.monotonic() - started)
    if remaining <= 0:  # the replays before used the whole limit
        raise SimulatorError(f"{name} ran past {timeout:g} s")
    try:
        return run_simulator(command, cwd, remaining, **kwargs)
    except SimulatorTimedOut:  # named with the whole limit, not what the replays before left of it
        raise SimulatorError(f"{name} ran past {timeout:g} s") from None


def exit_text(code):
    """A simulator's exit status as a line names it: "exit 1", or "killed by SIGABRT" for a signal (a
    negative status from subprocess)."""
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit {code}"


def end_process_group(process):
    """SIGKILL to the simulator's process group (it runs in a session of its own)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
