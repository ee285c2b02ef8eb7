# SPDX-License-Identifier: BSD-3-Clause
"""One word for one idea: a proxy's results name the strategy `strategy` alone (schema_version 2); amp_tools
reads it there, and under its older key only in version-1 files, in results.py alone; the tools pass
--strategy to the proxies, and no name in tools/ or bench/ calls a strategy a "cut" (nor does a flag)."""
import ast
import glob
import os
import stat
import subprocess
import sys

import amp_tools
from amp_tools import combinations
from amp_tools import results

TOOLS = os.path.join(amp_tools.REPOSITORY, "tools")
PACKAGE = os.path.join(TOOLS, "amp_tools")
BENCH = os.path.join(amp_tools.REPOSITORY, "bench")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
OLD = results.OLD_STRATEGY  # the key version-1 results also wrote the strategy under
# What "cut" named before "strategy" did: no variable, attribute, argument, function or constant holds it.
OLD_NAMES = {"cut", "cuts", "CUT", "CUTS", "PREFERRED_CUT", "mark_cuts", "cut_of"}


def run_of(config):
    return {"config": config}


def test_the_strategy_is_config_strategy_and_the_older_key_only_in_version_1_results():
    assert results.strategy(run_of({"strategy": "svaf", OLD: "svaf"})) == "svaf"
    assert results.strategy(run_of({"strategy": "svcp"})) == "svcp"
    assert results.strategy(run_of({OLD: "bspma"})) == "bspma"  # written before `strategy`
    assert results.strategy(run_of({})) == "?"


def test_a_configuration_names_its_strategy_once_whatever_the_files_age():
    old = results.config(run_of({OLD: "bspma", "nx": 8}))
    both = results.config(run_of({"strategy": "bspma", OLD: "bspma", "nx": 8}))
    new = results.config(run_of({"strategy": "bspma", "nx": 8}))
    assert old == both == new == {"strategy": "bspma", "nx": 8}


def test_committed_results_of_version_1_and_of_version_2_read_alike():
    """fixtures/version-1: results as proxies wrote them at schema_version 1 (both keys); fixtures/schemas:
    the same runs at version 2 (`strategy` alone)."""
    for name in ("results-ghost.json", "results-synthesis.json"):
        old = results.load(os.path.join(FIXTURES, "version-1", name))
        new = results.load(os.path.join(FIXTURES, "schemas", name))
        assert (old["schema_version"], new["schema_version"]) == (1, amp_tools.RESULTS_SCHEMA_VERSION) == (1, 2)
        assert OLD in old["config"] and OLD not in new["config"], name
        assert results.strategy(old) == results.strategy(new) == "bspma"
        assert results.config(old) == results.config(new), name
    assert results.step_seconds(results.load(os.path.join(FIXTURES, "version-1", "results-ghost.json"))) == \
        results.step_seconds(results.load(os.path.join(FIXTURES, "schemas", "results-ghost.json")))


def python_files(*folders):
    return sorted(p for folder in folders for p in glob.glob(os.path.join(folder, "**", "*.py"), recursive=True))


def test_only_results_py_reads_the_older_key():
    for path in python_files(TOOLS, BENCH):
        with open(path) as f:
            text = f.read()
        if path != os.path.join(PACKAGE, "results.py"):
            assert OLD not in text, path


def test_no_name_in_tools_or_bench_calls_a_strategy_a_cut():
    found = []
    for path in python_files(TOOLS, BENCH):
        with open(path) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                    else node.arg if isinstance(node, ast.arg) else node.name if isinstance(node, ast.FunctionDef)
                    else None)
            if name in OLD_NAMES:
                found.append(f"{os.path.relpath(path, amp_tools.REPOSITORY)}:{node.lineno}: {name}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    any(f"--{old}" in node.value for old in OLD_NAMES):
                found.append(f"{os.path.relpath(path, amp_tools.REPOSITORY)}:{node.lineno}: {node.value!r}")
    assert not found, found


def test_the_combination_question_passes_strategy(tmp_path):
    asked = tmp_path / "asked"
    binary = tmp_path / "amp-fake"
    binary.write_text(f"#!/bin/sh\necho \"$@\" > {asked}\n")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    assert combinations.ask(str(binary), "svaf", "rma").fits
    assert asked.read_text().split() == ["--plan-only", "--ranks", "1", "--rank", "0", "--strategy", "svaf",
                                         "--transport", "rma"]


def predict(tmp_path, *flags):
    return subprocess.run([sys.executable, "-m", "amp_tools.predict_at_scale", str(tmp_path), "--deck", "d.toml",
                           "--build", str(tmp_path), *flags], capture_output=True, text=True,
                          env=amp_tools.module_environment(), timeout=60)


def test_predict_at_scale_takes_strategies(tmp_path):
    done = predict(tmp_path, "--strategies", "svaf,bspma")
    assert done.returncode == 2  # no baseline run in the folder: one line naming the first strategy's
    assert "ghost-svaf-isend.json" in done.stderr and done.stderr.count("\n") == 1
    assert "--strategies" in predict(tmp_path, "--help").stdout
