"""A study's [predict] table (the default study's last step): each cut of amp-ghost's deck, synthesized at
scale (one compute time per variable step for every cut, measured in the study's own run of the first
cut, so that only communication differs) and replayed in SimGrid on each network; prints a small table
of each cut's predicted time per step against the first cut's.

The synthesized problem is the deck on a 16^3 block per rank, 4 variables and 2 steps: SimGrid's
replay time grows faster than the message count, and SVCP at 1024 ranks takes minutes on 2 cores, so
inputs/studies/default.toml leaves it out (the study inputs/studies/network_4096.toml has it).

[predict]
ranks = 1024                                              # the synthesized rank count
strategies = ["bspma", "svaf"]                            # the cuts; the first is the baseline
networks = ["inputs/networks/torus-16x16x4.toml"]         # relative to the repository root
"""
import json
import os
import subprocess

import amp_tools
from amp_tools import networks
from amp_tools import results
from amp_tools import simulate
from amp_tools.study_launch import failure, run_logged

KEYS = {"ranks", "strategies", "networks"}
PROBLEM = ["--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "4", "--num_tsteps", "2", "--num_spikes", "1"]
BLOCK_CELLS = 16 ** 3
STEPS = 2


class Plan:
    def __init__(self, ranks, cuts, network_files):
        self.ranks, self.cuts, self.network_files = ranks, cuts, network_files


def parse(study, data):
    """The checked [predict] table of a study (None without one); errors through study.fail."""
    table = study.section(data, "predict", KEYS)
    if table is None:
        return None
    if "ghost" not in study.proxies:
        study.fail("predict", "[predict] synthesizes amp-ghost's deck: 'proxies' must include ghost")
    ranks = study.positive_int(table, "ranks", 1024)
    cuts = study.names(table, "strategies")
    if not cuts:
        study.fail("predict", "[predict] needs 'strategies', the cuts to synthesize (the first is the baseline)")
    if isinstance(study.strategies, list) and cuts[0] not in study.strategies:
        study.fail("predict", f"[predict] baseline cut '{cuts[0]}' is not among the study's 'strategies' "
                              "(its compute time is measured in the study's own run)")
    paths = study.strings(table, "networks", required=True)
    study.no_duplicates("networks", paths)
    files = []
    for path in paths:
        full = path if os.path.isabs(path) else os.path.join(study.root, path)
        try:
            networks.load(full)
        except networks.NetworkError as e:
            study.fail("networks", f"[predict] {e}")
        files.append(full)
    return Plan(ranks, cuts, files)


def baseline_run(plan, runs, folder):
    """The study's first finished amp-ghost run of the baseline cut (first repetition), or None."""
    for r in runs:
        if r["proxy"] == "ghost" and r["strategy"] == plan.cuts[0] and r["repetition"] == 1 \
                and os.path.isfile(os.path.join(folder, r["id"] + ".json")):
            return r
    return None


def compute_per_variable_step(path):
    """The measured compute time per variable step, scaled from the deck's block to the synthesized one."""
    run = results.load(path)
    return results.compute_per_variable_step(run) * BLOCK_CELLS / results.block_cells(run)


def predict(plan, runs, folder, opts):
    """Synthesizes each cut (what is missing) and simulates it on each network. Returns (lines, failed)."""
    baseline = baseline_run(plan, runs, folder)
    if baseline is None:
        return [f"study: not predicted at {plan.ranks} ranks: no finished amp-ghost run of {plan.cuts[0]}"], 1
    seconds = compute_per_variable_step(os.path.join(folder, baseline["id"] + ".json"))
    predicted = {}
    for cut in plan.cuts:
        trace = os.path.join(folder, f"ghost-{cut}-synth{plan.ranks}.trace")
        if not os.path.isdir(trace):
            command = [os.path.join(opts.build, "bin", "amp-ghost"), "--input", baseline["deck"], *PROBLEM,
                       "--comm_method", cut, "--synthesize", trace, "--ranks", str(plan.ranks),
                       "--compute_seconds", repr(seconds)]
            log = trace[:-len(".trace")] + ".log"
            status, signum = run_logged(command, log, env=dict(os.environ, OMP_NUM_THREADS="1"))
            if status != 0 or signum:
                return [f"study: synthesizing {cut} at {plan.ranks} ranks: {failure(status, signum, log)} "
                        f"(log: {log})"], 1
        for path in plan.network_files:
            out = simulate.simulation_file(trace, path, "simgrid")
            if not os.path.isfile(out):
                done = subprocess.run(amp_tools.module_command("simulate") + [
                                      trace, "--network", path, "--build", opts.build, "--root", opts.root],
                                      capture_output=True, text=True, env=amp_tools.module_environment())
                if done.returncode != 0:
                    last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
                    return [f"study: simulating {cut} on {network_name(path)} failed: {last}"], 1
            with open(out) as f:
                predicted[(cut, network_name(path))] = json.load(f)["predicted_seconds"] / STEPS * 1e3
    return table(plan, seconds, predicted), 0


def network_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def table(plan, seconds, predicted):
    """The printed lines: ms per step of the first cut, each other cut against it, per network."""
    cuts, names = plan.cuts, [network_name(p) for p in plan.network_files]
    lines = [f"amp: predicted at {plan.ranks} ranks (synthesized: the deck on a 16^3 block, 4 variables, {STEPS} "
             f"steps, {seconds * 1e6:.2f} us per variable step for every cut; SimGrid):"]
    width = max(len(n) for n in names) + 2
    lines.append("  " + "network".ljust(width) + "".join(f"{c:>14}" for c in cuts))
    for network in names:
        base = predicted[(cuts[0], network)]
        cells = [f"{base:.3f} ms" if c == cuts[0] else f"{predicted[(c, network)] / base:.2f}x {cuts[0]}" for c in cuts]
        lines.append("  " + network.ljust(width) + "".join(f"{v:>14}" for v in cells))
    for network in names:
        line = ", ".join(f"{c} {predicted[(c, network)] / predicted[(cuts[0], network)]:.2f}x {cuts[0]}"
                         for c in cuts[1:])
        lines.append(f"amp: {plan.ranks} ranks, {network}: {line}")
    return lines
