"""The report's simulation figures, drawn from <run>.trace/simulation-<network>-<key>-<simulator>.json beside
each run's results (recorded runs and a study's synthesized points):
- <proxy>-simulated.png: predicted time per step of each cut x transport against the rank count, one
  panel per network variant and simulator (repetitions, and the seeds of a randomized routing: median,
  min-max bars);
- <proxy>-variants.png, when a study varies its networks ([simulate] vary, replicates): predicted time
  per step of each cut for each variant, bars (median) with the seeds' and repetitions' min-max, one
  panel per network file, simulator and rank count;
- <proxy>-validation.png: predicted against measured (the trace's own time of its traced region) per
  recorded run, with the y = x line and a +-15 % band;
- the network's own figures and the simulated profile (report_network.py), for every simulated point.
"""
import collections
import glob
import json
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
from amp_tools import report_network  # noqa: E402
from amp_tools import report_variants  # noqa: E402
from amp_tools import results_shape  # noqa: E402


def warn(message):
    print(f"report: warning: {message}", file=sys.stderr)


def network_label(sim):
    """The network's name and, for a variant of its file, the keys set on top (not the seed: the seeds of
    one variant are its replicates, one point with their spread)."""
    return " ".join(filter(None, [sim["network"], report_variants.variant_name(sim)]))


def load(folder):
    """(proxy, label, ranks, network, simulator, steps, simulation, synthesized, run) for every simulation."""
    out = []
    for results in sorted(glob.glob(os.path.join(folder, "*.json"))):
        if results.endswith((".trace-stats.json", ".outcome.json")):
            continue
        trace = results[:-len(".json")] + ".trace"
        sims = sorted(glob.glob(os.path.join(trace, "simulation-*.json")))
        if not sims:
            continue
        try:
            with open(results) as f:
                run = json.load(f)
            config = run["config"]
            steps = config["num_tsteps"]
            label = f"{config.get('comm_method', '?')}/{config.get('transport', 'isend')}"
            proxy = run["proxy"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        for path in sims:
            try:
                with open(path) as f:
                    sim = json.load(f)
            except (OSError, ValueError) as e:
                warn(f"{path} is not a readable simulation ({e}); left out")
                continue
            problem = results_shape.simulation_problem(sim)
            if problem:
                warn(f"{path}: {problem}; left out")
                continue
            out.append((proxy, label, sim["ranks"], network_label(sim), sim["simulator"], steps, sim,
                        run.get("mode") == "synthesis", run))
    return out


def simulated_figure(proxy, rows):
    panels = sorted({(r[3], r[4]) for r in rows})
    fig, axes = report_network.panels(len(panels), width=5.5, height=4.2)
    for ax, (network, simulator) in zip(axes, panels):
        series = collections.defaultdict(lambda: collections.defaultdict(list))
        for _, label, ranks, net, sim, steps, s, *_ in rows:
            if (net, sim) == (network, simulator):
                series[label][ranks].append(s["predicted_seconds"] / steps * 1e3)
        for label, points in sorted(series.items()):
            xs = sorted(points)
            medians = [statistics.median(points[x]) for x in xs]
            lows = [m - min(points[x]) for m, x in zip(medians, xs)]
            highs = [max(points[x]) - m for m, x in zip(medians, xs)]
            ax.errorbar(xs, medians, yerr=[lows, highs], marker="o", capsize=3, label=label)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("ranks (beyond this machine: synthesized)")
        ax.set_ylabel("predicted time per step (ms)")
        ax.set_title(f"{network} ({simulator})", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"{proxy}: predicted time per step on modelled networks", fontsize=11)
    fig.tight_layout()
    return fig


def validation_figure(proxy, rows):
    recorded = [r for r in rows if not r[7] and r[6].get("measured_seconds")]
    if not recorded:
        return None
    panels = sorted({(r[3], r[4]) for r in recorded})
    fig, axes = report_network.panels(len(panels), width=5.0, height=4.6)
    for ax, (network, simulator) in zip(axes, panels):
        by_label = collections.defaultdict(list)
        for _, label, ranks, net, sim, steps, s, *_ in recorded:
            if (net, sim) == (network, simulator):
                by_label[f"{label} np{ranks}"].append((s["measured_seconds"] / steps * 1e3,
                                                       s["predicted_seconds"] / steps * 1e3))
        top = max(max(m, p) for pairs in by_label.values() for m, p in pairs) * 1.15
        ax.plot([0, top], [0, top], color="black", linewidth=0.8, label="predicted = measured")
        ax.fill_between([0, top], [0, top * 0.85], [0, top * 1.15], color="grey", alpha=0.15, label="within 15 %")
        for label, pairs in sorted(by_label.items()):
            ax.scatter([m for m, _ in pairs], [p for _, p in pairs], label=label, s=22)
        ax.set_xlim(0, top)
        ax.set_ylim(0, top)
        ax.set_xlabel("measured (trace's traced region), ms per step")
        ax.set_ylabel("predicted, ms per step")
        ax.set_title(f"{network} ({simulator})", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"{proxy}: simulation against the measured run", fontsize=11)
    fig.tight_layout()
    return fig


def figures(folder):
    """(file name, title, figure) of the simulation figures the folder's runs call for."""
    rows = load(folder)
    out = []
    for proxy in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == proxy]
        short = proxy.replace("amp-", "")
        out.append((f"{short}-simulated.png", f"{proxy}: predicted time per step on modelled networks",
                    simulated_figure(proxy, mine)))
        fig = validation_figure(proxy, mine)
        if fig is not None:
            out.append((f"{short}-validation.png", f"{proxy}: simulation against the measured run", fig))
        if any(r[6].get("network_overrides") for r in mine):
            out.append((f"{short}-variants.png", f"{proxy}: predicted time per step on each network variant",
                        report_variants.figure(proxy, mine)))
        out += report_network.figures(proxy, short, mine)
    return out
