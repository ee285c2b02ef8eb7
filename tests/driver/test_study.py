#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tools/amp_tools/study.py: bad study files get one line naming the problem; a study runs real amp-ghost runs,
a second call resumes it (finished runs skipped, untouched; a failed run's log kept aside) and the
report is drawn; --slurm writes a script that passes `bash -n`, names every run and passes strategies and transports
as --strategy and --transport; the default study's steps (inputs/studies/default.toml, small): every strategy
the binary lists, one rank per core, only the isend runs traced and simulated on a network file measured
first, the comparison table and the prediction at scale in table.txt.

Usage: test_study.py MODE --root REPO --build BUILD --mpiexec MPIEXEC --work DIR
       MODE: bad_study | resume | slurm | default_steps
"""
import argparse
import glob
import hashlib
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import failure  # noqa: E402

fail = failure("test_study")


def study(opts, text, name="s.toml", extra=(), cores=2):
    """Runs tools/amp_tools/study.py on a study file with `text`, inside a scratch root holding runs/."""
    path = os.path.join(opts.work, name)
    with open(path, "w") as f:
        f.write(text)
    command = [sys.executable, "-m", "amp_tools.study", path, "--root", opts.work, "--build", opts.build,
               "--mpiexec", opts.mpiexec, "--cores", str(cores), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=240)


def ghost_study(opts, name, extra_lines=""):
    deck = os.path.join(opts.root, "inputs", "ghost", "quick.toml")
    return (f'name = "{name}"\nproxies = ["ghost"]\ndecks = ["{deck}"]\n'
            'flags = ["--nx 8 --ny 8 --nz 8 --num_vars 2 --num_tsteps 2"]\n'
            f'strategies = ["bspma", "svcp"]\nranks = [1, 2]\n{extra_lines}')


def bad_study(opts):
    deck = os.path.join(opts.root, "inputs", "ghost", "quick.toml")
    good = f'name = "x"\nproxies = ["ghost"]\ndecks = ["{deck}"]\nstrategies = ["bspma"]\nranks = [1]\n'
    cases = [
        (good + "strategy = [\"svcp\"]\n", "line 6: unknown key 'strategy'"),
        (good.replace("ranks = [1]", "ranks = [0, 2]"),
         "line 5: 'ranks' must be a non-empty list of positive integers"),
        (good.replace("ranks = [1]", 'ranks = "two"'), "line 5: 'ranks' must be a non-empty list of positive integers"),
        (good + "repetitions = -1\n", "line 6: 'repetitions' must be a positive integer"),
        (good.replace('proxies = ["ghost"]', 'proxies = ["ghosts"]'), "line 2: unknown proxy 'ghosts'"),
        (good.replace(deck, "inputs/ghost/nowhere.toml"), "line 3: deck 'inputs/ghost/nowhere.toml' does not exist"),
        (good + "[slurm]\nqueue = \"debug\"\n", "line 7: unknown key 'queue' in [slurm]"),
        (good + "ranks = [2]\n", "line 6"),  # a key given twice: TOML itself refuses it
        (good.replace("ranks = [1]", "ranks = [1, 4]"), "4 ranks exceed the 2 cores here"),
        (good.replace('name = "x"\n', ""), "missing key 'name'"),
    ]
    for text, needle in cases:
        proc = study(opts, text)
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        ok = proc.returncode == 2 and len(lines) == 1 and lines[0].startswith("study: error:") and needle in lines[0]
        print(f"{'ok  ' if ok else 'FAIL'} {needle!r} -> exit {proc.returncode}: {proc.stderr.strip()}")
        if not ok:
            fail(f"expected exit 2 and one line with {needle!r}, got exit {proc.returncode}: {proc.stderr!r}")
    if os.path.exists(os.path.join(opts.work, "runs")) and os.listdir(os.path.join(opts.work, "runs")):
        fail(f"a bad study made folders: {os.listdir(os.path.join(opts.work, 'runs'))}")


def needs_matplotlib():
    """Skips (77) without matplotlib: a study draws its report at the end."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("SKIP: matplotlib is not installed for this python (the amp driver installs python3-matplotlib)")
        sys.exit(77)


def digests(folder):
    return {os.path.basename(p): hashlib.sha256(open(p, "rb").read()).hexdigest()
            for p in glob.glob(os.path.join(folder, "*.json"))
            if os.path.basename(p) != "runs.json" and not p.endswith(".outcome.json")}


def resume(opts):
    needs_matplotlib()
    ids = [f"ghost-quick-{s}-np{n}-rep1" for s in ("bspma", "svcp") for n in (1, 2)]
    text = ghost_study(opts, "resume")
    first = study(opts, text)
    if first.returncode != 0:
        fail(f"first call failed: {first.stdout}{first.stderr}")
    folders = glob.glob(os.path.join(opts.work, "runs", "resume-*"))
    if len(folders) != 1:
        fail(f"expected one study folder, got {folders}")
    folder = folders[0]
    if "4 runs, 0 finished before (skipped), 4 to run" not in first.stdout:
        fail(f"first call did not run the 4 runs: {first.stdout}")
    before = digests(folder)
    if sorted(before) != sorted(i + ".json" for i in ids):
        fail(f"results after the first call: {sorted(before)}")
    figures = sorted(os.listdir(os.path.join(folder, "report")))
    if "ghost-scaling.png" not in figures or "index.html" not in figures:
        fail(f"no report after the first call: {figures}")
    # An interrupted run: its results missing, its log left behind.
    os.remove(os.path.join(folder, ids[1] + ".json"))
    old_log = open(os.path.join(folder, ids[1] + ".log")).read()
    second = study(opts, text)
    if second.returncode != 0:
        fail(f"second call failed: {second.stdout}{second.stderr}")
    if "resuming" not in second.stdout or "4 runs, 3 finished before (skipped), 1 to run" not in second.stdout:
        fail(f"second call did not resume with 3 skipped: {second.stdout}")
    ran = [line for line in second.stdout.splitlines() if "ms per step" in line]
    if len(ran) != 1 or ids[1] not in ran[0]:
        fail(f"second call ran {ran}, expected only {ids[1]}")
    after = digests(folder)
    unchanged = all(after[k] == v for k, v in before.items() if k != ids[1] + ".json")
    if sorted(after) != sorted(before) or not unchanged:
        fail("finished runs' results changed on resume")
    if open(os.path.join(folder, ids[1] + ".log.attempt-1")).read() != old_log:
        fail("the earlier log of the re-run was not kept aside")
    if len(glob.glob(os.path.join(opts.work, "runs", "resume-*"))) != 1:
        fail("the second call made a new folder instead of resuming")
    print(f"ok   resumed {os.path.basename(folder)}: 3 skipped, 1 run, results unchanged, old log kept")


def slurm(opts):
    text = ghost_study(opts, "batch", 'repetitions = 2\n[slurm]\ntime = "00:10:00"\nmodules = ["gcc/12", "openmpi"]\n')
    text = text.replace("ranks = [1, 2]", "ranks = [1, 2, 64]").replace("strategies =",
                                                                        'transports = ["isend", "rma"]\nstrategies =')
    proc = study(opts, text, extra=["--slurm"])
    if proc.returncode != 0:
        fail(f"--slurm failed: {proc.stdout}{proc.stderr}")
    scripts = glob.glob(os.path.join(opts.work, "runs", "batch-*", "study.sbatch"))
    if len(scripts) != 1:
        fail(f"expected one study.sbatch, got {scripts}")
    syntax = subprocess.run(["bash", "-n", scripts[0]], capture_output=True, text=True)
    if syntax.returncode != 0:
        fail(f"bash -n: {syntax.stderr}")
    script = open(scripts[0]).read()
    ids = [f"ghost-quick-{s}-{t}-np{n}-rep{r}" for r in (1, 2) for s in ("bspma", "svcp") for t in ("isend", "rma")
           for n in (1, 2, 64)]
    runs = [line.split()[1] for line in script.splitlines() if line.startswith("run ")]
    if runs != ids:
        fail(f"the script's runs {runs} are not {ids}")
    if "run ghost-quick-svcp-rma-np64-rep2 64 " not in script or "--strategy svcp --transport rma --nx 8" not in script:
        fail("the transports axis is not passed as --transport")
    for needle in ("#SBATCH --ntasks=64", "#SBATCH --time=00:10:00", "module load gcc/12", "module load openmpi",
                   'srun --ntasks="$ranks"'):
        if needle not in script:
            fail(f"the script lacks {needle!r}")
    if glob.glob(os.path.join(os.path.dirname(scripts[0]), "*.json.*")) or any(
            p.endswith(".json") and not p.endswith("runs.json") for p in os.listdir(os.path.dirname(scripts[0]))):
        fail("--slurm ran something")
    print(f"ok   {scripts[0]}: bash -n passes, {len(runs)} runs named, srun and modules")


def default_steps(opts):
    needs_matplotlib()
    machine = os.path.join(opts.work, "this-machine.toml")
    torus = os.path.join(opts.root, "inputs", "networks", "torus-4x4x4.toml")
    text = ghost_study(opts, "steps", 'transports = ["isend", "persistent"]\ntrace = ["isend"]\ntable = true\n'
                                      f'[simulate]\nnetworks = ["{machine}"]\ncalibrate = true\n'
                                      f'[predict]\nranks = 8\nstrategies = ["bspma", "svaf"]\nnetworks = ["{torus}"]\n')
    text = text.replace('strategies = ["bspma", "svcp"]\nranks = [1, 2]', 'strategies = "all"\nranks = "cores"')
    proc = study(opts, text)
    if proc.returncode != 0:
        fail(f"the study failed (exit {proc.returncode}): {proc.stdout[-2000:]}{proc.stderr}")
    folder = glob.glob(os.path.join(opts.work, "runs", "steps-*"))[0]
    ids = [f"ghost-quick-{s}-{t}-np2-rep1" for s in ("bspma", "onebyone", "svaf", "svcp")
           for t in ("isend", "persistent")]
    missing = [i for i in ids if not os.path.isfile(os.path.join(folder, i + ".json"))]
    if missing:
        fail(f"runs missing: {missing}")
    traced = sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "ghost-quick-*.trace")))
    if traced != [i + ".trace" for i in ids if "-isend-" in i]:
        fail(f"traced {traced}, not only the isend runs")
    if not os.path.isfile(machine):
        fail("the missing network file was not measured")
    table = open(os.path.join(folder, "table.txt")).read().splitlines()
    rows = [line.split() for line in table[1:1 + len(ids)]]
    if [r[:2] for r in rows] != [i.split("-")[2:4] for i in ids] or rows[0][3] != "1.00x":
        fail(f"table.txt's rows are not every run against bspma over isend: {table[:1 + len(ids)]}")
    if "sim ms/step" not in table[0] or len(rows[0]) != len(rows[1]) + 2:
        fail(f"table.txt does not give the isend runs' simulation on this-machine: {table[:3]}")
    if not any(line.startswith("amp: 8 ranks, torus-4x4x4: svaf ") for line in table):
        fail(f"table.txt lacks the prediction at 8 ranks: {table[-4:]}")
    if not os.path.isfile(os.path.join(folder, "report", "index.html")):
        fail("no report")
    print(f"ok   {len(ids)} runs, {len(traced)} traced and simulated, table.txt with the prediction at 8 ranks")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["bad_study", "resume", "slurm", "default_steps"])
    parser.add_argument("--root", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--work", required=True)
    opts = parser.parse_args()
    shutil.rmtree(opts.work, ignore_errors=True)
    os.makedirs(opts.work)
    {"bad_study": bad_study, "resume": resume, "slurm": slurm, "default_steps": default_steps}[opts.mode](opts)
    print(f"PASSED: study {opts.mode}")


if __name__ == "__main__":
    sys.exit(main())
