# SPDX-License-Identifier: BSD-3-Clause
"""The report's data preparation (amp_tools.report), before any figure: which files of a folder are runs,
repetitions grouped into points, the median repetition, and the table's rows, on real runs."""
import json
import os
import shutil

import pytest

pytest.importorskip("matplotlib", reason="matplotlib is not installed for this python")
from amp_tools import report_index, report_points, results  # noqa: E402


@pytest.fixture
def folder(report_fixtures, tmp_path):
    out = tmp_path / "runs"
    shutil.copytree(report_fixtures, out)
    return str(out)


def test_runs_are_the_proxies_results_with_their_trace_statistics(folder):
    runs = report_points.load_runs(folder)
    assert sorted(os.path.basename(r["_path"]) for r in runs) == sorted(
        n for n in os.listdir(folder) if n.endswith(".json") and not n.endswith(".trace-stats.json"))
    traced = [r for r in runs if "_trace_stats" in r]
    assert [os.path.basename(r["_path"]) for r in traced] == ["ghost-svcp-np2-rep1.json"]


def test_a_malformed_run_is_left_out_with_one_warning(folder, capsys):
    with open(os.path.join(folder, "ghost-bspma-np1-rep1.json")) as f:
        run = json.load(f)
    run["ranks"] = "two"
    with open(os.path.join(folder, "ghost-bspma-np1-rep1.json"), "w") as f:
        json.dump(run, f)
    names = [os.path.basename(r["_path"]) for r in report_points.load_runs(folder)]
    assert "ghost-bspma-np1-rep1.json" not in names and len(names) == 5
    warning = capsys.readouterr().err.strip().splitlines()
    assert len(warning) == 1 and "'ranks' is not a positive integer" in warning[0]


def test_repetitions_of_one_configuration_are_one_point(folder):
    proxies = report_points.group(report_points.load_runs(folder))
    assert sorted(proxies) == ["amp-ghost", "amp-sage"]
    points = {(p.label, p.ranks): p for p in proxies["amp-ghost"]}
    assert sorted(points) == [("bspma", 1), ("bspma", 2), ("svcp", 1), ("svcp", 2)]
    assert len(points[("bspma", 2)].runs) == 2 and len(points[("svcp", 2)].runs) == 1
    bspma = points[("bspma", 2)]
    assert bspma.median_run()["timing"]["per_step_seconds"] == min(
        r["timing"]["per_step_seconds"] for r in bspma.runs)  # the lower of the middle two


def test_the_table_has_a_row_per_point_with_median_and_spread(folder):
    rows = report_index.table_rows(report_points.group(report_points.load_runs(folder)))
    assert len(rows) == 5
    bspma = next(r for r in rows if r["proxy"] == "amp-ghost" and r["point"] == "bspma" and r["ranks"] == 2)
    assert bspma["repetitions"] == 2 and bspma["verified"] and bspma["checksums"] == 1
    assert bspma["min_ms"] <= bspma["median_ms"] <= bspma["max_ms"]
    assert bspma["min_ms"] == pytest.approx(11.98167375) and bspma["max_ms"] == pytest.approx(13.9805645)


def test_version_1_results_holding_strategy_beside_its_older_key_label_each_point_once(folder):
    # Version-1 results of a later proxy wrote config.strategy with the older key beside it (the fixtures: alone).
    for name in os.listdir(folder):
        if name.endswith(".json") and not name.endswith(".trace-stats.json"):
            path = os.path.join(folder, name)
            with open(path) as f:
                run = json.load(f)
            run["config"]["strategy"] = run["config"][results.OLD_STRATEGY]
            with open(path, "w") as f:
                json.dump(run, f)
    proxies = report_points.group(report_points.load_runs(folder))
    assert sorted((p.label, p.strategy, p.within, p.ranks) for p in proxies["amp-ghost"]) == [
        ("bspma", "bspma", "", 1), ("bspma", "bspma", "", 2), ("svcp", "svcp", "", 1), ("svcp", "svcp", "", 2)]
    title = report_points.common_title("amp-sage", proxies["amp-sage"])
    assert title.count("strategy=") == 1 and results.OLD_STRATEGY not in title


def test_the_swap_speed_up_is_one_simulators_two_predictions():
    from amp_tools import report_validation

    def row(simulator, network, seconds, ranks=256):  # report_simulation.load()'s shape
        return ("amp-ghost", "svaf/isend", ranks, network, simulator, 1,
                {"network": network, "simulator": simulator, "predicted_seconds": seconds}, None, None)
    rows = [row("simgrid", "xt6-seastar", 4.0), row("simgrid", "xe6-gemini", 2.0),
            row("sstmac", "xt6-seastar", 3.0), row("sstmac", "xe6-gemini", 1.0),
            row("sstmac", "xt6-seastar", 9.0, 1024)]  # no XE6 point at 1024: no speed-up
    widths = row("sstmac", "xe6-gemini", 0.5)  # a variant (--set) is not the file's machine
    widths[6]["network_overrides"] = {"dimension_bandwidth": [9.4e9, 4.7e9, 9.4e9]}
    rows.append(widths)
    assert report_validation.swap_speedups(rows) == {((256, "simgrid"), "amp-ghost", "svaf"): 2.0,
                                                     ((256, "sstmac"), "amp-ghost", "svaf"): 3.0}


def test_the_table3_figure_takes_one_strategy_from_two_simulators():
    from amp_tools import report_validation
    profile = {"compute": 0.3, "p2p": 0.5, "collective": 0.2}

    def row(simulator, network="xt5-seastar"):
        return ("amp-ghost", "svaf/isend", 256, network, simulator, 1,
                {"network": network, "simulator": simulator, "predicted_seconds": 1.0, "profile": profile},
                None, None)
    # Table III was measured on the XT5: simulations on the XT6 are not set beside it.
    fig = report_validation.table3_figure([row("simgrid"), row("sstmac"), row("sstmac", "xt6-seastar")])
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["CTH\nTable III", "AMP ghost\nsvaf\nSimGrid", "AMP ghost\nsvaf\nSST-macro"]
    # Two points of one strategy and simulator (a calibration's values) are drawn, not compared as dicts.
    other = row("sstmac")
    other[6]["profile"] = {"compute": 0.6, "p2p": 0.3, "collective": 0.1}
    fig = report_validation.table3_figure([row("sstmac"), other])
    assert len(fig.axes[0].get_xticklabels()) == 3


def test_the_routing_figure_divides_only_by_a_baseline_it_has():
    """Panel (c), per-NIC bandwidth at four ranks per NIC over one, is the node links' mean utilization of four
    ranks per NIC on the one-per-NIC point's NICs (4x its ranks) over that point's: not 1024 ranks at four per
    NIC (other NICs, in one group), and nothing for a folder of four per NIC alone; panel (d) is T(all global
    links) / T(half) at the baseline's ranks."""
    from amp_tools import report_validation

    def row(routing, rpn, links, seconds, ranks=1024, node=0.2):
        overrides = {"routing": routing, "ranks_per_node": rpn, "global_links_per_pair": links}
        return ("amp-ghost", "bspma/isend", ranks, "cascade-dragonfly", "sstmac", 1,
                {"network": "cascade-dragonfly", "simulator": "sstmac", "predicted_seconds": seconds, "ranks": ranks,
                 "network_overrides": overrides, "hops": {"mean_per_byte": 1.0},
                 "links": {"node": {"mean_utilization": node}}}, None, None)

    def amp_bars(fig, panel):
        return [round(bar.get_height(), 9) for bars in fig.axes[panel].containers
                if bars.get_label().startswith("AMP") for bar in bars]
    both = [row("valiant", 1, 192, 1.0), row("valiant", 4, 192, 2.0, ranks=4096, node=0.38),
            row("valiant", 4, 192, 3.0, node=0.5), row("valiant", 1, 96, 1.25)]
    fig = report_validation.aces_figure(both)
    assert amp_bars(fig, 2) == [1.9] and amp_bars(fig, 3) == [0.8]
    fig = report_validation.aces_figure([row("valiant", 4, 192, 2.0), row("valiant", 4, 96, 2.5)])
    assert amp_bars(fig, 2) == [] and amp_bars(fig, 3) == [0.8]
