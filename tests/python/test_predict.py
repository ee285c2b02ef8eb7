# SPDX-License-Identifier: BSD-3-Clause
"""The [predict] step's pure parts (amp_tools.predict_at_scale): which run gives the compute time, and the
printed table of each strategy against the first."""
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
    lines = predict_at_scale.table(plan, 2e-5, predicted)
    assert lines[0].startswith("amp: predicted at 1024 ranks") and "20.00 us per variable step" in lines[0]
    assert lines[1].split() == ["network", "bspma", "svaf"]
    assert lines[2].split() == ["torus-16x16x4", "0.500", "ms", "1.50x", "bspma"]
    assert lines[3].split() == ["dragonfly-1024", "0.400", "ms", "1.00x", "bspma"]
    assert lines[4:] == ["amp: 1024 ranks, torus-16x16x4: svaf 1.50x bspma",
                         "amp: 1024 ranks, dragonfly-1024: svaf 1.00x bspma"]
