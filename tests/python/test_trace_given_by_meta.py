# SPDX-License-Identifier: BSD-3-Clause
"""`./amp simulate` takes a trace by its folder or by the .meta of the one traced run in it (as amp-trace
suggests naming it); a folder of several traced runs is refused with what to do (the tracing library
refuses a second trace into a folder at start-up, tests/trace/test_trace_faults.py no_overwrite)."""
import os
import subprocess
import sys

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))


def simulate(repo, *arguments):
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", *arguments], capture_output=True, text=True,
                          timeout=60, cwd=repo, env=dict(os.environ, PYTHONPATH=TOOLS))
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def trace(folder, *prefixes):
    folder.mkdir()
    for prefix in prefixes:
        (folder / f"{prefix}.meta").write_text(f"hostname=h\nnumprocs=1\nfileprefix={prefix}\n")
    return folder


def test_a_meta_is_taken_for_its_folder(repo, tmp_path):
    folder = trace(tmp_path / "run.trace", "dumpi-a")
    code, lines = simulate(repo, str(folder / "dumpi-a.meta"), "--network", str(tmp_path / "none.toml"))
    # past the trace, to the network file: the .meta named its folder
    assert code == 2 and lines == [f"amp simulate: error: {tmp_path}/none.toml: no such network file (see "
                                   f"inputs/networks/)"], lines


def test_a_folder_of_two_traced_runs_says_what_to_do(repo, tmp_path):
    folder = trace(tmp_path / "run.trace", "dumpi-a", "dumpi-b")
    for given in (folder, folder / "dumpi-b.meta"):
        code, lines = simulate(repo, str(given), "--network", str(tmp_path / "none.toml"))
        assert code == 2 and lines == [f"amp simulate: error: {folder}: holds 2 traced runs (.meta files); give a "
                                       f"directory with one (a simulation's files go beside its trace: move each "
                                       f".meta and its .bin files into a folder of their own)"], lines


def test_a_missing_meta_is_named(repo, tmp_path):
    folder = trace(tmp_path / "run.trace", "dumpi-a")
    code, lines = simulate(repo, str(folder / "dumpi-z.meta"), "--network", str(tmp_path / "none.toml"))
    assert code == 2 and lines == [f"amp simulate: error: {folder}/dumpi-z.meta: no such trace .meta file"], lines
