# SPDX-License-Identifier: BSD-3-Clause
"""A study's [predict] table (the default study's last step): each strategy of amp-ghost's deck, synthesized at
scale with the point's compute model (study_compute_model.py: measured once by one-step syntheses of the
first strategy at the study's rank count, recorded in the folder's compute_model.json, the same for every
strategy, so that only communication differs) and replayed in SimGrid on each network; prints a small table
of each strategy's predicted time per steady step against the first strategy's.

What is synthesized is not the deck at its own size: the deck's stencil and other keys on a 16^3 block per
rank with 4 variables (PROBLEM). At its own size (cth.toml: 64^3, 40 variables) SVAF's 1024-rank replay of 3
steps ran over 10 minutes on this 2-core machine (BSPMA's 17 s), and SVAF on the deck's block with 4
variables 64 s, against 14 s on the 16^3 block. So the table and the report's figures say what was
synthesized (block, variables, steps), read back from the syntheses' own results, beside the deck's size.
Each strategy is synthesized over STEPS steps and again as one step (first-step/, steady_state.py), and the
time per step is a steady step's (steps 2..STEPS), the first step's set-up apart. SVCP at 1024 ranks takes
minutes on 2 cores, so inputs/studies/default.toml leaves it out (inputs/studies/network_4096.toml has it).

Usage (the step alone): python3 -m amp_tools.predict_at_scale DIR --deck DECK --build BUILD [--baseline RESULTS]
       [--ranks 1024] [--strategies bspma,svaf] [--networks torus-16x16x4,dragonfly-1024]
       (--networks: names under inputs/networks/ or paths to network files, comma-separated)

[predict]
ranks = 1024                                              # the synthesized rank count
strategies = ["bspma", "svaf"]                            # the strategies; the first is the baseline
networks = ["inputs/networks/torus-16x16x4.toml"]         # relative to the repository root
"""
import os
import sys
import tomllib

import amp_tools
from amp_tools import command_line
from amp_tools import networks
from amp_tools import results
from amp_tools import simulate
from amp_tools import steady_state
from amp_tools.file_names import component, output_path
from amp_tools.output_places import ThroughLink, make_folder
from amp_tools.steady_state import FIRST_STEP_FOLDER
from amp_tools.study_compute_model import ComputeModels, NotMeasured
from amp_tools.study_launch import failure, run_logged, run_tool

KEYS = {"ranks", "strategies", "networks"}
PROBLEM = ["--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "4"]  # the block and variables synthesized
STEPS = steady_state.MIN_STEPS  # steps 2..STEPS are the steady ones


class Plan:
    def __init__(self, ranks, strategies, network_files, stream_per_core=None):
        self.ranks, self.strategies, self.network_files = ranks, strategies, network_files
        self.stream_per_core = stream_per_core  # the networks' node (bytes/s per core), or None
        self.compute_seconds = None  # never given: the compute model is measured (study_compute_model.py)

    def given_compute(self, proxy):
        """ComputeModels' question, whether the study gives a compute time: [predict] never does."""
        return None


def one_node(loaded):
    """The networks' common stream_per_core (None where none gives it); NetworkError where they differ: one
    compute model, scaled to one node, serves every network."""
    nodes = {n.stream_per_core or None for n in loaded}
    if len(nodes) > 1:
        named = ", ".join(sorted(f"{n.name} {n.stream_per_core or 'none'}" for n in loaded))
        raise networks.NetworkError(f"the networks' nodes differ (stream_per_core: {named}): the prediction has one "
                                    "compute model, scaled to one node; predict each node on its own")
    return nodes.pop() if nodes else None


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
                              "(its compute model is measured at the rank count of the study's own run)")
    paths = study.strings(table, "networks", required=True)
    study.no_duplicates("networks", paths)
    files, loaded = [], []
    for path in paths:
        full = path if os.path.isabs(path) else os.path.join(study.root, path)
        try:
            loaded.append(networks.load(full))
        except networks.NetworkError as e:
            study.fail("networks", f"[predict] {e}")
        files.append(full)
    try:
        node = one_node(loaded)
    except networks.NetworkError as e:
        study.fail("networks", f"[predict] {e}")
    return Plan(ranks, strategies, files, node)


def baseline_run(plan, runs, folder):
    """The study's first finished amp-ghost run of the baseline strategy (first repetition), or None."""
    for r in runs:
        if r["proxy"] == "ghost" and r["strategy"] == plan.strategies[0] and r["repetition"] == 1 \
                and os.path.isfile(os.path.join(folder, r["id"] + ".json")):
            return r
    return None


def predict_study(plan, runs, folder, opts):
    """A study's [predict] step, after its own run of the first strategy. Returns (the table's lines, the problem
    that stopped it or None)."""
    baseline = baseline_run(plan, runs, folder)
    if baseline is None:
        return [], f"not predicted at {plan.ranks} ranks: no finished amp-ghost run of {plan.strategies[0]}"
    return predict(plan, os.path.join(folder, baseline["id"] + ".json"), baseline["deck"], folder, opts)


def synthesis_line(opts, deck, strategy):
    """amp-ghost's command line of the synthesized problem (the deck under PROBLEM), before its steps."""
    return [os.path.join(opts.build, "bin", "amp-ghost"), *(["--input", deck] if deck else []), *PROBLEM,
            "--strategy", strategy]


def compute_model(plan, baseline, deck, folder, opts):
    """Seconds per variable step of the synthesized problem: the point's compute model, measured once by one-step
    syntheses of the first strategy at the rank count of the results file `baseline` (recorded in the folder's
    compute_model.json and reused when the step runs again), scaled to the networks' node."""
    point = {"id": f"ghost-{component(plan.strategies[0])}-synth{plan.ranks}", "proxy": "ghost", "deck": deck,
             "flags": "[predict] " + " ".join(PROBLEM), "strategy": plan.strategies[0], "transport": None,
             "ranks": int(results.load(baseline)["ranks"]), "repetition": 1,
             "args": synthesis_line(opts, deck, plan.strategies[0])}
    return ComputeModels(folder, plan, opts.build).seconds(point, [point])


def synthesize(opts, deck, strategy, steps, base, ranks, seconds):
    """Synthesizes the problem over `steps` steps into base.trace (results base.json, log base.log), unless it
    exists; the problem that stopped it, or None."""
    if os.path.isdir(base + ".trace"):
        return None
    command = [*synthesis_line(opts, deck, strategy), "--num_tsteps", str(steps), "--num_spikes", "1",
               "--synthesize", base + ".trace", "--ranks", str(ranks), "--compute_seconds", repr(seconds),
               "--results", base + ".json"]
    status, signum = run_logged(command, base + ".log", env=dict(os.environ, OMP_NUM_THREADS="1"))
    if status != 0 or signum:
        return f"synthesizing {strategy} at {ranks} ranks: {failure(status, signum, base + '.log')} (log: {base}.log)"
    return None


def predict(plan, baseline, deck, folder, opts):
    """Synthesizes each strategy (what is missing) over STEPS steps and as one step, with the point's compute model
    and the deck, and simulates both on each network; each synthesis leaves ghost-<strategy>-synth<N>.json (its
    results, which the report reads) and .trace in `folder`, its one-step companion the same in
    folder/first-step/. Returns (the table's lines, the problem that stopped it or None)."""
    try:
        seconds = compute_model(plan, baseline, deck, folder, opts)
    except NotMeasured as e:
        return [], f"the compute model of the prediction could not be measured: {e}"
    make_folder(os.path.join(folder, FIRST_STEP_FOLDER))
    predicted, synthesized = {}, {}
    for strategy in plan.strategies:
        name = f"ghost-{strategy}-synth{plan.ranks}"
        base = output_path(folder, name)  # --strategies' names are any text
        first = output_path(os.path.join(folder, FIRST_STEP_FOLDER), name)
        for steps, where in ((STEPS, base), (1, first)):
            problem = synthesize(opts, deck, strategy, steps, where, plan.ranks, seconds)
            if problem:
                return [], problem
        synthesized[strategy] = results.load(base + ".json")["config"]
        for path in plan.network_files:
            out = None
            for trace in (first + ".trace", base + ".trace"):
                out = simulate.simulation_file(trace, path, "simgrid")
                if not os.path.isfile(out):
                    done = run_tool(amp_tools.module_command("simulate") + [
                                    trace, "--network", path, "--build", opts.build, "--root", opts.root],
                                    env=amp_tools.module_environment())
                    if done.returncode != 0:
                        last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
                        return [], f"simulating {strategy} on {network_name(path)} failed: {last}"
            try:
                state = steady_state.of_simulation(out, results.load(out), synthesized[strategy]["num_tsteps"])
            except steady_state.NotSteady as e:
                return [], f"{strategy} on {network_name(path)}: no steady step: {e}"
            if state is None:
                return [], f"{strategy} on {network_name(path)}: its one-step companion was not simulated"
            predicted[(strategy, network_name(path))] = state["per_step_seconds"] * 1e3
    return table(plan, seconds, predicted, synthesized, deck_size(deck)), None


def deck_size(deck):
    """The deck's own block and variables ({nx, ny, nz, num_vars} as it gives them), {} when it cannot be read."""
    try:
        with open(deck, "rb") as f:
            data = tomllib.load(f)
    except (OSError, TypeError, tomllib.TOMLDecodeError):
        return {}
    return {k: data[k] for k in ("nx", "ny", "nz", "num_vars") if k in data}


def problem_words(config, deck):
    """What was synthesized, from a synthesis's own results config (never from PROBLEM): its block, variables,
    stencil and steps, beside the deck's own block and variables where they differ."""
    block = "x".join(str(n) for n in config["local_block"])
    words = f"a {block} block, {config['num_vars']} variables, {config['stencil']}, {config['num_tsteps']} steps"
    own = ("x".join(str(deck.get(k, "?")) for k in ("nx", "ny", "nz")), deck.get("num_vars", "?"))
    if deck and own != (block, config["num_vars"]):
        words += f" (not the deck's {own[0]} block and {own[1]} variables)"
    return words


def network_files(given, root):
    """The checked network files of --networks: each a name under ROOT/inputs/networks/ (torus-16x16x4) or a path
    to a network file (one with a '/' or ending in .toml). Raises networks.NetworkError naming the first that is
    not one (an unknown name with the valid ones)."""
    folder = os.path.join(root, "inputs", "networks")
    files = []
    for n in given:
        if "/" in n or n.endswith(".toml"):
            path = n
        else:
            path = os.path.join(folder, f"{n}.toml")  # a name without a separator
            if not n or not os.path.isfile(path):
                known = sorted(n[:-len(".toml")] for n in os.listdir(folder) if n.endswith(".toml")) \
                    if os.path.isdir(folder) else []
                raise networks.NetworkError(f"unknown network '{n}' (the names are those of {folder}: "
                                            f"{', '.join(known) or 'none'}; or give a path to a network file)")
        networks.load(path)  # a missing or malformed file: one line naming it
        files.append(path)
    return files


def network_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def table(plan, seconds, predicted, synthesized, deck):
    """The printed lines: ms per steady step of the first strategy, each other strategy against it, per network;
    the first line and each network's line say what was synthesized (read from the syntheses' results)."""
    strategies, names = plan.strategies, [network_name(p) for p in plan.network_files]
    said = {problem_words(synthesized[c], deck) for c in strategies}
    what = said.pop() if len(said) == 1 else \
        "; ".join(f"{c}: {problem_words(synthesized[c], deck)}" for c in strategies)
    short = {"x".join(str(n) for n in synthesized[c]["local_block"]) + f" block, {synthesized[c]['num_vars']} variables"
             for c in strategies}
    lines = [f"amp: predicted at {plan.ranks} ranks (synthesized: {what}; a steady step, steps 2-{STEPS}, the "
             f"first apart; compute model {seconds * 1e6:.2f} us per variable step for every strategy; SimGrid):"]
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
        lines.append(f"amp: {plan.ranks} ranks, {network}: {line} (synthesized: {'; '.join(sorted(short))})")
    return lines


def main():
    """The step alone, on a folder holding the baseline run (by default as the study names none:
    DIR/ghost-<first strategy>-isend.json)."""
    parser = command_line.Parser("predict_at_scale", __doc__.split("\n\n")[0],  # a usage error: one line, exit 2
                                 parents=[command_line.common_options(launcher=False)])
    parser.add_argument("dir")
    parser.add_argument("--deck", required=True)
    parser.add_argument("--root", default=amp_tools.REPOSITORY)
    parser.add_argument("--baseline", help="the results file of the first strategy's run, at whose rank count the "
                                           "compute model is measured")
    parser.add_argument("--ranks", type=int, default=1024)
    parser.add_argument("--strategies", default="bspma,svaf")
    parser.add_argument("--networks", default="torus-16x16x4,dragonfly-1024")
    opts = parser.parse_args()
    strategies = opts.strategies.split(",")
    try:
        files = network_files(opts.networks.split(","), opts.root)
        node = one_node([networks.load(f) for f in files])
    except networks.NetworkError as e:
        print(f"predict_at_scale: error: --networks: {e}", file=sys.stderr)
        return 2
    plan = Plan(opts.ranks, strategies, files, node)
    baseline = opts.baseline or os.path.join(opts.dir, f"ghost-{component(strategies[0])}-isend.json")
    try:
        lines, problem = predict(plan, baseline, opts.deck, opts.dir, opts)
    except OSError as e:
        print(f"predict_at_scale: error: cannot read '{e.filename}': {e.strerror}", file=sys.stderr)
        return 2
    except ThroughLink as e:
        print(f"predict_at_scale: error: {e}", file=sys.stderr)
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
