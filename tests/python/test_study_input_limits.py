# SPDX-License-Identifier: BSD-3-Clause
"""The study's and the network files' side: values of every TOML type refused in one line (items
7, 8, 17), the loopback's documented defaults (20), bounded replicates and plans counted before they are
listed (13), the calibration in --plan (23), the Slurm script's paths (2), a tool stopped with the study
(14), and names from data made safe in the run's file names."""
import os
import shlex
import signal
import subprocess
import sys
import time

import pytest

import amp_tools
from amp_tools import networks, study_launch, study_plan, study_simulation, study_slurm
from amp_tools.study import Study, StudyError

BASE = 'name = "s"\nproxies = ["ghost"]\nranks = [1]\ntrace = true\n'
TORUS = "inputs/networks/torus-4x4x4.toml"


def simulate_table(body, network=TORUS):
    return f'[simulate]\nnetworks = ["{network}"]\n{body}'


def study_process(path, *options, root=None, timeout=30):
    """`python3 -m amp_tools.study PATH` with no build (nothing is run or asked of a binary)."""
    command = [sys.executable, "-m", "amp_tools.study", path, "--root", root or os.path.dirname(path),
               "--build", "/nonexistent-build", "--mpiexec", "mpiexec", "--cores", "2", *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=amp_tools.module_environment())


def one_line(done, code=2):
    assert "Traceback" not in done.stderr
    assert done.returncode == code, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    return done.stderr


# --- a topology of the wrong type ---------------------------------------------------------------
@pytest.mark.parametrize("overrides", [{"topology": ["torus"]}, {"topology": {"a": 1}}, ['topology=["torus"]'],
                                       ["topology={a = 1}"]])
def test_a_topology_that_is_not_a_string_is_one_line(network_file, overrides):
    with pytest.raises(networks.NetworkError, match="topology must be one of dragonfly, fattree, flat, torus"):
        networks.load(network_file("torus-4x4x4"), overrides)


def test_a_network_file_with_a_list_for_topology_is_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('topology = ["torus"]\nshape = [4]\nlink_bandwidth = 1e9\nlink_latency = 1e-6\n'
                    'host_speed = 1e9\nranks_per_node = 1\n')
    with pytest.raises(networks.NetworkError, match=r"not \['torus'\]"):
        networks.load(str(path))


# --- a --set holding a newline -------------------------------------------------------------------
@pytest.mark.parametrize("text, shown", [('seed=1\nrouting = "valiant"', r"\n"), ("seed=1\t", r"\t"),
                                         ("se\x00ed=1", r"\x00"), ('routing="valiant\r"', r"\r")])
def test_a_set_with_a_control_character_is_refused(network_file, text, shown):
    with pytest.raises(networks.NetworkError) as refused:
        networks.load(network_file("torus-4x4x4"), [text])
    message = str(refused.value)
    assert "\n" not in message and f"holds the control character {shown}: give one KEY=VALUE per --set" in message


# --- the loopback's defaults --------------------------------------------------------------------
def test_either_loopback_key_alone_takes_the_others_default(network_file):
    path = network_file("torus-4x4x4")
    bandwidth = networks.load(path, {"loopback_bandwidth": 20e9})
    assert (bandwidth.loopback_bandwidth, bandwidth.loopback_latency) == (20e9, 0.0)
    latency = networks.load(path, {"loopback_latency": 1e-7})
    assert (latency.loopback_bandwidth, latency.loopback_latency) == (40e9, 1e-7)
    assert networks.loopback(latency) == (40e9, 1e-7)


def test_a_negative_loopback_latency_is_named_as_itself(network_file):
    with pytest.raises(networks.NetworkError, match="loopback_latency must be a >= 0 number, not -1"):
        networks.load(network_file("torus-4x4x4"), {"loopback_latency": -1})


def test_a_study_varies_the_loopback_bandwidth_alone(study_file, repo):
    study = Study(study_file(BASE + simulate_table("vary = { loopback_bandwidth = [10e9, 20e9] }\n")), repo)
    assert [n.loopback_bandwidth for _, n in study.simulation.variants] == [10e9, 20e9]


# --- vary values of every TOML type ----------------------------------------------------------------
@pytest.mark.parametrize("vary, kind", [
    ('topology = [["torus"]]', "a list"), ("routing = [1979-05-27]", "a date"), ("routing = [07:32:00]", "a time"),
    ("routing = [1979-05-27T07:32:00]", "a datetime"), ("routing = [1979-05-27T07:32:00Z]", "a datetime"),
    ("routing = [{ a = 1 }]", "a dict"),
])
def test_a_vary_value_that_is_not_a_string_number_or_boolean_is_one_line(study_file, repo, vary, kind):
    path = study_file(BASE + simulate_table(f"vary = {{ {vary} }}\n"))
    with pytest.raises(StudyError) as refused:
        Study(path, repo)
    message = str(refused.value)
    assert "\n" not in message and message.startswith(f"{path} line 7: [simulate] 'vary' key ")
    assert f"each value must be a string, number or boolean (got " in message and message.endswith(f", {kind})")


def test_a_vary_date_is_refused_under_plan_too(study_file, repo):
    path = study_file(BASE + 'decks = ["' + os.path.join(repo, "inputs/ghost/quick.toml") + '"]\n'
                      + simulate_table("vary = { routing = [1979-05-27] }\n", os.path.join(repo, TORUS)))
    assert "each value must be a string, number or boolean" in one_line(study_process(path, "--plan"))


# --- replicates and plan size bounded, counted before listing --------------------------------------------
def test_replicates_past_the_bound_are_refused_at_once(study_file, repo, monkeypatch):
    monkeypatch.setenv("AMP_SSTMAC", "/bin/true")
    path = study_file(BASE + 'decks = ["' + os.path.join(repo, "inputs/ghost/quick.toml") + '"]\n'
                      + simulate_table('vary = { routing = ["valiant"] }\nsimulators = ["sstmac"]\n'
                                       'replicates = 1000000000\n', os.path.join(repo, TORUS)))
    started = time.monotonic()
    done = study_process(path, "--plan")
    assert "'replicates' must be a positive integer of at most 1000 (got 1000000000)" in one_line(done)
    assert time.monotonic() - started < 20


def test_repetitions_past_the_bound_are_refused(study_file, repo):
    with pytest.raises(StudyError, match="'repetitions' must be a positive integer of at most 1000"):
        Study(study_file(BASE + "repetitions = 1000000000\n"), repo)


def test_vary_past_the_variant_bound_is_refused_before_any_variant_is_made(study_file, repo, monkeypatch):
    made = []
    monkeypatch.setattr(study_simulation, "variants", lambda *args: made.append(args) or [])
    values = ", ".join(str(1e-6 * (i + 1)) for i in range(100))
    with pytest.raises(StudyError, match=r"'vary' and 'replicates' make 1000000 variants of torus-4x4x4.toml, more "
                                         r"than the 10000"):
        Study(study_file(BASE + simulate_table(f"vary = {{ link_latency = [{values}], router_latency = [{values}],"
                                               f" message_overhead = [{values}] }}\n")), repo)
    assert made == []


def big_study(study_file, repo, seeds):
    return Study(study_file(BASE + simulate_table(f'vary = {{ routing = ["minimal", "valiant"] }}\n'
                                                  f'simulators = ["sstmac"]\nreplicates = {seeds}\n')), repo)


def test_a_plan_past_the_limit_needs_yes(study_file, repo, monkeypatch):
    monkeypatch.setenv("AMP_SSTMAC", "/bin/true")
    study = big_study(study_file, repo, 999)
    assert study_plan.size(study) == (1, 0, 1000)  # minimal once, valiant once per seed, of one traced run
    with pytest.raises(study_plan.TooBig) as refused:
        study_plan.check_size(study, yes=False)
    assert str(refused.value).endswith("the study makes 1001 runs, syntheses and simulations (1, 0 and 1000), more "
                                       "than 1000: give --yes to make them all (with --plan: to list them)")
    study_plan.check_size(study, yes=True)
    study_plan.check_size(big_study(study_file, repo, 998), yes=False)  # 1000 in all: allowed


def test_the_count_is_what_the_plan_lists(study_file, repo, monkeypatch, capsys):
    monkeypatch.setenv("AMP_SSTMAC", "/bin/true")
    study = Study(study_file(BASE + 'strategies = ["bspma", "svaf"]\nrepetitions = 2\n' + simulate_table(
        'vary = { routing = ["minimal", "valiant"], ranks_per_node = [1, 2] }\nsimulators = ["sstmac"]\n'
        'replicates = 3\nsynthesize_ranks = [8, 16]\n')), repo)
    study_plan.print_plan(study, study.runs("/b"))
    lines = capsys.readouterr().out.splitlines()
    counted = study_plan.size(study)
    listed = tuple(sum(line.startswith(word) for line in lines) for word in ("run ", "synthesis ", "simulation "))
    assert counted == listed == (4, 4, (4 + 4) * (2 + 6))


def test_a_big_plan_is_refused_in_one_line_without_yes(study_file, repo):
    values = ", ".join(str(i + 1) for i in range(40))
    path = study_file(BASE + 'decks = ["' + os.path.join(repo, "inputs/ghost/quick.toml") + '"]\nrepetitions = 50\n'
                      + simulate_table(f"vary = {{ seed = [{values}] }}\n", os.path.join(repo, TORUS)))
    message = one_line(study_process(path, "--plan"))
    assert ("the study makes 2050 runs, syntheses and simulations (50, 0 and 2000), more than 1000: give --yes"
            in message)
    done = study_process(path, "--plan", "--yes")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "study: plan of s: 50 runs, 0 syntheses, 2000 simulations"


# --- the calibration in --plan --------------------------------------------------------------------------
def test_the_plan_says_a_calibration_runs_and_what_follows_it(study_file, repo, tmp_path, capsys):
    missing = tmp_path / "this-machine.toml"
    study = Study(study_file(BASE + 'strategies = ["bspma", "svaf"]\n' + simulate_table(
        'calibrate = true\nvary = { ranks_per_node = [1, 2] }\n', missing)), repo)
    study_plan.print_plan(study, study.runs("/b"))
    lines = capsys.readouterr().out.splitlines()
    assert f"calibration: this machine measured into {os.path.relpath(missing, repo)} (./amp simulate --calibrate), " \
           "before the simulations on it" in lines
    assert ("simulation ghost-svaf-np1-rep1 on this-machine (ranks_per_node=2) with simgrid (once it is measured)"
            in lines)
    assert lines[-1] == "study: plan of s: 2 runs, 0 syntheses, 1 calibration first, 4 simulations"


def test_the_default_study_plans_its_calibration(repo, capsys):
    study = Study(os.path.join(repo, "inputs", "studies", "default.toml"), repo, cores=2)
    study.axes = {"ghost": (["bspma"], ["isend", "rma"])}  # as the binary would list them
    study_plan.print_plan(study, study.runs("/b"))
    out = capsys.readouterr().out
    if study.simulation.to_calibrate:  # this checkout has not measured itself yet
        assert "calibration: this machine measured into inputs/networks/this-machine.toml" in out
        assert "simulation ghost-cth-bspma-isend-np2-rep1 on this-machine with simgrid (once it is measured)" in out
    assert "prediction ghost-svaf-synth1024 on dragonfly-1024 with simgrid" in out


# --- the Slurm script's paths ------------------------------------------------------------------------
def slurm_argument(line):
    """What sbatch makes of the text after `#SBATCH `: its _get_argument (src/sbatch/opt.c), one argument."""
    out, quote, escaped = "", None, False
    for c in line:
        if escaped:
            out, escaped = out + c, False
        elif c == "\\":
            escaped = True
        elif quote:
            if c == quote:
                quote = None
            else:
                out += c
        elif c in "\"'":
            quote = c
        elif c == "#" or c.isspace():
            break
        else:
            out += c
    assert quote is None
    return out


@pytest.mark.parametrize("folder", ["/home/a b/runs/s-1", "/x/it's \"quoted\"/r", "/x/#hash/r", "/x/back\\slash/r",
                                    "/x/100%/r"])
def test_an_sbatch_directive_reads_back_as_the_path(folder):
    output = study_slurm.output_pattern(os.path.join(folder, "slurm-")) + "%j.out"
    assert slurm_argument("--output=" + study_slurm.sbatch_word(output)) == \
        "--output=" + folder.replace("%", "%%") + "/slurm-%j.out"


def test_the_script_quotes_the_folder_in_its_comments(study_file, repo):
    study = Study(study_file(BASE), repo)
    runs = study.runs("/b")
    folder = "/tmp/a b; echo INJECTED/runs/s-1"
    opts = type("Options", (), {"build": "/b"})()
    script = study_slurm.slurm_script(study, runs, folder, opts)
    assert f"sbatch {shlex.quote(folder + '/study.sbatch')}" in script
    assert f"./amp report {shlex.quote(folder)}`" in script
    assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0


def test_a_checkout_path_with_a_newline_is_refused_before_any_folder(study_file, repo, tmp_path):
    root = tmp_path / "check\nout"
    root.mkdir()
    path = study_file(BASE + 'decks = ["' + os.path.join(repo, "inputs/ghost/quick.toml") + '"]\n')
    message = one_line(study_process(path, "--slurm", root=str(root)))
    assert message.startswith("study: error: the runs folder ") and "holds the control character \\n: a Slurm " \
                                                                    "script cannot name it safely" in message
    assert os.listdir(root) == []


# --- a tool that does not end on the signal --------------------------------------------------------
def test_a_tool_that_ignores_the_signal_is_killed_with_its_simulator(monkeypatch, tmp_path):
    monkeypatch.setattr(study_launch, "TOOL_GRACE_SECONDS", 0.5)
    pid_file = tmp_path / "child"
    tool = ("import signal, subprocess, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "child = subprocess.Popen(['sleep', '60'], start_new_session=True)\n"
            f"open({str(pid_file)!r}, 'w').write(str(child.pid))\ntime.sleep(60)\n")
    process = subprocess.Popen([sys.executable, "-c", tool], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    while not pid_file.exists() or not pid_file.read_text():
        time.sleep(0.01)
    child = int(pid_file.read_text())
    study_launch._end_tool(process, signal.SIGTERM)
    assert process.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not gone(child):
        time.sleep(0.01)
    assert gone(child)


def gone(pid):
    """Ended: no such process, or a zombie its new parent has not reaped yet."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


# --- names from data in the run's file names ----------------------------------------------------------------
def test_a_deck_file_name_is_made_safe_in_the_run_id(study_file, repo, tmp_path):
    deck = tmp_path / "my deck;x.toml"
    deck.write_text((open(os.path.join(repo, "inputs", "ghost", "quick.toml")).read()))
    run = Study(study_file(BASE + f'decks = ["{deck}"]\n'), repo).runs("/b")[0]
    assert run["id"].startswith("ghost-my_deck_x-") and "-np1-rep1" in run["id"]
    assert all(c.isalnum() or c in "._+-" for c in run["id"])
