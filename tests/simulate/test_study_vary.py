#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Network variants as a study axis ([simulate] vary, replicates), run as a user would (tools/amp_tools/study.py).
simgrid: `vary` ranks_per_node x link_bandwidth on one file gives each trace exactly those four
simulations, each with its overrides (one node, one answer whatever the links; two nodes, faster links
sooner), the report draws <proxy>-variants.png, and bad `vary` or `replicates` are refused in one line
(exit 2) before the first run. sstmac (AMP_SSTMAC, else skipped with 77): routing minimal and valiant,
replicates = 2: valiant runs seeds 1 and 2, minimal once, and SimGrid, which has no valiant, skips it
in one line.

Usage: test_study_vary.py simgrid|sstmac MPIEXEC BUILD ROOT WORKDIR
"""
import glob
import json
import os
import shutil
import sys

from amp_tools import networks  # noqa: E402
from amp_tools import simulate  # noqa: E402
from test_study_simulate import fail, study, study_text  # noqa: E402

TRACES = ("ghost-bspma-np2-rep1", "ghost-svcp-np2-rep1")


def study_with(root, build, mpiexec, workdir, name, simulate_table):
    """Runs the two-strategy study with this [simulate] table; returns (exit, stdout, stderr)."""
    path = os.path.join(workdir, f"{name}.toml")
    with open(path, "w") as f:
        f.write(study_text(name, simulate_table))
    done = study(root, build, mpiexec, path, workdir)
    return done.returncode, done.stdout, done.stderr


def folder_of(workdir, name):
    found = glob.glob(os.path.join(workdir, "runs", f"{name}-*"))
    return found[0] if found else None


def study_done(root, build, mpiexec, workdir, name, simulate_table):
    """Runs the study, which must succeed; returns (its stdout, its folder)."""
    code, out, err = study_with(root, build, mpiexec, workdir, name, simulate_table)
    if code != 0:
        fail(f"study exited {code}: {out[-800:]} {err[-800:]}")
    return out, folder_of(workdir, name)


def simulations(folder, trace_id):
    """{network_overrides as JSON: simulation} of one trace, every simulator."""
    out = {}
    for path in glob.glob(os.path.join(folder, f"{trace_id}.trace", "simulation-*.json")):
        with open(path) as f:
            sim = json.load(f)
        out[(json.dumps(sim["network_overrides"], sort_keys=True), sim["simulator"])] = (path, sim)
    return out


def expect(folder, network, simulator, overrides):
    """The simulation of each trace on this variant: written where simulate.py names it, with its overrides."""
    variant = networks.load(network, overrides)
    out = []
    for trace_id in TRACES:
        path = simulate.output_path(os.path.join(folder, f"{trace_id}.trace"), variant, simulator)
        if not os.path.isfile(path):
            fail(f"{path} ({overrides}, {simulator}) was not written")
        with open(path) as f:
            sim = json.load(f)
        if sim["network_overrides"] != overrides or not sim["predicted_seconds"] > 0:
            fail(f"{path}: overrides {sim['network_overrides']}, predicted {sim['predicted_seconds']}; "
                 f"wanted {overrides}")
        for key, value in overrides.items():
            if sim["network_parameters"][key] != value:
                fail(f"{path}: simulated {key} = {sim['network_parameters'][key]}, not {value}")
        out.append(sim)
    return out


def drew(folder, figure):
    png = os.path.join(folder, "report", figure)
    if not os.path.isfile(png) or open(png, "rb").read(8) != b"\x89PNG\r\n\x1a\n":
        fail(f"{png} was not drawn")


def simgrid_case(root, build, mpiexec, workdir, torus):
    _, folder = study_done(root, build, mpiexec, workdir, "vary-simgrid",
                           f"networks = {json.dumps([torus])}\n"
                           "vary = { ranks_per_node = [1, 2], link_bandwidth = [1e9, 4e9] }")
    predicted = {}
    for ranks_per_node in (1, 2):
        for bandwidth in (1e9, 4e9):
            sims = expect(folder, torus, "simgrid", {"ranks_per_node": ranks_per_node, "link_bandwidth": bandwidth})
            predicted[ranks_per_node, bandwidth] = [s["predicted_seconds"] for s in sims]
    for trace_id in TRACES:
        if len(simulations(folder, trace_id)) != 4:
            fail(f"{trace_id}: {sorted(simulations(folder, trace_id))}; wanted the four variants alone")
    for i, trace_id in enumerate(TRACES):
        if not predicted[1, 4e9][i] < predicted[1, 1e9][i]:
            fail(f"{trace_id}: two nodes with 4x faster links predicted {predicted[1, 4e9][i]}, "
                 f"not less than {predicted[1, 1e9][i]}")
        one_node = (predicted[2, 1e9][i], predicted[2, 4e9][i])
        if abs(one_node[0] - one_node[1]) > 1e-9 * one_node[0]:
            fail(f"{trace_id}: both ranks on one node, yet the links' bandwidth changed the prediction: {one_node}")
    drew(folder, "ghost-variants.png")
    drew(folder, "ghost-simulated.png")
    for table, wanted in (
            ("vary = { rout = [\"minimal\"] }", "unknown key 'rout'"),
            ("vary = { routing = [\"fast\"] }", "routing must be minimal, valiant, ugal, not 'fast'"),
            ("vary = { ranks_per_node = [] }", "'vary' key 'ranks_per_node' must have a non-empty list"),
            ("vary = { ranks_per_node = [1, 1] }", "'vary' key 'ranks_per_node' gives 1 twice"),
            ("vary = [\"routing\"]", "'vary' must be a table of network keys"),
            ("vary = { routing = [\"valiant\"] }", "simgrid offers routing minimal on a torus, not 'valiant' "
                                                   "(routing=valiant)"),
            ("replicates = 0", "'replicates' must be a positive integer"),
            ("replicates = 2", "'replicates' runs seeds of a randomized routing"),
            ("vary = { seed = [1, 2] }\nreplicates = 2", "'vary' sets 'seed', and so does 'replicates'")):
        code, out, err = study_with(root, build, mpiexec, workdir, "vary-bad",
                                    f"networks = {json.dumps([torus])}\n{table}")
        lines = err.strip().splitlines()
        if code != 2 or len(lines) != 1 or wanted not in lines[0]:
            fail(f"[simulate] {table!r}: exit {code}, {lines}; wanted one line with {wanted!r}")
        if folder_of(workdir, "vary-bad"):
            fail(f"[simulate] {table!r} was refused after making a folder")
    print("4 variants x 2 traces simulated with their overrides, variants drawn, 9 bad tables refused before a run")


def sstmac_case(root, build, mpiexec, workdir, torus):
    if not os.access(os.environ.get("AMP_SSTMAC", ""), os.X_OK):
        print("skipped: AMP_SSTMAC does not name an sstmac executable")
        sys.exit(77)
    out, folder = study_done(root, build, mpiexec, workdir, "vary-sstmac",
                             f"simulators = [\"simgrid\", \"sstmac\"]\nnetworks = {json.dumps([torus])}\n"
                             "vary = { routing = [\"minimal\", \"valiant\"] }\nreplicates = 2")
    expect(folder, torus, "sstmac", {"routing": "minimal"})
    expect(folder, torus, "simgrid", {"routing": "minimal"})
    for seed in (1, 2):
        for sim in expect(folder, torus, "sstmac", {"routing": "valiant", "seed": seed}):
            if sim["simulated_network"]["seed"] != seed or sim["simulated_network"]["router"] != "torus_valiant":
                fail(f"valiant seed {seed}: SST-macro was given {sim['simulated_network']['router']} "
                     f"seed {sim['simulated_network']['seed']}")
    for trace_id in TRACES:
        found = sorted(simulations(folder, trace_id))
        if len(found) != 4:
            fail(f"{trace_id}: {found}; wanted minimal in both simulators and valiant seeds 1, 2 in sstmac")
    skipped = [line for line in out.splitlines() if line.startswith("study: not simulated:")]
    wanted = "simgrid offers routing minimal on a torus, not 'valiant' (routing=valiant)"
    if len(skipped) != 1 or wanted not in skipped[0]:
        fail(f"SimGrid's valiant: {skipped}; wanted one 'study: not simulated' line")
    drew(folder, "ghost-variants.png")
    print("valiant: seeds 1 and 2 in SST-macro; minimal once in each simulator; SimGrid's valiant skipped in one line")


def main():
    mode, mpiexec, build, root, workdir = sys.argv[1:6]
    workdir = os.path.join(workdir, f"study-vary-{mode}")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    torus = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    (simgrid_case if mode == "simgrid" else sstmac_case)(root, build, mpiexec, workdir, torus)


if __name__ == "__main__":
    main()
