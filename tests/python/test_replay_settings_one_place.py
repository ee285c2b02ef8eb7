# SPDX-License-Identifier: BSD-3-Clause
"""The settings every SimGrid replay needs live in one place: src/amp/trace/simgrid/replay_settings.hpp,
which amp-trace simgrid prints in its replay line and writes into export.json as `smpirun_cfg`. `./amp simulate`
replays with the export's list, and the network's own options (simgrid_machine.simgrid_config) repeat none of it."""
import os
import re

from amp_tools import networks
from amp_tools.simulators import simgrid_machine
from amp_tools.simulators import simgrid
from amp_tools.simulators import simgrid_figures
from amp_tools.simulators.replay import Job

HEADER = os.path.join("src", "amp", "trace", "simgrid", "replay_settings.hpp")


def replay_settings(repo):
    with open(os.path.join(repo, HEADER)) as f:
        return re.findall(r'^\s*"(--cfg=[^"]+)",', f.read(), re.M)


def option(setting):
    """'--cfg=smpi/allgather:rdb' -> 'smpi/allgather'."""
    return setting.removeprefix("--cfg=").split(":", 1)[0]


def test_the_header_lists_the_settings_a_replay_needs(repo):
    settings = replay_settings(repo)
    assert "--cfg=smpi/allgather:rdb" in settings and "--cfg=network/crosstraffic:0" in settings
    assert "--cfg=maxmin/precision:0.0001" in settings and len(settings) == len(set(map(option, settings)))


def test_no_network_file_repeats_a_replay_setting(repo, network_file):
    needed = {option(s) for s in replay_settings(repo)}
    for name in sorted(os.listdir(os.path.join(repo, "inputs", "networks"))):
        network = networks.load(network_file(name.removesuffix(".toml")))
        repeated = needed & {option(c) for c in simgrid_machine.simgrid_config(network)}
        assert not repeated, f"{name}: simgrid_machine.simgrid_config repeats {repeated}"


class NoFigures:
    def __init__(self, *args, **kwargs):
        pass

    def figures(self, predicted):
        return {}

    def cancel(self):
        pass


def test_simulate_replays_with_the_exports_settings_then_the_networks(monkeypatch, tmp_path):
    seen = {}

    def replayed(command, cwd, timeout, on_line=None, env=None, **kwargs):
        seen["command"] = command
        on_line("[n1:1:(2)_0.000100000]_[smpi_replay/INFO]_Simulation time 0.0001\n")
        return 0, "", []

    monkeypatch.setattr(simgrid_figures, "SimgridFigures", NoFigures)
    monkeypatch.setattr(simgrid, "run_simulator", replayed)
    monkeypatch.setattr(simgrid, "version", lambda: "3.32")
    path = tmp_path / "pair.toml"
    path.write_text('topology = "flat"\nnodes = 2\nranks_per_node = 1\nlink_bandwidth = 1e10\nlink_latency = 1e-6\n'
                    'host_speed = 1e9\n')
    network = networks.load(str(path))
    summary = {"ranks": [0, 1], "actions": simgrid.PER_RANK_ACTION_LIMIT + 1,
               "smpirun_cfg": ["--cfg=smpi/allgather:rdb", "--cfg=test/only:1"]}
    job = Job(network, str(tmp_path), str(tmp_path), summary, None, None, None, str(tmp_path), 60)
    predicted = simgrid.run(job).predicted
    command = seen["command"]
    after = command[command.index(simgrid.SMPIREPLAY) + 1:]
    assert predicted == 0.0001
    assert after[:2] == summary["smpirun_cfg"] and after[2:7] == simgrid_machine.simgrid_config(network)
