#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The faults of `./amp simulate`, one CASE per invocation, each run as a user would: tools/amp_tools/simulate.py
as a process on small real traces, replayed by SimGrid (skipped, exit 77, where smpirun is not installed):
  concurrent         two simulations started at once on one fresh trace folder both succeed (5 tries)
  signalled          SIGTERM or SIGINT while amp-trace exports or smpirun replays: exit 143 or 130, one
                     line, nothing left behind, no process of the run alive
  interrupted_write  a signal while the simulation's JSON is written leaves no .partial-PID
  full_disk          the simulation's JSON on a full disk: exit 4, one line naming it and the cause, no partial
  machine_load       a traced run that shared its cores: one warning, its measure marked untrustworthy
  same_name          two network files of one base name give two files; one file twice, one name
  calibrate_race     two --calibrate runs to one new --output: one writes it, the other is refused
  calibrate_locked   a calibration while another measures this machine: refused at once, one line
  calibrate_unusable a ping-pong a busy machine spoiled (no bandwidth follows from it): exit 3, nothing written
  stale_export       a trace replaced in its folder gets a new export, not the kept one
  bad_export_cache   a junk export.json, or one without ranks, is made again
  hangup             SIGHUP during the export or the replay: exit 129, nothing left behind
  spaced_tmpdir      a TMPDIR holding a space still simulates
  measured_comparison measured beside predicted only on this host's calibration
"""
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402
from amp_tools import calibrate as calibrate_module  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SIMULATE = ["-m", "amp_tools.simulate"]
TORUS = os.path.join(ROOT, "inputs", "networks", "torus-4x4x4.toml")
GHOST = ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "2", "--strategy", "bspma"]


def synthesized(a, folder, name, ranks=4, steps=2):
    """A synthesized ghost trace of `ranks` ranks and `steps` steps in folder/name."""
    trace = os.path.join(folder, name)
    done = fr.run(a, "amp-ghost", GHOST + ["--num_tsteps", str(steps), "--synthesize", trace, "--ranks", str(ranks),
                                           "--compute_seconds", "1e-5"], ranks=None)
    if done.returncode != 0:
        fr.fail(f"synthesizing {name}: exit {done.returncode}: {fr.lines_of(done)}")
    return trace


def simulate_command(a, trace, network=TORUS):
    return [sys.executable, *SIMULATE, trace, "--network", network, "--build", os.path.dirname(a.bin)]


def simulate(a, trace, network=TORUS, env=None):
    return subprocess.run(simulate_command(a, trace, network), capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **(env or {})))


def written(done, what):
    """The JSON file a successful simulation names ("... -> FILE"), checked whole; (path, its contents)."""
    if done.returncode != 0 or " -> " not in done.stdout:
        fr.fail(f"{what}: exit {done.returncode}: {done.stdout!r} {done.stderr!r}")
    path = done.stdout.strip().splitlines()[-1].rsplit(" -> ", 1)[1]
    with open(path) as f:
        result = json.load(f)
    if not result.get("predicted_seconds", 0) > 0:
        fr.fail(f"{what}: {path} has no prediction: {result}")
    return path, result


def expect_unchanged(trace, kept, what):
    """The trace folder holds exactly the names `kept`: nothing added (a result, a partial, a staging folder)."""
    now = sorted(os.listdir(trace))
    if now != kept:
        fr.fail(f"{what}: {trace} gained {sorted(set(now) - set(kept))} and lost {sorted(set(kept) - set(now))}")


def simulations(trace):
    return sorted(n for n in os.listdir(trace) if n.startswith("simulation-"))


def case_concurrent(a):
    with tempfile.TemporaryDirectory() as folder:
        pristine = synthesized(a, folder, "pristine", ranks=16, steps=4)
        for attempt in range(5):
            trace = shutil.copytree(pristine, os.path.join(folder, f"try-{attempt}"))
            jobs = [subprocess.Popen(simulate_command(a, trace), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True) for _ in range(2)]
            for job in jobs:
                out, err = job.communicate(timeout=120)
                done = subprocess.CompletedProcess(job.args, job.returncode, out, err)
                what = f"try {attempt}: one of two simulations at once"
                if err.strip():
                    fr.fail(f"{what}: said {err!r} (exit {job.returncode})")
                written(done, what)
            left = sorted(n for n in os.listdir(trace) if not n.startswith("dumpi-"))
            if len(left) != 2 or not left[0].startswith("simgrid-ti-") or not left[1].startswith("simulation-"):
                fr.fail(f"try {attempt}: two simulations at once left {left} beside the trace")
    print("two simulations started at once on one fresh trace: both exit 0 with whole results, 5 times of 5")


def descendants(pid):
    """{pid: command name} of every living process below `pid`."""
    children = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except (OSError, ValueError):
            continue
        name, fields = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append((int(entry), name))
    found, todo = {}, [pid]
    while todo:
        for child, name in children.get(todo.pop(), []):
            found[child] = name
            todo.append(child)
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def none_survive(below, what):
    """Fails when any of `below` ({pid: name}: the processes a run started) still runs 2 s after the run
    ended; each survivor is killed first, so that a failure leaves none behind."""
    deadline = time.time() + 2  # the grace for processes killed to be reaped
    while time.time() < deadline and any(alive(pid) for pid in below):
        time.sleep(0.05)
    survivors = {pid: name for pid, name in below.items() if alive(pid)}
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    if survivors:
        fr.fail(f"{what}: its processes {survivors} still ran after it ended")


def staging_folder(trace):
    """amp-trace simgrid's hidden staging folder in the trace folder, or None."""
    return next((n for n in os.listdir(trace) if n.startswith(".simgrid-ti-") and ".partial-" in n), None)


def interrupt(a, trace, tmp, sent, phase, reached):
    """Runs simulate on `trace`, sends it `sent` once reached(trace, processes below it) holds, and checks what
    it leaves: exit 128 + signal, one `amp simulate: interrupted` line, no process of its own alive, the trace
    folder as it was, no amp-simulate-* folder in TMPDIR."""
    what = f"simulate sent {sent.name} during the {phase}"
    kept = sorted(os.listdir(trace))
    job = subprocess.Popen(simulate_command(a, trace), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=dict(os.environ, TMPDIR=tmp))
    deadline, below = time.time() + 60, {}
    while time.time() < deadline and job.poll() is None and not reached(trace, below):
        time.sleep(0.005)
        below = descendants(job.pid)
    time.sleep(0.02)  # into it
    below.update(descendants(job.pid))
    if job.poll() is not None or not reached(trace, below):
        fr.fail(f"{what}: simulate ended (exit {job.returncode}) before the {phase} began")
    job.send_signal(sent)
    out, err = job.communicate(timeout=60)
    none_survive(below, what)
    lines = [line for line in (out + err).splitlines() if line.strip()]
    if job.returncode != 128 + sent or len(lines) != 1 or not lines[0].startswith("amp simulate: interrupted"):
        fr.fail(f"{what}: expected exit {128 + sent} and one 'amp simulate: interrupted' line; got exit "
                f"{job.returncode}: {lines}")
    expect_unchanged(trace, kept, what)
    leaked = [n for n in os.listdir(tmp) if n.startswith("amp-simulate-")]
    if leaked:
        fr.fail(f"{what}: left {leaked} in TMPDIR")


def case_signalled(a):
    with tempfile.TemporaryDirectory() as folder:
        # About 1 s of export and 10 s of replay: far past the grace above, so that a simulator left running is seen.
        trace = synthesized(a, folder, "trace", ranks=64, steps=400)
        tmp = os.path.join(folder, "tmp")
        os.makedirs(tmp)
        for sent in (signal.SIGTERM, signal.SIGINT):
            interrupt(a, trace, tmp, sent, "export", lambda trace, _: staging_folder(trace) is not None)
        # The export simulate makes at the torus's 1e9 flop/s, made beforehand: the signal then finds smpirun.
        exported = subprocess.run([os.path.join(a.bin, "amp-trace"), "simgrid", trace,
                                   os.path.join(trace, f"simgrid-ti-{1e9:g}")], capture_output=True, text=True)
        if exported.returncode != 0:
            fr.fail(f"amp-trace simgrid: exit {exported.returncode}: {exported.stderr!r}")
        for sent in (signal.SIGTERM, signal.SIGINT):
            interrupt(a, trace, tmp, sent, "replay", lambda _, below: "smpimain" in below.values())
    print("simulate sent SIGTERM or SIGINT during the export or the replay: exit 143 or 130, one line, no "
          "simulator process, no result, staging, partial or temporary folder left")


class SignalledWhileWritten(dict):
    """A result that sends this process SIGTERM once json.dump has written its first key: the signal lands
    while the file is half-written, where a run's timing makes it land only by chance."""

    def items(self):
        for number, item in enumerate(super().items()):
            if number == 1:
                os.kill(os.getpid(), signal.SIGTERM)
            yield item


def case_interrupted_write(a):
    from amp_tools import simulate, simulator_process  # noqa: E402
    signal.signal(signal.SIGTERM, simulator_process._interrupt)  # as simulate's main() does
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "simulation-torus-4x4x4-00000000-simgrid.json")
        try:
            simulate.write_json(path, SignalledWhileWritten(predicted_seconds=1.0, ranks=4, trace=folder))
            fr.fail("SIGTERM while the simulation's JSON was written: write_json returned")
        except simulator_process.Interrupted as e:
            if e.signum != signal.SIGTERM:
                fr.fail(f"SIGTERM while the simulation's JSON was written: interrupted by {e}")
        fr.expect_files(folder, [], "SIGTERM while the simulation's JSON was written")
    print("SIGTERM while the simulation's JSON is written: interrupted, no partial and no result left")


def case_full_disk(a):
    with tempfile.TemporaryDirectory() as folder:
        roomy = synthesized(a, folder, "trace")
        # The export is made on a roomy disk, then carried over with the trace; its result is not.
        os.remove(written(simulate(a, roomy), "simulate on a roomy disk")[0])
        with fr.small_filesystem("4m") as mount:
            trace = shutil.copytree(roomy, os.path.join(mount, "trace"))
            kept = sorted(os.listdir(trace))
            fr.fill(mount)
            done = simulate(a, trace)
            lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
            if done.returncode != 4 or len(lines) != 1 or not lines[0].startswith(
                    f"amp simulate: error: {trace}/simulation-") or "No space left on device" not in lines[0]:
                fr.fail(f"simulate on a full disk: expected exit 4 and one line naming the file and 'No space left "
                        f"on device'; got exit {done.returncode}: {lines}")
            expect_unchanged(trace, kept, "simulate on a full disk")
            os.remove(os.path.join(mount, "filler"))
            written(simulate(a, trace), "simulate retried with room")
    print("simulate on a full disk: exit 4, one line naming the file and the cause, nothing partial; a retry works")


def traced_run(a, folder):
    """A traced 2-rank amp-ghost run in `folder`: (its trace folder, its results file, the results)."""
    trace, results = os.path.join(folder, "run.trace"), os.path.join(folder, "run.json")
    done = fr.run(a, "amp-ghost", GHOST + ["--num_tsteps", "2", "--progress", "0", "--trace", trace,
                                           "--results", results], ranks=2)
    if done.returncode != 0:
        fr.fail(f"the traced run: exit {done.returncode}: {fr.lines_of(done)}")
    with open(results) as f:
        return trace, results, json.load(f)


def case_machine_load(a):
    with tempfile.TemporaryDirectory() as folder:
        trace, results, recorded = traced_run(a, folder)
        load = recorded["machine_load"]
        busy = dict(load, other_cpu_seconds=0.9 * load["wall_seconds"] * load["cores"])
        for machine_load, trustworthy in ((busy, False), (dict(load, other_cpu_seconds=0.0), True)):
            with open(results, "w") as f:
                json.dump(dict(recorded, machine_load=machine_load), f)
            what = f"simulate of a run whose other processes took {machine_load['other_cpu_seconds']:.2f} s of CPU"
            done = simulate(a, trace)
            path, result = written(done, what)
            warnings = [line for line in done.stderr.splitlines() if line.strip()]
            expected = 0 if trustworthy else 1
            if len(warnings) != expected or not all(w.startswith("amp simulate: warning: ") for w in warnings):
                fr.fail(f"{what}: expected {expected} 'amp simulate: warning:' line(s); got {warnings}")
            if result.get("measured_trustworthy") is not trustworthy or ("measured_warning" in result) == trustworthy:
                fr.fail(f"{what}: measured_trustworthy {result.get('measured_trustworthy')!r}, measured_warning "
                        f"{result.get('measured_warning')!r}")
            os.remove(path)
    print("a traced run that shared its cores: one warning, measured_trustworthy false and a measured_warning; "
          "a quiet one: neither")


def case_same_name(a):
    with tempfile.TemporaryDirectory() as folder:
        trace = synthesized(a, folder, "trace")
        slow = os.path.join(folder, "elsewhere", os.path.basename(TORUS))
        os.makedirs(os.path.dirname(slow))
        with open(TORUS) as f:
            text = f.read()
        with open(slow, "w") as f:
            f.write("".join("link_bandwidth = 1e6\n" if line.startswith("link_bandwidth") else line
                            for line in text.splitlines(keepends=True)))
        first, fast_result = written(simulate(a, trace), "simulate on the torus")
        with open(first, "rb") as f:
            fast_bytes = f.read()
        second, slow_result = written(simulate(a, trace, slow), "simulate on a torus of the same name at 1e6 B/s")
        if second == first:
            fr.fail(f"two machines of one name, {TORUS} and {slow}, wrote one file {first}")
        with open(first, "rb") as f:
            if f.read() != fast_bytes:
                fr.fail(f"simulating on {slow} changed {first}")
        if not slow_result["predicted_seconds"] > fast_result["predicted_seconds"]:
            fr.fail(f"1e6 B/s predicted {slow_result['predicted_seconds']} s, not more than "
                    f"{fast_result['predicted_seconds']} s")
        again, _ = written(simulate(a, trace), "simulate on the torus again")
        if again != first or len(simulations(trace)) != 2:
            fr.fail(f"the same network file twice: {first} then {again}; the trace holds {simulations(trace)}")
    print("two network files of one name: two results, neither replaced; one file twice: one name")


def prediction(done, what):
    return written(done, what)[1]["predicted_seconds"]


def replace_trace(trace, other):
    """Replaces the DUMPI files of `trace` with those of `other`, as a new traced run into the same folder
    would, and leaves the rest (the kept export) as it is."""
    for name in os.listdir(trace):
        if name.startswith("dumpi-"):
            os.remove(os.path.join(trace, name))
    for name in os.listdir(other):
        if name.startswith("dumpi-"):
            shutil.copy(os.path.join(other, name), trace)


def case_stale_export(a):
    """the export kept beside a trace is made again when the trace in the folder is replaced."""
    with tempfile.TemporaryDirectory() as folder:
        trace = synthesized(a, folder, "trace", steps=3)
        three = prediction(simulate(a, trace), "simulate of the 3-step trace")
        eight_steps = synthesized(a, folder, "eight", steps=8)
        eight = prediction(simulate(a, eight_steps), "simulate of an 8-step trace")
        replace_trace(trace, eight_steps)
        replaced = prediction(simulate(a, trace), "simulate of the 3-step trace replaced by the 8-step one")
        if replaced != eight or three == eight:
            fr.fail(f"a 3-step trace ({three} s) replaced by an 8-step one ({eight} s) predicted {replaced} s")
    print(f"a 3-step trace replaced by an 8-step trace in its folder: the 8-step prediction, {eight:.6g} s")


def case_bad_export_cache(a):
    """an export.json that is not JSON, or JSON without what simulate reads, is made again."""
    with tempfile.TemporaryDirectory() as folder:
        trace = synthesized(a, folder, "trace")
        first = prediction(simulate(a, trace), "simulate")
        summary = os.path.join(trace, f"simgrid-ti-{1e9:g}", "export.json")
        for junk in ("junk{", '{"x":1}', '{"ranks": "x", "actions": 1}'):
            with open(summary, "w") as f:
                f.write(junk)
            done = simulate(a, trace)
            again = prediction(done, f"simulate with export.json {junk!r}")
            if again != first or done.stderr.strip():
                fr.fail(f"export.json {junk!r}: predicted {again} s (first {first} s), said {done.stderr!r}")
    print("a junk export.json, or one without ranks: made again, the same prediction, exit 0")


def case_hangup(a):
    """SIGHUP during the export or the replay ends the simulator and cleans up (exit 129)."""
    with tempfile.TemporaryDirectory() as folder:
        trace = synthesized(a, folder, "trace", ranks=64, steps=400)
        tmp = os.path.join(folder, "tmp")
        os.makedirs(tmp)
        interrupt(a, trace, tmp, signal.SIGHUP, "export", lambda trace, _: staging_folder(trace) is not None)
        exported = subprocess.run([os.path.join(a.bin, "amp-trace"), "simgrid", trace,
                                   os.path.join(trace, f"simgrid-ti-{1e9:g}")], capture_output=True, text=True)
        if exported.returncode != 0:
            fr.fail(f"amp-trace simgrid: exit {exported.returncode}: {exported.stderr!r}")
        interrupt(a, trace, tmp, signal.SIGHUP, "replay", lambda _, below: "smpimain" in below.values())
    print("simulate sent SIGHUP during the export or the replay: exit 129, one line, nothing left behind")


def case_spaced_tmpdir(a):
    """a TMPDIR holding a space (which smpirun splits) still simulates, and leaves nothing there."""
    with tempfile.TemporaryDirectory() as folder:
        trace = synthesized(a, folder, "trace")
        tmp = os.path.join(folder, "with space")
        os.makedirs(tmp)
        written(simulate(a, trace, env={"TMPDIR": tmp}), f"simulate with TMPDIR={tmp!r}")
        fr.expect_files(tmp, [], f"simulate with TMPDIR={tmp!r}")
    print("a TMPDIR holding a space: simulated, nothing left in it")


def this_machine_file(path):
    """A network file of this host as `--calibrate` writes it (its own writer, a fast loopback's numbers)."""
    from argparse import Namespace
    calibrate_module.write_calibration(Namespace(output=path, replace=False, cores=2), [{"bytes": 8}], 1e-6, 5e9, None)
    return path


def last_line(done):
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def case_measured_comparison(a):
    """the measured time is set beside the prediction only on a calibration of the host the
    trace was recorded on, and a run of more ranks than cores is warned of; an absurd machine's
    error is a short number."""
    with tempfile.TemporaryDirectory() as folder:
        trace, results, recorded = traced_run(a, folder)
        with open(results, "w") as f:  # as a run of 2 ranks on a 1-core node leaves it
            json.dump(dict(recorded, machine_load=dict(recorded["machine_load"], cores=1, other_cpu_seconds=0.0)), f)
        done = simulate(a, trace, os.path.join(ROOT, "inputs", "networks", "dragonfly-1024.toml"))
        warnings = [w for w in done.stderr.splitlines() if w.strip()]
        what = "a 2-rank run on 1 core simulated on dragonfly-1024"
        if "measured" in last_line(done) or len(warnings) != 1 or "2 ranks ran on 1 core " not in warnings[0]:
            fr.fail(f"{what}: exit {done.returncode}, {last_line(done)!r}, {warnings}")
        if written(done, what)[1].get("measured_same_machine") is not False:
            fr.fail(f"{what}: measured_same_machine is not false")
        machine = this_machine_file(os.path.join(folder, "this-machine.toml"))
        done = subprocess.run(simulate_command(a, trace, machine) + ["--set", "loopback_latency=1e300"],
                              capture_output=True, text=True, timeout=120)
        what = "the run simulated on this host's calibration at loopback_latency=1e300"
        error = last_line(done).split(" s (", 1)[-1].split(")", 1)[0]
        if ", measured " not in last_line(done) or len(error) > 12:
            fr.fail(f"{what}: exit {done.returncode}, {last_line(done)!r}")
        if written(done, what)[1].get("measured_same_machine") is not True:
            fr.fail(f"{what}: measured_same_machine is not true")
    print(f"measured beside predicted on this host's calibration only (error {error}); 2 ranks on 1 core warned of")


CALIBRATION_REFUSALS = ["another calibration is measuring this machine now", "appeared while measuring",
                        "already exists"]


def calibrate_command(a, output, mpiexec=None):
    return [sys.executable, *SIMULATE, "--calibrate", "--output", output, "--build", os.path.dirname(a.bin),
            "--mpiexec", mpiexec or a.mpiexec, "--cores", "2"]


def case_calibrate_race(a):
    """Two calibrations to one new file at once: the second is refused as soon as it finds the first
    measuring (or, had the first already finished, finds its file); one whole file is written."""
    folder = tempfile.mkdtemp(prefix="amp-calibrate-race-")
    try:
        output = os.path.join(folder, "machine.toml")
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
        # Each in its own process group, so that a run past its time is ended with its launcher and ranks.
        runs = [subprocess.Popen(calibrate_command(a, output), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, env=env, start_new_session=True) for _ in range(2)]
        try:
            done = [(r.wait(timeout=240), *r.communicate()) for r in runs]
        except subprocess.TimeoutExpired:
            fr.fail("two calibrations at once: not finished in 240 s")
        finally:
            for r in runs:
                if r.poll() is None:
                    os.killpg(r.pid, signal.SIGKILL)
        codes = sorted(code for code, _, _ in done)
        refused = [err.strip() for code, _, err in done if code == 2]
        if codes != [0, 2] or len(refused) != 1 or len(refused[0].splitlines()) != 1 \
                or not any(reason in refused[0] for reason in CALIBRATION_REFUSALS):
            fr.fail(f"two calibrations to one new file: exits {codes}, stderr {[err for _, _, err in done]}")
        with open(output) as f:
            text = f.read()
        if "calibrate" not in text or not text.endswith('routing = "minimal"\n'):
            fr.fail(f"{output} is not one whole calibration: {text!r}")
        if sorted(os.listdir(folder)) != ["machine.toml"]:
            fr.fail(f"left behind: {sorted(os.listdir(folder))}")
        print(f"two calibrations at once: one wrote {output}, the other was refused: {refused[0]}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def case_calibrate_locked(a):
    """While another calibration holds the machine's lock, a calibration is refused at once in one line."""
    with tempfile.TemporaryDirectory(prefix="amp-calibrate-locked-") as folder:
        output = os.path.join(folder, "machine.toml")
        fd = os.open(calibrate_module.CALIBRATION_LOCK, os.O_RDONLY | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            done = subprocess.run(calibrate_command(a, output), capture_output=True, text=True, timeout=60)
        finally:
            os.close(fd)
        fr.expect_refusal(done, 2, "amp simulate: error: another calibration is measuring this machine now (two at "
                          "once measure each other); run one at a time", "a calibration while another measures")
        fr.expect_files(folder, [], "a refused calibration")
    print("a calibration while another measures: refused at once, nothing written")


SPOILED_MPIEXEC = """#!/bin/sh
# The real launcher, then the ping-pong's results as a busy machine gives them: the 8-byte message
# slower than the 4 MiB ones (a rank waited for a core every round trip).
"{mpiexec}" "$@" || exit $?
results=$(printf '%s\\n' "$@" | sed -n '/^--results$/{{n;p}}')
"{python}" - "$results" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
run["rows"][0]["latency_us_min"] = 2790.0
json.dump(run, open(sys.argv[1], "w"))
PY
"""


def case_calibrate_unusable(a):
    """A ping-pong whose small message took longer than its large ones gives no bandwidth: exit 3, one
    line naming the numbers, no network file."""
    with tempfile.TemporaryDirectory(prefix="amp-calibrate-unusable-") as folder:
        launcher = os.path.join(folder, "spoiled-mpiexec")
        with open(launcher, "w") as f:
            f.write(SPOILED_MPIEXEC.format(mpiexec=a.mpiexec, python=sys.executable))
        os.chmod(launcher, 0o755)
        output = os.path.join(folder, "out", "machine.toml")
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
        done = subprocess.run(calibrate_command(a, output, launcher), capture_output=True, text=True, timeout=240,
                              env=env)
        lines = fr.lines_of(done)
        if done.returncode != 3 or len(lines) != 1 or not lines[0].startswith(
                "amp simulate: error: the ping-pong gave no usable machine (latency 2790 us, bandwidth nan GB/s"):
            fr.fail(f"a spoiled ping-pong: exit {done.returncode}: {lines}")
        if os.path.exists(output):
            fr.fail(f"a spoiled ping-pong wrote {output}")
    print(f"a spoiled ping-pong: refused, nothing written: {lines[0]}")


def main():
    p = fr.parser(__doc__)
    p.add_argument("case")
    a = p.parse_args()
    if a.case != "interrupted_write" and shutil.which("smpirun") is None:
        print("SKIP: smpirun (SimGrid) is not installed")
        sys.exit(fr.SKIP)
    globals()["case_" + a.case](a)


if __name__ == "__main__":
    main()
