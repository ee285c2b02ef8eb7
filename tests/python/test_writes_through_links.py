# SPDX-License-Identifier: BSD-3-Clause
"""No tool writes through a symbolic link it did not make: a link is laid at each place the Python tools
write (report/ and its files, a simulation's JSON, the SimGrid export, a study's folder, log and trace
statistics, any file written whole), the tool is refused with one line (exit 2 for the commands), and the
link's target is unchanged."""
import os
import shutil
import subprocess
import sys

import pytest

from amp_tools import networks
from amp_tools import simgrid_export
from amp_tools import simulate
from amp_tools import study_folder
from amp_tools import study_launch
from amp_tools import study_runs
from amp_tools.output_places import ThroughLink, make_folder
from amp_tools.whole_file import write_whole

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))


def tree(folder):
    """{relative path: bytes} of every file under `folder` (what a write through a link would change)."""
    found = {}
    for top, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(top, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder)] = f.read()
    return found


@pytest.fixture
def victim(tmp_path):
    """A folder of someone else's, holding one file: what a link points to."""
    folder = tmp_path / "victim"
    folder.mkdir()
    (folder / "index.html").write_text("someone else's page\n")
    return folder


def run_tool(module, *arguments, cwd):
    done = subprocess.run([sys.executable, "-m", module, *arguments], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=dict(os.environ, PYTHONPATH=TOOLS))
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def test_report_folder_that_is_a_link_is_refused(report_fixtures, tmp_path, victim):
    pytest.importorskip("matplotlib")
    results = tmp_path / "results"
    shutil.copytree(report_fixtures, results)
    (results / "report").symlink_to(victim)
    before = tree(victim)
    code, lines = run_tool("amp_tools.report", str(results), cwd=tmp_path)
    assert code == 2 and lines == [f"report: error: '{results}/report' is a symbolic link; AMP never writes through a "
                                   f"link it did not make (remove the link or write elsewhere)"], lines
    assert tree(victim) == before


def test_report_index_that_is_a_link_is_refused(report_fixtures, tmp_path, victim):
    pytest.importorskip("matplotlib")
    results = tmp_path / "results"
    results.mkdir()
    shutil.copy(os.path.join(report_fixtures, "ghost-bspma-np1-rep1.json"), results)
    (results / "report").mkdir()
    (results / "report" / "index.html").symlink_to(victim / "index.html")
    before = tree(victim)
    code, lines = run_tool("amp_tools.report", str(results), cwd=tmp_path)
    assert code == 2 and len(lines) == 1 and "index.html' is a symbolic link" in lines[0], lines
    assert tree(victim) == before and os.path.islink(results / "report" / "index.html")


@pytest.fixture
def trace(tmp_path):
    """A trace folder with one .meta (simulate refuses its output places before reading further)."""
    folder = tmp_path / "run.trace"
    folder.mkdir()
    (folder / "dumpi-x.meta").write_text("hostname=h\nnumprocs=1\nfileprefix=dumpi-x\n")
    return folder


def test_simulation_json_that_is_a_link_is_refused(repo, network_file, trace, victim, tmp_path):
    network = networks.load(network_file("torus-4x4x4"))
    out = simulate.output_path(str(trace), network, "simgrid")
    os.symlink(victim / "index.html", out)
    before = tree(victim)
    code, lines = run_tool("amp_tools.simulate", str(trace), "--network", network_file("torus-4x4x4"), "--build",
                           str(tmp_path), cwd=repo)
    assert code == 2 and lines == [f"amp simulate: error: '{out}' is a symbolic link; AMP never writes through a link "
                                   f"it did not make (remove the link or write elsewhere)"], lines
    assert tree(victim) == before


def test_simgrid_export_that_is_a_link_is_refused(repo, network_file, trace, victim, tmp_path):
    network = networks.load(network_file("torus-4x4x4"))
    out = os.path.join(trace, f"simgrid-ti-{simgrid_export.speed_text(network.host_speed)}")
    os.symlink(victim, out)
    before = tree(victim)
    code, lines = run_tool("amp_tools.simulate", str(trace), "--network", network_file("torus-4x4x4"), "--build",
                           str(tmp_path), cwd=repo)
    assert code == 2 and len(lines) == 1 and f"'{out}' is a symbolic link" in lines[0], lines
    assert tree(victim) == before and os.path.islink(out)  # neither written through nor removed


def test_a_file_written_whole_is_never_written_through_a_link(tmp_path, victim):
    before = tree(victim)
    for name in ("runs.json", "table.txt.part"):
        os.symlink(victim / "index.html", tmp_path / name)
    for path in (tmp_path / "runs.json", tmp_path / "table.txt"):
        with pytest.raises(ThroughLink, match="is a symbolic link"):
            write_whole(str(path), "text")
    assert tree(victim) == before


def test_a_study_log_or_trace_statistics_that_is_a_link_is_refused(tmp_path, victim):
    before = tree(victim)
    os.symlink(victim / "index.html", tmp_path / "run.log")
    with pytest.raises(ThroughLink):
        study_launch.run_logged(["true"], str(tmp_path / "run.log"), env=dict(os.environ))
    os.symlink(victim / "index.html", tmp_path / "run.trace-stats.json.part")
    with pytest.raises(ThroughLink):
        study_runs.trace_stats(type("Opts", (), {"build": str(tmp_path)}), str(tmp_path / "run"))
    assert tree(victim) == before


def test_a_study_folder_that_is_a_link_is_not_resumed(tmp_path, victim):
    study = type("Study", (), {"name": "s", "text_bytes": b"name = 's'\n"})
    (victim / "study.toml").write_bytes(study.text_bytes)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "s-20260101-000000").symlink_to(victim)
    before = tree(victim)
    with pytest.raises(ThroughLink, match="s-20260101-000000' is a symbolic link"):
        study_folder.open_folder(study, str(tmp_path), new=False)
    assert tree(victim) == before


def test_a_folder_made_for_output_is_never_a_link(tmp_path, victim):
    os.symlink(victim, tmp_path / "syntheses")
    with pytest.raises(ThroughLink):
        make_folder(str(tmp_path / "syntheses"))
    make_folder(str(tmp_path / "new" / "deeper"))
    assert os.path.isdir(tmp_path / "new" / "deeper")


def test_a_calibration_never_writes_its_partial_file_through_a_link(tmp_path, victim):
    from amp_tools import calibrate
    from amp_tools.simulate_errors import OutputError
    output = tmp_path / "machine.toml"
    os.symlink(victim / "index.html", f"{output}.partial-{os.getpid()}")
    before = tree(victim)
    args = type("Args", (), {"output": str(output), "replace": False, "cores": 2})
    with pytest.raises(OutputError, match="partial-.*: cannot create"):
        calibrate.write_calibration(args, [{"bytes": 8}], 1e-6, 1e9, None)
    assert tree(victim) == before and not output.exists()
    assert os.path.islink(f"{output}.partial-{os.getpid()}")  # someone else's, left as it was
