#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A study's compute model is stable (issue 44 item 3): for each proxy's seed deck (inputs/*/*-seed.toml),
two measurements of the model as a study makes it (amp_tools.study_compute_model.measure_settled: a
warm-up and 5 one-step syntheses, their median) agree within 5 % on a quiet machine, and each records
its spread.

The machine must be quiet: CTest runs this test alone (RUN_SERIAL). A measurement during which other
processes took more than a tenth of the CPU (tools/machine_load.py's rule), or whose median is not
settled (its neighbours more than 5 % apart), is measured again once, as a study does; if it is still
noisy the test says so and is skipped (exit 77), since it would measure the other work, not the model.

Usage: compute_model_stable_test.py BUILD ROOT WORKDIR
"""
import os
import shutil
import sys

from amp_tools import proxy_command
from amp_tools.study_compute_model import REPETITIONS, measure_settled

AGREEMENT = 0.05  # the "within 5 %"
RANKS = 2         # the model is per block (ghost, sage: weak scaling) or per AMR block (nobel)
SEED_DECKS = {"ghost": "inputs/ghost/cth-seed.toml", "sage": "inputs/sage/sage-seed.toml",
              "nobel": "inputs/nobel/xnobel-seed.toml"}
SKIP = 77


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def quiet_measurement(run, base):
    """measure_settled's result when it is quiet and settled, or None when the machine stays noisy."""
    measured = measure_settled(run, base)
    if measured["warning"]:
        print(f"note: {run['proxy']}: measured {measured['attempts']} times, still noisy: {measured['warning']}")
        return None
    return measured


def main():
    build, root, workdir = (os.path.abspath(a) for a in sys.argv[1:4])
    workdir = os.path.join(workdir, "compute-model-stable")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    os.environ.update(OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    for proxy, deck in SEED_DECKS.items():
        deck = os.path.join(root, deck)
        run = {"proxy": proxy, "deck": deck, "ranks": RANKS,
               "args": proxy_command.proxy_line(proxy, ["--strategy", "bspma"], deck, build)}
        first, second = (quiet_measurement(run, os.path.join(workdir, f"{proxy}-{n}")) for n in (1, 2))
        if first is None or second is None:
            print(f"SKIP: {proxy}'s model stayed noisy or unsettled (the machine was not quiet); nothing was compared")
            sys.exit(SKIP)
        for measured in (first, second):
            if len(measured["repetitions_here"]) != REPETITIONS or not measured["seconds_here"] > 0:
                fail(f"{proxy}: not {REPETITIONS} positive repetitions: {measured}")
        a, b = first["seconds_here"], second["seconds_here"]
        difference = abs(a - b) / min(a, b)
        print(f"{proxy}: {first['step']}: {a:.4g} s and {b:.4g} s here (spreads {100 * first['spread']:.1f} % and "
              f"{100 * second['spread']:.1f} % over {REPETITIONS}): {100 * difference:.1f} % apart")
        if difference > AGREEMENT:
            fail(f"{proxy}: two quiet measurements of the compute model are {100 * difference:.1f} % apart, more "
                 f"than {100 * AGREEMENT:.0f} %")
    print("ok: each seed deck's compute model, measured twice on a quiet machine, agrees within 5 %")


if __name__ == "__main__":
    main()
