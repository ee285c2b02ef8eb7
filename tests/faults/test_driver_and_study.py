#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Faults on the driver side, run as a user would (./amp, tools/amp_tools/study.py, tools/amp_tools/report.py as
processes on real files): each case checks the exit code and the exact line the user is shown.

Usage: test_driver_and_study.py CASE --root REPO --build BUILD --mpiexec MPIEXEC --work DIR
"""
import argparse
import glob
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import failure  # noqa: E402
import fault_run as fr  # noqa: E402
from amp_tools import results  # noqa: E402

fail = failure("faults")
TINY = "--nx 8 --ny 8 --nz 8 --num_vars 2 --num_tsteps 2"


def lines(text):
    return [line for line in text.splitlines() if line.strip()]


def matches(line, want):
    """A str must equal the line; a tuple's first part must start it and the others follow in order."""
    if isinstance(want, str):
        return line == want
    if not line.startswith(want[0]):
        return False
    at = len(want[0])
    for part in want[1:]:
        at = line.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


# The shared-cores warning depends on what else the machine ran meanwhile (the test's own launcher and
# driver count as other work on a short run); faults_machine_load_warning tests it on fixed files.
SHARED_CORES = "other work shared the cores"


def expect(done, code, stderr_lines, what):
    """The process exited `code` and printed exactly `stderr_lines` on stderr (see matches), leaving aside
    the shared-cores warning unless it is among the lines expected."""
    got = [line for line in lines(done.stderr)
           if SHARED_CORES not in line or any(SHARED_CORES in "".join(w) for w in stderr_lines)]
    ok = done.returncode == code and len(got) == len(stderr_lines) and all(map(matches, got, stderr_lines))
    print(f"{'ok  ' if ok else 'FAIL'} {what}: exit {done.returncode}, stderr {got}")
    if not ok:
        fail(f"{what}: expected exit {code} and stderr {stderr_lines}, got exit {done.returncode}, "
             f"stderr {got}, stdout {lines(done.stdout)[-5:]}")


class Scratch:
    """A scratch repository root (runs/ lands in it) and the real tools, build and launcher."""

    def __init__(self, opts):
        self.opts = opts
        self.python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable

    def study_command(self, name, text, extra=(), mpiexec=None, root=None):
        """Writes the study file NAME and returns the command that runs it (runs/ under `root`, else the
        work folder)."""
        path = os.path.join(self.opts.work, name)
        with open(path, "w") as f:
            f.write(text)
        return [self.python, "-m", "amp_tools.study", path, "--root", root or self.opts.work,
                "--build", self.opts.build, "--mpiexec", mpiexec or self.opts.mpiexec, "--cores", "2", *extra]

    def study(self, name, text, extra=(), mpiexec=None, root=None):
        return subprocess.run(self.study_command(name, text, extra, mpiexec, root), capture_output=True, text=True,
                              timeout=240)

    def ghost(self, name, body):
        deck = os.path.join(self.opts.root, "inputs", "ghost", "quick.toml")
        return f'name = "{name}"\nproxies = ["ghost"]\ndecks = ["{deck}"]\n{body}'

    def amp(self, *args):
        env = dict(os.environ, AMP_NO_APT="1")
        return subprocess.run([os.path.join(self.opts.root, "amp"), *args], capture_output=True, text=True,
                              timeout=240, env=env)

    def folders(self, name):
        return glob.glob(os.path.join(self.opts.work, "runs", f"{name}-*"))


def failed_runs_run_again(s):
    """Row 18: a run that failed verification (exit 1, results written) is run again on resume."""
    # amp-nobel's --inject_fault loses mass on purpose: the run writes its results, then exits 1.
    deck = os.path.join(s.opts.root, "inputs", "nobel", "default.toml")
    text = (f'name = "verify"\nproxies = ["nobel"]\ndecks = ["{deck}"]\nstrategies = ["bspma"]\nranks = [1]\n'
            'flags = ["--nbx 2 --nby 2 --nbz 2 --num_tsteps 2 --progress 0 --inject_fault 1e-3"]\n')
    first = s.study("verify.toml", text)
    run = "nobel-default-bspma-np1-rep1"
    expect(first, 1, ["study: 1 runs failed; call again to retry them (finished runs are skipped)"],
           "first call: verification fails")
    if f"{run}: FAILED (exit 1)" not in first.stdout:
        fail(f"first call did not report the failed run: {first.stdout}")
    second = s.study("verify.toml", text)
    expect(second, 1, ["study: 1 runs failed; call again to retry them (finished runs are skipped)"],
           "second call: the failed run is run again")
    if "study: 1 runs, 0 finished before (skipped), 1 to run" not in second.stdout:
        fail(f"second call skipped the failed run: {second.stdout}")
    folder = s.folders("verify")[0]
    for kept in (f"{run}.json.attempt-1", f"{run}.log.attempt-1", f"{run}.json", f"{run}.log"):
        if not os.path.exists(os.path.join(folder, kept)):
            fail(f"{kept} missing after the re-run: {sorted(os.listdir(folder))}")
    print("ok   the failed run ran again; its first results and log kept as .attempt-1")


def bad_values_one_line(s):
    """Row 19: values that gave Python tracebacks are one line naming file and key, exit 2."""
    base = s.ghost("bad", f'flags = ["{TINY}"]\nstrategies = ["svaf"]\nranks = [1]\n')
    path = os.path.join(s.opts.work, "bad.toml")
    cases = [(base.replace('["svaf"]', '["svaf/x"]'), "line 5: 'strategies' value 'svaf/x' is not a name"),
             (base.replace(f'["{TINY}"]', '["--nx \'8"]'), "line 4: 'flags' value \"--nx '8\" cannot be split"),
             (base + '[slurm]\ncpus_per_task = "x"\n', "line 8: [slurm] 'cpus_per_task' must be a positive integer")]
    for text, needle in cases:
        expect(s.study("bad.toml", text, extra=["--slurm"] if "slurm" in text else ()), 2,
               [(f"study: error: {path} ", needle)], needle)
    if s.folders("bad"):
        fail("a refused study made a folder")


def slurm_values_checked_and_quoted(s):
    """Row 20: [slurm] values are validated; nothing from the study reaches the script unquoted."""
    base = s.ghost("batch", f'flags = ["{TINY}"]\nstrategies = ["svaf"]\nranks = [1, 2]\n[slurm]\n')
    path = os.path.join(s.opts.work, "batch.toml")
    cases = [(base + 'time = "01:00:00\\necho INJECTED"\n', "line 8: [slurm] 'time' must be a Slurm time"),
             (base + "nodes = -3\n", "line 8: [slurm] 'nodes' must be a positive integer (got -3)"),
             (base + 'partition = "debug; rm -rf /"\n', "line 8: [slurm] 'partition' must be a partition name"),
             (base + 'modules = ["gcc\\necho INJECTED"]\n', "line 8: [slurm] 'modules' must be a list of module names")]
    for text, needle in cases:
        expect(s.study("batch.toml", text, extra=["--slurm"]), 2, [(f"study: error: {path} ", needle)], needle)
    if s.folders("batch"):
        fail("a refused study made a folder")
    # A flags value with shell words in it reaches srun as one argument.
    risky = "--seed 1 --progress '$(echo INJECTED); echo INJECTED'"  # --progress: a flag the study does not set
    text = base.replace(f'["{TINY}"]', json.dumps([risky])) + 'time = "00:10:00"\nnodes = 2\n'
    done = s.study("batch.toml", text, extra=["--slurm"])
    expect(done, 0, [], "a good [slurm] table with shell words in flags")
    script = open(os.path.join(s.folders("batch")[0], "study.sbatch")).read()
    if subprocess.run(["bash", "-n"], input=script, text=True).returncode != 0:
        fail("the script does not pass bash -n")
    header = [line for line in script.splitlines()[1:] if not line.startswith("#")][0]
    if (header != "set -u" or "#SBATCH --time=00:10:00\n#SBATCH --output=" not in script
            or "#SBATCH --nodes=2" not in script):
        fail(f"the #SBATCH header is not whole: {script[:800]}")
    run_lines = [line for line in script.splitlines() if line.startswith("run ")]
    for line in run_lines:
        words = shlex.split(line)
        if words[-2:] != ["--progress", "$(echo INJECTED); echo INJECTED"]:
            fail(f"the flags did not reach the run line as quoted words: {line}")
    if len(run_lines) != 2 or any(line.startswith("echo INJECTED") for line in script.splitlines()):
        fail(f"unexpected lines in the script: {run_lines}")
    print("ok   the script's header is whole and every flag is one quoted word")


def axes_checked_before_any_run(s):
    """Row 21: duplicate and unknown axis values are refused before any run; pairs that do not fit
    are skipped and listed once, so the study can finish."""
    base = s.ghost("axes", f'flags = ["{TINY}"]\nstrategies = ["svaf"]\nranks = [1]\n')
    path = os.path.join(s.opts.work, "axes.toml")
    cases = [(base.replace('["svaf"]', '["svaf", "svaf"]'), "line 5: 'strategies' gives 'svaf' twice"),
             (base.replace("ranks = [1]", "ranks = [1, 1]"), "line 6: 'ranks' gives 1 twice"),
             (base.replace('["svaf"]', '["svaf", "frob"]'),
              "line 5: amp-ghost refuses strategy frob with transport default: "),
             (base + 'transports = ["isend", "carrier_pigeon"]\n',
              "line 7: amp-ghost refuses strategy svaf with transport carrier_pigeon: unknown transport "
              "'carrier_pigeon'")]
    for text, needle in cases:
        expect(s.study("axes.toml", text), 2, [(f"study: error: {path} ", needle)], needle)
    if s.folders("axes"):
        fail("a refused study made a folder")
    text = base.replace('["svaf"]', '["svaf", "svcp"]') + 'transports = ["neighbor"]\n'
    for call in ("first", "second"):
        done = s.study("axes.toml", text)
        expect(done, 0, [], f"{call} call of svaf and svcp over neighbor")
        skips = [line for line in done.stdout.splitlines() if "skipped (does not fit)" in line]
        want = ("study: skipped (does not fit): amp-ghost svcp over neighbor: "
                "transport 'neighbor' does not fit strategy 'svcp'")
        if len(skips) != 1 or not skips[0].startswith(want):
            fail(f"{call} call: expected one line starting {want!r}, got {skips}")
    if "study: 1 runs, 1 finished before (skipped), 0 to run" not in done.stdout:
        fail(f"the second call did not find the study finished: {done.stdout}")
    folder = s.folders("axes")[0]
    if glob.glob(os.path.join(folder, "*.attempt-*")) or not os.path.exists(
            os.path.join(folder, "ghost-quick-svaf-neighbor-np1-rep1.json")):
        fail(f"folder after two calls: {sorted(os.listdir(folder))}")
    print("ok   the non-fitting pair was skipped and listed once; the study finished")


def report_skips_empty_trace_stats(s):
    """Row 22: an empty .trace-stats.json costs its communication matrix, with one line, not the report."""
    folder = os.path.join(s.opts.work, "runs", "empty-stats")
    shutil.copytree(os.path.join(s.opts.root, "tests", "driver", "fixtures", "report"), folder)
    stats = os.path.join(folder, "ghost-svcp-np2-rep1.trace-stats.json")
    open(stats, "w").close()
    done = s.amp("report", folder)
    expect(done, 0,
           [f"report: warning: {stats} is not readable JSON (Expecting value: line 1 column 1 (char 0)); left out"],
           "report with an empty trace-stats file")
    pngs = sorted(p for p in os.listdir(os.path.join(folder, "report")) if p.endswith(".png"))
    if "ghost-comm_matrix.png" in pngs or "ghost-breakdown.png" not in pngs:
        fail(f"figures: {pngs}")
    print(f"ok   {len(pngs)} figures, no communication matrix")


def driver_usage_errors_exit_2(s):
    """Row 25: the driver's usage errors exit 2 with one 'amp: error:' line; report's too."""
    empty = os.path.join(s.opts.work, "empty")
    os.makedirs(empty)
    cases = [(("study", "/nonexistent/s.toml"), "amp: error: study: give a study file (e.g. inputs/studies/"
                                                  "strategies_ranks.toml); '/nonexistent/s.toml' does not exist"),
             (("report", "/nonexistent"), "amp: error: report: '/nonexistent': no such folder"),
             (("report",), "amp: error: report: give one results folder (e.g. runs/<stamp>)"),
             (("run", "frobnicate"), "amp: error: unknown proxy 'frobnicate' (use ghost, sage, nobel or micro)"),
             (("report", empty), f"report: error: no AMP results files (*.json) in '{empty}'")]
    for args, line in cases:
        expect(s.amp(*args), 2, [line], "./amp " + " ".join(args))
    done = s.amp("report", "--help")  # the usage, not "'--help' is not a folder"
    if done.returncode != 0 or not done.stdout.startswith("usage: ") or done.stderr.strip():
        fail(f"./amp report --help: exit {done.returncode}, {done.stdout[:80]!r} {done.stderr[:200]!r}")
    print("ok   ./amp report --help: the usage, exit 0")
    done = s.amp("frobnicate")
    if done.returncode != 2 or lines(done.stderr)[-1] != "amp: error: unknown command 'frobnicate'":
        fail(f"./amp frobnicate: exit {done.returncode}, last line {lines(done.stderr)[-1:]}")
    print("ok   ./amp frobnicate: exit 2, usage then one error line")


def trace_failure_kept_apart(s):
    """Row 5: a run that exits 5 (answer good, trace not written) keeps its results; its trace is marked
    failed in the run's outcome and the study's summary, the study exits 5, a second call skips it."""
    launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trace_fails_launcher.sh")
    text = s.ghost("tracefail", f'flags = ["{TINY}"]\nstrategies = ["bspma"]\nranks = [1]\ntrace = true\n')
    run = "ghost-quick-bspma-np1-rep1"
    env_launcher = f"{launcher}"
    os.environ["AMP_REAL_MPIEXEC"] = s.opts.mpiexec
    for call in ("first", "second"):
        done = s.study("tracefail.toml", text, mpiexec=env_launcher)
        expect(done, 5, [f"study: 1 runs' traces failed (their results are kept): {run}"], f"{call} call")
    if "study: 1 runs, 1 finished before (skipped), 0 to run" not in done.stdout:
        fail(f"the second call ran the run again: {done.stdout}")
    folder = s.folders("tracefail")[0]
    outcome = json.load(open(os.path.join(folder, run + ".outcome.json")))
    expected = {"schema_version": 1, "exit_code": 5, "trace": "failed"}
    if {k: v for k, v in outcome.items() if k not in ("shared_cores", "made_from")} != expected:
        fail(f"outcome: {outcome}")
    if not results.finished(os.path.join(folder, run + ".json")):
        fail("the results were not kept")
    print("ok   results kept, trace marked failed, exit 5, not run again")


def machine_load_warning(s):
    """Noise: results whose machine_load shows other work on the cores get one warning line; quiet
    runs and older results without machine_load get none."""
    fixture = json.load(open(os.path.join(s.opts.root, "tests", "driver", "fixtures", "report",
                                          "ghost-bspma-np1-rep1.json")))
    cases = [("busy",
              {"load_average_start": 1.5, "load_average_end": 2.0, "other_cpu_seconds": 0.5, "wall_seconds": 2.0,
                       "cores": 2}),
             ("quiet",
              {"load_average_start": 0.1, "load_average_end": 1.0, "other_cpu_seconds": 0.3, "wall_seconds": 2.0,
                        "cores": 2}),
             ("old", None)]
    for name, load in cases:
        path = os.path.join(s.opts.work, f"{name}.json")
        data = dict(fixture, machine_load=load) if load else fixture
        json.dump(data, open(path, "w"))
        done = subprocess.run([sys.executable, "-m", "amp_tools.machine_load", path],
                              capture_output=True, text=True)
        want = [f"amp: warning: {path}: other work shared the cores: other processes took 0.50 s of CPU during the "
                "2.00 s run on 2 cores (12% of the node, load average 1.50 at the start); its times are noisy"] \
            if name == "busy" else []
        expect(done, 0, want, f"machine_load {name}")


def report_marks_noise(s):
    """The report compares each point with the fastest at its rank count: overlapping spreads are
    'within noise', apart ones a percentage, a single repetition 'spread unknown'; a point with a run
    that shared its cores says how many did."""
    folder = os.path.join(s.opts.work, "runs", "noise")
    os.makedirs(folder)
    fixture = json.load(open(os.path.join(s.opts.root, "tests", "driver", "fixtures", "report",
                                          "ghost-bspma-np2-rep1.json")))
    times = {"bspma": (10.0, 12.0), "svaf": (11.0, 13.0), "svcp": (20.0, 22.0), "rma": (30.0,)}
    for strategy, per_step in times.items():
        for rep, ms in enumerate(per_step, 1):
            run = json.loads(json.dumps(fixture))
            run["config"]["strategy"] = strategy
            run["timing"]["per_step_seconds"] = ms / 1e3
            if (strategy, rep) == ("svaf", 2):
                run["machine_load"] = {"load_average_start": 1.0, "load_average_end": 1.0, "other_cpu_seconds": 2.0,
                                       "wall_seconds": 1.0, "cores": 2}
            json.dump(run, open(os.path.join(folder, f"{strategy}-rep{rep}.json"), "w"))
    done = s.amp("report", folder)
    expect(done, 0, [], "report of four strategies")
    rows = {line.split()[1]: line.split("–")[1].split()[1:] for line in done.stdout.splitlines()
            if line.startswith("amp-ghost")}
    want = {"bspma": ["fastest"], "svaf": ["within", "noise", "1", "runs", "shared", "their", "cores"],
            "svcp": ["+91%"],
            "rma": ["spread", "unknown"]}
    if rows != want:
        fail(f"vs fastest column: {rows}, expected {want}")
    print(f"ok   {rows}")


def launcher(name):
    """A stand-in for mpiexec beside this file; it runs the real one, $AMP_REAL_MPIEXEC."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)


def killed_run_resumes(s):
    """a rank killed by SIGKILL (the OOM killer), or a launcher that got SIGINT alone
    (MPICH's passes it on to the ranks and exits 0), leaves the proxy's NAME.json.partial. The study
    records the signal, not an exit code; called again, it sets the .partial aside with the run's other
    files as attempt 1 and the run finishes (the proxy refuses to start beside a .partial)."""
    run = "ghost-quick-bspma-np1-rep1"
    cases = [("rank", "SIGKILL"), ("launcher", "SIGINT")]
    if "openmpi" in os.path.basename(s.opts.mpiexec):
        # Open MPI's mpirun, given SIGINT alone, exits 1 without naming a signal: the study cannot tell it
        # from a failed run (recorded as exit 1, not as bad input); a known gap, left to MPICH's launcher here.
        cases = cases[:1]
    for target, signal_name in cases:
        os.environ.update(AMP_REAL_MPIEXEC=s.opts.mpiexec, AMP_KILL_TARGET=target, AMP_KILL_SIGNAL=signal_name[3:])
        name = f"killed-{target}"
        text = s.ghost(name, 'flags = ["--nx 32 --ny 32 --nz 32 --num_vars 4 --num_tsteps 2000"]\n'
                             'strategies = ["bspma"]\nranks = [1]\n')
        first = s.study(f"{name}.toml", text, mpiexec=launcher("kill_run_launcher.sh"))
        expect(first, 1, ["study: 1 runs failed; call again to retry them (finished runs are skipped)"],
               f"first call, {signal_name} to the {target}")
        if f"study: [1/1] {run}: FAILED (killed by {signal_name}) (log: " not in first.stdout:
            fail(f"the run's line does not name the signal: {first.stdout}")
        folder = s.folders(name)[0]
        outcome = json.load(open(os.path.join(folder, run + ".outcome.json")))
        # SIGKILL leaves the .partial for certain; a proxy that catches SIGINT may remove its own.
        left_partial = os.path.exists(os.path.join(folder, run + ".json.partial"))
        if outcome.get("signal") != signal_name or (signal_name == "SIGKILL" and not left_partial):
            fail(f"outcome {outcome}, folder {sorted(os.listdir(folder))}")
        second = s.study(f"{name}.toml", text)
        expect(second, 0, [], "second call")
        left = sorted(os.listdir(folder))
        for kept in ((".json.partial.attempt-1",) * left_partial
                     + (".log.attempt-1", ".outcome.json.attempt-1", ".json", ".log")):
            if run + kept not in left:
                fail(f"{run}{kept} missing after the second call: {left}")
        if run + ".json.partial" in left:
            fail(f"the .partial is still under its name: {left}")
        print(f"ok   {signal_name} to the {target}: recorded as {signal_name}; "
              f"{'the .partial set aside as attempt 1' if left_partial else 'no .partial left'}; the run finished")


def concurrent_study_refused(s):
    """a second call on a study folder in use exits 2, naming the folder and the
    first call's pid, and touches nothing; SIGTERM to the first call stops its run, records the signal
    and exits 143; a third call resumes."""
    os.environ.update(AMP_REAL_MPIEXEC=s.opts.mpiexec, AMP_LAUNCH_DELAY="60")
    text = s.ghost("locked", f'flags = ["{TINY}"]\nstrategies = ["bspma"]\nranks = [1]\n')
    run = "ghost-quick-bspma-np1-rep1"
    first = subprocess.Popen(s.study_command("locked.toml", text, mpiexec=launcher("slow_launcher.sh")),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):
            logs = glob.glob(os.path.join(s.opts.work, "runs", "locked-*", run + ".log"))
            if logs or first.poll() is not None:
                break
            time.sleep(0.05)
        if not logs:
            fail(f"the first call did not start its run: {first.communicate()}")
        folder = os.path.dirname(logs[0])
        second = s.study("locked.toml", text)
        expect(second, 2, [f"study: error: {folder}/ is in use by another ./amp study (pid {first.pid}); wait for "
                           "it to end, or give --new"], "second call while the first runs")
        if len(s.folders("locked")) != 1 or glob.glob(os.path.join(folder, "*.attempt-*")):
            fail(f"the second call touched the study: {s.folders('locked')}, {sorted(os.listdir(folder))}")
        first.send_signal(signal.SIGTERM)
        out, err = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    expect(subprocess.CompletedProcess(first.args, first.returncode, out, err), 143,
           ["study: stopped by SIGTERM; call again to resume (finished runs are skipped)"], "first call, sent SIGTERM")
    if f"study: [1/1] {run}: STOPPED by SIGTERM" not in out:
        fail(f"the run's line does not say it was stopped: {out}")
    outcome = json.load(open(os.path.join(folder, run + ".outcome.json")))
    if outcome.get("signal") != "SIGTERM":
        fail(f"outcome: {outcome}")
    third = s.study("locked.toml", text)
    expect(third, 0, [], "third call")
    left = sorted(os.listdir(folder))
    if not {run + ".json", run + ".log.attempt-1", run + ".outcome.json.attempt-1"} <= set(left):
        fail(f"folder after the third call: {left}")
    print("ok   the second call was refused; the stopped run recorded SIGTERM; the third call finished it")


def simulate_table(s, body):
    """A [simulate] table on one small network, with `body` added."""
    network = os.path.join(s.opts.root, "inputs", "networks", "torus-4x4x4.toml")
    return f'[simulate]\nnetworks = ["{network}"]\n{body}'


def stopped_synthesis_set_aside(s):
    """a synthesis stopped midway leaves its NAME.json.partial and its trace
    begun. Called again, the study sets both aside as attempt 1 and synthesizes the point anew (the proxy
    refuses to start beside a .partial)."""
    text = s.ghost("synth", f'flags = ["{TINY}"]\nstrategies = ["bspma"]\nranks = [1]\ntrace = true\n'
                            + simulate_table(s, "synthesize_ranks = [8]\n"))
    expect(s.study("synth.toml", text), 0, [], "first call")
    folder = s.folders("synth")[0]
    base = os.path.join(folder, "ghost-quick-bspma-synth8")
    # What a synthesis killed before its end leaves: the reservation of its results and its trace.
    os.rename(base + ".json", base + ".json.partial")
    second = s.study("synth.toml", text)
    expect(second, 0, [], "second call")
    if "study: synthesized ghost-quick-bspma-synth8 (8 ranks" not in second.stdout:
        fail(f"the point was not synthesized again: {second.stdout}")
    left = sorted(os.listdir(folder))
    for kept in (".json.partial.attempt-1", ".trace.attempt-1", ".log.attempt-1", ".json", ".trace"):
        if "ghost-quick-bspma-synth8" + kept not in left:
            fail(f"ghost-quick-bspma-synth8{kept} missing after the second call: {left}")
    print("ok   the stopped synthesis's .partial and trace were set aside; the point was synthesized anew")


def simulate_settings_checked_first(s):
    """synthesized rank counts beyond the proxies' 2^24 and an sstmac without an
    executable AMP_SSTMAC are refused with exit 2 before any run, not after every run."""
    base = s.ghost("settings", f'flags = ["{TINY}"]\nstrategies = ["bspma"]\nranks = [1]\ntrace = true\n')
    path = os.path.join(s.opts.work, "settings.toml")
    not_executable = os.path.join(s.opts.work, "sstmac")
    open(not_executable, "w").close()
    cases = [(simulate_table(s, "synthesize_ranks = [1000000000]\n"), {},
              "line 10: [simulate] 'synthesize_ranks' value 1000000000 is more than the 16777216 virtual ranks a proxy "
              "synthesizes"),
             (simulate_table(s, "synthesize_ranks = [16, 16777217]\n"), {},
              "line 10: [simulate] 'synthesize_ranks' value 16777217 is more than the 16777216 virtual ranks"),
             (simulate_table(s, 'simulators = ["sstmac"]\n'), {"AMP_SSTMAC": None},
              "line 10: [simulate] simulator 'sstmac' needs AMP_SSTMAC to name an sstmac executable file "
              "(SST-macro 16.0; "
              "AMP_SSTMAC is not set)"),
             (simulate_table(s, 'simulators = ["sstmac"]\n'), {"AMP_SSTMAC": not_executable},
              f"line 10: [simulate] simulator 'sstmac' needs AMP_SSTMAC to name an sstmac executable file "
              f"(SST-macro 16.0; "
              f"AMP_SSTMAC is '{not_executable}')")]
    saved = os.environ.pop("AMP_SSTMAC", None)
    try:
        for table, env, needle in cases:
            os.environ.pop("AMP_SSTMAC", None)
            if env.get("AMP_SSTMAC"):
                os.environ["AMP_SSTMAC"] = env["AMP_SSTMAC"]
            expect(s.study("settings.toml", base + table), 2, [(f"study: error: {path} ", needle)], needle)
    finally:
        os.environ.pop("AMP_SSTMAC", None)
        if saved is not None:
            os.environ["AMP_SSTMAC"] = saved
    if s.folders("settings"):
        fail("a refused study made a folder")
    print("ok   every setting refused before the first run")


def study_on_full_disk(s):
    """a study whose disk is full ends with one line and exit 4, leaving no folder with
    an empty study.toml (a later call would take it for another study's)."""
    text = s.ghost("full", f'flags = ["{TINY}"]\nstrategies = ["bspma"]\nranks = [1]\n')
    with fr.small_filesystem() as mount:
        fr.fill(mount)
        done = s.study("full.toml", text, root=mount)
        expect(done, 4, [(f"study: error: cannot write '{mount}/runs/full-",
                          "/study.toml': No space left on device")], "full disk")
        left = {entry: sorted(os.listdir(os.path.join(mount, entry))) for entry in os.listdir(mount)
                if entry != "filler"}
        if left != {"runs": []}:
            fail(f"left on the full disk: {left}")
    print("ok   one line, exit 4, no study folder left")


def report_leaves_out_malformed_results(s):
    """results files that are valid JSON but malformed, and a ragged communication
    matrix, are each left out with one warning line; the report of the rest is drawn."""
    folder = os.path.join(s.opts.work, "runs", "malformed")
    shutil.copytree(os.path.join(s.opts.root, "tests", "driver", "fixtures", "report"), folder)

    def change(name, edit):
        path = os.path.join(folder, name)
        data = json.load(open(path))
        edit(data)
        json.dump(data, open(path, "w"))
        return path

    cases = [("ghost-bspma-np1-rep1.json", lambda d: d["timing"].pop("per_step_seconds"),
              "'timing.per_step_seconds' is not a number of seconds (got None)"),
             ("ghost-bspma-np2-rep2.json", lambda d: d.update(config=None), "'config' is not a table (got None)"),
             ("ghost-svcp-np1-rep1.json", lambda d: d.update(ranks="two"),
              "'ranks' is not a positive integer (got 'two')"),
             ("ghost-svcp-np2-rep1.trace-stats.json", lambda d: d["matrix_bytes"][0].pop(),
              "has a matrix_bytes that is not 2 x 2 byte counts"),
             ("sage-svcp-np2-rep1.json", lambda d: d["config"].update(num_tsteps=0),
              "'config.num_tsteps' is not a positive integer (got 0)")]
    want = []
    for name, edit, problem in cases:
        path = change(name, edit)
        want.append(f"report: warning: {path}{' ' if name.endswith('stats.json') else ': '}{problem}; left out")
    # A simulation of a run that is drawn, without its prediction.
    trace = os.path.join(folder, "ghost-svcp-np2-rep1.trace")
    os.makedirs(trace, exist_ok=True)
    simulation = os.path.join(trace, "simulation-torus-4x4x4-0123abcd-simgrid.json")
    json.dump({"ranks": 2, "network": "torus-4x4x4", "simulator": "simgrid"}, open(simulation, "w"))
    want.append(f"report: warning: {simulation}: 'predicted_seconds' is not a positive number of seconds (got None); "
                "left out")
    done = s.amp("report", folder)
    expect(done, 0, want, "report of malformed results")
    pngs = sorted(p for p in os.listdir(os.path.join(folder, "report")) if p.endswith(".png"))
    if pngs != ["ghost-breakdown.png", "ghost-imbalance.png", "ghost-message_sizes.png"]:
        fail(f"figures: {pngs}")
    print(f"ok   6 files left out, one line each; {pngs} drawn from the other two")


def report_on_full_disk(s):
    """a report whose disk fills ends with one line and exit 4; no figure is left half
    drawn under its name."""
    with fr.small_filesystem("1m") as mount:
        folder = os.path.join(mount, "runs")
        shutil.copytree(os.path.join(s.opts.root, "tests", "driver", "fixtures", "report"), folder)
        fr.fill(mount)
        done = s.amp("report", folder)
        expect(done, 4, [f"report: error: cannot write '{folder}/report/ghost-breakdown.png': No space left on device"],
               "report on a full disk")
        if os.listdir(os.path.join(folder, "report")):
            fail(f"left in report/: {os.listdir(os.path.join(folder, 'report'))}")
    print("ok   one line, exit 4, nothing half-written in report/")


CASES = {f.__name__: f for f in (failed_runs_run_again, bad_values_one_line, slurm_values_checked_and_quoted,
                                  axes_checked_before_any_run, report_skips_empty_trace_stats,
                                  driver_usage_errors_exit_2,
                                  trace_failure_kept_apart, machine_load_warning, report_marks_noise,
                                  killed_run_resumes, concurrent_study_refused, stopped_synthesis_set_aside,
                                  simulate_settings_checked_first, study_on_full_disk,
                                  report_leaves_out_malformed_results, report_on_full_disk)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case", choices=sorted(CASES))
    parser.add_argument("--root", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--work", required=True)
    opts = parser.parse_args()
    shutil.rmtree(opts.work, ignore_errors=True)
    os.makedirs(opts.work)
    CASES[opts.case](Scratch(opts))
    print(f"PASSED: {opts.case}")


if __name__ == "__main__":
    sys.exit(main())
