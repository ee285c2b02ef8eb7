# SPDX-License-Identifier: BSD-3-Clause
"""A study's size, counted from its axes before any run, synthesis or simulation is listed (a list of a
billion would never end), and refused past PLAN_LIMIT unless the user gives --yes; and its plan (--plan):
every run, synthesis, calibration and simulation it would make, one line each, with nothing run.
"""
import os

from amp_tools import networks
from amp_tools import predict_at_scale
from amp_tools import study_simulation

# Runs, syntheses and simulations a study makes without --yes. Each is a process of a second or more (a
# SimGrid replay of a small trace, a proxy run on 2 cores): 1000 is an hour or more of this machine, past
# what anyone types by accident (a vary of three keys with ten values each and three traces is 3000).
PLAN_LIMIT = 1000
# ... and with it: 100000 seconds are more than a day, and the list itself would take a while to make.
MOST = 100_000


class TooBig(Exception):
    """The plan is larger than PLAN_LIMIT (without --yes) or MOST: a usage error (exit 2), one line."""


def _points(study, fits=lambda strategy, transport: True):
    """Points (proxy, deck, flags, strategy, transport) of the study that fit, for which fits() holds."""
    skipped, resolved = getattr(study, "skipped", set()), getattr(study, "axes", {})
    total = 0
    for proxy in study.proxies:
        strategies, transports = resolved.get(proxy, (study.strategies_of(proxy), study.transports))
        pairs = sum((proxy, s, t) not in skipped and fits(s, t) for s in strategies for t in transports)
        total += len(study.decks[proxy]) * len(study.flags[proxy]) * pairs
    return total


def size(study):
    """(runs, syntheses, simulations) the study makes, counted without listing them; simulations are those
    it tries (a trace that a network cannot hold is left out only when it is listed)."""
    runs = _points(study) * len(study.ranks) * study.repetitions
    syntheses = simulations = 0
    plan = study.simulation
    if plan:
        syntheses = _points(study) * len(plan.synthesize_ranks)
        traced = 0
        if study.trace:
            traced = _points(study, lambda s, t: study.trace is True or t in study.trace)
            traced *= len(study.ranks) * study.repetitions
        pending = sum(study_simulation.variant_count(plan.vary, plan.replicates, "minimal") for _ in plan.to_calibrate)
        simulations = (traced + syntheses) * (len(plan.variants) + pending) * len(plan.simulators)
    if study.prediction:  # each strategy over its steps and as one step (its steady step: predict_at_scale.py)
        syntheses += 2 * len(study.prediction.strategies)
        simulations += 2 * len(study.prediction.strategies) * len(study.prediction.network_files)
    return runs, syntheses, simulations


def check_size(study, yes):
    """Raises TooBig when the study makes more than MOST runs, syntheses and simulations, or more than
    PLAN_LIMIT without `yes` (--yes)."""
    runs, syntheses, simulations = size(study)
    total = runs + syntheses + simulations
    what = (f"{study.path}: the study makes {total} runs, syntheses and simulations ({runs}, {syntheses} and "
            f"{simulations})")
    if total > MOST:
        raise TooBig(f"{what}, more than the {MOST} a study makes (over a day at a second each); make it smaller")
    if total > PLAN_LIMIT and not yes:
        raise TooBig(f"{what}, more than {PLAN_LIMIT}: give --yes to make them all (with --plan: to list them)")


def print_plan(study, runs):
    """Every run, synthesis, calibration and simulation the study would make, one line each, and their
    counts: the study expanded, with nothing run and no folder made. A network file still to be measured
    (calibrate = true) is measured before the simulations on it, which are listed as they will be."""
    for r in runs:
        print(f"run {r['id']} ({r['ranks']} ranks)")
    synthesized, simulations, calibrations = [], [], []
    if study.simulation:
        plan = study.simulation
        synthesized = study_simulation.synthesis_runs(study, runs)
        for r in synthesized:
            print(f"synthesis {study_simulation.shown_id(r)} ({r['ranks']} ranks)")
        for path in plan.to_calibrate:
            calibrations.append(path)
            print(f"calibration: this machine measured into {os.path.relpath(path, study.root)} (./amp simulate "
                  "--calibrate), before the "
                  f"simulations on it")
        traced = [r for r in runs if study.traced(r)] + synthesized
        for run_id, network, simulator, problem in study_simulation.planned_simulations(plan, traced):
            variant = f"{network.name}{f' ({networks.overrides_text(network.overrides)})' if network.overrides else ''}"
            if problem:
                print(f"not simulated {run_id} on {variant} with {simulator}: {problem}")
            else:
                simulations.append(run_id)
                print(f"simulation {run_id} on {variant} with {simulator}")
        for r in traced:
            for name, overrides in study_simulation.pending_variants(plan):
                for simulator in plan.simulators:
                    simulations.append(study_simulation.shown_id(r))
                    variant = f"{name}{f' ({networks.overrides_text(overrides)})' if overrides else ''}"
                    print(f"simulation {study_simulation.shown_id(r)} on {variant} with {simulator} (once it is "
                          "measured)")
    predictions = print_predictions(study.prediction)
    plural = "s" if len(calibrations) > 1 else ""
    calibrated = f", {len(calibrations)} calibration{plural} first" if calibrations else ""
    predicted = f", and {predictions} predictions at scale ([predict])" if predictions else ""
    print(f"study: plan of {study.name}: {len(runs)} runs, {len(synthesized)} syntheses{calibrated}, "
          f"{len(simulations)} simulations{predicted}")


def print_predictions(prediction):
    """The [predict] step's lines (predict_at_scale.py), each strategy synthesized and simulated on each network
    (and as one step: its steady step), once the study's runs are done; returns how many predictions."""
    if not prediction:
        return 0
    count = 0
    for strategy in prediction.strategies:
        for path in prediction.network_files:
            count += 1
            print(f"prediction ghost-{strategy}-synth{prediction.ranks} on {predict_at_scale.network_name(path)} "
                  f"with simgrid ({predict_at_scale.STEPS} steps and first-step/'s one: a steady step)")
    return count
