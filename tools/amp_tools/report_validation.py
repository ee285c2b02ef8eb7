# SPDX-License-Identifier: BSD-3-Clause
"""The report's published-against-AMP figures (docs/VALIDATION.md), one per seed experiment whose network
the folder's simulations used (rows from report_simulation.load()):
- validation-table3.png (simulations on xt5-seastar, the machine Table III was measured on, at 256 ranks): the
  simulated compute / MPI / MPI_SYNC
  profile of each proxy and strategy beside 001 Table III's for its application;
- validation-network-swap.png (on xt6-seastar and xe6-gemini): each proxy's and strategy's speed-up from SeaStar
  to Gemini, predicted(XT6) / predicted(XE6) by one simulator, per rank count and simulator, under what 001
  says of its application;
- validation-aces-routing.png (on cascade-dragonfly): throughput of valiant and UGAL relative to minimal
  beside 000's trace-based figures, the mean hops per byte beside 000's, and the effect of 4 ranks per NIC and of half
  the global links (median over seeds, min-max bars).
The published values are typed in below with their sources; nothing of AMP's is fitted to them.
"""
import statistics

TABLE3_NETWORK = "xt5-seastar"  # 001 Table III: "AS MEASURED ON XT5 FOR 256 CORE RUN"

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from amp_tools import simulators as registry  # noqa: E402  (the simulators by name)
from amp_tools.steady_state import profile_of, time_of  # noqa: E402

# 001 Table III: percent of time in compute, MPI (without sync) and MPI_SYNC, XT5, 256 cores.
TABLE_III = {"amp-ghost": ("CTH", (52.2, 38.4, 9.5)), "amp-sage": ("SAGE", (84.3, 11.8, 3.9)),
             "amp-nobel": ("xNOBEL", (33.3, 22.8, 44.0))}
# 001 section IV: what the XT6 -> XE6 network change did to each application (Figures 8-10 give no numbers).
SWAP_PUBLISHED = {"amp-ghost": "CTH: gains at 128+ cores\n(Gemini addressed contention)",
                  "amp-sage": "SAGE: little improvement", "amp-nobel": "xNOBEL: large gain\n(message rate)"}
# 000 section IV, trace-based CTH (not Table 1, its synthetic generator), each as [value] or [low, high]:
# throughput over minimal routing: non-minimal completed 8 timesteps where minimal completed 4 in 20 million
# cycles, and adaptive was "between 10 and 15%" better than non-minimal.
TRACES_000 = {"minimal": [1.0], "valiant": [2.0], "ugal": [2.0 * 1.10, 2.0 * 1.15]}
HOPS_000 = {"valiant": [3.44], "ugal": [3.21]}  # average hop count, non-minimal and adaptive
FOUR_PER_NIC_000 = [1.9]                        # per-NIC bandwidth, 4 traces per NIC over 1 (non-minimal)
HALF_GLOBAL_000 = [1.0]                         # "no degradation in performance with 50%" of the global links
ROUTINGS = ("minimal", "valiant", "ugal")
PROFILE_PARTS = (("compute", "compute"), ("MPI (p2p)", "p2p"), ("MPI_SYNC (collective)", "collective"))


def strategy_of(label):
    return label.split("/")[0]


def table3_figure(rows):
    """Stacked bars per proxy: Table III's profile, then AMP's per strategy (where SimGrid gave a profile)."""
    bars = []  # (proxy, name, fractions in percent)
    for proxy in TABLE_III:
        app, published = TABLE_III[proxy]
        mine = sorted((((strategy_of(r[1]), r[4]), profile_of(r[6])) for r in rows
                       if r[0] == proxy and r[6]["network"] == TABLE3_NETWORK and r[2] == 256 and profile_of(r[6])
                       and profile_of(r[6]).get("p2p") is not None and not r[6].get("network_overrides")),
                      key=lambda point: point[0])  # two points of one strategy (two decks' values) keep their order
        if not mine:
            continue
        simulators = {simulator for (_, simulator), _ in mine}
        bars.append((proxy, f"{app}\nTable III", published))
        bars += [(proxy, f"AMP {proxy.replace('amp-', '')}\n{strategy}"
                         + (f"\n{registry.title(simulator)}" if len(simulators) > 1 else ""),
                  tuple(100 * profile[key] for _, key in PROFILE_PARTS))
                 for (strategy, simulator), profile in mine]
    if not bars:
        return None
    fig, ax = plt.subplots(figsize=(max(8.0, 1.0 * len(bars)), 4.8))
    bottoms = [0.0] * len(bars)
    for i, (part, _) in enumerate(PROFILE_PARTS):
        values = [b[2][i] for b in bars]
        ax.bar(range(len(bars)), values, 0.7, bottom=bottoms, color=f"C{i}", label=part,
               edgecolor=["black" if "Table" in b[1] else "none" for b in bars])
        bottoms = [b + v for b, v in zip(bottoms, values)]
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([b[1] for b in bars], fontsize=7)
    ax.set_ylabel("percent of run time")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    on_seastar = [r for r in rows if r[6]["network"] == TABLE3_NETWORK]
    simulated_by = " and ".join(sorted({registry.title(r[4]) for r in on_seastar}))
    steady = ("steady steps 2..K, set-up apart" if all(r[6].get("steady") for r in on_seastar if r[2] == 256)
              else "whole runs, set-up included")
    ax.set_title("Profile at 256 ranks: 001 Table III (XT5, the applications; outlined) beside AMP's\n"
                 f"proxies simulated in {simulated_by} on {TABLE3_NETWORK} ({steady}; mean over ranks;\nMPI = "
                 "point-to-point with waits, MPI_SYNC = collectives)", fontsize=9)
    fig.tight_layout()
    return fig


def swap_speedups(rows):
    """{((ranks, simulator), proxy, strategy): predicted(XT6) / predicted(XE6)}, each of one simulator's two
    predictions of one trace."""
    predicted = {}
    for proxy, label, ranks, _, simulator, _, sim, _, _ in rows:
        if sim["network"] in ("xt6-seastar", "xe6-gemini") and not sim.get("network_overrides"):  # the files' own
            key = ((ranks, simulator), proxy, strategy_of(label))
            predicted.setdefault(key, {})[sim["network"]] = time_of(sim)
    return {k: v["xt6-seastar"] / v["xe6-gemini"] for k, v in predicted.items() if len(v) == 2}


def swap_figure(rows):
    """Speed-up XT6 -> XE6 per proxy and strategy, one panel per rank count and simulator."""
    speedups = swap_speedups(rows)
    if not speedups:
        return None
    panels = sorted({k[0] for k in speedups})
    proxies = [p for p in TABLE_III if any(k[1] == p for k in speedups)]
    strategies = sorted({k[2] for k in speedups})
    fig, axes = plt.subplots(1, len(panels), figsize=(max(8.0, 6.2 * len(panels)), 4.6), squeeze=False)
    width = 0.8 / len(strategies)
    for ax, panel in zip(axes[0], panels):
        for i, strategy in enumerate(strategies):
            xs = [x + (i - (len(strategies) - 1) / 2) * width for x, p in enumerate(proxies)
                  if (panel, p, strategy) in speedups]
            ys = [speedups[(panel, p, strategy)] for p in proxies if (panel, p, strategy) in speedups]
            if ys:
                ax.bar(xs, ys, width * 0.9, color=f"C{i}", label=f"AMP {strategy}")
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(len(proxies)))
        ax.set_xticklabels([f"{p}\n001: {SWAP_PUBLISHED[p]}" for p in proxies], fontsize=7)
        ax.set_ylabel("speed-up, predicted XT6 / predicted XE6")
        ax.set_title(f"{panel[0]} ranks (16 per node), {registry.title(panel[1])}", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("SeaStar (XT6) to Gemini (XE6), the same node:\nAMP's predicted speed-up beside what 001 "
                 "section IV reports", fontsize=10)
    fig.tight_layout()
    return fig


def aces_runs(rows):
    """{strategy: {(routing, ranks, ranks_per_node, global_links_per_pair): [simulation, one per seed]}} on the
    dragonfly."""
    out = {}
    for _, label, _, _, _, _, sim, _, _ in rows:
        if sim["network"] != "cascade-dragonfly":
            continue
        o = {**(sim.get("network_parameters") or {}), **(sim.get("network_overrides") or {})}
        key = (o.get("routing"), sim["ranks"], o.get("ranks_per_node"), o.get("global_links_per_pair"))
        out.setdefault(strategy_of(label), {}).setdefault(key, []).append(sim)
    return out


def spread_bars(ax, points, width, color, label):
    """Bars at the median of each point's values, min-max error bars; points: [(x, values)], empty ones left out."""
    points = [(x, values) for x, values in points if values]
    if not points:
        return
    medians = [statistics.median(values) for _, values in points]
    ax.bar([x for x, _ in points], medians, width * 0.9, capsize=3, color=color, label=label,
           yerr=[[m - min(v) for m, (_, v) in zip(medians, points)],
                 [max(v) - m for m, (_, v) in zip(medians, points)]])


def aces_figure(rows):
    runs = aces_runs(rows)
    if not runs:
        return None
    strategies = sorted(runs)
    base_rpn = min(k[2] for c in runs.values() for k in c)
    full = max(k[3] for c in runs.values() for k in c)
    base_ranks = min(k[1] for c in runs.values() for k in c if k[2] == base_rpn)
    fig, axes = plt.subplots(1, 4, figsize=(19, 4.6))
    width = 0.8 / (len(strategies) + 1)

    def runs_of(strategy, routing, ranks=base_ranks, rpn=base_rpn, links=full):
        return runs[strategy].get((routing, ranks, rpn, links), [])

    def times(strategy, routing, **variant):
        return [time_of(s) for s in runs_of(strategy, routing, **variant)]

    def half_links(strategy, routing):
        """The baseline's median time / each seed's time with half the global links (none without both)."""
        base = times(strategy, routing)
        return [statistics.median(base) / t for t in times(strategy, routing, links=full // 2)] if base else []

    def node_links(sims):
        return [s["links"]["node"]["mean_utilization"] for s in sims
                if isinstance(((s.get("links") or {}).get("node") or {}).get("mean_utilization"), (int, float))]

    def four_per_nic(strategy, routing):
        """Per-NIC bandwidth (the node links' mean utilization) of four ranks per NIC on the baseline's NICs
        (4x its ranks) over the baseline's; none where the folder lacks either (four per NIC alone, or at other
        NICs, as 1024 ranks in one group)."""
        if base_rpn != 1:
            return []
        base = node_links(runs_of(strategy, routing))
        loaded = node_links(runs_of(strategy, routing, ranks=4 * base_ranks, rpn=4))
        return [u / statistics.median(base) for u in loaded] if base and statistics.median(base) > 0 else []

    def hops(strategy, routing):
        return [s["hops"]["mean_per_byte"] for s in runs_of(strategy, routing)
                if (s.get("hops") or {}).get("mean_per_byte") is not None]

    def minimal_over(strategy, routing):
        minimal = times(strategy, "minimal")
        return [statistics.median(minimal) / t for t in times(strategy, routing)] if minimal else []

    panels = (
        (f"(a) routing, {base_rpn} rank per NIC, all global links", "throughput relative to minimal routing",
         minimal_over, TRACES_000, "000 (trace-based CTH)"),
        ("(b) hops", "mean hops (AMP: router-to-router links per byte)", hops, HOPS_000, "000 (trace-based CTH)"),
        ("(c) 4 ranks per NIC: per-NIC bandwidth over 1 per NIC", "ratio", four_per_nic,
         {"valiant": FOUR_PER_NIC_000}, "000 Fig. 7 (4 traces per NIC, non-minimal)"),
        ("(d) half the global links: throughput over all", "ratio", half_links,
         dict.fromkeys(ROUTINGS, HALF_GLOBAL_000), "000 (50 % of the global links)"))
    for ax, (title, ylabel, values, published, source) in zip(axes, panels):
        spread_bars(ax,
                    [(x - 0.4 + width / 2, published.get(r, [])) for x, r in enumerate(ROUTINGS)],
                    width, "grey", source)
        for i, strategy in enumerate(strategies):
            spread_bars(ax, [(x - 0.4 + width * (i + 1.5), values(strategy, r)) for x, r in enumerate(ROUTINGS)],
                        width, f"C{i}", f"AMP {strategy}")
        if values is not hops:
            ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks(range(3))
        ax.set_xticklabels(["minimal", "valiant\n(non-minimal)", "ugal\n(adaptive)"], fontsize=8)
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    ranks = " / ".join(str(n) for n in sorted({s["ranks"] for c in runs.values() for v in c.values() for s in v}))
    fig.suptitle(f"ACES-INP routing study on cascade-dragonfly ({ranks} ranks, zero compute): AMP beside 000 "
                 "(grey; bars: median over seeds, min-max; 000's range where it gives one)", fontsize=10)
    fig.tight_layout()
    return fig


def figures(rows):
    """(file name, title, figure) for each seed experiment the simulations cover, each drawn when asked for."""
    for name, title, draw in (
            ("validation-table3.png", "Profile at 256 ranks beside 001 Table III", table3_figure),
            ("validation-network-swap.png", "SeaStar to Gemini speed-up beside 001", swap_figure),
            ("validation-aces-routing.png", "Routing on the Cascade dragonfly beside 000", aces_figure)):
        fig = draw(rows)
        if fig is not None:
            yield name, title, fig
