#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A proxy stopped by SIGINT or SIGTERM leaves nothing half-written and dies by that signal. A real
run removes its results file's NAME.json.partial and hands the signal on to the
tracing library, which finishes its trace file (read back as cut short, not corrupt); a synthesis removes its staging
folder beside DIR and the parent folders it made, so that DIR never exists half-written. Also: a
synthesis refuses a DIR that exists (it writes a new one, nothing is overwritten), and a complete one
leaves DIR and no staging folder."""
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

LONG_RUN = ["--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "2", "--num_tsteps", "1000000", "--progress", "0"]
# Thousands of small virtual ranks: seconds of synthesis, stopped after its first few ranks.
LONG_SYNTHESIS = ["--scaling", "weak", "--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "1", "--num_tsteps", "2",
                  "--strategy", "svaf", "--compute_seconds", "0.001", "--ranks", "60000", "--progress", "0"]


def wait_for(condition, what, process, timeout=60):
    end = time.time() + timeout
    while not condition():
        if process.poll() is not None:
            fr.fail(f"{what}: the run ended (exit {process.returncode}) before it could be stopped: "
                    f"{process.communicate()[1].strip()[-300:]}")
        if time.time() > end:
            process.kill()
            fr.fail(f"{what}: not reached in {timeout} s")
        time.sleep(0.02)


def started(a, arguments, cwd):
    return subprocess.Popen(fr.command(a, "amp-ghost", arguments, None), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=cwd, env=dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false"))


def stopped(process, sent, what):
    process.send_signal(sent)
    try:
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        fr.fail(f"{what}: still running 60 s after {sent.name}")
    if process.returncode != -sent:
        fr.fail(f"{what}: expected death by {sent.name} (exit {-sent}), got exit {process.returncode}: "
                f"{(out + err).strip()[-300:]}")


def real_run_removes_its_partial(a, sent):
    what = f"real run, {sent.name}"
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, "run.json")
        process = started(a, LONG_RUN + ["--results", results, "--trace", "trace"], tmp)
        wait_for(lambda: os.path.exists(results + ".partial"), what, process)
        time.sleep(0.5)  # into the time loop
        stopped(process, sent, what)
        fr.expect_files(tmp, ["trace"], f"{what}: the trace and nothing else left")
        checked = subprocess.run([os.path.join(a.bin, "amp-trace"), "validate", os.path.join(tmp, "trace")],
                                 capture_output=True, text=True, timeout=60)
        ended_at_signal = "records end without MPI_Finalize (the run ended at a signal"
        if checked.returncode != 2 or ended_at_signal not in checked.stderr:
            fr.fail(f"{what}: the tracing library did not finish the trace (amp-trace validate exit "
                    f"{checked.returncode}: "
                    f"{(checked.stdout + checked.stderr).strip()[-300:]})")
    print(f"OK: {what}: died by the signal, run.json.partial removed, the trace finished by the tracing library")


def synthesis_removes_its_staging(a, sent):
    what = f"synthesis, {sent.name}"
    with tempfile.TemporaryDirectory() as tmp:
        directory = os.path.join(tmp, "made", "for", "it", "traces")
        staging = os.path.join(tmp, "made", "for", "it")
        process = started(a, LONG_SYNTHESIS + ["--synthesize", directory, "--results", os.path.join(tmp, "s.json")],
                          tmp)

        def some_ranks_written():
            folders = [f for f in os.listdir(staging)
                       if f.startswith(".traces.partial-")] if os.path.isdir(staging) else []
            return bool(folders) and sum(n.endswith(".bin") for n in os.listdir(os.path.join(staging, folders[0]))) >= 3
        wait_for(some_ranks_written, what, process)
        stopped(process, sent, what)
        fr.expect_files(tmp, [], f"{what}: no trace, staging folder, results or made folders left")
    print(f"OK: {what}: died by the signal, staging folder and the folders made for DIR removed")


def synthesis_needs_a_new_directory(a):
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "old"))
        done = fr.run(a, "amp-ghost", ["--nx", "4", "--ny", "4", "--nz", "4", "--num_tsteps", "1", "--synthesize",
                                       os.path.join(tmp, "old"), "--ranks", "2"], ranks=None, cwd=tmp)
        fr.expect_refusal(done, 2, f"amp-ghost: error: --synthesize: '{os.path.join(tmp, 'old')}' already exists; a "
                                   "synthesis writes a new directory (nothing is overwritten)", "existing DIR")
        fr.expect_files(tmp, ["old"], "existing DIR: nothing written")
        if os.listdir(os.path.join(tmp, "old")):
            fr.fail(f"existing DIR: something was written into it: {os.listdir(os.path.join(tmp, 'old'))}")
        done = fr.run(a, "amp-ghost", ["--nx", "4", "--ny", "4", "--nz", "4", "--num_tsteps", "1", "--synthesize",
                                       os.path.join(tmp, "new"), "--ranks", "2", "--compute_seconds", "0"],
                      ranks=None, cwd=tmp)
        if done.returncode != 0:
            fr.fail(f"a synthesis into a new DIR: exit {done.returncode}: {fr.lines_of(done)}")
        fr.expect_files(tmp, ["new", "old"], "complete synthesis: DIR and nothing else")
    print("OK: a synthesis refuses an existing DIR; a complete one leaves DIR and no staging folder")


def main():
    a = fr.parser(__doc__).parse_args()
    synthesis_needs_a_new_directory(a)
    for sent in (signal.SIGTERM, signal.SIGINT):
        real_run_removes_its_partial(a, sent)
        synthesis_removes_its_staging(a, sent)


if __name__ == "__main__":
    main()
