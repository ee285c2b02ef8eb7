# SPDX-License-Identifier: BSD-3-Clause
"""A one-value option given twice with two values is refused, not resolved by taking the last: simulate's
--network, --simulator and --output, a network key given twice by --set, and a study's --plan with --slurm
(which --plan would make meaningless). The same value twice stays harmless. (The proxies' own flags:
tests/faults/test_refusals.py.)"""
import os
import subprocess
import sys

import pytest

from amp_tools import networks

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))


def run_module(module, *arguments, cwd=None):
    done = subprocess.run([sys.executable, "-m", module, *arguments], capture_output=True, text=True, timeout=60,
                          cwd=cwd, env=dict(os.environ, PYTHONPATH=TOOLS))
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


@pytest.mark.parametrize("option, first, second", [("--network", "a.toml", "b.toml"),
                                                   ("--simulator", "simgrid", "sstmac")])
def test_simulate_refuses_an_option_given_twice(repo, tmp_path, option, first, second):
    code, lines = run_module("amp_tools.simulate", str(tmp_path), option, first, option, second, cwd=repo)
    assert code == 2 and lines == [f"amp simulate: error: {option} given twice with different "
                                   f"values ({first!r} and {second!r}); give it once (./amp help)"], lines


def test_a_network_key_set_twice_is_refused(network_file):
    path = network_file("torus-4x4x4")
    with pytest.raises(networks.NetworkError, match=f"^{path}: --set gives seed twice with different values "
                                                    f"\\(1 and 2\\); give it once$"):
        networks.load(path, ["seed=1", "seed=2"])
    assert networks.load(path, ["seed=2", "seed=2"]).seed == 2


def test_a_study_refuses_plan_with_slurm(repo):
    code, lines = run_module("amp_tools.study", os.path.join(repo, "inputs", "studies", "default.toml"), "--root",
                             repo, "--plan", "--slurm", cwd=repo)
    assert code == 2 and lines == ["study: error: --plan prints the plan and writes nothing, --slurm writes a "
                                   "script: give one of them (--help for usage)"], lines
