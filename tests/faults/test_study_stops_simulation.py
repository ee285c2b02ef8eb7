#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""a study stopped while it simulates (SIGTERM to the study alone, or Ctrl-C: SIGINT to
its whole process group) passes the signal to `amp_tools.simulate`, which ends its simulator's process group
and removes its TMPDIR/amp-simulate-* folder; the study then exits 128 + the signal with its one line. Run as
a user would: tools/amp_tools/study.py as a process, on a 64-rank synthesis replayed by SimGrid (about 10 s,
so that the signal lands in the replay; skipped, exit 77, where smpirun is not installed).

Usage: test_study_stops_simulation.py --mpiexec MPIEXEC --bin BUILD/bin
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402
from test_simulate_faults import descendants, none_survive  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable


def study_text():
    """One 1-rank run, untraced, synthesized at 64 ranks and 400 steps (a replay of about 10 s) on a torus."""
    deck = os.path.join(ROOT, "inputs", "ghost", "quick.toml")
    network = os.path.join(ROOT, "inputs", "networks", "torus-4x4x4.toml")
    return (f'name = "stopped"\nproxies = ["ghost"]\ndecks = ["{deck}"]\nstrategies = ["bspma"]\nranks = [1]\n'
            f'flags = ["--nx 8 --ny 8 --nz 8 --num_vars 2 --num_tsteps 400"]\n'
            f'[simulate]\nnetworks = ["{network}"]\nsynthesize_ranks = [64]\ncompute_seconds = 1e-5\n')


def stop_during_replay(a, work, sent, whole_group):
    """Starts the study, sends `sent` once smpimain runs below it, and checks what is left."""
    what = f"the study sent {sent.name}{' (Ctrl-C: its process group)' if whole_group else ''} during the replay"
    tmp = os.path.join(work, "tmp")
    os.makedirs(tmp, exist_ok=True)
    path = os.path.join(work, "stopped.toml")
    with open(path, "w") as f:
        f.write(study_text())
    command = [PYTHON, "-m", "amp_tools.study", path, "--root", work, "--build", os.path.dirname(a.bin),
               "--mpiexec", a.mpiexec, "--cores", "2"]
    study = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, TMPDIR=tmp), start_new_session=True)
    deadline, below = time.time() + 90, {}
    try:
        while time.time() < deadline and study.poll() is None and "smpimain" not in below.values():
            time.sleep(0.02)
            below = descendants(study.pid)
        time.sleep(0.2)  # into the replay
        below.update(descendants(study.pid))
        if study.poll() is not None or "smpimain" not in below.values():
            fr.fail(f"{what}: the study ended (exit {study.returncode}) before its replay began: "
                    f"{study.communicate()}")
        if whole_group:
            os.killpg(study.pid, sent)
        else:
            study.send_signal(sent)
        out, err = study.communicate(timeout=60)
    finally:
        if study.poll() is None:
            os.killpg(study.pid, signal.SIGKILL)
    none_survive(below, what)
    # the shared-cores warning of the run depends on what else the machine ran (faults_machine_load_warning)
    lines = [line for line in err.splitlines() if line.strip() and "other work shared the cores" not in line]
    want = f"study: stopped by {sent.name}; call again to resume (finished runs are skipped)"
    if study.returncode != 128 + sent or lines != [want]:
        fr.fail(f"{what}: expected exit {128 + sent} and {want!r}; got exit {study.returncode}: {lines} "
                f"(stdout: {out.splitlines()[-3:]})")
    leaked = os.listdir(tmp)
    if leaked:
        fr.fail(f"{what}: left {leaked} in TMPDIR")
    print(f"ok   {what}: exit {study.returncode}, one line, no simulator process and nothing in TMPDIR left")


def main():
    a = fr.parser(__doc__).parse_args()
    if shutil.which("smpirun") is None:
        print("SKIP: smpirun (SimGrid) is not installed")
        sys.exit(fr.SKIP)
    with tempfile.TemporaryDirectory() as work:
        # The second call resumes the first's folder: its run and synthesis are kept, its replay starts again.
        stop_during_replay(a, work, signal.SIGTERM, whole_group=False)
        stop_during_replay(a, work, signal.SIGINT, whole_group=True)


if __name__ == "__main__":
    main()
