#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The fault rows of amp-trace and the tracing library, one CASE per invocation, each run
as a user would (real processes, real files, /dev/full, a small tmpfs that fills, real signals):
  stdout_full       row 3: every subcommand that prints, with its standard output on /dev/full: exit 4, one line
  matrix_csv        row 4: stats --matrix-csv refuses an existing name (exit 2) and leaves nothing on a full disk (exit
                    4)
  usage             row 9: no subcommand, an unknown one, unknown flags, bad values: `amp-trace: error: ...`, exit 2
  repair_full_disk  row 27: repair on a full disk leaves the original untouched and nothing else; a retry then works
  ignored_sigterm   row 29: a SIGTERM the parent ignored stays ignored (the trace is whole); a cut-short trace is not
                    valid
  size_changes      row 23: check shows a channel's later in-flight size change, and counts every change
  bad_settings      row 10: a malformed AMP_TRACE_* value stops every rank with one line naming it, exit 2
  prefix_taken      row 28: another rank's file under a fixed AMP_TRACE_PREFIX: a fresh name, or one line and exit 2
  otf2_not_a_folder row 25: an output under a file is "not a directory"
  repair_header     repair without a .meta keeps the header the file's own tail still holds
  exports_full_disk simgrid, sstmac and otf2 on a full disk: exit 4, the real cause, nothing left
  exports_signalled SIGTERM or SIGINT during simgrid or otf2: no staging folder, death by it
  host_speed        a slow --host-speed keeps every nanosecond of compute; SimGrid replays it
  wording           too many ranks in a .meta; a dangling --trace link named as --trace
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "dumpi-reference", "ring")
GHOST = ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "2", "--num_tsteps", "2", "--progress", "0"]
STDOUT_LOST = "amp-trace: cannot write to standard output: No space left on device; the output is incomplete"


def amp_trace(a, *arguments, stdout=subprocess.PIPE, cwd=None):
    done = subprocess.run([os.path.join(a.bin, "amp-trace")] + list(arguments), stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60, cwd=cwd)
    if done.stdout is None:
        done.stdout = ""
    return done


def expect(done, code, line, what):
    """Exit `code` and exactly one line on stderr, `line`."""
    errors = [l for l in done.stderr.splitlines() if l.strip()]
    if done.returncode != code or errors != [line]:
        fr.fail(f"{what}: expected exit {code} and {line!r}; got exit {done.returncode}: {errors}")


def copy_reference(folder):
    target = os.path.join(folder, "ring")
    shutil.copytree(REFERENCE, target, ignore=shutil.ignore_patterns("*.txt"))
    return target


def bin_of(trace, rank):
    return next(os.path.join(trace, n) for n in sorted(os.listdir(trace)) if n.endswith(f"-{rank:04d}.bin"))


def content(path):
    """The bytes of `path`, or None where there is no such file."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def traced_ghost(a, folder, ranks=2, env=None, extra=()):
    trace = os.path.join(folder, "trace")
    done = fr.run(a, "amp-ghost", GHOST + list(extra) + ["--trace", trace], ranks=ranks, env=env)
    return done, trace


def case_stdout_full(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = copy_reference(folder)
        runs = [["info"], ["stats"], ["stats", "--json"], ["dump"], ["dump", "--dumpi2ascii"], ["check"],
                ["validate"], ["otf2", None], ["simgrid", None], ["sstmac", None], ["codes", None]]
        for run in runs:
            arguments = [run[0], trace] + [os.path.join(folder, f"{run[0]}-out") if x is None else x for x in run[1:]]
            with open("/dev/full", "w") as full:
                done = amp_trace(a, *arguments, stdout=full)
            expect(done, 4, STDOUT_LOST, f"amp-trace {' '.join(run[:1] + [x for x in run[1:] if x])} > /dev/full")
        # otf2, simgrid, sstmac and codes wrote their (complete) outputs before their summary line was lost; nothing
        # else.
        if sorted(os.listdir(folder)) != ["codes-out", "otf2-out", "ring", "simgrid-out", "sstmac-out"] or \
                not os.path.exists(os.path.join(folder, "otf2-out", "traces.otf2")):
            fr.fail(f"left after the runs with stdout on /dev/full: {sorted(os.listdir(folder))}")
        print(f"{len(runs)} subcommands with stdout on /dev/full: exit 4 and one line each")


def case_matrix_csv(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = copy_reference(folder)
        existing = os.path.join(folder, "existing.csv")
        with open(existing, "w") as f:
            f.write("mine\n")
        done = amp_trace(a, "stats", trace, "--matrix-csv", existing)
        expect(done, 2,
               f"amp-trace: {existing} already exists; amp-trace never overwrites a file (remove it or name another)",
               "--matrix-csv naming an existing file")
        if content(existing) != b"mine\n" or sorted(os.listdir(folder)) != ["existing.csv", "ring"]:
            fr.fail(f"--matrix-csv touched an existing file or left something: {os.listdir(folder)}")
        done = amp_trace(a, "stats", trace, "--matrix-csv", "/dev/full")
        expect(done, 2,
               "amp-trace: /dev/full already exists; amp-trace never overwrites a file (remove it or name another)",
               "--matrix-csv /dev/full")
        fresh = os.path.join(folder, "fresh.csv")
        done = amp_trace(a, "stats", trace, "--matrix-csv", fresh)
        if done.returncode != 0 or not content(fresh).startswith(b"source\\destination,0,1,2,3\n"):
            fr.fail(f"--matrix-csv to a new name: exit {done.returncode} {done.stderr!r}")
    with fr.small_filesystem() as mount, tempfile.TemporaryDirectory() as folder:
        trace = copy_reference(folder)
        fr.fill(mount)
        csv = os.path.join(mount, "matrix.csv")
        done = amp_trace(a, "stats", trace, "--matrix-csv", csv)
        expect(done, 4, f"amp-trace: {csv}: write failed: No space left on device", "--matrix-csv on a full disk")
        if done.stdout:
            fr.fail("stats printed its tables although the matrix CSV was not written")
        fr.expect_files(mount, ["filler"], "--matrix-csv on a full disk")
    print("--matrix-csv: existing names refused (exit 2), a full disk exit 4 with nothing left")


def case_usage(a):
    subcommands = ("(one of: info, stats, dump, validate, check, repair, otf2, simgrid, sstmac, codes; "
                   "see amp-trace --help)")
    cases = [
        ([], f"amp-trace: error: A subcommand is required {subcommands}"),
        (["frobnicate"], f"amp-trace: error: unknown subcommand 'frobnicate' {subcommands}"),
        (["--bogus"], f"amp-trace: error: unknown option '--bogus' {subcommands}"),
        (["info"], "amp-trace: error: trace is required (see amp-trace info --help)"),
        (["stats", REFERENCE, "--frob"],
         "amp-trace: error: The following argument was not expected: --frob (see amp-trace stats --help)"),
        (["simgrid", REFERENCE, "out", "--host-speed", "fast"],
         "amp-trace: error: --host-speed: 'fast' is not a positive number of flop/s (e.g. 1e9) (see amp-trace simgrid "
         "--help)"),
        (["stats", REFERENCE, "--matrix-csv"],
         "amp-trace: error: --matrix-csv: 1 required TEXT missing (see amp-trace stats --help)"),
    ]
    with tempfile.TemporaryDirectory() as folder:
        for arguments, line in cases:
            done = amp_trace(a, *arguments, cwd=folder)
            expect(done, 2, line, f"amp-trace {' '.join(arguments)}")
            if done.stdout or os.listdir(folder):
                fr.fail(f"amp-trace {' '.join(arguments)}: printed {done.stdout!r} or wrote {os.listdir(folder)}")
    with tempfile.TemporaryDirectory() as folder:  # repair given a folder or a FIFO: said so, never read
        os.mkfifo(os.path.join(folder, "fifo.bin"))
        for given, line in ((folder, f"amp-trace: {folder}: is a folder; give one rank's <prefix>-NNNN.bin"),
                            (os.path.join(folder, "fifo.bin"),
                             f"amp-trace: {folder}/fifo.bin: not a regular file (a trace file is read whole)")):
            expect(amp_trace(a, "repair", given), 2, line, f"amp-trace repair {given}")
    for arguments in (["--help"], ["stats", "--help"]):
        done = amp_trace(a, *arguments)
        if done.returncode != 0 or "Usage:" not in done.stdout or done.stderr:
            fr.fail(f"amp-trace {' '.join(arguments)}: exit {done.returncode}, {done.stderr!r}")
    with open("/dev/full", "w") as full:
        expect(amp_trace(a, "--help", stdout=full), 4, STDOUT_LOST, "amp-trace --help > /dev/full")
    print(f"{len(cases)} bad command lines: one `amp-trace: error:` line, exit 2; --help exit 0")


def damaged_copy(folder):
    """Rank 0's file of the reference trace, cut inside a record (as a killed writer leaves it)."""
    original = content(bin_of(REFERENCE, 0))
    path = os.path.join(folder, "dumpi-2026.11.22.02.35.24-0000.bin")
    with open(path, "wb") as f:
        f.write(original[: len(original) * 6 // 10 + 3])
    return path


def case_repair_full_disk(a):
    with fr.small_filesystem() as mount:
        damaged = damaged_copy(mount)
        before = content(damaged)
        fr.fill(mount)
        done = amp_trace(a, "repair", damaged)
        expect(done, 4, f"amp-trace: {damaged}: write failed: No space left on device; the original is untouched",
               "repair in place on a full disk")
        if content(damaged) != before:
            fr.fail("repair in place on a full disk changed the original")
        fr.expect_files(mount, [os.path.basename(damaged), "filler"], "repair in place on a full disk")
        out = os.path.join(mount, "repaired.bin")
        done = amp_trace(a, "repair", damaged, "-o", out)
        expect(done, 4, f"amp-trace: {out}: write failed: No space left on device", "repair -o on a full disk")
        fr.expect_files(mount, [os.path.basename(damaged), "filler"], "repair -o on a full disk")
        os.remove(os.path.join(mount, "filler"))
        done = amp_trace(a, "repair", damaged, "-o", out)  # the retry is not blocked by anything left
        if done.returncode != 0 or amp_trace(a, "validate", out).returncode not in (0, 2):
            fr.fail(f"repair -o retried with room: exit {done.returncode} {done.stderr!r}")
        done = amp_trace(a, "repair", damaged)
        if done.returncode != 0 or content(damaged + ".damaged") != before or content(damaged) != content(out):
            fr.fail(f"repair in place retried with room: exit {done.returncode} {done.stderr!r}")
        fr.expect_files(mount, [os.path.basename(damaged), os.path.basename(damaged) + ".damaged", "repaired.bin"],
                        "repairs with room")
    print("repair on a full disk: exit 4, original untouched, nothing left; retries with room work")


def last_call(a, trace):
    done = amp_trace(a, "dump", bin_of(trace, 0))
    return done.stdout.splitlines()[-1].split()[0] if done.returncode == 0 and done.stdout else f"<{done.stderr}>"


def case_ignored_sigterm(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = os.path.join(folder, "trace")
        ghost = [os.path.join(a.bin, "amp-ghost"), "--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "2",
                 "--num_tsteps", "20000", "--progress", "0", "--trace", trace]  # about a second on one core
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
        job = subprocess.Popen(["sh", "-c", 'trap "" TERM; exec "$@"', "sh"] + ghost, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 30
        while time.time() < deadline and not (os.path.isdir(trace)
                                              and any(n.endswith(".bin") for n in os.listdir(trace))):
            time.sleep(0.01)
        time.sleep(0.1)
        if job.poll() is not None:
            fr.fail("amp-ghost finished before the signal could be sent")
        job.send_signal(signal.SIGTERM)  # to amp-ghost itself: sh exec'ed it
        out, err = job.communicate(timeout=60)
        if job.returncode != 0:
            fr.fail(f"amp-ghost with SIGTERM ignored: exit {job.returncode}: {err}")
        if job.returncode != 0 or last_call(a, trace) != "MPI_Finalize":
            fr.fail("the trace of a run whose ignored SIGTERM arrived does not end with MPI_Finalize: "
                    f"{last_call(a, trace)}")
        done = amp_trace(a, "validate", trace)
        if done.returncode != 0 or not done.stdout.startswith("valid: "):
            fr.fail(f"the whole trace does not validate: {done.stderr!r}")
        # The same run killed by SIGTERM: the library closes the trace, which validate calls cut short.
        shutil.rmtree(trace)
        job = subprocess.Popen(ghost, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while time.time() < deadline + 30 and not (os.path.isdir(trace)
                                                   and any(n.endswith(".bin") for n in os.listdir(trace))):
            time.sleep(0.01)
        time.sleep(0.1)
        if job.poll() is not None:
            fr.fail("amp-ghost finished before the signal could be sent")
        job.send_signal(signal.SIGTERM)
        job.communicate(timeout=60)
        if job.returncode != -signal.SIGTERM:
            fr.fail(f"amp-ghost killed by SIGTERM exited {job.returncode}")
        path = bin_of(trace, 0)
        done = amp_trace(a, "validate", trace)
        records = amp_trace(a, "info", path)
        if done.returncode != 2 or len(done.stderr.splitlines()) != 1 or not done.stderr.startswith(
                f"amp-trace: {path}: the trace was cut short: its ") or not done.stderr.rstrip().endswith(
                "records end without MPI_Finalize (the run ended at a signal, MPI_Abort or exit())"):
            fr.fail(f"validate of a trace cut short by SIGTERM: exit {done.returncode} {done.stdout!r} {done.stderr!r}")
        if records.returncode != 0:
            fr.fail(f"info cannot read the trace cut short: {records.stderr!r}")
    print("an ignored SIGTERM stays ignored (whole, valid trace); a trace cut short by SIGTERM is not valid")


SETTINGS = [  # (variable, value, the library's message after "amp_dumpi: rank R: ")
    ("AMP_TRACE_FLUSH_SECONDS", "abc",
     "AMP_TRACE_FLUSH_SECONDS='abc' must be a number of seconds between 0 and 86400 (e.g. 1 or 0.5)"),
    ("AMP_TRACE_BUFFER_BYTES", "lots",
     "AMP_TRACE_BUFFER_BYTES='lots' must be a byte count between 64K and 4096M (e.g. 4M)"),
    ("AMP_TRACE_CPU_TIMES", "maybe", "AMP_TRACE_CPU_TIMES='maybe' is not a switch; use 1 or 0"),
    ("AMP_TRACE_STATUSES", "2", "AMP_TRACE_STATUSES='2' is not a switch; use 1 or 0"),
    ("AMP_TRACE_START_PAUSED", "y", "AMP_TRACE_START_PAUSED='y' is not a switch; use 1 or 0"),
    ("AMP_TRACE_PREFIX", "a/b", "AMP_TRACE_PREFIX='a/b' must be a file name, not a path"),
]


def case_bad_settings(a):
    with tempfile.TemporaryDirectory() as folder:
        for variable, value, message in SETTINGS:
            done, trace = traced_ghost(a, folder, env={variable: value})
            lines = sorted(l for l in (done.stdout + done.stderr).splitlines() if l.strip())
            expected = [f"amp_dumpi: rank {r}: {message}" for r in (0, 1)]
            if done.returncode != 2 or lines != expected:
                fr.fail(f"{variable}={value}: expected exit 2 and {expected}; got exit {done.returncode}: {lines}")
            if os.path.exists(trace):
                fr.fail(f"{variable}={value}: left {trace}")
    print(f"{len(SETTINGS)} malformed AMP_TRACE_* values: one line per rank naming it, exit 2, nothing written")


def case_prefix_taken(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = os.path.join(folder, "trace")
        os.makedirs(trace)
        users = os.path.join(trace, "fixed-0001.bin")
        with open(users, "w") as f:
            f.write("another run's rank 1\n")
        done, _ = traced_ghost(a, folder, env={"AMP_TRACE_PREFIX": "fixed"})
        notice = f"amp_dumpi: a trace named 'fixed' already exists in {trace}; writing 'fixed.2' instead"
        if done.returncode != 0 or notice not in done.stderr.splitlines():
            fr.fail(f"fixed-0001.bin present: expected exit 0 and {notice!r}; got {done.returncode}: "
                    f"{fr.lines_of(done)}")
        if content(users) != b"another run's rank 1\n":
            fr.fail("the other run's fixed-0001.bin was changed")
        fr.expect_files(trace, ["fixed-0001.bin", "fixed.2-0000.bin", "fixed.2-0001.bin", "fixed.2.meta"],
                        "fixed-0001.bin present")
        # A name the probe cannot see (a dangling link) but O_EXCL refuses: one accurate line, exit 2, nothing left.
        shutil.rmtree(trace)
        os.makedirs(trace)
        os.symlink(os.path.join(folder, "nowhere"), users)
        done, _ = traced_ghost(a, folder, env={"AMP_TRACE_PREFIX": "fixed"})
        expected = sorted([f"amp_dumpi: rank 1: trace file '{users}' already exists; the library never overwrites a "
                           "file (remove it or set another AMP_TRACE_PREFIX)",
                           "amp_dumpi: rank 0: stopping because another rank could not create its trace file"])
        if done.returncode != 2 or sorted(fr.lines_of(done)) != expected:
            fr.fail(f"fixed-0001.bin a dangling link: expected exit 2 and {expected}; got {done.returncode}: "
                    f"{fr.lines_of(done)}")
        fr.expect_files(trace, ["fixed-0001.bin"], "fixed-0001.bin a dangling link")
    print("a fixed AMP_TRACE_PREFIX with another rank's file: a fresh name; a name O_EXCL refuses: one line, exit 2")


def case_otf2_not_a_folder(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = copy_reference(folder)
        done = amp_trace(a, "otf2", trace, "/dev/full/x")
        expect(done, 2, "amp-trace: /dev/full/x: /dev/full is not a directory", "otf2 into /dev/full/x")
        missing = os.path.join(folder, "missing", "x")
        done = amp_trace(a, "otf2", trace, missing)
        expect(done, 2, f"amp-trace: {missing}: the directory {os.path.dirname(missing)} does not exist",
               "otf2 into a missing folder")
        if sorted(os.listdir(folder)) != ["ring"]:
            fr.fail(f"otf2 left {os.listdir(folder)}")
    print("otf2 under a file: 'is not a directory'; under a missing folder: 'does not exist'")


def case_size_changes(a):
    ring = a.ring_trace
    with tempfile.TemporaryDirectory() as folder:
        made = subprocess.run([ring, folder, "ring", "2", "4", "size_changes", "0", "1"], capture_output=True,
                              text=True)
        if made.returncode != 0:
            fr.fail(f"replay_ring_trace: {made.stderr}")
        default = amp_trace(a, "check", folder)
        in_flight = amp_trace(a, "check", folder, "--in-flight-only")
        shown = [l for l in in_flight.stdout.splitlines() if l.startswith("rank ")]
        if in_flight.returncode != 1 or not shown or not all("still in flight" in l for l in shown):
            fr.fail(f"--in-flight-only found no in-flight change: {in_flight.stdout!r}")
        missing = [l for l in shown if l not in default.stdout.splitlines()]
        if default.returncode != 1 or missing:
            fr.fail(f"the default mode hides what --in-flight-only shows: {missing}\n{default.stdout}")
        summary = default.stdout.splitlines()[-1]
        if "already received" not in default.stdout or not summary.endswith("findings (4 channel_size_change)") or \
                "... and 2 more channel_size_change findings" not in default.stdout:
            fr.fail(f"the default mode does not count every size change:\n{default.stdout}")
    print("check: every size change counted, the in-flight one shown in both modes")


def case_repair_header(a):
    with tempfile.TemporaryDirectory() as folder:
        original = content(bin_of(REFERENCE, 0))
        path = os.path.join(folder, "dumpi-2026.11.22.02.35.24-0000.bin")  # no .meta beside it
        with open(path, "wb") as f:
            f.write(original[:-8])  # the index cut: the header after END_OF_STREAM is whole
        out = os.path.join(folder, "repaired.bin")
        done = amp_trace(a, "repair", path, "-o", out)
        info = amp_trace(a, "info", out)
        if done.returncode != 0 or "  host vm  user <none>  start 1795314924  " not in info.stdout:
            fr.fail(f"repair without a .meta did not keep the file's own header: {done.stderr!r} {info.stdout!r}")
    print("repair without a .meta takes host, user and start time from the file's own header")


def case_exports_full_disk(a):
    with fr.small_filesystem() as mount, tempfile.TemporaryDirectory() as folder:
        trace = copy_reference(folder)
        fr.fill(mount)
        out = os.path.join(mount, "ti")
        done = amp_trace(a, "simgrid", trace, out)
        expect(done, 4, f"amp-trace: {out}/rank-0.txt: write failed: No space left on device", "simgrid on a full disk")
        fr.expect_files(mount, ["filler"], "simgrid on a full disk")
        out = os.path.join(mount, "copy")
        done = amp_trace(a, "sstmac", trace, out)
        meta = [f for f in os.listdir(trace) if f.endswith(".meta")][0]
        expect(done, 4, f"amp-trace: {out}/{meta}: write failed: No space left on device", "sstmac on a full disk")
        fr.expect_files(mount, ["filler"], "sstmac on a full disk")
        out = os.path.join(mount, "codes")
        done = amp_trace(a, "codes", trace, out)
        expect(done, 4, f"amp-trace: {out}/{meta}: write failed: No space left on device", "codes on a full disk")
        fr.expect_files(mount, ["filler"], "codes on a full disk")
        out = os.path.join(mount, "archive")
        done = amp_trace(a, "otf2", trace, out)
        errors = [l for l in done.stderr.splitlines() if l.strip()]
        if done.returncode != 4 or len(errors) != 1 or \
                not errors[0].startswith(f"amp-trace: {out}: cannot write the OTF2 archive: ") or \
                not errors[0].endswith(": No space left on device"):
            fr.fail(f"otf2 on a full disk: expected exit 4 and one line ending in the real cause; got exit "
                    f"{done.returncode}: {errors}")
        fr.expect_files(mount, ["filler"], "otf2 on a full disk")
        os.remove(os.path.join(mount, "filler"))
        # retries
        for command, name in (("simgrid", "ti"), ("sstmac", "copy"), ("codes", "codes"), ("otf2", "archive")):
            done = amp_trace(a, command, trace, os.path.join(mount, name))
            if done.returncode != 0:
                fr.fail(f"{command} retried with room: exit {done.returncode} {done.stderr!r}")
            shutil.rmtree(os.path.join(mount, name))  # room for the next one on the small filesystem
    print("simgrid, sstmac, codes and otf2 on a full disk: exit 4 naming 'No space left on device', nothing left; "
          "retries work")


def hand_made_ring(a, folder, ranks, steps):
    """replay_ring_trace's ring of `ranks` ranks and `steps` steps, in folder/ring."""
    trace = os.path.join(folder, "ring")
    os.makedirs(trace)
    made = subprocess.run([a.ring_trace, trace, "ring", str(ranks), str(steps)], capture_output=True, text=True)
    if made.returncode != 0:
        fr.fail(f"replay_ring_trace: {made.stderr}")
    return trace


def case_exports_signalled(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = hand_made_ring(a, folder, 1024, 50)
        for command in ("simgrid", "codes", "otf2"):
            for sent in (signal.SIGTERM, signal.SIGINT):
                out = os.path.join(folder, "out")
                job = subprocess.Popen([os.path.join(a.bin, "amp-trace"), command, trace, out],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                staging = os.path.join(folder, f".out.partial-{job.pid}")
                deadline = time.time() + 30
                while time.time() < deadline and job.poll() is None and not os.path.isdir(staging):
                    time.sleep(0.005)
                time.sleep(0.02)  # into the export, past creating the folder
                if job.poll() is not None:
                    fr.fail(f"amp-trace {command} ended (exit {job.returncode}) before {sent.name} could be sent")
                job.send_signal(sent)
                _, err = job.communicate(timeout=60)
                if job.returncode != -sent:
                    fr.fail(f"amp-trace {command} sent {sent.name}: exit {job.returncode} (not death by the signal) "
                            f"{err!r}")
                fr.expect_files(folder, ["ring"], f"amp-trace {command} ended by {sent.name}")
    print("simgrid, codes and otf2 ended by SIGTERM or SIGINT: the staging folder removed, death by the signal")


def replayed_seconds(export_dir, host_speed):
    """SimGrid's prediction for a TI export on two hosts of `host_speed` flop/s (tools/amp_tools/simulators/simgrid.py's
    replay)."""
    from amp_tools import networks  # noqa: E402
    from amp_tools.simulators import simgrid  # noqa: E402
    from amp_tools.simulators.replay import Job  # noqa: E402
    with open(os.path.join(export_dir, "export.json")) as f:
        summary = json.load(f)
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "pair.toml")
        with open(path, "w") as f:
            f.write(f'topology = "flat"\nnodes = 2\nranks_per_node = 1\nlink_bandwidth = 1e10\n'
                    f'link_latency = 1e-6\nhost_speed = {host_speed!r}\n')
        job = Job(networks.load(path), work, export_dir, summary, None, None, None, work, 60)
        return simgrid.run(job).predicted  # flat: XML, no build


def case_host_speed(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = hand_made_ring(a, folder, 2, 4)
        # The builder's clock: 89 us from Init's return to the first Irecv, then in each of the 4 steps 1 us
        # between its 5 calls and 11 us from its Waitall to the next step (or to Finalize).
        expected = 89e-6 + 4 * (4 * 1e-6 + 11e-6)
        exported = {}
        for speed in ("1e9", "1e3", "1", "3e-4"):
            out = os.path.join(folder, f"ti-{speed}")
            done = amp_trace(a, "simgrid", trace, out, "--host-speed", speed)
            if done.returncode != 0:
                fr.fail(f"simgrid --host-speed {speed}: exit {done.returncode} {done.stderr!r}")
            with open(os.path.join(out, "export.json")) as f:
                summary = [r["compute_seconds"] for r in json.load(f)["per_rank"]]
            for rank, seconds in enumerate(summary):
                with open(os.path.join(out, f"rank-{rank}.txt")) as f:
                    written = sum(float(l.split()[2]) for l in f if l.split()[1] == "compute") / float(speed)
                if abs(written - expected) > 1e-9 or abs(seconds - expected) > 1e-12:
                    fr.fail(f"--host-speed {speed}: rank {rank}'s compute lines hold {written} s and export.json "
                            f"{seconds} s of the trace's {expected} s")
            exported[speed] = out
        if shutil.which("smpirun") is None:
            print("compute kept at every speed; smpirun not installed, the replay is not checked")
            return
        fast, slow = replayed_seconds(exported["1e9"], 1e9), replayed_seconds(exported["1"], 1.0)
        if abs(slow - fast) > 1e-3 * fast:
            fr.fail(f"SimGrid predicts {fast} s at 1e9 flop/s but {slow} s at 1 flop/s for the same trace")
    print(f"compute kept to the nanosecond at 1e9 .. 3e-4 flop/s; SimGrid predicts {fast:.6g} s at 1e9 and at 1 flop/s")


def case_wording(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = copy_reference(folder)
        meta = next(os.path.join(trace, n) for n in os.listdir(trace) if n.endswith(".meta"))
        with open(meta) as f:
            text = f.read()
        for numprocs, line in (("1000000000",
                                "numprocs=1000000000 is more ranks than amp-trace reads (at most 1000000)"),
                               ("99999999999999999999999", "numprocs=99999999999999999999999 is more ranks than "
                                                           "amp-trace reads (at most 1000000)"),
                               ("0", "numprocs='0' is not a positive rank count"),
                               ("-3", "numprocs='-3' is not a positive rank count"),
                               ("4x", "numprocs='4x' is not a positive rank count")):
            with open(meta, "w") as f:
                f.write(re.sub(r"numprocs=\d+", f"numprocs={numprocs}", text))
            expect(amp_trace(a, "info", meta), 2, f"amp-trace: {meta}: {line}", f".meta with numprocs={numprocs}")
        # A link as the trace folder, dangling or to another folder, given by --trace or AMP_TRACE_DIR: refused, one
        # line, and nothing is written through it.
        other = os.path.join(folder, "other")
        os.makedirs(other)
        for name, target in (("dangling", os.path.join(folder, "nowhere")), ("elsewhere", other)):
            link = os.path.join(folder, name)
            os.symlink(target, link)
            for given_by, extra, env in (("--trace", ["--trace", link], None),
                                         ("AMP_TRACE_DIR", [], {"AMP_TRACE_DIR": link + "/"})):
                done = fr.run(a, "amp-ghost", GHOST + extra, ranks=1, env=env)
                shown = link if given_by == "--trace" else link + "/"
                expected = (f"amp_dumpi: rank 0: trace folder '{shown}' is a symbolic link; the library never writes "
                            f"through a link (give the folder itself)")
                lines = fr.lines_of(done)
                if done.returncode != 2 or lines != [expected]:
                    fr.fail(f"trace folder a link ({name}) given by {given_by}: exit {done.returncode}: {lines}")
                if os.listdir(other) or os.path.exists(target) != (target == other):
                    fr.fail(f"trace folder a link ({name}) given by {given_by}: something was written through it")
    print("numprocs past the limit named as such; a trace folder that is a link refused with --trace or AMP_TRACE_DIR")


def main():
    p = fr.parser(__doc__)
    p.add_argument("case")
    p.add_argument("--ring-trace", help="tests/trace's replay_ring_trace, which writes hand-made traces (size_changes)")
    a = p.parse_args()
    globals()["case_" + a.case](a)


if __name__ == "__main__":
    main()
