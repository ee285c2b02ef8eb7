#!/usr/bin/env python3
"""The default study's last step: each cut of amp-ghost's deck, synthesized at 1024 ranks (one compute
time per variable step for every cut, measured in this study's own bspma/isend run, so that only
communication differs) and replayed in SimGrid on a torus and a dragonfly; prints a small table of
each cut's predicted time per step against bspma's.

The synthesized problem is the deck on a 16^3 block per rank, 4 variables and 2 steps: SimGrid's
replay time grows faster than the message count, and SVCP at 1024 ranks takes minutes on 2 cores, so
--cuts leaves it out of `./amp run` by default (the study inputs/studies/network_4096.toml has it).

Usage: python3 -m amp_tools.predict_at_scale DIR --deck DECK --build BUILD [--ranks 1024] [--cuts bspma,svaf]
       [--networks torus-16x16x4,dragonfly-1024]
"""
import argparse
import json
import os
import subprocess
import sys

import amp_tools
from amp_tools import simulate

PROBLEM = ["--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "4", "--num_tsteps", "2", "--num_spikes", "1"]


def compute_per_variable_step(results):
    with open(results) as f:
        run = json.load(f)
    config = run["config"]
    return run["timing"]["compute"]["avg"] / (config["num_tsteps"] * config["num_vars"]), config


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--deck", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--root", default=amp_tools.REPOSITORY)
    parser.add_argument("--ranks", type=int, default=1024)
    parser.add_argument("--cuts", default="bspma,svaf")
    parser.add_argument("--networks", default="torus-16x16x4,dragonfly-1024")
    args = parser.parse_args()
    baseline = os.path.join(args.dir, "ghost-bspma-isend.json")
    seconds, config = compute_per_variable_step(baseline)
    # The measured block is the deck's; the synthesized one is 16^3: scale by cells.
    cells = config["nx"] * config["ny"] * config["nz"]
    seconds *= 16 ** 3 / cells
    cuts, networks = args.cuts.split(","), args.networks.split(",")
    predicted = {}
    for cut in cuts:
        trace = os.path.join(args.dir, f"ghost-{cut}-synth{args.ranks}.trace")
        if not os.path.isdir(trace):
            done = subprocess.run([os.path.join(args.build, "bin", "amp-ghost"), "--input", args.deck, *PROBLEM,
                                   "--comm_method", cut, "--synthesize", trace, "--ranks", str(args.ranks),
                                   "--compute_seconds", repr(seconds)], capture_output=True, text=True,
                                  env=dict(os.environ, OMP_NUM_THREADS="1"))
            if done.returncode != 0:
                print(f"amp: error: synthesizing {cut} at {args.ranks} ranks: {done.stderr.strip()}", file=sys.stderr)
                return 1
        for network in networks:
            path = os.path.join(args.root, "inputs", "networks", f"{network}.toml")
            done = subprocess.run(amp_tools.module_command("simulate") + [trace,
                                  "--network", path, "--build", args.build, "--root", args.root],
                                  capture_output=True, text=True, env=amp_tools.module_environment())
            if done.returncode != 0:
                print(f"amp: error: simulating {cut} on {network}: {done.stderr.strip()}", file=sys.stderr)
                return 1
            with open(simulate.simulation_file(trace, path, "simgrid")) as f:
                predicted[(cut, network)] = json.load(f)["predicted_seconds"] / 2 * 1e3  # 2 steps
    print(f"amp: predicted at {args.ranks} ranks (synthesized: the deck on a 16^3 block, 4 variables, 2 steps, "
          f"{seconds * 1e6:.2f} us per variable step for every cut; SimGrid):")
    width = max(len(n) for n in networks) + 2
    print("  " + "network".ljust(width) + "".join(f"{c:>14}" for c in cuts))
    for network in networks:
        base = predicted[(cuts[0], network)]
        cells = [f"{base:.3f} ms" if c == cuts[0] else f"{predicted[(c, network)] / base:.2f}x {cuts[0]}" for c in cuts]
        print("  " + network.ljust(width) + "".join(f"{v:>14}" for v in cells))
    for network in networks:
        line = ", ".join(f"{c} {predicted[(c, network)] / predicted[(cuts[0], network)]:.2f}x {cuts[0]}"
                         for c in cuts[1:])
        print(f"amp: {args.ranks} ranks, {network}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
