#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A study's compute model does not depend on the moment (amp_tools.study_compute_model): each point's
model is measured once for every rank count of its weak-scaling deck (REPETITIONS one-step syntheses at
the smallest after a warm-up, their median, their
spread and whether it settled recorded), scaled to the network file's node (stream_per_core against this
machine's amp-micro stream), recorded in compute_model.json with its machine load, and every synthesis
of the point is given exactly that model, including one synthesized again after the study resumed,
and every one made with another model (the record changed) is made again; nothing is measured twice.
compute_seconds = 0 is used as given; networks with two different nodes are refused in one line (exit 2) before any run.

Usage: test_study_compute_model.py MPIEXEC BUILD ROOT WORKDIR
"""
import glob
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_study_simulate import fail, study, arguments_and_workdir  # noqa: E402

STUDY = """name = "{name}"
proxies = ["ghost"]
flags = ["--nx 8 --ny 8 --nz 8 --num_vars 3 --num_tsteps 2"]
strategies = ["bspma", "svcp"]
ranks = [2]

[simulate]
networks = {networks}
synthesize_ranks = [4, 8]
{extra}
"""


def run_study(root, build, mpiexec, workdir, name, networks, extra=""):
    path = os.path.join(workdir, f"{name}.toml")
    with open(path, "w") as f:
        f.write(STUDY.format(name=name, networks=json.dumps(networks), extra=extra))
    return study(root, build, mpiexec, path, workdir)


def synthesis_seconds(folder, strategy, ranks):
    with open(os.path.join(folder, f"ghost-{strategy}-synth{ranks}.json")) as f:
        model = json.load(f)["synthesis"]["compute_model"]
    if model["source"] != "given with --compute_seconds":
        fail(f"ghost-{strategy}-synth{ranks} measured its own compute model ({model['source']}); "
             "the study's was not given")
    return model["steps"][0]["seconds"]


def main():
    mpiexec, build, root, workdir = arguments_and_workdir("study-compute-model")
    xt6 = os.path.join(root, "inputs", "networks", "xt6-seastar.toml")

    done = run_study(root, build, mpiexec, workdir, "model", [xt6])
    if done.returncode != 0:
        fail(f"study exited {done.returncode}: {done.stdout[-1500:]} {done.stderr[-1500:]}")
    folder = glob.glob(os.path.join(workdir, "runs", "model-*"))[0]
    with open(os.path.join(folder, "compute_model.json")) as f:
        recorded = json.load(f)
    node, models = recorded["node"], recorded["models"]
    if node["stream_per_core_target"] != 3.34e9 or abs(node["scale"] - node["stream_per_core_here"] / 3.34e9) > 1e-12:
        fail(f"the node's scale is not this machine's STREAM per core over the XT6's: {node}")
    if [key.rsplit("|", 1)[1] for key in models] != ["any"]:
        fail(f"one model for the weak-scaling deck's rank counts 4 and 8 expected: {sorted(models)}")
    for key, entry in models.items():
        reps = entry.get("repetitions_here", [])
        if len(reps) != 5 or entry["seconds_here"] != sorted(reps)[2]:
            fail(f"model {key}: not the median of 5 repetitions: {entry}")
        if abs(entry["spread"] - (max(reps) - min(reps)) / entry["seconds_here"]) > 1e-12:
            fail(f"model {key}: its spread is not (max - min) / median: {entry}")
        middle = (sorted(reps)[3] - sorted(reps)[1]) / entry["seconds_here"]
        if abs(entry["middle_spread"] - middle) > 1e-12 or entry["settled"] != (middle <= 0.05):
            fail(f"model {key}: settled is not the median and its neighbours within 5 %: {entry}")
        if not isinstance(entry.get("quiet"), bool) or "other_cpu_seconds" not in entry.get("machine_load", {}):
            fail(f"model {key} does not record whether the machine was quiet: {entry}")
        if abs(entry["seconds"] - entry["seconds_here"] * node["scale"]) > 1e-15:
            fail(f"model {key}: {entry['seconds']} is not {entry['seconds_here']} x the node's {node['scale']}")
        for strategy, ranks in ((c, n) for c in ("bspma", "svcp") for n in (4, 8)):
            if synthesis_seconds(folder, strategy, ranks) != entry["seconds"]:
                fail(f"ghost-{strategy}-synth{ranks} was given {synthesis_seconds(folder, strategy, ranks)}, "
                     f"the model is {entry['seconds']}")
    measurements = sorted(glob.glob(os.path.join(folder, "compute-model-*.log")))
    attempts = next(iter(models.values()))["attempts"]  # a noisy or unsettled measurement is made once more
    if len(measurements) != 1 + 6 * attempts or not all("synth4" in m or "stream" in m for m in measurements):
        fail(f"expected {1 + 6 * attempts} measurements (stream, and {attempts} x a warm-up and 5 syntheses at 4 "
             f"ranks, the smallest), found {measurements}")

    # Resumed with one point's synthesis gone: made again with the recorded model, nothing measured again.
    for path in glob.glob(os.path.join(folder, "ghost-svcp-synth8*")):
        shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    done = run_study(root, build, mpiexec, workdir, "model", [xt6])
    if done.returncode != 0:
        fail(f"resumed study exited {done.returncode}: {done.stderr[-1500:]}")
    if sorted(glob.glob(os.path.join(folder, "compute-model-*.log"))) != measurements:
        fail("the resumed study measured a compute model again")
    if synthesis_seconds(folder, "svcp", 8) != next(iter(models.values()))["seconds"]:
        fail("the resynthesized point was not given the recorded model")

    # Resumed after the point's model was recorded anew (a study stopped around a measurement): every
    # synthesis made with the old model is made again with the new one, the old kept aside, so that a
    # point's strategies never carry two models.
    model_path = os.path.join(folder, "compute_model.json")
    with open(model_path) as f:
        recorded = json.load(f)
    key = next(iter(recorded["models"]))
    anew = recorded["models"][key]["seconds"] * 1.25
    recorded["models"][key]["seconds"] = anew
    with open(model_path, "w") as f:
        json.dump(recorded, f)
    done = run_study(root, build, mpiexec, workdir, "model", [xt6])
    if done.returncode != 0:
        fail(f"study resumed after a new model exited {done.returncode}: {done.stderr[-1500:]}")
    for strategy, ranks in ((c, n) for c in ("bspma", "svcp") for n in (4, 8)):
        if synthesis_seconds(folder, strategy, ranks) != anew:
            fail(f"ghost-{strategy}-synth{ranks} kept its old model {synthesis_seconds(folder, strategy, ranks)}, "
                 f"not {anew}")
        if not os.path.isfile(os.path.join(folder, f"ghost-{strategy}-synth{ranks}.json.attempt-1")):
            fail(f"ghost-{strategy}-synth{ranks}'s synthesis with the old model was not kept aside")
    if done.stdout.count("was made with") != 4:
        fail(f"expected the 4 syntheses to be said made again: {done.stdout[-1500:]}")
    if sorted(glob.glob(os.path.join(folder, "compute-model-*.log"))) != measurements:
        fail("the study resumed after a new model measured one")

    # Zero compute, as given.
    torus = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    done = run_study(root, build, mpiexec, workdir, "zero", [torus], "compute_seconds = 0")
    if done.returncode != 0:
        fail(f"compute_seconds = 0 study exited {done.returncode}: {done.stderr[-1500:]}")
    zero = glob.glob(os.path.join(workdir, "runs", "zero-*"))[0]
    if synthesis_seconds(zero, "bspma", 8) != 0 or glob.glob(os.path.join(zero, "compute-model-*.log")):
        fail("compute_seconds = 0 was measured or not given as 0")

    # Two nodes in one study: refused before any run.
    knl = os.path.join(root, "inputs", "networks", "trinity-knl.toml")
    done = run_study(root, build, mpiexec, workdir, "two-nodes", [xt6, knl])
    lines = done.stderr.strip().splitlines()
    if done.returncode != 2 or len(lines) != 1 or "the networks' nodes differ" not in lines[0]:
        fail(f"two nodes: expected exit 2 and one line, got {done.returncode}: {done.stderr!r}")
    if glob.glob(os.path.join(workdir, "runs", "two-nodes-*")):
        fail("two nodes: a study folder was made")
    print("ok: one compute model per point for every rank count, 5 repetitions, recorded, scaled to the node "
          "and given to every synthesis")


if __name__ == "__main__":
    main()
