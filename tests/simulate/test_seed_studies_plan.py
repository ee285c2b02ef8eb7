#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The seeds' studies expand to the points they promise (amp_tools.study --plan, which runs nothing and
makes no folder): cielo_profile, CTH's seed deck with BSPMA, one neighbour at a time and SVAF synthesized at
256 ranks (each also as one step) and simulated on the XT5 (Table III's machine) in SST-macro;
cielo_network_swap, each application's own scheme and CTH's SVAF at 256 ranks on the XT6 and the XE6 in
SST-macro; cielo_network_swap_1024_sage_nobel, SAGE's and xNOBEL's own at 1024 ranks on both;
cielo_cth_scaling, CTH's BSPMA at 16-128 ranks on both; aces_routing, CTH's truncated step
(BSPMA) at 1024 ranks on minimal, valiant and UGAL in SST-macro; xnobel_amr_steps, xNOBEL's SVCP point at 256
ranks over 7 steps (and 1) on the XT6; xnobel_rebalance, its calibration point with three rebalance intervals
on the XT5. Every point also as one step (steady state). aces_nic_sharing, one step of 1024 ranks at one and
four per NIC and 4096 at four, each with 192 and 96 global links (4096 at one per NIC named as not fitting);
the NIC-queue experiments (xnobel_swap_1024_fifo, cth_xt5_queue, cth_swap_queue, cth_swap_1024_queue), each
point replayed with the FIFO queue given on its study's machines.

Usage: test_seed_studies_plan.py BUILD ROOT WORKDIR
"""
import os
import re
import stat
import subprocess
import sys

PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
# The swap study's points: each proxy's seed deck and its strategies (the study's [strategies] table).
POINTS = {"ghost-cth-seed": ("bspma", "svaf"), "sage-sage-seed": ("bspma",), "nobel-xnobel-seed": ("svcp",)}
PROFILE_POINTS = {"ghost-cth-seed": ("bspma", "onebyone", "svaf")}


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def plan(root, build, name, env):
    done = subprocess.run([PYTHON, "-m", "amp_tools.study",
                           os.path.join(root, "inputs", "studies", f"{name}.toml"), "--root", root, "--build", build,
                           "--plan"], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        fail(f"{name} --plan exited {done.returncode}: {done.stderr.strip()}")
    lines = done.stdout.splitlines()
    return ({l.split()[1] for l in lines if l.startswith("synthesis ")},
            [l for l in lines if l.startswith("simulation ")], [l for l in lines if l.startswith("not simulated")])


def expect(name, got, want):
    if got != want:
        fail(f"{name}: expected {sorted(want) if isinstance(want, set) else want}, got "
             f"{sorted(got) if isinstance(got, set) else got}")


def main(build, root, workdir):
    os.makedirs(workdir, exist_ok=True)
    sstmac = os.environ.get("AMP_SSTMAC")
    if not sstmac:  # the plan asks only that it names an executable; nothing is run
        sstmac = os.path.join(workdir, "sstmac-not-run")
        with open(sstmac, "w") as f:
            f.write("#!/bin/sh\nexit 1\n")
        os.chmod(sstmac, stat.S_IRWXU)
    env = dict(os.environ, AMP_SSTMAC=sstmac)
    runs_before = set(os.listdir(os.path.join(root, "runs"))) if os.path.isdir(os.path.join(root, "runs")) else set()

    # Each point synthesized with its 3 steps and again as one step (first-step/, steady_state).
    points = {f"{p}-{c}" for p, strategies in POINTS.items() for c in strategies}

    def with_first_steps(ids):
        return ids | {f"first-step/{i}" for i in ids}

    # Table III's profile: CTH also one neighbour at a time; SAGE's and xNOBEL's points are their calibrations'.
    profile_points = {f"{p}-{c}" for p, strategies in PROFILE_POINTS.items() for c in strategies}
    syntheses, simulations, skipped = plan(root, build, "cielo_profile", env)
    expect("cielo_profile syntheses", syntheses, with_first_steps({f"{p}-synth256" for p in profile_points}))
    # Table III's machine, the XT5, in the simulator the decks were calibrated in (SST-macro).
    on = {s.split()[1] for s in simulations if " on xt5-seastar with sstmac" in s}
    expect("cielo_profile on xt5-seastar in sstmac", on, syntheses)
    expect("cielo_profile simulations", len(simulations), len(syntheses))
    if skipped:
        fail(f"cielo_profile: none skipped: {skipped}")

    weak_1024 = {f"{p}-synth1024" for p in points if not p.startswith("ghost-")}  # SAGE's and xNOBEL's own scheme
    for name, ids in (("cielo_network_swap", {f"{p}-synth256" for p in points}),
                      ("cielo_network_swap_1024_sage_nobel", weak_1024),
                      ("cielo_cth_scaling", {f"ghost-cth-seed-bspma-synth{n}" for n in (16, 32, 64, 128)})):
        syntheses, simulations, skipped = plan(root, build, name, env)
        expect(f"{name} syntheses", syntheses, with_first_steps(ids))
        for network in ("xt6-seastar", "xe6-gemini"):
            on = {s.split()[1] for s in simulations if f" on {network} with sstmac" in s}
            expect(f"{name} on {network} in SST-macro", on, syntheses)
        expect(f"{name} simulations", len(simulations), 2 * len(syntheses))
        if skipped:
            fail(f"{name}: none skipped: {skipped}")

    syntheses, simulations, skipped = plan(root, build, "aces_routing", env)
    expect("aces_routing syntheses", syntheses, with_first_steps({"ghost-cth-seed-bspma-synth1024"}))
    variants = {re.search(r"\((.*)\)", s).group(1) for s in simulations}
    expect("aces_routing variants", variants, {f"routing={r}" for r in ("minimal", "valiant", "ugal")})
    if len(simulations) != 6 or not all(s.endswith(" with sstmac") for s in simulations) or skipped:
        fail(f"aces_routing: each step on each routing in SST-macro: {len(simulations)} simulations, skipped {skipped}")

    syntheses, simulations, skipped = plan(root, build, "xnobel_rebalance", env)
    expect("xnobel_rebalance syntheses", syntheses,
           with_first_steps({f"nobel-xnobel-seed-flags{k}-svcp-synth256" for k in (1, 2, 3)}))
    on = {s.split()[1] for s in simulations if s.endswith(" on xt5-seastar with sstmac")}
    expect("xnobel_rebalance simulations", on, syntheses)
    if len(simulations) != 6 or skipped:
        fail(f"xnobel_rebalance: six simulations in SST-macro, none skipped: {simulations} {skipped}")

    # The AMR experiment: xNOBEL's SVCP point over 7 steps (its AMR step after step 5 among steps 2-7).
    syntheses, simulations, skipped = plan(root, build, "xnobel_amr_steps", env)
    expect("xnobel_amr_steps syntheses", syntheses, with_first_steps({"nobel-xnobel-seed-svcp-synth256"}))
    on = {s.split()[1] for s in simulations if s.endswith(" on xt6-seastar with sstmac")}
    expect("xnobel_amr_steps simulations", on, syntheses)
    if len(simulations) != 2 or skipped:
        fail(f"xnobel_amr_steps: two simulations in SST-macro, none skipped: {simulations} {skipped}")

    # Four traces per NIC and half the global links, the one-per-NIC point in the same study.
    syntheses, simulations, skipped = plan(root, build, "aces_nic_sharing", env)
    expect("aces_nic_sharing syntheses", syntheses, {f"ghost-cth-seed-bspma-synth{n}" for n in (1024, 4096)})
    variants = {(s.split()[1], re.search(r"\((.*)\)", s).group(1)) for s in simulations if s.endswith(" with sstmac")}
    expect("aces_nic_sharing simulations", variants,
           {(f"ghost-cth-seed-bspma-synth{n}", f"routing=valiant ranks_per_node={rpn} global_links_per_pair={k}")
            for n, rpn in ((1024, 1), (1024, 4), (4096, 4)) for k in (192, 96)})
    if len(simulations) != 6 or len(skipped) != 2 or not all("4096 ranks, more than" in s for s in skipped):
        fail(f"aces_nic_sharing: six simulations, 4096 ranks at one per NIC named twice: {simulations} {skipped}")

    # The NIC-queue experiments: each point replayed with the FIFO queue given, on its study's machines.
    for name, ids, machines in (
            ("xnobel_swap_1024_fifo", {"nobel-xnobel-seed-svcp-synth1024"}, ("xt6-seastar",)),
            ("cth_xt5_queue", {f"ghost-cth-seed-{c}-synth256" for c in ("bspma", "onebyone")}, ("xt5-seastar",)),
            ("cth_swap_queue", {"ghost-cth-seed-bspma-synth256"}, ("xt6-seastar", "xe6-gemini")),
            ("cth_swap_1024_queue", {"ghost-cth-seed-bspma-synth1024"}, ("xt6-seastar", "xe6-gemini"))):
        syntheses, simulations, skipped = plan(root, build, name, env)
        expect(f"{name} syntheses", syntheses, with_first_steps(ids))
        for network in machines:
            on = {s.split()[1] for s in simulations if s.endswith(f" on {network} (nic_queue=fifo) with sstmac")}
            expect(f"{name} on {network} with the FIFO queue", on, syntheses)
        if len(simulations) != len(machines) * len(syntheses) or skipped:
            fail(f"{name}: each point once per machine, none skipped: {simulations} {skipped}")

    runs_after = set(os.listdir(os.path.join(root, "runs"))) if os.path.isdir(os.path.join(root, "runs")) else set()
    if runs_after != runs_before:
        fail(f"--plan made study folders: {sorted(runs_after - runs_before)}")
    print("ok: the seed studies expand to their promised syntheses and simulations")


if __name__ == "__main__":
    main(*sys.argv[1:4])
