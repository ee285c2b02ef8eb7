# SPDX-License-Identifier: BSD-3-Clause
"""`./amp report` on hostile and malformed folders: names from data never
become paths outside DIR/report/, a malformed simulation or results file is left out with one warning
line, a FIFO is never waited on, and --help is a usage text."""
import json
import os
import shutil
import subprocess
import sys

import pytest

report = pytest.importorskip("amp_tools.report", reason="matplotlib is not installed for this python")
from amp_tools import network_metrics, report_figures, report_points, report_simulation  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
RUN = "ghost-svcp-np2-rep1"


@pytest.fixture
def folder(report_fixtures, tmp_path):
    """The report fixtures three folders deep (tmp/up/up2/D), so that '../../../x' from D/report/ is in tmp."""
    out = tmp_path / "up" / "up2" / "D"
    shutil.copytree(report_fixtures, out)
    return str(out)


def only(folder, keep):
    """Leaves in `folder` only the files named in `keep` (a smaller report, drawn sooner)."""
    for name in os.listdir(folder):
        if name not in keep:
            os.remove(os.path.join(folder, name))


def cheap_figures(monkeypatch):
    """One small figure per proxy in place of the run figures: for tests of where files go, not of what
    they draw."""
    monkeypatch.setattr(report_figures, "FIGURES",
                        [("breakdown", lambda proxy, points: plt.figure(figsize=(1, 1)), "t")])


def fixture_run(folder, name=RUN):
    with open(os.path.join(folder, f"{name}.json")) as f:
        return json.load(f)


def write(path, data):
    with open(path, "w") as f:
        json.dump(data, f)
    return path


def files_under(top):
    """{path: contents} of every file under `top`."""
    out = {}
    for where, _, names in os.walk(top):
        for name in names:
            with open(os.path.join(where, name), "rb") as f:
                out[os.path.join(where, name)] = f.read()
    return out


def report_subprocess(*args, timeout=30):
    env = dict(os.environ, PYTHONPATH=TOOLS)
    return subprocess.run([sys.executable, "-m", "amp_tools.report", *args], capture_output=True, text=True, env=env,
                          timeout=timeout)


# --- a proxy's name never becomes a path --------------------------------------------------

def test_a_proxy_named_up_three_folders_writes_only_into_the_report_folder(folder, tmp_path):
    victim = tmp_path / "victim-breakdown.png"  # where '../../../victim-breakdown.png' from D/report/ lands
    victim.write_bytes(b"keep me")
    only(folder, {RUN + ".json"})
    run = fixture_run(folder)
    run["proxy"] = "../../../victim"
    write(os.path.join(folder, RUN + ".json"), run)
    before = {p: c for p, c in files_under(str(tmp_path)).items()}
    names, _ = report.report(folder)
    after = files_under(str(tmp_path))
    out_dir = os.path.join(folder, "report")
    assert {p: c for p, c in after.items() if not p.startswith(out_dir + os.sep)} == before
    assert all(os.sep not in n and not n.startswith(".") for n in names)
    assert sorted(os.listdir(out_dir)) == sorted(names + ["index.html"])
    plt.close("all")


def test_hostile_proxy_names_stay_inside_and_apart(folder, tmp_path, monkeypatch, capsys):
    cheap_figures(monkeypatch)
    run = fixture_run(folder)
    only(folder, set())
    drawn = ["../../../victim", "a/b", "a_b", "/etc/passwd", "x" * 300, "x" * 299 + "y", "ghost", "amp-ghost"]
    refused = ["a\0b", "a\nb", "", "\udc80"]
    for i, proxy in enumerate(drawn + refused):
        write(os.path.join(folder, f"r{i}.json"), dict(run, proxy=proxy))
    before = files_under(str(tmp_path))
    names, rows = report.report(folder)
    out_dir = os.path.join(folder, "report")
    after = files_under(str(tmp_path))
    assert {p: c for p, c in after.items() if not p.startswith(out_dir + os.sep)} == before
    assert len(names) == len(set(names)) == len(drawn)  # one figure each, none replacing another
    assert sorted(os.listdir(out_dir)) == sorted(names + ["index.html"])
    assert all(len(n) <= 80 and n.endswith(("-breakdown.png", "-breakdown-2.png")) for n in names)
    assert sorted(r["proxy"] for r in rows) == sorted(drawn)
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == len(refused) and all("'proxy' is not a name" in w and w.endswith("left out")
                                                 for w in warnings)


# --- a malformed simulation is left out with one line -------------------------------------

def network_simulation():
    figures = network_metrics.network_figures([("l0", "x", 4096, 1e10)], [4096, 0], [2, 0], 0.01, [4096, 0], 1.0)
    return {"network": "torus-4x4x4", "simulator": "simgrid", "ranks": 2, "predicted_seconds": 0.01,
            "measured_seconds": 0.012, "network_overrides": {}, **figures}


@pytest.mark.parametrize("edit, problem", [
    (lambda s: s.pop("links"), "'links' is not a table of link classes (got None)"),
    (lambda s: s.update(links="x"), "'links' is not a table of link classes (got 'x')"),
    (lambda s: s["links"].update(x="y"), "'links' class 'x' is not a link count and utilizations (got 'y')"),
    (lambda s: s["nics"].update(per_nic_bytes="x"), "'nics' is not a count and bytes per NIC (got {"),
    (lambda s: s.update(nics=None), "'nics' is not a count and bytes per NIC (got None)"),
    (lambda s: s.update(hops={"per_nic": "x", "mean_per_byte": 1.0}), "'hops' is not hops per byte (got {"),
    (lambda s: s.update(profile="x"), "'profile' is not fractions of compute, p2p and collective (got 'x')"),
    (lambda s: s.update(profile={"compute": None, "p2p": 0.5, "collective": 0.1}),
     "'profile' is not fractions of compute, p2p and collective (got {'compute': None"),
    (lambda s: s.update(network_overrides=[1]), "'network_overrides' is not a table (got [1])"),
    (lambda s: s.update(network="a\nb"), "'network' is not a name (got 'a\\nb')"),
])
def test_a_malformed_simulation_is_left_out_with_one_line(folder, capsys, edit, problem):
    trace = os.path.join(folder, RUN + ".trace")
    os.makedirs(trace)
    good = write(os.path.join(trace, "simulation-torus-4x4x4-0123abcd-simgrid.json"), network_simulation())
    bad_sim = network_simulation()
    edit(bad_sim)
    bad = write(os.path.join(trace, "simulation-torus-4x4x4-4567cdef-simgrid.json"), bad_sim)
    rows = report_simulation.load(folder)
    assert [r[6] for r in rows] == [network_simulation()]
    warning = capsys.readouterr().err.splitlines()
    assert len(warning) == 1 and warning[0].startswith(f"report: warning: {bad}: {problem}"), warning
    assert warning[0].endswith("; left out") and good not in warning[0]


def test_a_report_of_malformed_simulations_draws_the_rest(folder, capsys, monkeypatch):
    cheap_figures(monkeypatch)
    trace = os.path.join(folder, RUN + ".trace")
    os.makedirs(trace)
    write(os.path.join(trace, "simulation-torus-4x4x4-0123abcd-simgrid.json"), dict(network_simulation(), links="x"))
    names, _ = report.report(folder)
    plt.close("all")
    assert "ghost-breakdown.png" in names and "ghost-link-load.png" not in names
    assert len(capsys.readouterr().err.splitlines()) == 1


# --- a FIFO is never waited on -------------------------------------------------------------

def test_fifos_named_like_results_are_left_out_not_waited_on(folder):
    only(folder, {RUN + ".json"})
    trace = os.path.join(folder, RUN + ".trace")
    os.makedirs(trace)
    fifos = [os.path.join(folder, "x.json"), os.path.join(trace, "simulation-torus-4x4x4-0123abcd-simgrid.json")]
    fifos.append(os.path.join(folder, RUN + ".trace-stats.json"))
    for fifo in fifos:
        os.mkfifo(fifo)
    done = report_subprocess(folder)
    assert done.returncode == 0, done.stderr
    warnings = sorted(done.stderr.splitlines())
    assert warnings == sorted([f"report: warning: {fifos[0]} is not readable JSON (not a regular file); left out",
                               f"report: warning: {fifos[1]} is not a readable simulation (not a regular file); "
                               "left out",
                               f"report: warning: {fifos[2]} is not readable JSON (not a regular file); left out"])


# --- a malformed results file is named, not counted ----------------------------------------

@pytest.mark.parametrize("edit, problem", [
    (lambda r: r["messages"].update(per_step_per_rank={"min": -5, "avg": "x", "max": None}),
     "'messages.per_step_per_rank' is not min / avg / max >= 0 (got {'min': -5, 'avg': 'x', 'max': None})"),
    (lambda r: r["bytes"].update(per_step_per_rank=[]),
     "'bytes.per_step_per_rank' is not min / avg / max >= 0 (got [])"),
    (lambda r: r["fom"].update(gflops="many"), "'fom' is not a table of figures of merit (got {"),
    (lambda r: r.update(machine_load="junk"), "'machine_load' is not the node's load of the run (got 'junk')"),
    (lambda r: r.update(machine_load={"other_cpu_seconds": 1.0, "wall_seconds": 2.0, "cores": "two"}),
     "'machine_load' is not the node's load of the run (got {"),
    (lambda r: r.update(machine_load={"other_cpu_seconds": -1, "wall_seconds": 2.0, "cores": 2}),
     "'machine_load' is not the node's load of the run (got {"),
])
def test_a_run_with_junk_counts_or_load_is_left_out_with_one_line(folder, capsys, edit, problem):
    run = fixture_run(folder, "ghost-bspma-np2-rep2")
    edit(run)
    path = write(os.path.join(folder, "ghost-bspma-np2-rep2.json"), run)
    names = [os.path.basename(r["_path"]) for r in report_points.load_runs(folder)]
    assert "ghost-bspma-np2-rep2.json" not in names and len(names) == 5
    warning = capsys.readouterr().err.splitlines()
    assert len(warning) == 1 and warning[0].startswith(f"report: warning: {path}: {problem}"), warning


def test_a_measured_machine_load_is_kept(folder, capsys):
    run = fixture_run(folder, "ghost-bspma-np2-rep2")
    run["machine_load"] = {"load_average_start": 1.0, "load_average_end": 1.0, "other_cpu_seconds": 2.0,
                           "wall_seconds": 1.0, "cores": 2}
    write(os.path.join(folder, "ghost-bspma-np2-rep2.json"), run)
    assert len(report_points.load_runs(folder)) == 6 and capsys.readouterr().err == ""


@pytest.mark.parametrize("data", [[], None, "str", 5, [1, 2]])
def test_json_that_is_no_table_is_left_out_with_one_line(folder, capsys, data):
    path = write(os.path.join(folder, "other.json"), data)
    assert len(report_points.load_runs(folder)) == 6
    assert capsys.readouterr().err.splitlines() == [
        f"report: warning: {path}: is not a table of results (got {data!r}); left out"]


def test_a_studys_list_of_runs_is_passed_over_in_silence(folder, capsys):
    write(os.path.join(folder, "runs.json"), [{"id": "ghost-bspma-np1-rep1"}])
    assert len(report_points.load_runs(folder)) == 6 and capsys.readouterr().err == ""


# --- --help ---------------------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_is_a_usage_text(capsys, flag):
    with pytest.raises(SystemExit) as done:
        report.main([flag])
    out, err = capsys.readouterr()
    assert done.value.code == 0 and err == ""
    assert out.startswith("usage: python3 -m amp_tools.report [-h] DIR") and "writes DIR/report/" in out


@pytest.mark.parametrize("args, problem", [([], "the following arguments are required: DIR"),
                                           (["a", "b"], "unrecognized arguments: b"),
                                           (["--no-such-option", "DIR"], "unrecognized arguments: --no-such-option")])
def test_a_usage_error_is_one_line_and_exit_2(capsys, args, problem):
    with pytest.raises(SystemExit) as done:
        report.main(args)
    assert done.value.code == 2
    assert capsys.readouterr().err == f"report: error: {problem} (--help for usage)\n"
