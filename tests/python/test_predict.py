# SPDX-License-Identifier: BSD-3-Clause
"""The [predict] step's pure parts (amp_tools.predict_at_scale): which run gives the compute time, the
printed table of each strategy against the first, and the step alone's --networks (names or paths)."""
import os
import subprocess
import sys

import pytest

from amp_tools import predict_at_scale
from amp_tools.predict_at_scale import Plan


def test_the_baseline_is_the_first_finished_ghost_run_of_the_first_strategy(tmp_path):
    plan = Plan(1024, ["bspma", "svaf"], [])
    runs = [{"id": "ghost-svaf-isend-np2-rep1", "proxy": "ghost", "strategy": "svaf", "repetition": 1},
            {"id": "ghost-bspma-isend-np2-rep2", "proxy": "ghost", "strategy": "bspma", "repetition": 2},
            {"id": "ghost-bspma-isend-np2-rep1", "proxy": "ghost", "strategy": "bspma", "repetition": 1},
            {"id": "ghost-bspma-rma-np2-rep1", "proxy": "ghost", "strategy": "bspma", "repetition": 1}]
    assert predict_at_scale.baseline_run(plan, runs, str(tmp_path)) is None  # nothing finished yet
    (tmp_path / "ghost-bspma-rma-np2-rep1.json").write_text("{}")
    (tmp_path / "ghost-bspma-isend-np2-rep2.json").write_text("{}")
    assert predict_at_scale.baseline_run(plan, runs, str(tmp_path))["id"] == "ghost-bspma-rma-np2-rep1"
    (tmp_path / "ghost-bspma-isend-np2-rep1.json").write_text("{}")
    assert predict_at_scale.baseline_run(plan, runs, str(tmp_path))["id"] == "ghost-bspma-isend-np2-rep1"


def test_the_table_gives_the_first_strategy_in_ms_and_the_others_against_it():
    plan = Plan(1024, ["bspma", "svaf"], ["/n/torus-16x16x4.toml", "/n/dragonfly-1024.toml"])
    predicted = {("bspma", "torus-16x16x4"): 0.5, ("svaf", "torus-16x16x4"): 0.75,
                 ("bspma", "dragonfly-1024"): 0.4, ("svaf", "dragonfly-1024"): 0.4}
    config = {"local_block": [16, 16, 8], "num_vars": 4, "stencil": "3d27pt", "num_tsteps": 3}
    lines = predict_at_scale.table(plan, 2e-5, predicted, {"bspma": config, "svaf": config},
                                   {"nx": 64, "ny": 64, "nz": 64, "num_vars": 40})
    assert lines[0].startswith("amp: predicted at 1024 ranks (synthesized: a 16x16x8 block, 4 variables, 3d27pt, "
                               "3 steps (not the deck's 64x64x64 block and 40 variables); a steady step, steps 2-3")
    assert "20.00 us per variable step" in lines[0]
    assert lines[1].split() == ["network", "bspma", "svaf"]
    assert lines[2].split() == ["torus-16x16x4", "0.500", "ms", "1.50x", "bspma"]
    assert lines[3].split() == ["dragonfly-1024", "0.400", "ms", "1.00x", "bspma"]
    assert lines[4:] == ["amp: 1024 ranks, torus-16x16x4: svaf 1.50x bspma (synthesized: 16x16x8 block, 4 variables)",
                         "amp: 1024 ranks, dragonfly-1024: svaf 1.00x bspma (synthesized: 16x16x8 block, 4 variables)"]
    # a deck of the synthesized size is not said to differ
    same = predict_at_scale.table(plan, 2e-5, predicted, {"bspma": config, "svaf": config},
                                  {"nx": 16, "ny": 16, "nz": 8, "num_vars": 4})
    assert "not the deck's" not in same[0]


def test_the_networks_of_a_prediction_share_one_node(repo, network_file):
    from amp_tools import networks
    assert predict_at_scale.one_node([networks.load(network_file("torus-4x4x4"))]) is None
    assert predict_at_scale.one_node([networks.load(network_file(n)) for n in ("xt6-seastar", "xe6-gemini")]) == 3.34e9
    with pytest.raises(networks.NetworkError, match="nodes differ"):
        predict_at_scale.one_node([networks.load(network_file(n)) for n in ("torus-4x4x4", "xt6-seastar")])


def run_predict(repo, cwd, *arguments):
    """The step alone, on an empty folder (no baseline run): (exit code, stderr)."""
    done = subprocess.run([sys.executable, "-m", "amp_tools.predict_at_scale", str(cwd), "--deck", "x.toml",
                           "--build", os.path.join(repo, "build"), "--root", repo, *arguments],
                          capture_output=True, text=True, timeout=30, cwd=cwd,
                          env=dict(os.environ, PYTHONPATH=os.path.join(repo, "tools")))
    return done.returncode, done.stderr


def test_networks_takes_names_and_paths_to_network_files(repo, network_file, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a relative path is relative to where the tool runs
    relative = os.path.relpath(network_file("xt6-seastar"), tmp_path)
    assert predict_at_scale.network_files(["xe6-gemini", relative], repo) == [network_file("xe6-gemini"), relative]
    code, err = run_predict(repo, tmp_path, "--networks", f"xe6-gemini,{relative}")
    assert code == 2 and "cannot read" in err and "ghost-bspma-isend.json" in err  # past the networks: no baseline


def test_an_unknown_network_name_or_a_missing_file_is_one_line_and_exit_2(repo, tmp_path):
    code, err = run_predict(repo, tmp_path, "--networks", "torus-4x4x4,nosuch")
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    assert "unknown network 'nosuch'" in err and "torus-16x16x4" in err and "xt6-seastar" in err  # the valid names
    code, err = run_predict(repo, tmp_path, "--networks", "inputs/networks/nosuch.toml")
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    assert "inputs/networks/nosuch.toml: no such network file" in err and "inputs/networks/inputs" not in err
