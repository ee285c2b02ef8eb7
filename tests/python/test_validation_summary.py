# SPDX-License-Identifier: BSD-3-Clause
"""amp_tools.validation_summary's pure parts: what a point keeps of its simulation, and the swap and routing
tables' rows from hand-made points (the profile table and the summary of a real study folder are tested by
simulate_validation_summary_of_a_study)."""
from amp_tools import validation_summary as vs


def sim(**extra):
    base = {"simulator": "sstmac", "simulator_version": "16.0", "network": "cascade-dragonfly", "ranks": 4,
            "predicted_seconds": 2e-3, "messages": 40, "bytes": 4000, "simulation_wall_seconds": 3.2,
            "trace": "/r/ghost-rt-bspma-synth4.trace"}
    return {**base, **extra}


def point(strategy, routing, seed, seconds, rpn=1, links=192, hops=1.0, use=(0.1, 0.2), start=12e-6, **extra):
    made = vs.point_of({}, {}, "amp-ghost", f"{strategy}/isend", 1, sim(
        predicted_seconds=seconds, network_parameters={"routing": "minimal", "ranks_per_node": 1,
                                                       "global_links_per_pair": 192},
        network_overrides={"routing": routing, "seed": seed, "ranks_per_node": rpn, "global_links_per_pair": links},
        hops={"mean_per_byte": hops},
        links={"global": {"mean_utilization": use[0]}, "node": {"mean_utilization": use[1]}},
        sstmac_startup_seconds=start, **extra), True, {"config": {"nx": 8, "ny": 8, "nz": 8, "num_vars": 2}})
    return made


def test_a_point_keeps_its_variant_hops_links_and_start_up():
    p = point("bspma", "valiant", 2, 3e-3, rpn=4, links=96, hops=1.5, use=(0.05, 0.4), start=11e-6)
    assert (p["id"], p["proxy"], p["strategy"], p["transport"]) == ("ghost-rt-bspma-synth4", "ghost", "bspma", "isend")
    assert (p["routing"], p["seed"], p["ranks_per_node"], p["global_links_per_pair"]) == ("valiant", 2, 4, 96)
    assert p["hops_mean_per_byte"] == 1.5 and p["link_utilization"] == {"global": 0.05, "node": 0.4}
    assert p["sstmac_startup_seconds"] == 11e-6 and p["steady"] is False and p["per_step_seconds"] == 3e-3
    assert p["messages_per_step"] == 40 and p["mean_message_bytes"] == 100 and p["block"] == [8, 8, 8]


def test_the_routing_rows_give_medians_over_seeds_hops_and_the_busiest_links():
    points = [point("bspma", "minimal", None, 1e-4, hops=0.8, use=(0.02, 0.3), start=13e-6),
              point("bspma", "valiant", 1, 1.2e-4, hops=1.6, use=(0.05, 0.4), start=14e-6),
              point("bspma", "valiant", 2, 1.1e-4, hops=1.7, use=(0.04, 0.41), start=16e-6),
              point("bspma", "ugal", 1, 0.9e-4, hops=0.9, use=(0.03, 0.35), start=15e-6),
              point("bspma", "minimal", None, 2e-4, rpn=4, hops=0.7),
              point("bspma", "minimal", None, 1e-4, links=96, hops=0.8),
              point("bspma", "valiant", 1, 5e-4, rpn=4, hops=1.5, ranks=16)]  # more ranks: a row of its own
    rows = vs.aces_rows({"points": points})
    assert rows[0] == vs.ACES_HEADER
    assert rows[2:] == [
        "| bspma | 4 | 1 | 192 | 0.100 | 0.115 [0.110 - 0.120] | 0.090 | 0.80 / 1.65 / 0.90 | 5.0 %, 41.0 % | 13-16 |",
        "| bspma | 4 | 1 | 96 | 0.100 | none | none | 0.80 / - / - | 10.0 %, 20.0 % | 12-12 |",
        "| bspma | 4 | 4 | 192 | 0.200 | none | none | 0.70 / - / - | 10.0 %, 20.0 % | 12-12 |",
        "| bspma | 16 | 4 | 192 | none | 0.500 | none | - / 1.50 / - | 10.0 %, 20.0 % | 12-12 |"]


def test_the_swap_rows_give_both_machines_the_speed_up_and_the_fifo_mark():
    def on(network, seconds, fifo=False, **extra):
        return vs.point_of({}, {}, "amp-nobel", "svcp/isend", 1, sim(
            network=network, predicted_seconds=seconds, ranks=256, simulation_wall_seconds=10,
            simulated_network={"injection_queue": "fifo" if fifo else "round_robin"}, **extra), True, {"config": {}})
    points = [on("xt6-seastar", 0.12), on("xe6-gemini", 0.1, fifo=True),
              on("xe6-gemini", 0.08, network_overrides={"dimension_bandwidth": [1, 2, 3]}),
              on("xe6-gemini", 0.01, network_overrides={"seed": 3})]  # another variant: not in the table
    assert vs.swap_rows({"points": points})[2:] == [
        "| nobel | svcp | 256 | sstmac | 120.000 | 100.000 (FIFO) (two widths: 80.000 ms, 1.50x) | 1.20x | 10-10 |"]


def test_the_scaling_rows_give_each_machines_steps_over_its_fewest_ranks():
    def on(network, ranks, seconds, steady=True):
        state = {"per_step_seconds": seconds, "setup_seconds": 0.5, "messages_per_step": 10, "bytes_per_step": 100,
                 "profile": {"compute": 0.5, "p2p": 0.25, "collective": 0.25}}
        return vs.point_of({}, {}, "amp-ghost", "bspma/isend", 3, sim(
            network=network, ranks=ranks, simulation_wall_seconds=7, steady=state if steady else None,
            profile={"compute": 0.9, "p2p": 0.05, "collective": 0.05}), True, {"config": {}})
    points = [on("xe6-gemini", 32, 0.2), on("xt6-seastar", 128, 0.3), on("xt6-seastar", 16, 0.2),
              on("xt6-seastar", 64, 9.0, steady=False)]  # no steady step: not in the table
    rows = vs.scaling_rows({"points": points})
    assert rows[0] == vs.SCALING_HEADER and rows[2:] == [
        "| ghost | bspma | xe6-gemini | 32 | 200.00 | 1.000 | 50.0 | 25.0 | 7 |",
        "| ghost | bspma | xt6-seastar | 16 | 200.00 | 1.000 | 50.0 | 25.0 | 7 |",
        "| ghost | bspma | xt6-seastar | 128 | 300.00 | 1.500 | 50.0 | 25.0 | 7 |"]


def test_the_points_rows_say_which_steps_each_profile_covers():
    def run(point_id, steady, queue):
        state = {"per_step_seconds": 0.1, "setup_seconds": 0.0, "messages_per_step": 1, "bytes_per_step": 1,
                 "profile": {"compute": 0.25, "p2p": 0.25, "collective": 0.5}} if steady else None
        made = {point_id.rsplit("-synth", 1)[0]: {"deck": "d.toml", "flags": "--rebalance_interval 2"}}
        return vs.point_of(made, {}, "amp-nobel", "svcp/isend", 20, sim(
            network="xt5-seastar", trace=f"/r/{point_id}.trace", steady=state, predicted_seconds=4.0,
            profile={"compute": 0.4, "p2p": 0.1, "collective": 0.5},
            simulated_network={"injection_queue": queue}), True, {"config": {}})
    rows = vs.points_rows({"points": [run("nobel-a-svcp-synth256", True, "round_robin"),
                                      run("nobel-b-svcp-synth256", False, "fifo")]})
    assert rows[0] == vs.POINTS_HEADER and rows[2:] == [
        "| nobel-a-svcp-synth256 | --rebalance_interval 2 | xt5-seastar | steps 2-20 | 25.0 | 25.0 | 50.0 | "
        "100.00 ms | round_robin |",
        "| nobel-b-svcp-synth256 | --rebalance_interval 2 | xt5-seastar | steps 1-20 | 40.0 | 10.0 | 50.0 | "
        "200.00 ms | fifo |"]
