# SPDX-License-Identifier: BSD-3-Clause
"""One interface for every simulator (tools/amp_tools/simulators): the registry is the one list of them (the
command line, studies and the simulation schema read it), no module outside simulators/ branches on a
simulator's name, and a serial simulator refuses --sim-ranks above 1 in one line."""
import json
import os
import re

import amp_tools
from amp_tools import networks
from amp_tools import simulators

PACKAGE = os.path.join(amp_tools.REPOSITORY, "tools", "amp_tools")
MODULE_INTERFACE = ("NAME", "TITLE", "ROUTING", "PARALLEL", "unavailable", "refusal", "network_memory", "notes", "run")


def test_every_simulator_module_has_the_interface():
    for name, module in simulators.SIMULATORS.items():
        missing = [part for part in MODULE_INTERFACE if not hasattr(module, part)]
        assert not missing, f"simulators/{name}: lacks {missing}"
        assert module.NAME == name


def test_the_simulation_schema_names_the_registry_simulators():
    with open(os.path.join(amp_tools.REPOSITORY, "docs", "schema", "simulation.schema.json")) as f:
        schema = json.load(f)
    assert schema["properties"]["simulator"]["enum"] == list(simulators.NAMES)


def test_no_module_outside_simulators_branches_on_a_simulator_name():
    names = "|".join(simulators.NAMES)
    branch = re.compile(rf"""(==|!=|\bin)\s*\(?["']({names})["']|["']({names})["']\s*(==|!=|\bin\b)""")
    found = []
    for entry in sorted(os.listdir(PACKAGE)):
        if entry.endswith(".py"):
            with open(os.path.join(PACKAGE, entry)) as f:
                found += [f"{entry}:{n}: {line.strip()}" for n, line in enumerate(f, 1) if branch.search(line)]
    assert not found, "a simulator-name branch outside tools/amp_tools/simulators/:\n" + "\n".join(found)


def test_a_serial_simulator_refuses_more_simulator_ranks_in_one_line(network_file):
    torus = networks.load(network_file("torus-4x4x4"))
    assert [name for name, module in simulators.SIMULATORS.items() if module.PARALLEL] == []
    for name, module in simulators.SIMULATORS.items():
        problem = simulators.refusal(torus, name, sim_ranks=2)
        if module.PARALLEL:
            assert problem is None, problem
        else:
            assert "--sim-ranks must be 1, not 2" in problem and "\n" not in problem
            assert simulators.refusal(torus, name, sim_ranks=1) is None
