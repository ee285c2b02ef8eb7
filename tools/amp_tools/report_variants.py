# SPDX-License-Identifier: BSD-3-Clause
"""The report's figure of network variants (<proxy>-variants.png), for a study whose [simulate] table varies
its networks (vary, replicates): the predicted time per step of each strategy for each variant of a network
file, a bar at the median and a min-max bar over the seeds of a randomized routing and the repetitions;
one panel per network file, simulator and rank count. Rows come from report_simulation.load().
"""
import statistics

import matplotlib

matplotlib.use("Agg")
from amp_tools import networks  # noqa: E402
from amp_tools import report_network  # noqa: E402


def variant_name(sim):
    """The keys set on top of the network file (routing=valiant ...), but the seed: the seeds of one
    variant are its replicates, drawn as one point with their spread."""
    overrides = sim.get("network_overrides") or {}
    return networks.overrides_text({k: v for k, v in sorted(overrides.items()) if k != "seed"})


def variant_order(sim):
    """Sorts variants by their values, numbers as numbers (1e9 before 1e10)."""
    overrides = sim.get("network_overrides") or {}
    return tuple((k, (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v)))
                 for k, v in sorted(overrides.items()) if k != "seed")


def spreads(rows):
    """{(network file, simulator, ranks): {variant: (order, seeds, {strategy: [ms per step, each simulation]})}}."""
    out = {}
    for _, label, ranks, _, simulator, steps, sim, synthesized, _ in rows:
        panel = out.setdefault((sim["network"], simulator, ranks), {})
        _, seeds, series = panel.setdefault(variant_name(sim), (variant_order(sim), set(), {}))
        seeds.add((sim.get("network_overrides") or {}).get("seed"))
        strategy = label + (" (synthesized)" if synthesized else "")
        series.setdefault(strategy, []).append(sim["predicted_seconds"] / steps * 1e3)
    return out


def tick(name, seeds):
    text = "\n".join(name.split(" ")) if name else "as in the file"
    seeded = seeds - {None}
    return text + (f"\n{len(seeded)} seeds" if len(seeded) > 1 else "")


def figure(proxy, rows):
    data = spreads(rows)
    most = max(len(variants) for variants in data.values())
    fig, axes = report_network.panels(len(data), width=max(5.2, 1.6 * most), height=4.4)
    for ax, ((network, simulator, ranks), variants) in zip(axes, sorted(data.items())):
        names = sorted(variants, key=lambda name: variants[name][0])
        strategies = sorted({strategy for _, _, series in variants.values() for strategy in series})
        width = 0.8 / len(strategies)
        for i, strategy in enumerate(strategies):
            xs, medians, lows, highs = [], [], [], []
            for x, name in enumerate(names):
                values = variants[name][2].get(strategy)
                if not values:
                    continue
                median = statistics.median(values)
                xs.append(x + (i - (len(strategies) - 1) / 2) * width)
                medians.append(median)
                lows.append(median - min(values))
                highs.append(max(values) - median)
            ax.bar(xs, medians, width * 0.9, yerr=[lows, highs], capsize=3, color=f"C{i}", alpha=0.8, label=strategy)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels([tick(name, variants[name][1]) for name in names], fontsize=7)
        ax.set_ylabel("predicted time per step (ms)")
        ax.set_title(f"{network} ({simulator}), {ranks} ranks", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"{proxy}: predicted time per step on each network variant\n(bar: median; "
                 f"error bar: min-max over seeds and repetitions)", fontsize=10)
    fig.tight_layout()
    return fig
