# SPDX-License-Identifier: BSD-3-Clause
"""A proxy's command line has one builder (amp_tools.proxy_command) that bench/ and the driver use, and the
options --build and --mpiexec one parent parser with one default each (command_line.common_options)."""
import os
import re
import subprocess
import sys

import amp_tools
from amp_tools import command_line
from amp_tools import launch
from amp_tools import proxy_command

BENCH = os.path.join(amp_tools.REPOSITORY, "bench")


def bench_files(ending):
    return [os.path.join(d, f) for d, _, files in os.walk(BENCH) for f in files if f.endswith(ending)]


def test_deck_and_flags_become_one_launcher_line():
    assert proxy_command.command("ghost", {"nx": 8, "strategy": "svaf", "results": None}, "cth.toml", 2, "B",
                                 "mpiexec.mpich", "--oversubscribe") == [
        "mpiexec.mpich", "--oversubscribe", "-n", "2", os.path.join("B", "bin", "amp-ghost"), "--input", "cth.toml",
        "--nx", "8", "--strategy", "svaf"]


def test_without_ranks_the_proxy_runs_alone():
    assert proxy_command.command("sage", ["--plan-only", "--ranks", 512], build="B") == [
        os.path.join("B", "bin", "amp-sage"), "--plan-only", "--ranks", "512"]


def test_defaults_are_the_drivers(monkeypatch):
    monkeypatch.delenv("AMP_MPI", raising=False)
    assert launch.default_build() == os.path.join(amp_tools.REPOSITORY, "build")
    monkeypatch.setattr(launch.shutil, "which", lambda name: "/usr/bin/" + name)
    assert launch.default_mpiexec() == "mpiexec.mpich"
    monkeypatch.setenv("AMP_MPI", "openmpi")
    assert launch.default_build() == os.path.join(amp_tools.REPOSITORY, "build-openmpi")
    assert launch.default_mpiexec() == "mpiexec.openmpi"
    monkeypatch.setattr(launch.shutil, "which", lambda name: None)
    assert launch.default_mpiexec() == "mpiexec"


def test_common_options_give_one_default_each(monkeypatch):
    monkeypatch.delenv("AMP_MPI", raising=False)
    options = command_line.common_options().parse_args([])
    assert (options.build, options.mpiexec, options.mpiexec_flags) == (
        launch.default_build(), launch.default_mpiexec(), "")
    assert not hasattr(command_line.common_options(launcher=False).parse_args([]), "mpiexec")


def test_command_line_prints_nul_separated_words_for_the_driver():
    done = subprocess.run([sys.executable, "-m", "amp_tools.proxy_command", "micro", "--ranks", "2", "--build", "B",
                           "--mpiexec", "M", "--null", "--", "pingpong", "a b"], capture_output=True, text=True,
                          env=amp_tools.module_environment())
    assert done.returncode == 0
    assert done.stdout.split("\0") == ["M", "-n", "2", os.path.join("B", "bin", "amp-micro"), "pingpong", "a b", ""]


def test_command_line_refuses_a_bad_rank_count_in_one_line():
    done = subprocess.run([sys.executable, "-m", "amp_tools.proxy_command", "ghost", "--ranks", "0"],
                          capture_output=True, text=True, env=amp_tools.module_environment())
    assert done.returncode == 2
    assert done.stderr == "proxy_command: error: --ranks must be at least 1 (got 0)\n"


def test_the_driver_builds_its_proxy_line_with_proxy_command():
    with open(os.path.join(amp_tools.REPOSITORY, "amp")) as f:
        driver = f.read()
    assert "amp_tools.proxy_command" in driver
    assert not re.search(r'"\$mpiexec_cmd" -n', driver), "the driver builds an mpiexec line of its own"


def test_bench_is_python_and_passes_strategy():
    assert bench_files(".sh") == []
    for path in bench_files(".py"):
        with open(path) as f:
            text = f.read()
        assert not re.search(r'"bin", "amp-(ghost|sage|nobel|micro)"', text), f"{path} builds a proxy line itself"
        assert not re.search(r'add_argument\("--(build|mpiexec)"', text), f"{path} declares --build/--mpiexec itself"
