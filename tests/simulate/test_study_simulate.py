#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A study with a [simulate] table, run as a user would (tools/amp_tools/study.py): every recorded run and every
synthesized point is simulated on every network, the strategies of a synthesized point share one compute
time, the report draws the simulated and validation figures, and a second call simulates nothing
again. A bad [simulate] table is refused in one line before any run.

Usage: test_study_simulate.py MPIEXEC BUILD ROOT WORKDIR
"""
import glob
import json
import os
import shutil
import subprocess
import sys

from amp_tools import simulate  # noqa: E402


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


# Debian's python3 has python3-matplotlib (the driver's report_python); another python3 on PATH may not.
PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable


def arguments_and_workdir(folder):
    """MPIEXEC BUILD ROOT WORKDIR from the command line, with WORKDIR/<folder> made empty for the test."""
    mpiexec, build, root, workdir = (os.path.abspath(a) if os.path.exists(a) else a for a in sys.argv[1:5])
    workdir = os.path.join(workdir, folder)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    return mpiexec, build, root, workdir


def study(root, build, mpiexec, path, workdir):
    return subprocess.run([PYTHON, "-m", "amp_tools.study", path, "--root", workdir,
                           "--build", build, "--mpiexec", mpiexec, "--cores", "2"], capture_output=True, text=True,
                          env=dict(os.environ, OMP_NUM_THREADS="1"))


def study_text(name, simulate_table):
    """A traced ghost study of two strategies at two ranks, with this [simulate] table."""
    return f"""name = "{name}"
proxies = ["ghost"]
flags = ["--nx 8 --ny 8 --nz 8 --num_vars 3 --num_tsteps 3"]
strategies = ["bspma", "svcp"]
ranks = [2]
trace = true

[simulate]
{simulate_table}
"""


def main():
    mpiexec, build, root, workdir = sys.argv[1:5]
    workdir = os.path.join(workdir, "study-simulate")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    nets = [os.path.join(root, "inputs", "networks", n) for n in ("torus-4x4x4.toml", "dragonfly-1024.toml")]
    text = study_text("simulate-test", f"networks = {json.dumps(nets)}\nsynthesize_ranks = [16]")
    path = os.path.join(workdir, "study.toml")
    with open(path, "w") as f:
        f.write(text)
    done = study(root, build, mpiexec, path, workdir)
    if done.returncode != 0:
        fail(f"study exited {done.returncode}: {done.stdout[-800:]} {done.stderr[-800:]}")
    folder = glob.glob(os.path.join(workdir, "runs", "simulate-test-*"))[0]
    ids = ["ghost-bspma-np2-rep1", "ghost-svcp-np2-rep1", "ghost-bspma-synth16", "ghost-svcp-synth16"]
    for run_id in ids:
        for network in nets:
            sim_path = simulate.simulation_file(os.path.join(folder, f"{run_id}.trace"), network, "simgrid")
            if not os.path.isfile(sim_path):
                fail(f"{sim_path} was not written")
            with open(sim_path) as f:
                sim = json.load(f)
            synthesized = "synth" in run_id
            if not sim["predicted_seconds"] > 0 or (sim["measured_seconds"] is None) != synthesized:
                fail(f"{sim_path}: predicted {sim['predicted_seconds']}, measured {sim['measured_seconds']}")
            if sim["ranks"] != (16 if synthesized else 2):
                fail(f"{sim_path}: {sim['ranks']} ranks")
    models = set()
    for run_id in ids[2:]:
        with open(os.path.join(folder, f"{run_id}.json")) as f:
            models.add(json.load(f)["synthesis"]["compute_model"]["steps"][0]["seconds"])
    if len(models) != 1:
        fail(f"the strategies of one synthesized point got different compute times: {models}")
    for figure in ("ghost-simulated.png", "ghost-validation.png", "ghost-link-load.png", "ghost-nic-injection.png",
                   "ghost-hops.png", "ghost-simulated-profile.png"):
        png = os.path.join(folder, "report", figure)
        if not os.path.isfile(png) or open(png, "rb").read(8) != b"\x89PNG\r\n\x1a\n":
            fail(f"{png} was not drawn")
    stamps = {p: os.path.getmtime(p) for p in glob.glob(os.path.join(folder, "*.trace", "simulation-*.json"))}
    again = study(root, build, mpiexec, path, workdir)
    if again.returncode != 0 or "simulated" in again.stdout or "0 to run" not in again.stdout:
        fail(f"the second call did work again or failed (exit {again.returncode}): {again.stdout[-600:]}")
    if any(os.path.getmtime(p) != t for p, t in stamps.items()):
        fail("the second call rewrote simulations")
    for bad, expect in ((text.replace("synthesize_ranks", "synthesise_ranks"),
                         "unknown key 'synthesise_ranks' in [simulate]"),
                        (text.replace("torus-4x4x4.toml", "no-such-net.toml"), "no such network file"),
                        (text.replace("networks = ", "simulators = [\"ns3\"]\nnetworks = "),
                         "simulator 'ns3' is not one of")):
        bad_path = os.path.join(workdir, "bad.toml")
        with open(bad_path, "w") as f:
            f.write(bad.replace("simulate-test", "simulate-bad"))
        done = study(root, build, mpiexec, bad_path, workdir)
        lines = done.stderr.strip().splitlines()
        if done.returncode != 2 or len(lines) != 1 or expect not in lines[0]:
            fail(f"bad [simulate]: exit {done.returncode}, {lines}; wanted one line with {expect!r}")
        if glob.glob(os.path.join(workdir, "runs", "simulate-bad-*")):
            fail("a refused study made a folder")
    print(f"{len(ids)} traces x 2 networks simulated, figures drawn, resumed without re-simulating, 3 bad tables "
          "refused")


if __name__ == "__main__":
    main()
