#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fault-case tests of libamp_dumpi and amp-trace, one per invocation:
  sigterm     : a rank killed with SIGTERM mid-run leaves a readable trace that validate calls cut short
  sigint      : the same for SIGINT (Ctrl-C through mpiexec)
  sigabrt     : the same for SIGABRT
  exit        : exit() without MPI_Finalize leaves readable traces that validate calls cut short
  sigkill     : ranks killed with SIGKILL leave traces that validate rejects and repair makes readable
  sigkill_recent: a rank SIGKILLed 3.5 s into a run leaves, once repaired, records up to about one
                flush interval (AMP_TRACE_FLUSH_SECONDS, default 1) before the kill; dumpi2ascii reads it
  flush_every_record: AMP_TRACE_FLUSH_SECONDS=0 writes every record at once
  flush_bad_value: a malformed AMP_TRACE_FLUSH_SECONDS stops every rank at start-up with one line each
  truncated   : a truncated copy of a good trace is rejected cleanly and repaired
  unwritable  : an unwritable AMP_TRACE_DIR stops every rank at start-up with one line each
  no_overwrite: a second run into a folder that holds a traced run (the same prefix, or its own) is refused
                at start-up (exit 2, the first rank's line naming the .meta) and never touches the first's files
  preload     : LD_PRELOAD on a plain MPI C program gives a valid trace with the right traffic
  off         : with AMP_TRACE_DIR unset or empty the library writes nothing
Usage: test_trace_faults.py CASE MPIEXEC BUSY_PROGRAM AMP_TRACE LIBAMP_DUMPI PLAIN_PROGRAM WORKDIR [DUMPI2ASCII]
(DUMPI2ASCII: sst-dumpi's reader, for sigkill_recent; that check is skipped, saying so, without it)"""
import glob
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from amp_tools import launch

CASE, MPIEXEC, BUSY, AMP_TRACE, LIBRARY, PLAIN, WORKDIR = sys.argv[1:8]
DUMPI2ASCII = os.environ.get("AMP_DUMPI2ASCII", "")  # sst-dumpi's reader, when the user has it


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


CREATED = []


def fresh_dir():
    os.makedirs(WORKDIR, exist_ok=True)
    CREATED.append(tempfile.mkdtemp(prefix=CASE + "-", dir=WORKDIR))
    return CREATED[-1]


def amp_trace(*args):
    return subprocess.run([AMP_TRACE] + list(args), capture_output=True, text=True, timeout=60)


def start_busy(trace_dir, ranks, extra_env=None, args=()):
    env = dict(os.environ, AMP_TRACE_DIR=trace_dir, OMP_NUM_THREADS="1", **(extra_env or {}))
    return subprocess.Popen(launch.mpiexec(MPIEXEC, ranks, [BUSY] + list(args)), env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_pids(trace_dir, ranks):
    deadline = time.time() + 30
    while time.time() < deadline:
        pids = []
        for rank in range(ranks):
            try:
                with open(os.path.join(trace_dir, f"pid.{rank}")) as f:
                    pids.append(int(f.read().strip()))
            except (OSError, ValueError):
                break
        if len(pids) == ranks:
            return pids
        time.sleep(0.05)
    fail("the busy program did not start")


def kill_mid_run(signal_number, ranks, extra_env=None, signal_launcher=False, wait_for_flushes=False,
                 run_seconds=0.5):
    """SIGTERM goes to mpiexec, which forwards it to every rank (as a batch system does);
    SIGKILL goes to the ranks themselves (mpiexec cannot forward it). Returns the trace directory
    and when the signal was sent, in time.monotonic() (CLOCK_MONOTONIC, the trace's wall clock)."""
    trace_dir = fresh_dir()
    job = start_busy(trace_dir, ranks, extra_env)
    pids = wait_for_pids(trace_dir, ranks)
    time.sleep(run_seconds)  # let records stream to disk
    deadline = time.time() + 30
    while wait_for_flushes and time.time() < deadline and not all(
            os.path.getsize(p) >= 2 * 65536 for p in bins(trace_dir)):
        time.sleep(0.1)
    if signal_launcher:
        job.send_signal(signal_number)
    else:
        for pid in pids:
            os.kill(pid, signal_number)
    # Read after sending: a rank on the other core may finish the record it is writing meanwhile.
    signalled_at = time.monotonic()
    job.communicate(timeout=60)
    return trace_dir, signalled_at


def bins(trace_dir):
    return sorted(glob.glob(os.path.join(trace_dir, "*.bin")))


def record_count(path):
    info = amp_trace("info", path)
    if info.returncode != 0:
        fail(f"info {path}: {info.stderr.strip()}")
    for line in info.stdout.splitlines():
        if " records " in line:
            return int(line.split(" records ")[0].split()[-1])
    fail("info printed no record count")


def expect_valid(target):
    result = amp_trace("validate", target)
    if result.returncode != 0:
        fail(f"validate {target}: {result.stderr.strip()}")


def expect_cut_short(target):
    """Sound records and footer, but no MPI_Finalize: readable, yet validate says the run was cut short."""
    result = amp_trace("validate", target)
    lines = result.stderr.strip().splitlines()
    if result.returncode != 2 or len(lines) != 1 or "the trace was cut short: its " not in lines[0] or \
            not lines[0].endswith("records end without MPI_Finalize (the run ended at a signal, MPI_Abort or exit())"):
        fail(f"validate did not call {target} cut short: rc={result.returncode} {result.stdout!r} {result.stderr!r}")


def expect_rejected(target):
    result = amp_trace("validate", target)
    lines = result.stderr.strip().splitlines()
    if result.returncode == 0 or len(lines) != 1 or not lines[0].startswith("amp-trace: "):
        fail(f"validate accepted or gave no one-line error for {target}: rc={result.returncode} {result.stderr!r}")


def case_sigterm():
    # One rank, signalled through mpiexec (which forwards SIGTERM). With several ranks under MPICH's
    # launcher, the first rank to die makes it SIGKILL the others, racing their handlers; their
    # files are then what the sigkill case covers (amp-trace repair).
    trace_dir, _ = kill_mid_run(signal.SIGTERM, 1, signal_launcher=True)
    expect_cut_short(trace_dir)
    for path in bins(trace_dir):
        if record_count(path) < 100:
            fail(f"{path} holds too few records after SIGTERM")


def case_sigint():
    trace_dir, _ = kill_mid_run(signal.SIGINT, 1, signal_launcher=True)
    expect_cut_short(trace_dir)


def case_sigabrt():
    trace_dir, _ = kill_mid_run(signal.SIGABRT, 1)  # to the rank itself, as abort() would raise it
    expect_cut_short(trace_dir)
    if record_count(bins(trace_dir)[0]) < 100:
        fail("too few records after SIGABRT")


def case_exit():
    # One rank: with several, the launcher may kill the others as soon as the first one exits.
    trace_dir = fresh_dir()
    job = start_busy(trace_dir, 1, args=["exit"])
    job.communicate(timeout=90)
    expect_cut_short(trace_dir)
    for path in bins(trace_dir):
        if record_count(path) < 3 * 2000:
            fail(f"{path}: the records before exit() are missing")


def repair_all(trace_dir):
    for path in bins(trace_dir):
        result = amp_trace("repair", path)
        if result.returncode != 0:
            fail(f"repair {path}: {result.stderr.strip()}")
        if not os.path.exists(path + ".damaged"):
            fail("repair did not keep the original as .damaged")
        if "original kept as" not in result.stdout:
            fail("repair did not say where the original is")


def case_sigkill():
    trace_dir, _ = kill_mid_run(signal.SIGKILL, 2, {"AMP_TRACE_BUFFER_BYTES": "64K"}, wait_for_flushes=True)
    expect_rejected(trace_dir)
    repair_all(trace_dir)
    expect_cut_short(trace_dir)
    for path in bins(trace_dir):
        if record_count(path) < 100:
            fail(f"{path}: too few records survived SIGKILL + repair")


def last_wall_stop(path):
    """The wall stop time (CLOCK_MONOTONIC seconds) of the last record, from `amp-trace dump`."""
    dump = amp_trace("dump", path)
    if dump.returncode != 0 or not dump.stdout:
        fail(f"dump {path}: {dump.stderr.strip()}")
    last = dump.stdout.splitlines()[-1]  # "MPI_Waitall wall 1234.000000001..1234.000000002 thread 0 | ..."
    return float(last.split(" wall ")[1].split()[0].split("..")[1])


def expect_recent_records(path, killed_at, flush_seconds):
    """The repaired trace's last record is at most one flush interval + 0.6 s older than the kill."""
    records, last = record_count(path), last_wall_stop(path)
    print(f"{os.path.basename(path)}: {records} records, the last {killed_at - last:.3f} s before the kill")
    if records < 1000:
        fail(f"{path}: only {records} records survived SIGKILL + repair")
    if last > killed_at + 0.005:  # a record may end while the kill is on its way to the other core
        fail(f"last record at {last:.6f} s is after the kill at {killed_at:.6f} s: not the same clock")
    if killed_at - last > flush_seconds + 0.6:
        fail(f"the last record is {killed_at - last:.3f} s older than the kill (flush interval {flush_seconds} s)")


def expect_dumpi2ascii_reads(path):
    """sst-dumpi's own reader decodes the repaired file as `amp-trace dump --dumpi2ascii` does: the
    same text, line for line."""
    if not DUMPI2ASCII:
        print("dumpi2ascii not given: sst-dumpi check skipped")
        return
    theirs = subprocess.run([DUMPI2ASCII, path], capture_output=True, text=True, timeout=60)
    if theirs.returncode != 0:
        fail(f"dumpi2ascii could not read the repaired {path}: {theirs.stderr.strip()[-300:]}")
    ours = amp_trace("dump", "--dumpi2ascii", path)
    if ours.returncode != 0 or ours.stdout != theirs.stdout:
        fail(f"dumpi2ascii and amp-trace dump --dumpi2ascii read {path} differently")


def case_sigkill_recent():
    # One rank: several under hydra see the kill race the launcher's own SIGKILLs.
    # 3.5 s: flushes come about 1 s, 2 s, 3 s after MPI_Init, so about half a second is at stake.
    trace_dir, killed_at = kill_mid_run(signal.SIGKILL, 1, run_seconds=3.5)
    expect_rejected(trace_dir)
    repair_all(trace_dir)
    expect_cut_short(trace_dir)
    [path] = bins(trace_dir)
    expect_recent_records(path, killed_at, 1.0)
    expect_dumpi2ascii_reads(path)


def case_flush_every_record():
    trace_dir = fresh_dir()
    job = start_busy(trace_dir, 1, {"AMP_TRACE_FLUSH_SECONDS": "0"})
    [pid] = wait_for_pids(trace_dir, 1)
    [path] = bins(trace_dir)
    sizes = []
    for _ in range(4):  # with the default 1 s interval the file could grow at most twice in 0.6 s
        time.sleep(0.2)
        sizes.append(os.path.getsize(path))
    killed_at = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    job.communicate(timeout=60)
    if any(later <= earlier for earlier, later in zip(sizes, sizes[1:])):
        fail(f"the file did not grow every 0.2 s with AMP_TRACE_FLUSH_SECONDS=0: sizes {sizes}")
    repair_all(trace_dir)
    expect_cut_short(trace_dir)
    expect_recent_records(path, killed_at, 0.0)


def case_flush_bad_value():
    for value in ("soon", "-1", "1s", "nan"):
        trace_dir = fresh_dir()
        env = dict(os.environ, AMP_TRACE_DIR=trace_dir, AMP_TRACE_FLUSH_SECONDS=value, OMP_NUM_THREADS="1")
        run = subprocess.run(launch.mpiexec(MPIEXEC, 2, [BUSY]), env=env, capture_output=True, text=True, timeout=60)
        if run.returncode == 0:
            fail(f"AMP_TRACE_FLUSH_SECONDS={value} did not stop the run")
        expected = [f"amp_dumpi: rank {rank}: AMP_TRACE_FLUSH_SECONDS='{value}' must be a number of seconds "
                    "between 0 and 86400 (e.g. 1 or 0.5)" for rank in (0, 1)]
        if sorted(l for l in run.stderr.splitlines() if "AMP_TRACE_FLUSH_SECONDS" in l) != expected:
            fail(f"expected one line from each rank for AMP_TRACE_FLUSH_SECONDS={value}, got:\n" + run.stderr)
        if bins(trace_dir):
            fail(f"AMP_TRACE_FLUSH_SECONDS={value} still created trace files")


def case_truncated():
    trace_dir, _ = kill_mid_run(signal.SIGTERM, 1, signal_launcher=True)
    [original] = bins(trace_dir)
    expect_cut_short(original)
    kept = record_count(original)
    copy_dir = fresh_dir()
    copy = os.path.join(copy_dir, os.path.basename(original))
    with open(original, "rb") as f:
        data = f.read()
    with open(copy, "wb") as f:
        f.write(data[: int(len(data) * 0.6) + 3])  # cut inside a record
    expect_rejected(copy)
    output = copy + ".repaired.bin"
    result = amp_trace("repair", copy, "--output", output)
    if result.returncode != 0:
        fail(f"repair --output: {result.stderr.strip()}")
    if not os.path.exists(copy):
        fail("repair --output touched the input")
    expect_cut_short(output)
    repaired = record_count(output)
    if not 0 < repaired < kept:
        fail(f"repaired copy holds {repaired} records, original {kept}")
    again = amp_trace("repair", copy, "--output", output)
    if again.returncode == 0:
        fail("repair overwrote an existing output file")
    for junk in (b"", b"\x00" * 100, b"not a trace at all, just text\n" * 10):
        path = os.path.join(copy_dir, "junk-0000.bin")
        with open(path, "wb") as f:
            f.write(junk)
        expect_rejected(path)
        if amp_trace("repair", path, "--output", path + ".out").returncode == 0:
            fail("repair accepted a non-DUMPI file")
        os.remove(path)


def case_unwritable():
    blocker = os.path.join(fresh_dir(), "a-file")
    with open(blocker, "w") as f:
        f.write("not a directory\n")
    env = dict(os.environ, AMP_TRACE_DIR=os.path.join(blocker, "traces"), OMP_NUM_THREADS="1")
    run = subprocess.run(launch.mpiexec(MPIEXEC, 2, [BUSY]), env=env, capture_output=True, text=True, timeout=60)
    if run.returncode == 0:
        fail("an unwritable trace directory did not stop the run")
    lines = [l for l in run.stderr.splitlines() if "amp_dumpi: rank" in l and "cannot create trace file" in l]
    if sorted(l.split(":")[1].strip() for l in lines) != ["rank 0", "rank 1"]:
        fail("expected one 'cannot create trace file' line from each rank, got:\n" + run.stderr)


def digest(paths):
    h = hashlib.sha256()
    for p in sorted(paths):
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def case_no_overwrite():
    trace_dir = fresh_dir()
    env = dict(os.environ, AMP_TRACE_DIR=trace_dir, AMP_TRACE_PREFIX="same", OMP_NUM_THREADS="1")
    subprocess.run(launch.mpiexec(MPIEXEC, 2, [PLAIN]), env=dict(env, LD_PRELOAD=LIBRARY), check=True, timeout=60)
    first = glob.glob(os.path.join(trace_dir, "same*"))
    before = digest(first)
    held = (f"amp_dumpi: rank 0: trace folder '{trace_dir}' already holds a traced run ('same.meta'); give a new or "
            f"empty folder (a simulation reads one trace per folder)")
    for prefix in ("same", None):  # the same name, or a name of its own (the default's time stamp)
        run_env = dict(env, LD_PRELOAD=LIBRARY)
        if prefix is None:
            run_env.pop("AMP_TRACE_PREFIX")
        second = subprocess.run(launch.mpiexec(MPIEXEC, 2, [PLAIN]), env=run_env, capture_output=True, text=True,
                                timeout=60)
        if second.returncode == 0 or held not in second.stderr.splitlines():
            fail(f"a second trace into the folder (prefix {prefix}): exit {second.returncode}, not refused with "
                 f"{held!r}: {second.stderr}")
        if digest(first) != before or sorted(os.listdir(trace_dir)) != sorted(os.path.basename(f) for f in first):
            fail("the second run changed the first run's files or wrote its own beside them")


def case_off():
    # Library present, AMP_TRACE_DIR unset (or empty): the program runs and nothing is written.
    work = fresh_dir()
    for value in (None, ""):
        env = dict(os.environ, LD_PRELOAD=LIBRARY, OMP_NUM_THREADS="1")
        env.pop("AMP_TRACE_DIR", None)
        if value is not None:
            env["AMP_TRACE_DIR"] = value
        subprocess.run(launch.mpiexec(MPIEXEC, 2, [PLAIN]), env=env, cwd=work, check=True, timeout=60)
    if os.listdir(work):
        fail("tracing off still wrote files: " + ", ".join(os.listdir(work)))


def case_preload():
    trace_dir = fresh_dir()
    env = dict(os.environ, AMP_TRACE_DIR=trace_dir, LD_PRELOAD=LIBRARY, OMP_NUM_THREADS="1")
    subprocess.run(launch.mpiexec(MPIEXEC, 2, [PLAIN]), env=env, check=True, timeout=60)
    expect_valid(trace_dir)
    stats = amp_trace("stats", "--json", trace_dir)
    if stats.returncode != 0:
        fail("stats: " + stats.stderr)
    totals = json.loads(stats.stdout)["point_to_point"]
    if totals != {"messages": 2 * 10, "bytes": 2 * 10 * 400}:
        fail(f"plain_ring sends 20 messages of 400 bytes, trace says {totals}")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}
if __name__ == "__main__":
    if CASE not in CASES:
        fail("unknown case " + CASE)
    CASES[CASE]()
    for directory in CREATED:  # kept only when the case failed
        shutil.rmtree(directory, ignore_errors=True)
    print(f"{CASE}: ok")
