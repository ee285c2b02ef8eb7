# SPDX-License-Identifier: BSD-3-Clause
"""Every panel of the report holds data or says in words why it has none: `./amp run`'s
one-node machine (this-machine.toml: every byte stays inside the node) gets a line of text in its NIC,
link-load and hops panels, not empty axes; a machine of several nodes gets its plots."""
import json
import os
import shutil

import pytest

report = pytest.importorskip("amp_tools.report", reason="matplotlib is not installed for this python")
from amp_tools import network_metrics, report_network, report_points, report_simulation  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def simulation(network, ranks, figures):
    return {"network": network, "simulator": "simgrid", "ranks": ranks, "predicted_seconds": 0.01,
            "measured_seconds": 0.012, "network_overrides": {}, **figures}


def one_node():
    """What simulate writes for a flat machine of one node: its one link unloaded, no byte injected."""
    figures = network_metrics.network_figures([("host0", "node", 0, 1e10)], [0], [0], 0.01, [0], 1.0)
    figures["nics"]["intra_node_bytes"] = 81920
    return simulation("this-machine", 2, figures)


def two_nodes():
    figures = network_metrics.network_figures([("l0", "x", 4096, 1e10), ("l1", "x", 0, 1e10)], [4096, 2048], [2, 1],
                                              0.01, [4096, 2048], 1.0)
    return simulation("torus-4x4x4", 2, figures)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("panels") / "runs"
    shutil.copytree(os.path.join(ROOT, "tests", "driver", "fixtures", "report"), out)
    trace = out / "ghost-svcp-np2-rep1.trace"
    trace.mkdir()
    for name, sim in (("this-machine-0123abcd", one_node()), ("torus-4x4x4-4567cdef", two_nodes())):
        (trace / f"simulation-{name}-simgrid.json").write_text(json.dumps(sim))
    return str(out)


def holds_data(ax):
    """Whether a panel draws something other than nothing at zero: an image, or marks whose values are not
    all 0 (a single NIC at (0, 0) on axes from -0.045 to 0.045 is the empty panel this guards against)."""
    if ax.images:
        return True
    drawn = ax.lines or ax.patches or ax.collections
    box = ax.dataLim
    return bool(drawn) and box.height >= 0 and (box.y0 != 0 or box.y1 != 0)


def says_why(ax):
    return [t.get_text() for t in ax.texts if t.get_gid() == report_network.NOTHING_TO_DRAW]


@pytest.fixture(scope="module")
def panels(folder):
    """{(figure file name, panel title): panel} of every visible panel of every figure of the report."""
    proxies = report_points.group(report_points.load_runs(folder))
    out = {}
    for name, _, fig in report.all_figures(proxies, report_simulation.load(folder)):
        for i, ax in enumerate(fig.axes):
            if ax.get_visible() and not ax.get_label() == "<colorbar>":
                out[(name, ax.get_title() or str(i))] = ax
    yield out
    plt.close("all")


def test_every_panel_holds_data_or_says_why_not(panels):
    assert any(name == "ghost-nic-injection.png" for name, _ in panels)
    for (name, title), ax in panels.items():
        assert holds_data(ax) or says_why(ax), f"{name}: panel '{title}' is empty and says nothing"


def test_one_node_says_its_traffic_stayed_inside(panels):
    for kind in ("nic-injection", "link-load", "hops"):
        one = panels[(f"ghost-{kind}.png", "this-machine (simgrid), 2 ranks")]
        assert says_why(one) == ["one node: all traffic stayed inside it\n(81,920 bytes between its ranks)"]
        several = panels[(f"ghost-{kind}.png", "torus-4x4x4 (simgrid), 2 ranks")]
        assert holds_data(several) and not says_why(several)


def test_nodes_that_sent_nothing_say_so():
    sim = two_nodes()
    sim["nics"]["per_nic_bytes"] = [0, 0]
    said = report_network.idle_network({"svcp/isend": (sim, None)})
    assert said == "no message left its node: no NIC injected a byte"


def test_a_synthesized_point_without_a_simulated_profile_says_so():
    sim = two_nodes()  # no `profile`: SimGrid gives none beyond its action limit
    row = ("amp-ghost", "svaf/isend", 2, "torus-4x4x4", "simgrid", 1, sim, True, {"mode": "synthesis"})
    fig = report_network.profile_figure("amp-ghost", report_network.points([row]))
    try:
        assert says_why(fig.axes[0]) == ["simgrid: no simulated per-rank profile,\nand no measured run beside it"]
    finally:
        plt.close(fig)
