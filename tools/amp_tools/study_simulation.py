# SPDX-License-Identifier: BSD-3-Clause
"""A study's [simulate] table: which simulators and network files predict its traced runs, and which
rank counts beyond this machine are traced by synthesis. Synthesized points run once each (synthesis
is deterministic), with one compute time per variable step for every strategy of a point, so that only
communication differs; the time is measured once per point and rank count, recorded in the study folder
and scaled to the networks' node (study_compute_model.py), unless compute_seconds gives it (0: none, for
a network study). Each trace is then simulated on every variant of every network that can hold it, into
<trace>/simulation-<network>-<key>-<simulator>.json; what exists already is kept (a study resumes).

A variant is a network file with network keys set on top (simulate.py --set): every combination of
the values `vary` lists, and for a randomized routing (valiant, ugal) `replicates` seeds 1..N each.

[simulate]
simulators = ["simgrid"]                               # amp_tools.simulators.NAMES: simgrid, sstmac
                                                       # (needs AMP_SSTMAC), codes (needs AMP_CODES)
networks = ["inputs/networks/torus-16x16x16.toml"]     # relative to the repository root
synthesize_ranks = [1024, 4096]                        # optional
compute_seconds = 1e-4                                 # optional; 0: no compute; or per proxy,
                                                       # { ghost = 0.0107 } (a proxy not listed: measured),
                                                       # each a number or its calibration record's path
                                                       # (docs/validation/calibration-ghost.json: its model,
                                                       # scaled to the networks' node by STREAM per core)
vary = { routing = ["minimal", "valiant"], ranks_per_node = [1, 4] }   # optional
replicates = 3                                         # optional: seeds of a randomized routing (at most 1000)
max_ranks = { simgrid = 256 }                          # optional: a simulator's largest trace here; the
                                                       # bigger ones are left to the other simulators
steady_state = true                                    # optional: each synthesized point also as one step
                                                       # (first-step/), simulated alike: per-step times
                                                       # and profiles over steps 2..K, set-up apart
                                                       # (steady_state.py; K >= 3)
calibrate = true                                       # optional: a network file that does not exist
                                                       # is measured on this machine first
sim_ranks = 4                                          # optional: a parallel simulator's ranks (codes:
                                                       # ROSS optimistic; --slurm: srun -n 4 job steps)
timeout_seconds = 7200                                 # optional: how long each replay may run before it is
                                                       # ended (simulate.py --timeout; default 1800)
"""
import itertools
import json
import math
import os

import amp_tools
from amp_tools import networks
from amp_tools import proxy_command
from amp_tools import results
from amp_tools import simulate
from amp_tools import simulators as registry  # the simulators by name (`simulators` is a study's list here)
from amp_tools.output_places import make_folder
from amp_tools.steady_state import FIRST_STEP_FOLDER
from amp_tools.study_folder import keep_aside
from amp_tools.study_launch import Stopped, failure, run_logged, run_tool, signal_name
from amp_tools.study_compute_model import ComputeModels, NotMeasured, model_key, parse_compute

KEYS = {"simulators", "networks", "synthesize_ranks", "compute_seconds", "vary", "replicates", "calibrate",
        "max_ranks", "steady_state", "sim_ranks", "timeout_seconds"}
MAX_SIM_RANKS = 1 << 16  # simulator ranks of a parallel simulator's replay (simulate.py's --sim-ranks bound)
# The most virtual ranks a proxy synthesizes (kMaxVirtualRanks, src/amp/miniapps/common/plan_only.hpp: 2^24).
MAX_SYNTHESIZED_RANKS = 1 << 24
# Files a synthesis leaves, set aside (NAME.attempt-N) before it is tried again: a synthesis stopped
# midway leaves its trace begun and the proxy's NAME.json.partial, beside which the proxy would not start.
SYNTHESIS_FILES = (".json", ".json.partial", ".trace", ".log")
# Seeds of a randomized routing: the spread of their mean falls as 1/sqrt(N), to 3 % of one seed's at 1000;
# more seeds are whole simulations that change nothing a figure shows.
MAX_REPLICATES = 1000
# Variants of one network (vary's combinations x seeds) a study may list: each is a simulation of every trace,
# and each is made and checked when the study is read (10000 take 2 s here). Counted before any is made
# (variant_count).
MAX_VARIANTS = 10_000
# What a value in `vary` may be: what --set writes as TOML and a network key takes (no date, time, array
# or table).
VARY_VALUE_TYPES = (str, int, float, bool)


class Plan:
    def __init__(self, simulators, variants, synthesize_ranks, compute_seconds, to_calibrate, vary, replicates,
                 stream_per_core, max_ranks=None, steady_state=False, sim_ranks=1,
                 timeout_seconds=simulate.DEFAULT_TIMEOUT):
        self.simulators = simulators
        self.timeout_seconds = timeout_seconds  # how long each replay may run (simulate.py --timeout)
        self.sim_ranks = sim_ranks  # simulator ranks of a parallel simulator's replays (the others run on one)
        self.steady_state = steady_state  # each synthesized point also as one step, in first-step/
        self.max_ranks = max_ranks or {}  # simulator: its largest trace in this study
        self.variants = variants  # (network file, Network with its overrides): what each trace is simulated on
        self.synthesize_ranks, self.compute_seconds = synthesize_ranks, compute_seconds
        self.to_calibrate = to_calibrate  # network files measured on this machine before the simulations
        self.vary, self.replicates = vary, replicates
        self.stream_per_core = stream_per_core  # the networks' node (bytes/s per core), or None
        self.compute_sources = {}  # proxy: where its given seconds come from, for those a calibration record gives

    def given_compute(self, proxy):
        """The compute seconds per step the study gives `proxy` (the target's, unscaled), or None: measured."""
        if isinstance(self.compute_seconds, dict):
            return self.compute_seconds.get(proxy)
        return self.compute_seconds

    def simulator_ranks(self, simulator):
        """The simulator ranks `simulator` replays on in this study: sim_ranks for a parallel one, else 1."""
        return self.sim_ranks if registry.simulator(simulator).PARALLEL else 1


def parse(study, data):
    """The checked [simulate] table of a study (None without one); errors through study.fail."""
    table = study.section(data, "simulate", KEYS)
    if table is None:
        return None
    simulators = study.strings(table, "simulators") or [registry.DEFAULT]
    for simulator in simulators:
        if simulator not in registry.NAMES:
            study.fail("simulators", f"[simulate] simulator {simulator!r} is not one of {', '.join(registry.NAMES)}")
    study.no_duplicates("simulators", simulators)
    for simulator in simulators:
        missing = registry.simulator(simulator).unavailable()
        if missing:
            study.fail("simulators", f"[simulate] simulator {simulator!r} {missing}")
    paths = study.strings(table, "networks", required=True)
    study.no_duplicates("networks", paths)
    vary = parse_vary(study, table)
    replicates = study.positive_int(table, "replicates", 1, most=MAX_REPLICATES)
    if replicates > 1 and "seed" in vary:
        study.fail("vary", "[simulate] 'vary' sets 'seed', and so does 'replicates' (seeds 1..N): give one of them")
    calibrate = study.boolean(table, "calibrate")
    found, to_calibrate = [], []
    for path in paths:
        full = path if os.path.isabs(path) else os.path.join(study.root, path)
        if calibrate and not os.path.exists(full):
            to_calibrate.append(full)
            continue
        try:
            routing = networks.load(full).routing
        except networks.NetworkError as e:
            study.fail("networks", f"[simulate] {e}")
        check_variant_count(study, full, vary, replicates, routing)
        found += variants(study, full, vary, replicates, simulators)
    if replicates > 1 and not to_calibrate and not any(n.routing in networks.RANDOMIZED_ROUTINGS for _, n in found):
        study.fail("replicates", f"[simulate] 'replicates' runs seeds of a randomized routing "
                                 f"({', '.join(networks.RANDOMIZED_ROUTINGS)}), and no network or variant has one")
    ranks = []
    if "synthesize_ranks" in table:
        ranks = study.positive_ints(table, "synthesize_ranks")
        study.no_duplicates("synthesize_ranks", ranks)
        if max(ranks) > MAX_SYNTHESIZED_RANKS:
            study.fail("synthesize_ranks", f"[simulate] 'synthesize_ranks' value {max(ranks)} is more than the "
                                           f"{MAX_SYNTHESIZED_RANKS} virtual ranks a proxy synthesizes")
    node = one_node(study, found)
    compute, sources = parse_compute(study, table, node)
    steady_state = study.boolean(table, "steady_state")
    if steady_state and not ranks:
        study.fail("steady_state", "[simulate] 'steady_state' pairs each synthesized point with its first step; "
                                   "give 'synthesize_ranks'")
    sim_ranks = study.positive_int(table, "sim_ranks", 1, most=MAX_SIM_RANKS)
    if sim_ranks > 1 and not any(registry.simulator(s).PARALLEL for s in simulators):
        study.fail("sim_ranks", f"[simulate] 'sim_ranks' is the simulator ranks of a parallel simulator's replays "
                                f"({', '.join(n for n in registry.NAMES if registry.simulator(n).PARALLEL)}), and the "
                                f"study's simulators ({', '.join(simulators)}) replay on one")
    timeout_seconds = study.positive_int(table, "timeout_seconds", simulate.DEFAULT_TIMEOUT,
                                         most=int(simulate.TIMEOUT_LIMIT))
    plan = Plan(simulators, found, ranks, compute, to_calibrate, vary, replicates, node,
                parse_max_ranks(study, table, simulators), steady_state, sim_ranks, timeout_seconds)
    plan.compute_sources = sources
    return plan


def parse_max_ranks(study, table, simulators):
    """The checked `max_ranks` table: {simulator of the study: its largest trace}; {} without one."""
    limits = table.get("max_ranks", {})
    if not isinstance(limits, dict) or ("max_ranks" in table and not limits):
        study.fail("max_ranks", "[simulate] 'max_ranks' must be a table of simulators, each with its largest "
                                "trace in ranks, e.g. max_ranks = { simgrid = 256 }")
    for simulator, most in limits.items():
        if simulator not in simulators:
            study.fail("max_ranks", f"[simulate] 'max_ranks' names {simulator!r}, which is not one of the study's "
                                    f"simulators ({', '.join(simulators)})")
        if isinstance(most, bool) or not isinstance(most, int) or most < 1:
            study.fail("max_ranks", f"[simulate] 'max_ranks' of {simulator} must be a positive number of ranks "
                                    f"(got {most!r})")
    return limits


def too_many_ranks(plan, simulator, ranks):
    """One line when the study leaves a trace of `ranks` ranks to its other simulators, else None."""
    most = plan.max_ranks.get(simulator)
    if most is None or ranks <= most:
        return None
    return f"{simulator} takes traces of up to {most} ranks in this study (max_ranks), not {ranks}"


def not_simulated(plan, network, simulator, ranks, memory=None):
    """Why the study does not simulate a trace of `ranks` ranks on this network with this simulator (the
    study's max_ranks, then simulators.check_fits), or None."""
    return too_many_ranks(plan, simulator, ranks) or registry.check_fits(network, simulator, ranks, memory=memory,
                                                                          sim_ranks=plan.simulator_ranks(simulator))


def one_node(study, found):
    """The networks' common stream_per_core (None where none gives it): a synthesized trace has one compute
    model, so the networks it is simulated on must share their node."""
    nodes = {n.stream_per_core for _, n in found}
    if len(nodes) > 1:
        named = ", ".join(sorted({f"{n.name} {n.stream_per_core or 'none'}" for _, n in found}))
        study.fail("networks", f"[simulate] the networks' nodes differ (stream_per_core: {named}): a synthesized "
                               f"trace has one compute model, scaled to one node; study each node on its own")
    node = nodes.pop() if nodes else 0.0
    return node or None


def parse_vary(study, table):
    """The checked `vary` table: {network key: its non-empty list of values, none twice}; {} without one."""
    vary = table.get("vary", {})
    if not isinstance(vary, dict) or ("vary" in table and not vary):
        study.fail("vary", "[simulate] 'vary' must be a table of network keys, each with a list of values, "
                           "e.g. vary = { routing = [\"minimal\", \"valiant\"] }")
    for key, values in vary.items():
        if not isinstance(values, list) or not values:
            study.fail("vary", f"[simulate] 'vary' key {key!r} must have a non-empty list of values (got {values!r})")
        for value in values:
            if not isinstance(value, VARY_VALUE_TYPES):
                study.fail("vary", f"[simulate] 'vary' key {key!r}: each value must be a string, number or boolean "
                                   f"(got {value!r}, a {type(value).__name__})")
        written = [json.dumps(v, sort_keys=True) for v in values]
        for i, text in enumerate(written):
            if text in written[:i]:
                study.fail("vary", f"[simulate] 'vary' key {key!r} gives {values[i]!r} twice (each value is one "
                                   f"variant)")
    return vary


def variant_count(vary, replicates, routing):
    """How many variants `variants` lists at most for a file of this routing, counted without making them:
    every combination of vary's values, a randomized routing's once per seed."""
    routings = vary.get("routing", [routing])
    randomized = sum(r in networks.RANDOMIZED_ROUTINGS for r in routings) if replicates > 1 else 0
    others = math.prod(len(values) for key, values in vary.items() if key != "routing")
    return others * (len(routings) - randomized + randomized * replicates)


def check_variant_count(study, path, vary, replicates, routing):
    """Refuses (study.fail) a network whose variants would pass MAX_VARIANTS, before one is made."""
    count = variant_count(vary, replicates, routing)
    if count > MAX_VARIANTS:
        study.fail("vary", f"[simulate] 'vary' and 'replicates' make {count} variants of {os.path.basename(path)}, "
                           f"more than the {MAX_VARIANTS} a study simulates (each a simulation of every trace)")


def pending_variants(plan):
    """(network name, overrides) of each variant of the network files still to be measured (calibrate =
    true), as they will be once measured: a measured file's routing is minimal."""
    out = []
    for path in plan.to_calibrate:
        name = os.path.splitext(os.path.basename(path))[0]
        for values in itertools.product(*plan.vary.values()):
            overrides = dict(zip(plan.vary, values))
            seeded = plan.replicates > 1 and overrides.get("routing") in networks.RANDOMIZED_ROUTINGS
            for seed in range(1, plan.replicates + 1) if seeded else [None]:
                out.append((name, overrides if seed is None else {**overrides, "seed": seed}))
    return out


def variants(study, path, vary, replicates, simulators):
    """(path, Network) of each combination of `vary`'s values on top of the file (the file itself without
    `vary`), each randomized routing once per seed 1..replicates; errors through study.fail. A variant
    some simulator cannot express is skipped there when the study is run; one that none can is an error,
    as is a file without `vary` that one of them cannot express."""
    out, seen = [], set()
    for values in itertools.product(*vary.values()):
        overrides = dict(zip(vary, values))
        try:
            network = networks.load(path, overrides)
        except networks.NetworkError as e:
            study.fail("vary", f"[simulate] 'vary': {e}")
        problems = [p for p in (registry.check_fits(network, s, 1) for s in simulators) if p]
        if problems and (not vary or len(problems) == len(simulators)):
            study.fail("vary" if vary else "networks", f"[simulate] {problems[0]}"
                                                       f"{f' ({networks.overrides_text(overrides)})' if vary else ''}")
        seeded = replicates > 1 and network.routing in networks.RANDOMIZED_ROUTINGS
        for seed in range(1, replicates + 1) if seeded else [None]:
            variant = network if seed is None else networks.load(path, {**overrides, "seed": seed})
            if variant.label not in seen:  # e.g. 1 and 1.0: one machine, one simulation
                seen.add(variant.label)
                out.append((path, variant))
    return out


def calibrate(study, opts):
    """Measures this machine into each network file of [simulate] still missing (calibrate = true, as
    `./amp simulate --calibrate`), then adds it to the files simulated on. Returns 1 if one failed, else 0."""
    plan = study.simulation
    for path in plan.to_calibrate:
        if not os.path.exists(path):
            print(f"study: measuring this machine for its network file (once): {os.path.relpath(path, opts.root)}")
            done = run_tool(amp_tools.module_command("simulate") + [
                            "--calibrate", "--output", path, "--build", opts.build, "--root", opts.root,
                            "--mpiexec", opts.mpiexec, "--cores", str(opts.cores)], env=amp_tools.module_environment())
            if done.returncode != 0:
                print(f"study: calibrating this machine failed: "
                      f"{(done.stderr.strip().splitlines() or [f'exit {done.returncode}'])[-1]}")
                return 1
        try:
            check_variant_count(study, path, plan.vary, plan.replicates, networks.load(path).routing)
            plan.variants += variants(study, path, plan.vary, plan.replicates, plan.simulators)
        except Exception as e:  # study.fail's one line: the measured file does not fit the study's simulators
            print(f"study: {e}")
            return 1
    plan.to_calibrate = []
    return 0


def set_options(overrides):
    """simulate.py's --set KEY=VALUE for each key set on top of the file; the JSON of a string, number,
    boolean or list is also its TOML, which --set reads."""
    return [option for key, value in overrides.items() for option in ("--set", f"{key}={json.dumps(value)}")]


def run_base(folder, run):
    """The path of a run's files without their suffix: FOLDER/<id>, or FOLDER/first-step/<id> for a
    synthesized point's one-step companion (ids are safe parts: Study.runs)."""
    return os.path.join(folder, *([FIRST_STEP_FOLDER] if run.get("first_step") else []), run["id"])


def synthesis_runs(study, runs):
    """One synthesized run per point (proxy, deck, flags, strategy, transport) and rank count, made from
    the study's first repetition at its smallest rank count: id <point>-synth<N>; with steady_state, each
    also as one step (first_step: its files in first-step/, the same id)."""
    out, seen = [], set()
    for r in runs:
        if r["repetition"] != 1 or r["ranks"] != min(study.ranks):
            continue
        point = r["id"].rsplit("-np", 1)[0]
        for n in study.simulation.synthesize_ranks:
            if (point, n) in seen:
                continue
            seen.add((point, n))
            out.append({**r, "id": f"{point}-synth{n}", "ranks": n, "synthesized": True})
    out.sort(key=lambda r: r["ranks"])  # the smaller rank counts first: a study stopped midway has them whole
    if study.simulation.steady_state:  # each point's companion right after it: a study stopped midway has pairs
        out = [run for r in out for run in (r, {**r, "first_step": True,
                                                 "args": proxy_command.with_steps(r["args"], r["proxy"], 1)})]
    return out


def planned_simulations(plan, traced):
    """(run id, network, simulator, refusal or None) of every simulation the study would make of the
    traced runs, as simulate_all goes through them."""
    return [(shown_id(r), network, simulator, not_simulated(plan, network, simulator, r["ranks"], memory=0))
            for r in traced for _, network in plan.variants for simulator in plan.simulators]


def shown_id(run):
    """A run's id as the study prints it: a one-step companion's under first-step/."""
    return f"{FIRST_STEP_FOLDER}/{run['id']}" if run.get("first_step") else run["id"]


def made_with(base):
    """The compute seconds per step the synthesis base.json was given, or None when it cannot be read."""
    try:
        return float(results.synthesized_compute_seconds(results.load(base + ".json")))
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


def run_syntheses(plan, runs, folder, opts):
    """Synthesizes what is missing, each with the compute model of its point (measured once, recorded in
    compute_model.json, study_compute_model.py); returns the ids that failed."""
    models = ComputeModels(folder, plan, opts.build)
    groups = {}
    for r in runs:
        groups.setdefault(model_key(r), []).append(r)
    failed = []
    for r in runs:
        base = run_base(folder, r)
        made = os.path.isfile(base + ".json") and os.path.isdir(base + ".trace")
        if made and plan.given_compute(r["proxy"]) is None and model_key(r) not in models.data["models"]:
            continue  # made before the study recorded models: kept as it is, nothing measured for it
        try:
            compute = models.seconds(r, groups[model_key(r)])
        except NotMeasured as e:
            failed.append(shown_id(r))
            print(f"study: synthesis {shown_id(r)}: its compute model could not be measured: {e}")
            continue
        if made:
            used = made_with(base)
            if used == compute:
                continue
            # a point's strategies must share one model: a synthesis made with another (a study stopped
            # and started again around a measurement, or a model measured again) is made again
            print(f"study: synthesis {shown_id(r)} was made with {used!r} s per compute step, its point's recorded "
                  f"model is {compute!r} s: made again (the old one kept aside)")
        make_folder(os.path.dirname(base))
        for suffix in SYNTHESIS_FILES:
            keep_aside(base + suffix)
        command = [*r["args"], "--synthesize", base + ".trace", "--ranks", str(r["ranks"]), "--results", base + ".json",
                   "--compute_seconds", repr(float(compute))]  # the point's recorded model, the same for every strategy
        try:
            status, signum = run_logged(command, base + ".log",
                                        env=dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false"))
        except Stopped as stopped:
            print(f"study: synthesis {shown_id(r)}: STOPPED by {signal_name(stopped.signum)} (log: {base}.log)")
            raise
        if status != 0 or signum:
            failed.append(shown_id(r))
            print(f"study: synthesis {shown_id(r)}: {failure(status, signum, base + '.log')} (log: {base}.log)")
            continue
        print(f"study: synthesized {shown_id(r)} ({r['ranks']} ranks, {compute:.4g} s per compute step)")
    return failed


def simulate_all(plan, traced, folder, opts):
    """Every traced run on every network variant x simulator that holds it. Returns the number that failed."""
    failed, skipped = 0, set()
    for r in traced:
        trace = run_base(folder, r) + ".trace"
        if not os.path.isdir(trace):
            continue
        for path, network in plan.variants:
            for simulator in plan.simulators:
                out = simulate.output_path(trace, network, simulator)
                if os.path.isfile(out):
                    continue
                problem = not_simulated(plan, network, simulator, r["ranks"])
                if problem:
                    # once per variant and problem: the seeds of one variant share it
                    named = {k: v for k, v in network.overrides.items() if k != "seed"}
                    line = f"study: not simulated: {problem}{f' ({networks.overrides_text(named)})' if named else ''}"
                    if line not in skipped:
                        skipped.add(line)
                        print(line)
                    continue
                done = run_tool(amp_tools.module_command("simulate") + [trace, "--network", path,
                                 *set_options(network.overrides), "--simulator", simulator,
                                 "--sim-ranks", str(plan.simulator_ranks(simulator)), "--mpiexec", opts.mpiexec,
                                 "--timeout", str(plan.timeout_seconds),
                                 "--build", opts.build],  # its --root: AMP's own (tools/sstmac/)
                                env=amp_tools.module_environment())
                if done.returncode == 0:
                    print(f"study: {done.stdout.strip()}")
                elif done.returncode == 2:  # no TI form (one-sided, partitioned, ...), or will not fit
                    print(f"study: not simulated: {shown_id(r)}: {done.stderr.strip().splitlines()[-1]}")
                    break
                else:
                    failed += 1
                    print(f"study: simulating {shown_id(r)} on {network.name} ({simulator}) failed: "
                          f"{done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}")
    return failed
