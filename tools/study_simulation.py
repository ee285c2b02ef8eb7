"""A study's [simulate] table: which simulators and network files predict its traced runs, and which
rank counts beyond this machine are traced by synthesis. Synthesized points run once each (synthesis
is deterministic), with one compute time per variable step for every cut of a point, so that only
communication differs; the time is measured by the point's first synthesis unless compute_seconds
gives it. Each trace is then simulated on every network that can hold it, into
<trace>/simulation-<network>-<key>-<simulator>.json; what exists already is kept (a study resumes).

[simulate]
simulators = ["simgrid"]                               # simgrid, sstmac (needs AMP_SSTMAC)
networks = ["inputs/networks/torus-16x16x16.toml"]     # relative to the repository root
synthesize_ranks = [1024, 4096]                        # optional
compute_seconds = 1e-4                                 # optional
"""
import json
import os
import subprocess
import sys

import networks
import simulate
from study_folder import keep_aside
from study_launch import Stopped, failure, run_logged, signal_name

KEYS = {"simulators", "networks", "synthesize_ranks", "compute_seconds"}
SIMULATORS = ("simgrid", "sstmac")
# The most virtual ranks a proxy synthesizes (kMaxVirtualRanks, miniapps/common/plan_only.hpp: 2^24).
MAX_SYNTHESIZED_RANKS = 1 << 24
# Files a synthesis leaves, set aside (NAME.attempt-N) before it is tried again: a synthesis stopped
# midway leaves its trace begun and the proxy's NAME.json.partial, beside which the proxy would not start.
SYNTHESIS_FILES = (".json", ".json.partial", ".trace", ".log")


class Plan:
    def __init__(self, simulators, network_paths, synthesize_ranks, compute_seconds):
        self.simulators, self.network_paths = simulators, network_paths
        self.synthesize_ranks, self.compute_seconds = synthesize_ranks, compute_seconds


def parse(study, data):
    """The checked [simulate] table of a study (None without one); errors through study.fail."""
    table = data.get("simulate")
    if table is None:
        return None
    if not isinstance(table, dict):
        study.fail("simulate", "'simulate' must be a table ([simulate])")
    for key in table:
        if key not in KEYS:
            study.fail(key, f"unknown key '{key}' in [simulate] (known: {', '.join(sorted(KEYS))})")
    simulators = study.strings(table, "simulators") or ["simgrid"]
    for simulator in simulators:
        if simulator not in SIMULATORS:
            study.fail("simulators", f"[simulate] simulator {simulator!r} is not one of {', '.join(SIMULATORS)}")
    study.no_duplicates("simulators", simulators)
    if "sstmac" in simulators:
        sstmac = os.environ.get("AMP_SSTMAC")
        if not sstmac or not os.path.isfile(sstmac) or not os.access(sstmac, os.X_OK):
            study.fail("simulators", "[simulate] simulator 'sstmac' needs AMP_SSTMAC to name an sstmac executable "
                                     f"(SST-macro 16.0; AMP_SSTMAC is {repr(sstmac) if sstmac else 'not set'})")
    paths = study.strings(table, "networks", required=True)
    study.no_duplicates("networks", paths)
    loaded = []
    for path in paths:
        full = path if os.path.isabs(path) else os.path.join(study.root, path)
        try:
            network = networks.load(full)
        except networks.NetworkError as e:
            study.fail("networks", f"[simulate] {e}")
        for simulator in simulators:
            problem = networks.check_fits(network, simulator, 1)
            if problem:
                study.fail("networks", f"[simulate] {problem}")
        loaded.append(full)
    ranks = []
    if "synthesize_ranks" in table:
        ranks = study.positive_ints(table, "synthesize_ranks")
        study.no_duplicates("synthesize_ranks", ranks)
        if max(ranks) > MAX_SYNTHESIZED_RANKS:
            study.fail("synthesize_ranks", f"[simulate] 'synthesize_ranks' value {max(ranks)} is more than the "
                                           f"{MAX_SYNTHESIZED_RANKS} virtual ranks a proxy synthesizes")
    compute = table.get("compute_seconds")
    if compute is not None and (isinstance(compute, bool) or not isinstance(compute, (int, float)) or
                                not 0 < compute < 1e3):
        study.fail("compute_seconds", f"[simulate] 'compute_seconds' must be a positive number of seconds below "
                                      f"1000 (got {compute!r})")
    return Plan(simulators, loaded, ranks, compute)


def synthesis_runs(study, runs):
    """One synthesized run per point (proxy, deck, flags, strategy, transport) and rank count, made from
    the study's first repetition at its smallest rank count: id <point>-synth<N>."""
    out, seen = [], set()
    for r in runs:
        if r["repetition"] != 1 or r["ranks"] != min(study.ranks):
            continue
        point = r["id"].rsplit("-np", 1)[0]
        for n in study.simulation.synthesize_ranks:
            if (point, n) in seen:
                continue
            seen.add((point, n))
            group = (r["proxy"], r["deck"], r["flags"], r["transport"], n)  # the cuts sharing one compute time
            out.append({**r, "id": f"{point}-synth{n}", "ranks": n, "synthesized": True, "group": group})
    return out


def run_syntheses(plan, runs, folder, opts):
    """Synthesizes what is missing; returns the ids that failed."""
    compute_of = {}
    failed = []
    for r in runs:
        base = os.path.join(folder, r["id"])
        if os.path.isfile(base + ".json") and os.path.isdir(base + ".trace"):
            with open(base + ".json") as f:
                compute_of.setdefault(r["group"], json.load(f)["synthesis"]["compute_model"]["steps"][0]["seconds"])
            continue
        for suffix in SYNTHESIS_FILES:
            keep_aside(base + suffix)
        command = [*r["args"], "--synthesize", base + ".trace", "--ranks", str(r["ranks"]), "--results", base + ".json"]
        compute = plan.compute_seconds or compute_of.get(r["group"])
        if compute:
            command += ["--compute_seconds", repr(float(compute))]  # exactly the first cut's time
        try:
            status, signum = run_logged(command, base + ".log",
                                        env=dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false"))
        except Stopped as stopped:
            print(f"study: synthesis {r['id']}: STOPPED by {signal_name(stopped.signum)} (log: {base}.log)")
            raise
        if status != 0 or signum:
            failed.append(r["id"])
            print(f"study: synthesis {r['id']}: {failure(status, signum, base + '.log')} (log: {base}.log)")
            continue
        with open(base + ".json") as f:
            compute_of.setdefault(r["group"], json.load(f)["synthesis"]["compute_model"]["steps"][0]["seconds"])
        print(f"study: synthesized {r['id']} ({r['ranks']} ranks, {compute_of[r['group']]:.4g} s per compute step)")
    return failed


def simulate_all(plan, traced, folder, opts):
    """Every traced run on every network x simulator that holds it. Returns the number that failed."""
    failed, skipped = 0, set()
    loaded = [(path, networks.load(path)) for path in plan.network_paths]  # checked by parse() already
    for r in traced:
        trace = os.path.join(folder, r["id"] + ".trace")
        if not os.path.isdir(trace):
            continue
        for path, network in loaded:
            for simulator in plan.simulators:
                out = simulate.output_path(trace, network, simulator)
                if os.path.isfile(out):
                    continue
                problem = networks.check_fits(network, simulator, r["ranks"])
                if problem:
                    if (network.name, simulator, r["ranks"]) not in skipped:
                        skipped.add((network.name, simulator, r["ranks"]))
                        print(f"study: not simulated: {problem}")
                    continue
                done = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                                    "simulate.py"), trace, "--network", path,
                                       "--simulator", simulator, "--build", opts.build, "--root", opts.root],
                                      capture_output=True, text=True)
                if done.returncode == 0:
                    print(f"study: {done.stdout.strip()}")
                elif done.returncode == 2:  # no TI form (one-sided, partitioned, ...), or will not fit
                    print(f"study: not simulated: {r['id']}: {done.stderr.strip().splitlines()[-1]}")
                    break
                else:
                    failed += 1
                    print(f"study: simulating {r['id']} on {network.name} ({simulator}) failed: "
                          f"{done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}")
    return failed
