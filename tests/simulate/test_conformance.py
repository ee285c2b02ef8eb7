#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One network file, one machine: the conformance suite of the simulators.

Hand-made traces with no compute between calls (tests/simulate/conformance_traces_program.cpp) and amp-ghost's
strategies synthesized at 64 ranks are replayed on a shipped network file:
- `analytic SIMULATOR`: the cases that can be worked out by hand must come within 10 % of the model
  (docs/TRACE_SIMULATORS.md): ping-pongs (100 round trips of 8 B, 10 of 1 MiB, the latter also in
  SST-macro's packets of 64 KiB) between nodes 0 and 1 and within one node, an incast of 1 MiB from 7
  nodes into one, and (on a torus) 10 round trips of 64 KiB between nodes 0 and 7 (their hops counted on
  the torus, nodes numbered x first). The rounds make MPI_Init and MPI_Finalize's barrier, which both
  simulators add, a small part of the time. One way, a message of s bytes over links l takes
      H x (message_overhead + nic_message_overhead) + P x sum over l of (link latency + router_latency) + s / min(nic,
      link bandwidths),
  with the MPI protocol's P latencies and H headers posted: 1 and 1 up to 512 bytes, 3 and 2 above;
  nodes 0 and 1 being one torus link apart (a torus is direct: no link between node and router) or two
  links apart (dragonfly: both on router 0; fat tree: both on leaf 0); within a node, the loopback's
  latency and bandwidth. The incast is bound by the receiving NIC: 7 x s / nic_bandwidth. A burst of N
  back-to-back 8-byte messages (all posted at once) is bound by their cost per message: N x per message +
  one way of the last; per message, a header's message_overhead + nic_message_overhead (networks.per_header).
- `agree`: every case, the above and a ring of 8, 3-D halos of 64 (4x4x4 ranks; 8 KiB, 64 KiB and 1 MiB
  faces, net of MPI_Init and MPI_Finalize), MPI_Init and MPI_Finalize alone at 64 ranks, and the three
  strategies, in SimGrid and in SST-macro: within 1.25x of each other (SST-macro's time as a span: below), except
  the known gaps below, which are held to their measured bound.
The hand-made cases put one rank on each node (ranks_per_node=1, the in-node ones 2), whatever the file
says; the strategies run on the file's machine as it is. A network a simulator refuses must be refused in one
line with exit 2 (its reason is in docs/TRACE_SIMULATORS.md).

- `agree codes`: the same cases in CODES beside SimGrid, within 1.25x except the measured gaps of what its
  models cannot be given (CODES_GAPS' reasons), and the cases that measure only that (CODES_NOT_COMPARED).
  In `analytic codes` those keys' cases are held to the error measured when this was written (CODES_GAPS).

Usage: test_conformance.py analytic|agree SIMULATOR|both BUILD ROOT WORKDIR NETWORK_FILE
Exit 77 (skipped) for SST-macro without AMP_SSTMAC, for CODES without AMP_CODES.
"""
import json
import os
import subprocess
import sys

from amp_tools import conformance_traces
from amp_tools import networks
from amp_tools import simulators
from amp_tools.conformance_traces import BURST, CASES, MIB, STRATEGIES

ANALYTIC_TOLERANCE = 0.10
AGREEMENT = 1.25
# SST-macro's prediction is counted from when its last rank left MPI_Init (its staggered launch and
# MPI_Init's allreduce left out: tools/amp_tools/simulators/sstmac_timeline.py), and may be short by up to the ranks'
# spread there, as a rank that left early may have gone on meanwhile (MPI_Init plus MPI_Finalize at 64
# ranks on torus-4x4x4: 11.2 us, +9 us, against SimGrid's 16.2): each case compares SimGrid's time with
# that span.
# Where the simulators are known not to agree within AGREEMENT (docs/TRACE_SIMULATORS.md gives the
# numbers and the reasons), per case and network: a ring whose wrap-around message crosses 7 links
# (torus-16x16x4 and torus-16x16x16). SST-macro completes a rendezvous send when its NIC has served the
# receiver's get, SimGrid when the data has arrived, so each round of the ring, which waits for the last
# rank's send, is one path latency shorter in SST-macro (22 against 28.6 us); the 7-hop ping-pong, where
# nothing waits for a send to complete, is within 2 % of the model in both. The test holds it to the
# disagreement measured when it was written, so that a change that widens it fails.
# An 8 KiB 3-D halo on xt6-seastar, whose NIC (2.2 GB/s) is slower than its links (4.0 GB/s): 1.32x,
# SST-macro slower. Its protocol's header and RDMA get request are packets that wait behind data packets
# at the receiving NIC's port; SimGrid's protocol latencies wait behind nothing (with the NIC as fast as
# the links, 1.16x; with packets of 1 KiB, 1.02x).
# Most of these gaps are SST-macro's packet size: its ports serve whole packets (4 KiB unless the file gives
# packet_size), SimGrid's flows share a link as a fluid. Where a gap closes with smaller packets it is
# checked again at that size, SST-macro alone (SimGrid has no packets), and must then be within AGREEMENT:
# the explanation is tested. The 3-D halos on cascade-dragonfly were such gaps with 4 KiB packets (1.26-1.38x,
# SST-macro slower, 4 nodes to a router); the file now gives Aries' 512-byte packets (seeds/002_* Table 1),
# with which they are within AGREEMENT (the 8 KiB halo at 1.248x, at the edge) and need no entry.
# With the files' NIC cost per message (2026-11-28) the xt6-seastar halo is 1.15x (1.12x with 1 KiB packets):
# no longer a gap, it is held to AGREEMENT.
KNOWN_GAPS = {"ring-64KiB": {"torus-16x16x4": 1.35, "torus-16x16x16": 1.35}}
# The 3-D halos run 64 ranks and are compared net of MPI_Init and MPI_Finalize's barrier at 64 ranks (the
# `init-finalize-64` case, each simulator's own barrier and start), so that they measure
# the network. The strategies are compared whole: their collectives are part of what a strategy costs.
CLOSED_BY_PACKET_SIZE = {"halo3d-8KiB": {"xt6-seastar": 1024}}   # 1.32x -> 1.02x
NET_OF_START_AND_END = ("halo3d-8KiB", "halo3d-64KiB", "halo3d-1MiB")
ANALYTIC = ("pingpong-8B", "pingpong-1MiB", "pingpong-1MiB-64KiB-packets", "pingpong-8B-in-node",
            "pingpong-1MiB-in-node", "incast-1MiB", "pingpong-64KiB-far", "burst-8B", "ghost-compute")
TORUS_ONLY = ("pingpong-64KiB-far",)
AGREEING = ("simgrid", "sstmac")  # `agree both`: the two simulators compared case by case
# CODES, where its models cannot be given the machine (docs/TRACE_SIMULATORS.md, CODES), is held to the
# error from the model measured when this was written, within GAP_SLACK, so that a change that moves it fails:
# its torus has no link latency (a packet crosses a link in its serialisation time: 8 B ping-pongs), no NIC
# bandwidth (the incast into one node is bound by its six links, not its NIC), and its MPI layer holds each
# message per_header without serialising a rank's messages by it (the burst runs at the links' rate); its
# dragonfly has no copy within a node (1 MiB between two ranks of a node crosses the NIC and router twice).
CODES_GAPS = {
    "pingpong-8B": {"torus-4x4x4": -0.709, "torus-16x16x4": -0.709, "xt6-seastar": -0.466, "xe6-gemini": -0.671},
    "pingpong-1MiB": {"xt6-seastar": -0.432},   # and SeaStar's NIC (2.2 GB/s) slower than its links (4.0)
    "pingpong-1MiB-64KiB-packets": {"xt6-seastar": -0.432},
    "pingpong-1MiB-in-node": {"dragonfly-1024": 1.143, "cascade-dragonfly": 1.143},
    "incast-1MiB": {"torus-4x4x4": -0.413, "torus-16x16x4": -0.124, "xt6-seastar": -0.680, "xe6-gemini": -0.280},
    "pingpong-64KiB-far": {"torus-16x16x4": -0.473, "xt6-seastar": -0.404},
    "burst-8B": {"torus-4x4x4": -0.740, "torus-16x16x4": -0.740, "xt6-seastar": -0.960, "xe6-gemini": -0.668,
                 "dragonfly-1024": -0.913, "cascade-dragonfly": -0.940},
}
GAP_SLACK = 0.03
# `agree codes`: CODES beside SimGrid. Not compared: the cases that measure what CODES' MPI layer cannot be
# given (docs/TRACE_SIMULATORS.md, CODES): a rank's message rate, and copies within a node.
CODES_NOT_COMPARED = {
    "init-finalize-64": "CODES' MPI_Finalize is no barrier: a run of MPI_Init and MPI_Finalize alone takes 0 s",
    "burst-8B": "CODES holds each message per_header but does not serialise a rank's messages by it",
    "pingpong-1MiB-in-node": "CODES has no in-node copy: a message within a node crosses its NIC and router",
    "halo3d-64KiB-in-node": "CODES has no in-node copy: a message within a node crosses its NIC and router",
}
# Where CODES and SimGrid are further apart than AGREEMENT, the ratio measured when this was written (bound:
# about 3 % above it). On the torus, CODES' model has no link latency (8 B ping-pong) and no NIC (the incast,
# and halos whose six faces leave a node at six links' bandwidth, not its NIC's: 3.1-5.6x faster; svcp's many
# small messages 2.0x). On dragonfly-1024, svcp's small messages 1.31x faster: CODES holds each message
# per_header without serialising a rank's messages by it (burst-8B). Its halos agree there since its NICs
# inject round robin (codes_machine.NIC_SCHEDULER; first come first served, they took 1.45x and 1.77x).
CODES_AGREEMENT_GAPS = {
    "pingpong-8B": {"torus-4x4x4": 3.56},
    "incast-1MiB": {"torus-4x4x4": 1.77},
    "halo3d-64KiB": {"torus-4x4x4": 3.16},
    "halo3d-1MiB": {"torus-4x4x4": 5.73},
    "svaf": {"torus-4x4x4": 1.34},
    "svcp": {"torus-4x4x4": 2.09, "dragonfly-1024": 1.35},
}


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def expected_seconds(case, network):
    """The model's time of a case that can be worked out by hand."""
    hop = network.link_latency + network.router_latency
    links = 1 if network.topology == "torus" else 2
    bandwidth = min(network.nic_bandwidth, network.link_bandwidth)
    protocol = lambda s: (1, 1) if s <= 512 else (3, 2)  # noqa: E731  (latencies, headers posted)
    header = networks.per_header(network)
    one_way = lambda s: protocol(s)[1] * header + protocol(s)[0] * links * hop + s / bandwidth  # noqa: E731
    in_node = lambda s: (protocol(s)[1] * header + protocol(s)[0] * network.loopback_latency  # noqa: E731
                         + s / network.loopback_bandwidth)
    if case == "pingpong-8B":
        return 100 * 2 * one_way(8)
    if case in ("pingpong-1MiB", "pingpong-1MiB-64KiB-packets"):
        return 10 * 2 * one_way(MIB)
    if case == "pingpong-8B-in-node":
        return 100 * 2 * in_node(8)
    if case == "pingpong-1MiB-in-node":
        return 10 * 2 * in_node(MIB)
    if case == "burst-8B":
        return (BURST - 1) * header + one_way(8)
    if case == "incast-1MiB":
        return one_way(MIB) + 6 * MIB / network.nic_bandwidth
    if case == "pingpong-64KiB-far":  # node 7 of a torus numbered x first: hops the shorter way round
        coordinates, node = [], 7
        for size in network.shape["shape"]:
            coordinates.append(node % size)
            node //= size
        hops = sum(min(c, size - c) for c, size in zip(coordinates, network.shape["shape"]))
        far = lambda s: protocol(s)[1] * header + protocol(s)[0] * hops * hop + s / bandwidth  # noqa: E731
        return 10 * 2 * far(65536)
    if case == "ghost-compute":
        return 4e-3
    raise KeyError(case)


class Suite:
    def __init__(self, build, root, workdir, network_path):
        self.build, self.root, self.network_path = build, root, network_path
        self.name = os.path.splitext(os.path.basename(network_path))[0]
        self.workdir = os.path.join(workdir, "conformance")
        self.simulated = set()
        os.makedirs(self.workdir, exist_ok=True)

    def trace(self, case):
        """The case's trace, made once (a folder per case, shared by every network)."""
        try:
            return conformance_traces.trace(self.build, self.workdir, case)
        except conformance_traces.NotMade as e:
            fail(str(e))

    def overrides(self, case):
        """The hand-made cases put one rank on a node (the seeds' machines put 16), unless they say
        otherwise; the strategies run on the file's machine as it is."""
        if case not in CASES:
            return []
        given = dict(o.split("=", 1) for o in ["ranks_per_node=1", *CASES[case][1]])  # the case's own win
        return [f"{key}={value}" for key, value in given.items()]  # each key once: two values are refused

    def simulate(self, case, simulator, extra=()):
        """(the simulation JSON, None) or (None, the refusal's line); `extra` keys set on top of the case's."""
        trace = self.trace(case)
        overrides = [*self.overrides(case), *extra]
        network = networks.load(self.network_path, overrides)
        out = os.path.join(trace, f"simulation-{network.label}-{simulator}.json")
        if out not in self.simulated:  # once per test run: an older run's file may come from other code
            self.simulated.add(out)
            command = [sys.executable, "-m", "amp_tools.simulate", trace, "--network",
                       self.network_path, "--simulator", simulator, "--build", self.build, "--root", self.root]
            for o in overrides:
                command += ["--set", o]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode == 2:
                lines = done.stderr.strip().splitlines()
                if len(lines) != 1 or not lines[0].startswith("amp simulate: error: "):
                    fail(f"{case} on {self.name} in {simulator}: a refusal must be one line, got {lines}")
                return None, lines[0]
            if done.returncode != 0:
                fail(f"{case} on {self.name} in {simulator}: exit {done.returncode}: {done.stderr.strip()}")
        with open(out) as f:
            return json.load(f), None

    def span(self, case, simulator, extra=()):
        """(low, high) of the case's prediction: SST-macro's is counted from when its last rank left MPI_Init,
        and may be short by up to the ranks' spread there (sstmac_startup_spread_seconds); SimGrid starts all
        ranks at once."""
        result, refusal = self.simulate(case, simulator, extra)
        if refusal:
            fail(f"{case} on {self.name}: {refusal}")
        predicted = result["predicted_seconds"]
        return predicted, predicted + result.get("sstmac_startup_spread_seconds", 0.0)


def analytic(suite, simulator):
    network = networks.load(suite.network_path)
    refused = simulators.refusal(network, simulator)
    for case in ANALYTIC:
        if case in TORUS_ONLY and network.topology != "torus":
            continue
        result, refusal = suite.simulate(case, simulator)
        if refusal:
            if not refused:
                fail(f"{case}: {simulator} refused {suite.name}, which it can express: {refusal}")
            print(f"{suite.name}: {simulator} refuses it: {refusal}")
            return
        expected = expected_seconds(case, networks.load(suite.network_path, suite.overrides(case)))
        predicted = result["predicted_seconds"]
        error = (predicted - expected) / expected
        print(f"{suite.name:22s} {simulator:7s} {case:22s} predicted {predicted * 1e6:10.3f} us, "
              f"model {expected * 1e6:10.3f} us ({error * 100:+.1f}%)")
        gap = CODES_GAPS.get(case, {}).get(suite.name) if simulator == "codes" else None
        if gap is not None:
            if abs(error - gap) > GAP_SLACK:
                fail(f"{case} on {suite.name} in codes: {error * 100:+.1f}% from the model, where its known gap "
                     f"(a key its model cannot be given) measured {gap * 100:+.1f}%")
            continue
        if abs(error) > ANALYTIC_TOLERANCE:
            fail(f"{case} on {suite.name} in {simulator}: {predicted:.6g} s, the model says {expected:.6g} s "
                 f"({error * 100:+.1f}%, more than {ANALYTIC_TOLERANCE * 100:.0f}%)")
    if refused:
        fail(f"{simulator} should refuse {suite.name} ({refused}) but simulated it")


def agree(suite, pair=AGREEING):
    network = networks.load(suite.network_path)
    if any(simulators.refusal(network, s) for s in pair):
        fail(f"{suite.name} is refused by a simulator: there is nothing to compare (register no agree test)")
    gaps = KNOWN_GAPS if pair == AGREEING else CODES_AGREEMENT_GAPS
    apart, known = [], []
    for case in [*CASES, *STRATEGIES]:
        if pair != AGREEING and case in CODES_NOT_COMPARED:
            print(f"{suite.name:22s} {case:22s} not compared: {CODES_NOT_COMPARED[case]}")
            continue
        ratio = compare(suite, case, pair=pair)
        bound = gaps.get(case, {}).get(suite.name, AGREEMENT)
        if ratio > bound:
            apart.append(f"{case} ({ratio:.2f}x, bound {bound}x)")
        elif ratio > AGREEMENT:
            known.append(f"{case} {ratio:.2f}x")
        packet = CLOSED_BY_PACKET_SIZE.get(case, {}).get(suite.name) if pair == AGREEING else None
        if packet:
            ratio = compare(suite, case, [f"packet_size={packet}"])
            if ratio > AGREEMENT:
                apart.append(f"{case} with SST-macro's packets of {packet} B ({ratio:.2f}x, bound {AGREEMENT}x)")
    if apart:
        fail(f"on {suite.name} the simulators are further apart than allowed on {', '.join(apart)}")
    print(f"{suite.name}: within {AGREEMENT}x except the known gaps: {', '.join(known) or 'none'}")


def compare(suite, case, sstmac_extra=(), pair=AGREEING):
    """How far apart the pair of simulators is on a case (apart_by), printed; `sstmac_extra` keys set for
    SST-macro alone."""
    extra = {s: tuple(sstmac_extra) if s == "sstmac" else () for s in pair}
    span = {s: suite.span(case, s, extra[s]) for s in pair}
    if case in NET_OF_START_AND_END:
        start_end = {s: suite.span("init-finalize-64", s, extra[s]) for s in pair}
        # the same start-up (64 ranks, this machine) in both: its spread cancels
        span = {s: (low - start_end[s][0], high - start_end[s][1]) for s, (low, high) in span.items()}
    first, second = pair
    ratio = apart_by(span[first], span[second])
    label = f"{case} ({' '.join(sstmac_extra)})" if sstmac_extra else case
    print(f"{suite.name:22s} {label:22s} {first} {span[first][0] * 1e6:11.3f} us  "
          f"{second} {span[second][0] * 1e6:11.3f} us (+{(span[second][1] - span[second][0]) * 1e6:.3f})  "
          f"ratio {ratio:.3f}")
    return ratio


def apart_by(a, b):
    """How far apart two predictions are, each a (low, high) span: 1.0 where they overlap, else the ratio
    of the nearer ends."""
    if a[1] < b[0]:
        return b[0] / a[1]
    if b[1] < a[0]:
        return a[0] / b[1]
    return 1.0


def main():
    mode, simulator, build, root, workdir, network_path = sys.argv[1:7]
    if (simulator in ("sstmac", "both")) and not os.environ.get("AMP_SSTMAC"):
        print("skipped: set AMP_SSTMAC (SST-macro's sstmac) for SST-macro's conformance")
        sys.exit(77)
    if "codes" in (simulator,) and not os.environ.get("AMP_CODES"):
        print("skipped: set AMP_CODES (CODES' model-net-mpi-replay) for CODES' conformance")
        sys.exit(77)
    suite = Suite(build, root, workdir, network_path)
    if mode == "analytic":
        analytic(suite, simulator)
    else:
        agree(suite, ("simgrid", simulator) if simulator != "both" else AGREEING)


if __name__ == "__main__":
    main()
