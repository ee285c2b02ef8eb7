# SPDX-License-Identifier: BSD-3-Clause
"""An error names where the bad value came from and what is wrong, not something else: a bad --set value
names the --set (not only the network file), --ranks given to a study is named as the command line's (not
a line of the study file), and a folder or FIFO given as a network file is said to be one, not missing."""
import os
import subprocess
import sys

import pytest

from amp_tools import networks

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))


@pytest.mark.parametrize("given, words", [
    ("link_latency=-1", "--set link_latency=-1: link_latency must be a positive number, not -1"),
    ("routing=sideways", "--set routing=sideways: routing must be minimal, valiant, ugal"),
    ("shape=[4, 0, 4]", "--set shape=[4, 0, 4]: shape must be a positive integer, not 0"),
    ("colour=1", "--set colour=1: unknown key 'colour'"),
])
def test_a_bad_set_value_names_the_set(network_file, given, words):
    path = network_file("torus-4x4x4")
    with pytest.raises(networks.NetworkError) as refused:
        networks.load(path, [given])
    assert str(refused.value).startswith(f"{path} {words}"), str(refused.value)


def test_a_bad_value_in_the_file_names_the_file_alone(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('topology = "flat"\nnodes = 2\nranks_per_node = 1\nlink_bandwidth = 1e9\nlink_latency = -1\n'
                    'host_speed = 1e9\n')
    with pytest.raises(networks.NetworkError, match=f"^{path}: link_latency must be a positive number, not -1$"):
        networks.load(str(path), ["seed=2"])


def test_a_folder_or_fifo_is_not_a_missing_network_file(tmp_path):
    os.mkfifo(tmp_path / "fifo.toml")
    for path in (tmp_path, tmp_path / "fifo.toml"):
        with pytest.raises(networks.NetworkError, match="not a regular file"):
            networks.load(str(path))
    with pytest.raises(networks.NetworkError, match="no such network file"):
        networks.load(str(tmp_path / "none.toml"))


def test_a_studys_ranks_from_the_command_line_are_named_so(repo, tmp_path):
    study = tmp_path / "s.toml"
    study.write_text('name = "s"\nproxies = ["ghost"]\n\n\n\nranks = [1]\n')
    done = subprocess.run([sys.executable, "-m", "amp_tools.study", str(study), "--root", repo, "--build",
                           str(tmp_path), "--cores", "2", "--ranks", "3"], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=TOOLS))
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "study: error: --ranks 3: 3 ranks exceed the 2 cores here: studies run one rank per core (oversubscribed "
        "ranks measure the scheduler); set oversubscribe = true to allow it"], done.stderr
