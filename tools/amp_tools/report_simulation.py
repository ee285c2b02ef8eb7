# SPDX-License-Identifier: BSD-3-Clause
"""The report's simulation figures, drawn from <run>.trace/simulation-<network>-<key>-<simulator>.json beside
each run's results (recorded runs and a study's synthesized points):
- <proxy>-simulated.png: predicted time per step of each strategy x transport against the rank count, one
  panel per network variant and simulator (repetitions, and the seeds of a randomized routing: median,
  min-max bars); a network predicted at one rank count only gets a dot per strategy x transport;
- <proxy>-variants.png, when a study varies its networks ([simulate] vary, replicates): predicted time
  per step of each strategy for each variant, bars (median) with the seeds' and repetitions' min-max, one
  panel per network file, simulator and rank count;
- <proxy>-validation.png: predicted against measured (the trace's own time of its traced region) per
  recorded run, with the y = x line and a +-15 % band;
- the network's own figures and the simulated profile (report_network.py), for every simulated point.
"""
import collections
import glob
import hashlib
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.ticker  # noqa: E402
from amp_tools import file_names  # noqa: E402
from amp_tools import report_network  # noqa: E402
from amp_tools import report_variants  # noqa: E402
from amp_tools import results  # noqa: E402
from amp_tools import results_shape  # noqa: E402
from amp_tools import steady_state  # noqa: E402


def warn(message):
    print(f"report: warning: {message}", file=sys.stderr)


def file_stem(proxy):
    """The first part of a proxy's figure names (amp-ghost: ghost): made safe by amp_tools.file_names and
    at most 40 characters (a longer name is cut and given a hash of the whole), so that a figure's name
    keeps its kind and '.png'."""
    short = file_names.component(proxy.replace("amp-", "", 1))
    if len(short) <= 40:
        return short
    return f"{short[:31]}-{hashlib.sha256(proxy.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def network_label(sim):
    """The network's name and, for a variant of its file, the keys set on top (not the seed: the seeds of
    one variant are its replicates, one point with their spread)."""
    return " ".join(filter(None, [sim["network"], report_variants.variant_name(sim)]))


def load(folder):
    """(proxy, label, ranks, network, simulator, steps, simulation, synthesized, run) for every simulation."""
    out = []
    for results_path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        if results_path.endswith((".trace-stats.json", ".outcome.json")):
            continue
        trace = results_path[:-len(".json")] + ".trace"
        sims = sorted(glob.glob(os.path.join(trace, "simulation-*.json")))
        if not sims:
            continue
        try:
            run = results.load(results_path)
            config = run["config"]
            steps = config["num_tsteps"]
            label = f"{results.config_strategy(config)}/{results.transport(run)}"
            proxy = run["proxy"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # load_runs names a malformed run
        if not results_shape.is_name(proxy) or not results_shape.is_count(steps, 1):
            continue
        for path in sims:
            try:
                sim = results.load(path)
            except (OSError, ValueError) as e:
                warn(f"{path} is not a readable simulation ({e.strerror if isinstance(e, OSError) else e}); left out")
                continue
            problem = results_shape.simulation_problem(sim)
            if problem:
                warn(f"{path}: {problem}; left out")
                continue
            try:  # steps 2..K and the set-up apart, where the point has its one-step companion
                state = steady_state.of_simulation(path, sim, steps)
                if state:
                    sim["steady"] = state
            except (OSError, ValueError) as e:
                warn(f"{path}: no steady state: {e}")
            out.append((proxy, label, sim["ranks"], network_label(sim), sim["simulator"], steps, sim,
                        run.get("mode") == "synthesis", run))
    return out


def per_step_ms(sim, steps):
    """A simulation's predicted ms per step: a steady step's where its point has a one-step companion (steps
    2..K, the set-up apart: steady_state.py), else its run's mean step."""
    return steady_state.time_of(sim) * 1e3 if sim.get("steady") else sim["predicted_seconds"] / steps * 1e3


def synthesized_problem(run, steady=False):
    """What a synthesized point is, from its own results' config: block (ghost), variables, stencil, steps."""
    config = run.get("config") or {}
    words = []
    if isinstance(config.get("local_block"), list):
        words.append("x".join(str(n) for n in config["local_block"]) + " block")
    if "num_vars" in config:
        words.append(f"{config['num_vars']} variables")
    if "stencil" in config:
        words.append(str(config["stencil"]))
    if "num_tsteps" in config:
        words.append(f"steady steps 2-{config['num_tsteps']}" if steady else f"{config['num_tsteps']} steps")
    return ", ".join(words)


def problems_of(rows):
    """The synthesized points' problems (synthesized_problem) among `rows`, joined: what a figure or the summary
    says was predicted."""
    return "; ".join(sorted({synthesized_problem(run, bool(s.get("steady"))) for *_, s, synth, run in rows if synth}))


def simulated_figure(proxy, rows):
    """One panel per network (variant) and simulator, every rank count it was predicted at: against the
    rank count where there are several, one dot per strategy x transport where there is one (each with its
    time relative to the first, as `./amp run`'s table gives it)."""
    panels = sorted({(r[3], r[4]) for r in rows},
                    key=lambda panel: (min(r[2] for r in rows if (r[3], r[4]) == panel), panel))
    fig, axes = report_network.panels(len(panels), width=5.0, height=4.2)
    for ax, (network, simulator) in zip(axes, panels):
        series = collections.defaultdict(lambda: collections.defaultdict(list))
        synthesized = set()
        for _, label, ranks, net, sim, steps, s, synth, _ in rows:
            if (net, sim) == (network, simulator):
                series[label][ranks].append(per_step_ms(s, steps))
                synthesized.add(synth)
        rank_counts = sorted({ranks for points in series.values() for ranks in points})
        problem = problems_of([r for r in rows if (r[3], r[4]) == (network, simulator)])
        how = f"synthesized: {problem}" if synthesized == {True} else "recorded" if synthesized == {False} else \
            f"beyond this machine: synthesized, {problem}"
        if len(rank_counts) == 1:
            at_one_rank_count(ax, series, rank_counts[0])
            ax.set_xlabel(f"at {rank_counts[0]} ranks ({how})")
        else:
            for label, points in sorted(series.items()):
                xs = sorted(points)
                medians, lows, highs = median_and_spread([points[x] for x in xs])
                ax.errorbar(xs, medians, yerr=[lows, highs], marker="o", capsize=3, label=label)
            ax.set_xscale("log", base=2)
            ax.set_xticks(rank_counts)
            ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
            ax.set_xlabel(f"ranks ({how})")
            ax.legend(fontsize=8)
        ax.set_ylabel("predicted time per step (ms)")
        ax.set_title(f"{network} ({simulator})", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.xaxis.label.set_fontsize(8)
    fig.suptitle(f"{proxy}: predicted time per step on modelled networks (a steady step's where the point has its "
                 f"one-step companion; median of repetitions and seeds; bars: their min-max)", fontsize=10)
    fig.tight_layout()
    return fig


def median_and_spread(groups):
    """Each group's median and its distances down to the minimum and up to the maximum (for yerr)."""
    medians = [statistics.median(values) for values in groups]
    return medians, [m - min(v) for m, v in zip(medians, groups)], [max(v) - m for m, v in zip(medians, groups)]


def at_one_rank_count(ax, series, ranks):
    """The panel of a network predicted at one rank count: a dot (and min-max bar) per strategy x transport,
    from zero, each labelled with its time in ms or relative to the first."""
    labels = sorted(series)
    medians, lows, highs = median_and_spread([series[label][ranks] for label in labels])
    for x, (label, median, low, high) in enumerate(zip(labels, medians, lows, highs)):
        ax.errorbar([x], [median], yerr=[[low], [high]], marker="o", capsize=3, color=f"C{x}", label=label)
        text = f"{median:.3g} ms" if x == 0 else f"{median / medians[0]:.2f}x {labels[0]}"
        ax.annotate(text, (x, median + high), textcoords="offset points", xytext=(0, 5), ha="center", fontsize=8)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.15)


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


def predictions(rows):
    """What index.html's summary says of the simulations: per proxy, network (variant), simulator and rank
    count, each strategy x transport's median predicted time per step (ms; a steady step's where the point has
    its one-step companion), fastest first, and, where every point was synthesized, what was (its block,
    variables, stencil and steps: synthesized_problem), else False.
    [(proxy, network, simulator, ranks, synthesized, [(label, ms), ...])]"""
    table = collections.defaultdict(lambda: collections.defaultdict(list))
    synthesized = {}
    for row in rows:
        proxy, label, ranks, network, simulator, steps, sim, synth, _ = row
        key = (proxy, network, simulator, ranks)
        table[key][label].append(per_step_ms(sim, steps))
        synthesized.setdefault(key, []).append(row)
    synthesized = {key: all(r[7] for r in found) and problems_of(found) for key, found in synthesized.items()}
    return [(*key, synthesized[key], sorted(((label, statistics.median(ms)) for label, ms in series.items()),
                                            key=lambda pair: pair[1]))
            for key, series in sorted(table.items(), key=lambda item: (item[0][0], item[0][3], item[0][1:3]))]


def figures(folder):
    """(file name, title, figure) of the simulation figures the folder's runs call for."""
    return figures_of(load(folder))


def figures_of(rows):
    """(file name, title, figure) of the simulation figures of these rows (from load()), each drawn when it
    is asked for."""
    for proxy in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == proxy]
        short = file_stem(proxy)
        yield (f"{short}-simulated.png", f"{proxy}: predicted time per step on modelled networks",
               simulated_figure(proxy, mine))
        fig = validation_figure(proxy, mine)
        if fig is not None:
            yield f"{short}-validation.png", f"{proxy}: simulation against the measured run", fig
        if any(r[6].get("network_overrides") for r in mine):
            yield (f"{short}-variants.png", f"{proxy}: predicted time per step on each network variant",
                   report_variants.figure(proxy, mine))
        yield from report_network.figures(proxy, short, mine)
