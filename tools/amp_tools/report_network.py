# SPDX-License-Identifier: BSD-3-Clause
"""The report's network figures and simulated profile, from the `nics`, `links`, `hops` and `profile` of
each simulation-*.json (tools/amp_tools/network_metrics.py, tools/amp_tools/simulated_profile.py), for every simulated
point (strategy/transport x ranks x network variant x simulator; of repetitions and seeds, the first):
- <proxy>-link-load.png: utilization of the loaded links over the simulated time, per link class, as a
  distribution (box: quartiles, whiskers: 5th-95th percentile, dots beyond); below each class, how many
  of its links carried anything;
- <proxy>-nic-injection.png: bytes each NIC injected, NICs in rank order;
- <proxy>-hops.png: hops per byte injected, per NIC (SST-macro: its mean, dashed, as it cannot
  attribute link traffic to a sender);
- <proxy>-simulated-profile.png: the simulated fractions of time in compute, point-to-point MPI and
  collectives (mean over ranks), beside the measured breakdown of a recorded run.
A panel with nothing to draw (one node: every byte stayed inside it) says so in words instead of
showing empty axes. Rows come from report_simulation.load().
"""
import math

import matplotlib
import matplotlib.patches

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

# The gid of the line of text that stands in a panel with nothing to draw (tests find it by it).
NOTHING_TO_DRAW = "nothing-to-draw"
KINDS = [("compute", "compute", "tab:blue"), ("p2p", "point-to-point MPI (waits incl.)", "tab:orange"),
         ("collective", "collectives", "tab:green")]


def simulated_profile(sim):
    """The simulation's profile, or None (too many actions for SimGrid's, or an SST-macro profile of
    before 2026-11-26 that did not tell point-to-point from collectives)."""
    profile = sim.get("profile")
    return profile if profile and profile.get("p2p") is not None else None


def points(rows):
    """{(network, simulator, ranks): {series name: (simulation, row)}}, the first repetition of each."""
    out = {}
    for row in sorted(rows, key=lambda r: (r[3], r[4], r[2], r[1], r[7])):
        _, label, ranks, network, simulator, _, sim, synthesized, _ = row
        if "nics" not in sim:
            continue  # simulated before the network figures existed
        name = label + (" (synthesized)" if synthesized else "")
        out.setdefault((network, simulator, ranks), {}).setdefault(name, (sim, row))
    return out


def panels(count, width=5.2, height=3.8):
    cols = min(3, count)
    rows = math.ceil(count / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = [ax for line in axes for ax in line]
    for ax in flat[count:]:
        ax.set_visible(False)
    return fig, flat[:count]


def idle_network(series):
    """Why no NIC of a panel's simulations injected a byte, in words, or None where one did."""
    if any(b > 0 for sim, _ in series.values() for b in sim["nics"]["per_nic_bytes"]):
        return None
    if all(sim["nics"]["count"] <= 1 for sim, _ in series.values()):
        inside = max(sim["nics"].get("intra_node_bytes") or 0 for sim, _ in series.values())
        between_ranks = f"\n({inside:,.0f} bytes between its ranks)" if inside else ""
        return "one node: all traffic stayed inside it" + between_ranks
    return "no message left its node: no NIC injected a byte"


def say_instead(ax, text, title):
    """A panel with nothing to draw: `text` in its middle, under its title, instead of empty axes."""
    ax.set_xticks([])
    ax.set_yticks([])
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9, gid=NOTHING_TO_DRAW)
    ax.set_title(title, fontsize=10)


def per_nic_axes(ax, ylabel, title):
    """The axes of a per-NIC panel: NICs in rank order along x."""
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel("NIC, in rank order")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)


def link_load_figure(proxy, by_panel):
    fig, axes = panels(len(by_panel))
    for ax, ((network, simulator, ranks), series) in zip(axes, sorted(by_panel.items())):
        classes = sorted({cls for sim, _ in series.values() for cls in sim["links"]})
        if not any(u > 0 for sim, _ in series.values() for cls in sim["links"].values()
                   for u in cls["per_link_utilization"]):
            say_instead(ax, idle_network(series) or "no network link carried a byte",
                        f"{network} ({simulator}), {ranks} ranks")
            continue
        width = 0.8 / len(series)
        for i, (name, (sim, _)) in enumerate(sorted(series.items())):
            data = [[u * 100 for u in sim["links"].get(cls, {}).get("per_link_utilization", []) if u > 0] or [0.0]
                    for cls in classes]
            boxes = ax.boxplot(data, positions=[c + (i - (len(series) - 1) / 2) * width for c in range(len(classes))],
                               widths=width * 0.9, whis=(5, 95), patch_artist=True, flierprops={"markersize": 2},
                               manage_ticks=False)
            for box in boxes["boxes"]:
                box.set_facecolor(f"C{i}")
                box.set_alpha(0.6)
            ax.plot([], [], color=f"C{i}", linewidth=6, alpha=0.6, label=name)
        ax.set_xticks(range(len(classes)))
        ax.set_xticklabels([f"{cls}\n{loaded(series, cls)} of {sim_count(series, cls)}\nlinks loaded"
                            for cls in classes], fontsize=7)
        ax.set_ylabel("utilization of loaded links (%)")
        ax.set_title(f"{network} ({simulator}), {ranks} ranks", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(f"{proxy}: load per link class (box: quartiles, whiskers: 5-95 %)", fontsize=11)
    fig.tight_layout()
    return fig


def sim_count(series, cls):
    return max(sim["links"].get(cls, {}).get("count", 0) for sim, _ in series.values())


def loaded(series, cls):
    """The most loaded links of this class among the series (as 'a-b' when they differ)."""
    counts = sorted({sum(1 for u in sim["links"].get(cls, {}).get("per_link_utilization", []) if u > 0)
                     for sim, _ in series.values()})
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"


def nic_injection_figure(proxy, by_panel):
    fig, axes = panels(len(by_panel))
    for ax, ((network, simulator, ranks), series) in zip(axes, sorted(by_panel.items())):
        if idle_network(series):
            say_instead(ax, idle_network(series), f"{network} ({simulator}), {ranks} ranks")
            continue
        top = max(max(sim["nics"]["per_nic_bytes"], default=0) for sim, _ in series.values())
        unit, scale = next((u, s) for u, s in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10), ("bytes", 1))
                           if top >= s or s == 1)
        for name, (sim, _) in sorted(series.items()):
            per_nic = [b / scale for b in sim["nics"]["per_nic_bytes"]]
            ax.plot(range(len(per_nic)), per_nic, marker="." if len(per_nic) <= 64 else None, label=name)
        ax.set_ylim(bottom=0)
        per_nic_axes(ax, f"bytes injected ({unit})", f"{network} ({simulator}), {ranks} ranks")
    fig.suptitle(f"{proxy}: bytes injected per NIC", fontsize=11)
    fig.tight_layout()
    return fig


def hops_figure(proxy, by_panel):
    fig, axes = panels(len(by_panel))
    for ax, ((network, simulator, ranks), series) in zip(axes, sorted(by_panel.items())):
        if idle_network(series):
            say_instead(ax, idle_network(series), f"{network} ({simulator}), {ranks} ranks")
            continue
        top = 0.0
        for i, (name, (sim, _)) in enumerate(sorted(series.items())):
            hops, nics = sim["hops"], sim["nics"]["count"]
            if hops.get("per_nic") is not None:
                ax.plot(range(nics), hops["per_nic"], color=f"C{i}", label=name, marker="." if nics <= 64 else None)
                top = max([top, *hops["per_nic"]])
            else:
                ax.hlines(hops["mean_per_byte"], 0, max(1, nics - 1), color=f"C{i}", linestyle="--",
                          label=f"{name}: mean {hops['mean_per_byte']:.2f} (no per-NIC figure)")
                top = max(top, hops["mean_per_byte"])
        ax.set_ylim(0, max(1.0, top) * 1.2)
        per_nic_axes(ax, "hops per byte injected", f"{network} ({simulator}), {ranks} ranks")
    fig.suptitle(f"{proxy}: hops (router-to-router links crossed) per NIC", fontsize=11)
    fig.tight_layout()
    return fig


def measured_fractions(run):
    """A recorded run's measured breakdown as the same three fractions of its loop time: MPI point to
    point (posts and waits), collectives, and the rest (compute, pack, unpack: outside MPI)."""
    timing = run.get("timing") or {}
    loop = timing.get("loop_seconds")
    if not loop:
        return None
    p2p = timing.get("mpi", {}).get("avg", 0.0) / loop
    collective = timing.get("collective", {}).get("avg", 0.0) / loop
    return {"compute": max(0.0, 1 - p2p - collective), "p2p": p2p, "collective": collective}


def profile_figure(proxy, by_panel):
    by_network = {}
    for (network, simulator, ranks), series in by_panel.items():
        for name, (sim, row) in series.items():
            by_network.setdefault((network, simulator), []).append((ranks, name, sim, row))
    fig, axes = panels(len(by_network), width=6.0, height=4.2)
    for ax, ((network, simulator), bars) in zip(axes, sorted(by_network.items())):
        names, stacks, hatches = [], [], []
        for ranks, name, sim, row in sorted(bars):
            simulated = simulated_profile(sim)
            if simulated:
                names.append(f"{name.replace(' (synthesized)', ' synth.')}\n{ranks} ranks\nsimulated")
                stacks.append(simulated)
                hatches.append("")
            measured = None if row[7] else measured_fractions(row[8])
            if measured:
                names.append(f"{name}\n{ranks} ranks\nmeasured")
                stacks.append(measured)
                hatches.append("//")
        if not names:
            say_instead(ax, f"{simulator}: no simulated per-rank profile,\nand no measured run beside it",
                        f"{network} ({simulator})")
            continue
        if not any(simulated_profile(sim) for _, _, sim, _ in bars):
            ax.text(0.5, 1.0, f"{simulator}: no simulated per-rank profile", ha="center", va="bottom",
                    transform=ax.transAxes, fontsize=8)
        bottoms = [0.0] * len(names)
        for key, label, color in KINDS:
            heights = [(stack.get(key) or 0.0) * 100 for stack in stacks]
            for j, (x, h, b) in enumerate(zip(names, heights, bottoms)):
                ax.bar(x, h, bottom=b, color=color, hatch=hatches[j], edgecolor="white",
                       label=label if j == 0 else None)
            bottoms = [b + h for b, h in zip(bottoms, heights)]
        ax.set_ylabel("share of each rank's time (%, mean over ranks)")
        ax.set_ylim(0, 105)
        ax.tick_params(axis="x", labelsize=6)
        ax.set_title(f"{network} ({simulator})", fontsize=10 if len(network) < 40 else 7, pad=14)
    handles = [matplotlib.patches.Patch(color=color, label=label) for _, label, color in KINDS]
    handles.append(matplotlib.patches.Patch(facecolor="grey", hatch="//", edgecolor="white",
                                            label="measured (recorded run; compute: all outside MPI)"))
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=8)
    fig.suptitle(f"{proxy}: simulated profile beside the measured breakdown", fontsize=11)
    fig.tight_layout(rect=(0, 0.09, 1, 1))
    return fig


def figures(proxy, short, rows):
    """(file name, title, figure) of the network figures and the simulated profile of one proxy's rows, each
    drawn when it is asked for."""
    by_panel = points(rows)
    if not by_panel:
        return
    yield f"{short}-link-load.png", f"{proxy}: load per link class", link_load_figure(proxy, by_panel)
    yield f"{short}-nic-injection.png", f"{proxy}: bytes injected per NIC", nic_injection_figure(proxy, by_panel)
    yield f"{short}-hops.png", f"{proxy}: hops per NIC", hops_figure(proxy, by_panel)
    yield (f"{short}-simulated-profile.png", f"{proxy}: simulated profile beside the measured breakdown",
           profile_figure(proxy, by_panel))
