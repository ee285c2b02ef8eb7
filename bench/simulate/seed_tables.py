#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The tables of docs/VALIDATION.md sections 1-3, printed from a study folder's simulations.

  bench/simulate/seed_tables.py profile runs/cielo-profile-<stamp>
  bench/simulate/seed_tables.py swap runs/cielo-network-swap-<stamp>
  bench/simulate/seed_tables.py aces runs/aces-routing-<stamp>
(with the report's Python and matplotlib: /usr/bin/python3 on Debian). It reads the folder as `./amp
report` does (report_simulation.load) and groups the routing study's variants as its figure does.

Where the study made one-step companions (steady_state) every time is a steady step's (steps 2..K).
profile: per proxy, strategy and simulator, the steady profile (compute / point-to-point / collectives,
percent), the time per step and the set-up, the point-to-point messages per minute per rank (over the
simulated time) and their mean size, and the replays' wall time.
swap: per proxy, cut, rank count and simulator, the predicted time per step on xt6-seastar and on
xe6-gemini (the files' own machines) and the speed-up, with the replays' wall time; a Gemini with its two
link widths (--set dimension_bandwidth, SST-macro) where one was simulated; a time marked (FIFO) came from
SST-macro's FIFO NIC queue, its round-robin replay having stopped short (docs/TRACING.md section 14).
aces: per cut, ranks per NIC and global links per pair, minimal's time and valiant's and UGAL's (median
[min - max] over seeds), their mean hops per byte, the busiest variant's mean utilization of the global and
node links, and SST-macro's start-up left out.
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from amp_tools import report_simulation, report_validation  # noqa: E402  (the report's reading and grouping)
from amp_tools import steady_state  # noqa: E402

ORDER = {"ghost": 0, "sage": 1, "nobel": 2}


def per_step(sim, steps):
    """A steady step's seconds where the point has its one-step companion, else the run's mean step."""
    return sim["steady"]["per_step_seconds"] if sim.get("steady") else sim["predicted_seconds"] / steps


def profile(folder):
    print("| proxy | strategy | simulator | compute | p2p (MPI) | collective (MPI_SYNC) | per step | set-up | "
          "messages per minute per rank | mean message | replays (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rows = [r for r in report_simulation.load(folder) if r[6]["network"] == "xt6-seastar" and r[6].get("steady")]
    for proxy, label, ranks, _, simulator, steps, sim, _, _ in sorted(
            rows, key=lambda r: (ORDER[r[0].replace("amp-", "")], r[1], r[4])):
        state, p = sim["steady"], steady_state.profile_of(sim)
        shares = " | ".join(f"{100 * p[k]:.1f}" for k in ("compute", "p2p", "collective")) if p else "- | - | -"
        rate = state["messages_per_step"] / ranks / state["per_step_seconds"] * 60
        size = state["bytes_per_step"] / max(1.0, state["messages_per_step"])
        wall = sim["simulation_wall_seconds"]
        print(f"| {proxy.replace('amp-', '')} | {report_validation.cut_of(label)} | {simulator} | {shares} | "
              f"{state['per_step_seconds'] * 1e3:.2f} ms | {state['setup_seconds'] * 1e3:.2f} ms | {rate:,.0f} | "
              f"{size:,.0f} B | {wall:.0f} |")


def swap(folder):
    rows = {}
    for proxy, label, ranks, _, simulator, steps, sim, _, _ in report_simulation.load(folder):
        widths = sim.get("network_overrides", {}).get("dimension_bandwidth")
        machine = "xe6-gemini two widths" if widths else sim["network"]
        if sim.get("network_overrides") and not widths:
            continue
        key = (proxy.replace("amp-", ""), report_validation.cut_of(label), ranks, simulator)
        fifo = sim.get("simulated_network", {}).get("injection_queue") == "fifo"
        rows.setdefault(key, {})[machine] = (per_step(sim, steps), sim["simulation_wall_seconds"], fifo)
    print("| proxy | cut | ranks | simulator | XT6 (ms per step) | XE6 (ms per step) | speed-up | replays (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for (proxy, cut, ranks, simulator), got in sorted(rows.items(), key=lambda kv: (ORDER[kv[0][0]], kv[0][2], kv[0][1], kv[0][3])):
        if "xt6-seastar" not in got or "xe6-gemini" not in got:
            continue
        xt6, xe6 = got["xt6-seastar"][0], got["xe6-gemini"][0]
        walls = [w for _, w, _ in got.values()]
        mark = lambda machine: " (FIFO)" if got[machine][2] else ""  # noqa: E731
        extra = ""
        if "xe6-gemini two widths" in got:
            two = got["xe6-gemini two widths"][0]
            extra = f" (two widths: {two * 1e3:.3f} ms{mark('xe6-gemini two widths')}, {xt6 / two:.2f}x)"
        print(f"| {proxy} | {cut} | {ranks} | {simulator} | {xt6 * 1e3:.3f}{mark('xt6-seastar')} | "
              f"{xe6 * 1e3:.3f}{mark('xe6-gemini')}{extra} | {xt6 / xe6:.2f}x | {min(walls):.0f}-{max(walls):.0f} |")


def aces(folder):
    variants = {}  # (cut, ranks per NIC, global links per pair): {routing: [simulation, one per seed]}
    for cut, runs in report_validation.aces_runs(report_simulation.load(folder)).items():
        for (routing, rpn, links), sims in runs.items():
            variants.setdefault((cut, rpn, links), {})[routing] = sims
    print("| cut | ranks per NIC | global links per pair | minimal (ms) | valiant (ms) | UGAL (ms) | hops min / val / UGAL "
          "| max global, node link utilization | start-up (us) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (cut, rpn, links), by_routing in sorted(variants.items(), key=lambda kv: (kv[0][0], kv[0][1], -kv[0][2])):
        def ms(routing):  # a variant SST-macro did not finish has no prediction
            t = [steady_state.time_of(s) * 1e3 for s in by_routing.get(routing, [])]
            if not t:
                return "none"
            return f"{t[0]:.3f}" if len(t) == 1 else f"{statistics.median(t):.3f} [{min(t):.3f} - {max(t):.3f}]"
        hops = " / ".join(f"{statistics.median(s['hops']['mean_per_byte'] for s in by_routing[r]):.2f}"
                          if r in by_routing else "-" for r in ("minimal", "valiant", "ugal"))
        every = [s for r in by_routing.values() for s in r]
        use = lambda cls: max(s["links"].get(cls, {}).get("mean_utilization", 0.0) for s in every)  # noqa: E731
        start = [s["sstmac_startup_seconds"] * 1e6 for s in every]
        print(f"| {cut} | {rpn} | {links} | {ms('minimal')} | {ms('valiant')} | {ms('ugal')} | {hops} | "
              f"{use('global') * 100:.1f} %, {use('node') * 100:.1f} % | {min(start):.0f}-{max(start):.0f} |")


if __name__ == "__main__":
    {"profile": profile, "swap": swap, "aces": aces}[sys.argv[1]](sys.argv[2])
