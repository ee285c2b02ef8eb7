# SPDX-License-Identifier: BSD-3-Clause
"""A study's [predict] table (the default study's last step): each strategy of amp-ghost's deck, synthesized at
scale (one compute time per variable step for every strategy, measured in the study's own run of the first
strategy, so that only communication differs) and replayed in SimGrid on each network; prints a small table
of each strategy's predicted time per step against the first strategy's.

The synthesized problem is the deck on a 16^3 block per rank, 4 variables and 2 steps: SimGrid's
replay time grows faster than the message count, and SVCP at 1024 ranks takes minutes on 2 cores, so
inputs/studies/default.toml leaves it out (the study inputs/studies/network_4096.toml has it).

Usage (the step alone): python3 -m amp_tools.predict_at_scale DIR --deck DECK --build BUILD [--baseline RESULTS]
       [--ranks 1024] [--strategies bspma,svaf] [--networks torus-16x16x4,dragonfly-1024]
       (--networks: names under inputs/networks/ or paths to network files, comma-separated)

[predict]
ranks = 1024                                              # the synthesized rank count
strategies = ["bspma", "svaf"]                            # the strategies; the first is the baseline
networks = ["inputs/networks/torus-16x16x4.toml"]         # relative to the repository root
"""
import argparse
import os
import sys

import amp_tools
from amp_tools import command_line
from amp_tools import networks
from amp_tools import results
from amp_tools import simulate
from amp_tools.file_names import component, output_path
from amp_tools.study_launch import failure, run_logged, run_tool

KEYS = {"ranks", "strategies", "networks"}
PROBLEM = ["--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "4", "--num_tsteps", "2", "--num_spikes", "1"]
BLOCK_CELLS = 16 ** 3
STEPS = 2


class Plan:
    def __init__(self, ranks, strategies, network_files):
        self.ranks, self.strategies, self.network_files = ranks, strategies, network_files


def parse(study, data):
    """The checked [predict] table of a study (None without one); errors through study.fail."""
    table = study.section(data, "predict", KEYS)
    if table is None:
        return None
    if "ghost" not in study.proxies:
        study.fail("predict", "[predict] synthesizes amp-ghost's deck: 'proxies' must include ghost")
    ranks = study.positive_int(table, "ranks", 1024)
    strategies = study.names(table, "strategies")
    if not strategies:
        study.fail("predict", "[predict] needs 'strategies', those to synthesize (the first is the baseline)")
    if isinstance(study.strategies, list) and strategies[0] not in study.strategies:
        study.fail("predict", f"[predict] baseline strategy '{strategies[0]}' is not among the study's 'strategies' "
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
    return Plan(ranks, strategies, files)


def baseline_run(plan, runs, folder):
    """The study's first finished amp-ghost run of the baseline strategy (first repetition), or None."""
    for r in runs:
        if r["proxy"] == "ghost" and r["strategy"] == plan.strategies[0] and r["repetition"] == 1 \
                and os.path.isfile(os.path.join(folder, r["id"] + ".json")):
            return r
    return None


def compute_per_variable_step(path):
    """The measured compute time per variable step, scaled from the deck's block to the synthesized one."""
    run = results.load(path)
    return results.compute_per_variable_step(run) * BLOCK_CELLS / results.block_cells(run)


def predict_study(plan, runs, folder, opts):
    """A study's [predict] step, from its own run of the first strategy. Returns (the table's lines, the problem
    that stopped it or None)."""
    baseline = baseline_run(plan, runs, folder)
    if baseline is None:
        return [], f"not predicted at {plan.ranks} ranks: no finished amp-ghost run of {plan.strategies[0]}"
    return predict(plan, os.path.join(folder, baseline["id"] + ".json"), baseline["deck"], folder, opts)


def predict(plan, baseline, deck, folder, opts):
    """Synthesizes each strategy (what is missing) with the compute time of the results file `baseline` and the
    deck, and simulates it on each network; each synthesis leaves ghost-<strategy>-synth<N>.json (its results,
    which the report reads) and .trace in `folder`. Returns (the table's lines, the problem that stopped it
    or None)."""
    seconds = compute_per_variable_step(baseline)
    predicted = {}
    for strategy in plan.strategies:
        base = output_path(folder, f"ghost-{strategy}-synth{plan.ranks}")  # --strategies' names are any text
        trace = base + ".trace"
        if not os.path.isdir(trace):
            command = [os.path.join(opts.build, "bin", "amp-ghost"), *(["--input", deck] if deck else []), *PROBLEM,
                       "--strategy", strategy, "--synthesize", trace, "--ranks", str(plan.ranks),
                       "--compute_seconds", repr(seconds), "--results", base + ".json"]
            status, signum = run_logged(command, base + ".log", env=dict(os.environ, OMP_NUM_THREADS="1"))
            if status != 0 or signum:
                return [], (f"synthesizing {strategy} at {plan.ranks} ranks: {failure(status, signum, base + '.log')} "
                            f"(log: {base}.log)")
        for path in plan.network_files:
            out = simulate.simulation_file(trace, path, "simgrid")
            if not os.path.isfile(out):
                done = run_tool(amp_tools.module_command("simulate") + [
                                trace, "--network", path, "--build", opts.build, "--root", opts.root],
                                env=amp_tools.module_environment())
                if done.returncode != 0:
                    last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
                    return [], f"simulating {strategy} on {network_name(path)} failed: {last}"
            predicted[(strategy, network_name(path))] = results.load(out)["predicted_seconds"] / STEPS * 1e3
    return table(plan, seconds, predicted), None


def network_files(given, root):
    """The checked network files of --networks: each a name under ROOT/inputs/networks/ (torus-16x16x4) or a path
    to a network file (one with a '/' or ending in .toml). Raises networks.NetworkError naming the first that is
    not one (an unknown name with the valid ones)."""
    folder = os.path.join(root, "inputs", "networks")
    files = []
    for item in given:
        if "/" in item or item.endswith(".toml"):
            path = item
        else:
            path = os.path.join(folder, f"{item}.toml")
            if not item or not os.path.isfile(path):
                known = sorted(n[:-len(".toml")] for n in os.listdir(folder) if n.endswith(".toml")) \
                    if os.path.isdir(folder) else []
                raise networks.NetworkError(f"unknown network '{item}' (the names are those of {folder}: "
                                            f"{', '.join(known) or 'none'}; or give a path to a network file)")
        networks.load(path)  # a missing or malformed file: one line naming it
        files.append(path)
    return files


def network_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def table(plan, seconds, predicted):
    """The printed lines: ms per step of the first strategy, each other strategy against it, per network."""
    strategies, names = plan.strategies, [network_name(p) for p in plan.network_files]
    lines = [f"amp: predicted at {plan.ranks} ranks (synthesized: the deck on a 16^3 block, 4 variables, {STEPS} "
             f"steps, {seconds * 1e6:.2f} us per variable step for every strategy; SimGrid):"]
    width = max(len(n) for n in names) + 2
    lines.append("  " + "network".ljust(width) + "".join(f"{c:>14}" for c in strategies))
    for network in names:
        base = predicted[(strategies[0], network)]
        cells = [f"{base:.3f} ms" if c == strategies[0] else f"{predicted[(c, network)] / base:.2f}x {strategies[0]}"
                 for c in strategies]
        lines.append("  " + network.ljust(width) + "".join(f"{v:>14}" for v in cells))
    for network in names:
        line = ", ".join(f"{c} {predicted[(c, network)] / predicted[(strategies[0], network)]:.2f}x {strategies[0]}"
                         for c in strategies[1:])
        lines.append(f"amp: {plan.ranks} ranks, {network}: {line}")
    return lines


def main():
    """The step alone, on a folder holding the baseline run (by default as the study names none:
    DIR/ghost-<first strategy>-isend.json)."""
    parser = command_line.Parser("predict_at_scale", __doc__.split("\n\n")[0],  # a usage error: one line, exit 2
                                 parents=[command_line.common_options(launcher=False)])
    parser.add_argument("dir")
    parser.add_argument("--deck", required=True)
    parser.add_argument("--root", default=amp_tools.REPOSITORY)
    parser.add_argument("--baseline", help="the results file whose compute time every strategy gets")
    parser.add_argument("--ranks", type=int, default=1024)
    parser.add_argument("--strategies", default="bspma,svaf")
    parser.add_argument("--cuts", dest="old_strategies", help=argparse.SUPPRESS)  # --strategies' older name
    parser.add_argument("--networks", default="torus-16x16x4,dragonfly-1024")
    opts = parser.parse_args()
    if opts.old_strategies is not None:
        print("predict_at_scale: warning: --cuts is deprecated: it is --strategies", file=sys.stderr)
        opts.strategies = opts.old_strategies
    strategies = opts.strategies.split(",")
    try:
        files = network_files(opts.networks.split(","), opts.root)
    except networks.NetworkError as e:
        print(f"predict_at_scale: error: --networks: {e}", file=sys.stderr)
        return 2
    plan = Plan(opts.ranks, strategies, files)
    baseline = opts.baseline or os.path.join(opts.dir, f"ghost-{component(strategies[0])}-isend.json")
    try:
        lines, problem = predict(plan, baseline, opts.deck, opts.dir, opts)
    except OSError as e:
        print(f"predict_at_scale: error: cannot read '{e.filename}': {e.strerror}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError) as e:
        print(f"predict_at_scale: error: {baseline} is not the results of an amp-ghost run ({e})", file=sys.stderr)
        return 2
    if problem:
        print(f"predict_at_scale: error: {problem}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
