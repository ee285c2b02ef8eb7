#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How a study's compute model drifts with time on this machine (docs/VALIDATION.md, "Compute"): BATCHES
times in a row, this machine's STREAM triad per core (`amp-micro stream`, one rank, one thread) and one
model of the seed deck as a study measures it (a warm-up, then 5 one-step syntheses at 2 ranks, their
median: amp_tools.study_compute_model), printed with the model scaled by the triad. A model that tracked
the node's memory bandwidth would keep the scaled column steady.

  bench/simulate/model_drift.py [PROXY] [BATCHES] [WORKDIR]     # defaults: sage 6 /tmp/amp-model-drift
from the repository root, with build/ built. Run it on a quiet machine: the measurements say when it is not.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from amp_tools import proxy_command, results  # noqa: E402
from amp_tools.study_compute_model import measure_side_by_side  # noqa: E402

SEED_DECKS = {"ghost": "inputs/ghost/cth-seed.toml", "sage": "inputs/sage/sage-seed.toml",
              "nobel": "inputs/nobel/xnobel-seed.toml"}


def main(proxy="sage", batches="6", workdir="/tmp/amp-model-drift"):
    if proxy not in SEED_DECKS:
        sys.exit(f"model_drift: error: no seed deck for '{proxy}' (one of {', '.join(SEED_DECKS)})")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    os.environ.update(OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    deck = SEED_DECKS[proxy]
    run = {"proxy": proxy, "deck": deck, "ranks": 2,
           "args": proxy_command.proxy_line(proxy, ["--strategy", "bspma"], deck, "build")}
    print("batch | model here (s) | settled | quiet | STREAM triad (GB/s per core) | model x triad")
    for batch in range(int(batches)):
        stream = os.path.join(workdir, f"stream-{batch}.json")
        subprocess.run(["build/bin/amp-micro", "stream", "--results", stream], check=True, capture_output=True)
        triad = next(r for r in results.load(stream)["rows"] if r["kernel"] == "triad")["GBps_per_rank_best"]
        model = measure_side_by_side(run, [os.path.join(workdir, f"model-{batch}")])[0]
        print(f"{batch} | {model['seconds_here']:.4g} | {model['settled']} | {model['quiet']} | {triad:.2f} | "
              f"{model['seconds_here'] * triad:.4g}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:4])
