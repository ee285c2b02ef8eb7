#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Conservation of the network figures of `tools/amp_tools/simulate.py` in one simulator, end to end: amp-ghost
traces synthesized without global sums (point-to-point only, messages above SST-macro's 256-byte LogP
shortcut), simulated on the shipped torus-4x4x4 and dragonfly-1024:
- the NICs' injected bytes (their payload) equal the trace's bytes to 1 %, NIC by NIC (one rank per NIC), in
  both simulators; SST-macro's NICs send at least that (its accumulators), the rest apart as protocol_bytes;
- every byte crosses at least one link: on the dragonfly each crosses its node's link to its router
  (SimGrid: up at the sender and down at the receiver; SST-macro: the switch's port to the receiver);
- two ranks that are neighbours in x on the torus move exactly their bytes over x links, one hop each;
- the simulated profile adds up to each rank's time; SST-macro's prediction is counted from when its last
  rank left MPI_Init, and its last rank's end is the prediction;
- with four ranks to a node, the four NICs inject what leaves a node, and the rest stays inside.

Usage: test_network_conservation.py BUILD ROOT WORKDIR SIMULATOR    (exit 77: sstmac without AMP_SSTMAC)
"""
import glob
import json
import os
import shutil
import subprocess
import sys


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def synthesize(build, workdir, name, ranks, *grid):
    trace = os.path.join(workdir, f"conservation-{name}")
    shutil.rmtree(trace, ignore_errors=True)
    done = subprocess.run([os.path.join(build, "bin", "amp-ghost"), "--nx", "16", "--ny", "16", "--nz", "16",
                           "--num_vars", "2", "--num_tsteps", "2", "--strategy", "bspma", "--percent_sum", "0",
                           *grid, "--synthesize", trace, "--ranks", str(ranks), "--compute_seconds", "1e-5"],
                          capture_output=True, text=True)
    check(done.returncode == 0, f"synthesis of {name} failed: {done.stderr.strip()}")
    return trace


def simulate(build, root, trace, network, simulator, *settings):
    for old in glob.glob(os.path.join(trace, "simulation-*.json")):
        os.remove(old)
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", trace, "--network",
                           os.path.join(root, "inputs", "networks", f"{network}.toml"), "--simulator", simulator,
                           "--build", build, *settings], capture_output=True, text=True)
    check(done.returncode == 0, f"{trace} on {network} in {simulator}: exit {done.returncode}: {done.stderr.strip()}")
    written = glob.glob(os.path.join(trace, f"simulation-{network}-*-{simulator}.json"))
    check(len(written) == 1, f"{trace} on {network} in {simulator}: wrote {written}")
    with open(written[0]) as f:
        sim = json.load(f)
    with open(os.path.join(trace, "simgrid-ti-1e+09", "export.json")) as f:
        export = json.load(f)
    return sim, [r["bytes_sent"] for r in export["per_rank"]]


PAYLOAD_TOLERANCE = 0.01


def protocol_allowance(sim, sent):
    """SST-macro puts every byte on its packet network (negligible_size 0), the MPI protocol's headers and
    RDMA get requests too: its links carry a little more than the trace's payload (3.5 % on the pair
    below), and its NICs' protocol_bytes are that. SimGrid's protocol has no bytes."""
    return 0 if sim["simulator"] == "simgrid" else 0.05 * sent + 128 * sim["messages"]


def payload_matches(got, want):
    return abs(got - want) <= PAYLOAD_TOLERANCE * want


def conserved(sim, per_rank, where):
    nics = sim["nics"]
    check(nics["count"] == sim["ranks"], f"{where}: {nics['count']} NICs for {sim['ranks']} ranks")
    injected = nics["injected_bytes"]["total"]
    check(payload_matches(injected, sim["bytes"]), f"{where}: the NICs injected {injected} bytes of payload, "
          f"the trace has {sim['bytes']}")
    check(all(payload_matches(got, want) for got, want in zip(nics["per_nic_bytes"], per_rank))
          and len(nics["per_nic_bytes"]) == len(per_rank),
          f"{where}: per NIC {nics['per_nic_bytes']}, per rank {per_rank}")
    protocol = nics["per_nic_protocol_bytes"]
    check(all(0 <= extra <= protocol_allowance(sim, want) for extra, want in zip(protocol, per_rank)),
          f"{where}: protocol bytes per NIC {protocol} (none lost, none in SimGrid), payload per rank {per_rank}")
    crossed = sum(c["bytes"] for c in sim["links"].values())
    check(crossed >= sim["bytes"], f"{where}: links carried {crossed} bytes, fewer than the {sim['bytes']} injected")
    for key in ("hops", "hottest_links", "links"):
        check(sim.get(key), f"{where}: no {key!r}")


def main():
    build, root, workdir, simulator = sys.argv[1:5]
    if simulator == "sstmac" and not os.environ.get("AMP_SSTMAC"):
        print("skipped: set AMP_SSTMAC (SST-macro's sstmac) to check its network figures")
        sys.exit(77)
    workdir = os.path.join(workdir, f"conservation-{simulator}")  # its own traces: the two tests may run at once
    os.makedirs(workdir, exist_ok=True)

    pair = synthesize(build, workdir, "pair", 2, "--npx", "2", "--npy", "1", "--npz", "1")
    sim, per_rank = simulate(build, root, pair, "torus-4x4x4", simulator)
    conserved(sim, per_rank, "2 ranks on torus-4x4x4")
    links = {cls: c["bytes"] for cls, c in sim["links"].items()}
    check(sim["bytes"] <= links["x"] <= sim["bytes"] + protocol_allowance(sim, sim["bytes"])
          and links["y"] == 0 and links["z"] == 0,
          f"neighbours in x: link bytes per class {links}, the trace moves {sim['bytes']} bytes in x")
    check(abs(sim["hops"]["mean_per_byte"] - 1.0) < 1e-12, f"neighbours in x: {sim['hops']['mean_per_byte']} hops")
    loaded = [(h["class"], h["bytes"]) for h in sim["hottest_links"] if h["class"] != "node"]
    check(len(loaded) == 2 and all(c == "x" and want <= got <= want + protocol_allowance(sim, want)
                                   for (c, got), want in zip(loaded, per_rank)),
          f"neighbours in x: hottest links {sim['hottest_links']}")

    halo = synthesize(build, workdir, "halo", 16)
    for network in ("torus-4x4x4", "dragonfly-1024"):
        sim, per_rank = simulate(build, root, halo, network, simulator)
        where = f"16 ranks on {network}"
        conserved(sim, per_rank, where)
        if network.startswith("dragonfly"):
            node = sim["links"]["node"]["bytes"]
            check(sim["bytes"] * (2 if simulator == "simgrid" else 1) <= node
                  <= (sim["bytes"] + protocol_allowance(sim, sim["bytes"])) * (2 if simulator == "simgrid" else 1),
                  f"{where}: node links carried {node} bytes of {sim['bytes']}")
            check(set(sim["links"]) == {"node", "local", "global"}, f"{where}: link classes {sorted(sim['links'])}")
        if simulator == "simgrid" and network.startswith("torus"):
            check(all(h >= 1 for h in sim["hops"]["per_nic"]), f"{where}: hops per NIC {sim['hops']['per_nic']}")
        profile = sim["profile"]
        total = sum(profile[k] for k in ("compute", "p2p", "collective"))
        check(abs(total - 1) < 1e-6, f"{where}: the profile's fractions add up to {total}")
        check(all(len(v) == 16 for v in profile["per_rank"].values()), f"{where}: per-rank profile {profile}")
        if simulator == "sstmac":  # counted from when the last rank left MPI_Init (tools/amp_tools/sstmac_timeline.py)
            check(0 < sim["sstmac_startup_seconds"] < sim["sstmac_estimated_runtime_seconds"]
                and abs(sim["predicted_seconds"] - sim["sstmac_estimated_runtime_seconds"]
                        + sim["sstmac_startup_seconds"]) < 1e-12
                and abs(max(profile["per_rank_finish"]) - sim["predicted_seconds"]) < 2e-8,
                f"{where}: start-up {sim['sstmac_startup_seconds']}, estimated "
                f"{sim['sstmac_estimated_runtime_seconds']}, "
                f"predicted {sim['predicted_seconds']}, last rank's end {max(profile['per_rank_finish'])}")
        print(f"{where}: {sim['nics']['injected_bytes']['total']} bytes injected, "
              f"{sim['hops']['mean_per_byte']:.3f} hops per byte, classes {sorted(sim['links'])}")
    # Four ranks to a node share its NIC: what leaves the node is injected, the rest stays inside.
    sim, per_rank = simulate(build, root, halo, "torus-4x4x4", simulator, "--set", "ranks_per_node=4")
    nics = sim["nics"]
    moved = nics["injected_bytes"]["total"] + nics["intra_node_bytes"]
    check(nics["count"] == 4 and payload_matches(moved, sim["bytes"]) and nics["protocol_bytes"]["min"] >= 0
          and 0 < nics["intra_node_bytes"] < sim["bytes"],
          f"4 ranks per node: {nics['count']} NICs injected {nics['injected_bytes']['total']} bytes, "
          f"{nics['intra_node_bytes']} stayed inside, of {sim['bytes']}")
    print(f"conserved in {simulator}")


if __name__ == "__main__":
    main()
