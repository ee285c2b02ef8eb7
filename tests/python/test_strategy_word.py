# SPDX-License-Identifier: BSD-3-Clause
"""One word for one idea: amp_tools says "strategy", reads config.strategy (config.comm_method
only in results older than it, in results.py alone), passes --strategy to the proxies, and keeps --cuts of
predict_at_scale as a hidden alias of --strategies that warns once."""
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
# What "cut" named before "strategy" did: no variable, attribute, argument or constant of amp_tools holds it.
OLD_NAMES = {"cut", "cuts", "CUT", "PREFERRED_CUT", "mark_cuts"}


def run_of(config):
    return {"config": config}


def test_the_strategy_is_config_strategy_and_the_older_name_only_in_older_results():
    assert results.strategy(run_of({"strategy": "svaf", "comm_method": "svaf"})) == "svaf"
    assert results.strategy(run_of({"strategy": "svcp"})) == "svcp"
    assert results.strategy(run_of({"comm_method": "bspma"})) == "bspma"  # written before `strategy`
    assert results.strategy(run_of({})) == "?"


def test_a_configuration_names_its_strategy_once_whatever_the_files_age():
    old = results.config(run_of({"comm_method": "bspma", "nx": 8}))
    both = results.config(run_of({"strategy": "bspma", "comm_method": "bspma", "nx": 8}))
    new = results.config(run_of({"strategy": "bspma", "nx": 8}))
    assert old == both == new == {"strategy": "bspma", "nx": 8}


def test_only_results_py_reads_the_older_name():
    for path in glob.glob(os.path.join(PACKAGE, "*.py")):
        with open(path) as f:
            text = f.read()
        if os.path.basename(path) != "results.py":
            assert "comm_method" not in text, path


def test_no_tool_passes_the_older_flag():
    for path in glob.glob(os.path.join(TOOLS, "**", "*.py"), recursive=True):
        if os.sep + "bench" + os.sep in path:
            continue
        with open(path) as f:
            assert "--comm_method" not in f.read(), path


def test_no_name_in_amp_tools_calls_a_strategy_a_cut():
    found = []
    for path in sorted(glob.glob(os.path.join(PACKAGE, "*.py"))):
        with open(path) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            name = (node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute)
                    else node.arg if isinstance(node, ast.arg) else node.name if isinstance(node, ast.FunctionDef)
                    else None)
            if name in OLD_NAMES:
                found.append(f"{os.path.basename(path)}:{node.lineno}: {name}")
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


def test_predict_at_scales_older_flag_is_strategies_and_warns_once(tmp_path):
    new, old = predict(tmp_path, "--strategies", "svaf,bspma"), predict(tmp_path, "--cuts", "svaf,bspma")
    assert new.returncode == old.returncode == 2  # no baseline run in the folder: one line
    assert "ghost-svaf-isend.json" in new.stderr and new.stderr.count("\n") == 1
    warning = "predict_at_scale: warning: --cuts is deprecated: it is --strategies\n"
    assert old.stderr == warning + new.stderr
    assert "--cuts" not in predict(tmp_path, "--help").stdout
