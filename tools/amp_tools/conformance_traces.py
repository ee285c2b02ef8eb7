# SPDX-License-Identifier: BSD-3-Clause
"""The traces of the simulators' conformance suite, made once per work folder: hand-made cases with no
compute between calls (the test program tests/simulate/conformance_traces_program.cpp, built as
BUILD/tests/simulate_conformance_traces) and amp-ghost's strategies synthesized at 64 ranks. Shared by the
suite (tests/simulate/test_conformance.py), which replays them on every shipped network, and by the benches
that replay the same traces another way (bench/simulate/crosstraffic.py), so that both make them alike."""
import os
import shutil
import subprocess

MIB = 1 << 20
BURST = 1000
# Within a node: the loopback's model, with a message overhead (the generic files' own 0.2 us) so that 100
# round trips of 8 B are more than MPI_Init and MPI_Finalize (the seeds' files give none, and no latency).
IN_NODE = ["ranks_per_node=2", "loopback_bandwidth=20e9", "loopback_latency=0", "message_overhead=2e-7",
           "nic_message_overhead=0"]
CASES = {  # name: (conformance_traces arguments, --set overrides)
    "pingpong-8B": (["pingpong", "8", "100"], []),
    "pingpong-1MiB": (["pingpong", str(MIB), "10"], []),
    # SST-macro's packets of 64 KiB, more than a virtual channel's share of a port's 64 KB: its switches
    # need the credits AMP gives them (simulators/sstmac_machine.py, sstmac_credits), or the replay stops in a deadlock
    "pingpong-1MiB-64KiB-packets": (["pingpong", str(MIB), "10"], ["packet_size=65536"]),
    "pingpong-8B-in-node": (["pingpong", "8", "100"], IN_NODE),
    "pingpong-1MiB-in-node": (["pingpong", str(MIB), "10"], IN_NODE),
    # rank 0 and rank 7, at the far end of a row of 8 nodes: 2 hops on torus-4x4x4, 7 on torus-16x16x4;
    # worked out by hand on a torus only (a dragonfly's path depends on its groups)
    "pingpong-64KiB-far": (["pingpong", "65536", "10", "8"], []),
    "incast-1MiB": (["incast", str(MIB), "8"], []),
    # the message rate: 1000 Isends of 8 B from rank 0 to rank 1, each posted as soon as the last
    "burst-8B": (["burst", "8", str(BURST)], []),
    "ring-64KiB": (["ring", "65536", "8"], []),
    "init-finalize-64": (["empty", "0", "64"], []),
    "halo3d-64KiB": (["halo3d", "65536", "4", "4", "4"], []),
    # the two sizes where SST-macro was once given another machine: 8 KB went through its eager1 protocol
    # (copies charged in CPU cycles: 2.5x SimGrid), 1 MiB through a NIC that served one message at a time
    # (55 % of its bandwidth: 1.8x); docs/TRACE_SIMULATORS.md
    "halo3d-8KiB": (["halo3d", "8192", "4", "4", "4"], []),
    "halo3d-1MiB": (["halo3d", str(MIB), "4", "4", "4"], []),
    # 8 ranks in one node, 6 copies each at once: SST-macro's memory model once served a node's copies one
    # after the other (4.4x SimGrid's time with a channel per rank, 1.02x with simulators/sstmac_machine.py's
    # SSTMAC_COPIES_PER_RANK)
    "halo3d-64KiB-in-node": (["halo3d", "65536", "2", "2", "2"], ["ranks_per_node=8", *IN_NODE[1:]]),
}
# amp-ghost synthesized at 2 ranks with 1 ms of compute per variable step (2 variables, 2 steps): the
# prediction is its 4 ms of compute, the little communication aside. SST-macro 16.0 models no compute at
# all in a trace that opens with MPI_Init_thread; the proxies' is recorded as MPI_Init for it.
COMPUTE_CASE = ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "2", "--num_tsteps", "2", "--strategy", "bspma",
                "--ranks", "2", "--compute_seconds", "1e-3"]
STRATEGIES = ("bspma", "svaf", "svcp")  # amp-ghost synthesized at 64 ranks under each
NAMES = (*CASES, "ghost-compute", *STRATEGIES)  # every case this module makes a trace of


class NotMade(Exception):
    """A case's trace that could not be made: one line naming the case and the program's complaint."""


def command(build, case, staging):
    """The command that writes the case's trace into the folder `staging`."""
    if case in STRATEGIES:
        return [os.path.join(build, "bin", "amp-ghost"), "--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "4",
                "--num_tsteps", "2", "--strategy", case, "--synthesize", staging, "--ranks", "64",
                "--compute_seconds", "1e-5"]
    if case == "ghost-compute":
        return [os.path.join(build, "bin", "amp-ghost"), *COMPUTE_CASE, "--synthesize", staging]
    return [os.path.join(build, "tests", "simulate_conformance_traces"), staging, *CASES[case][0]]


def trace(build, traces, case):
    """The case's trace: the folder TRACES/CASE, made once (shared by every network and simulator; one that
    another process made meanwhile is taken as it is)."""
    if case not in NAMES:
        raise NotMade(f"no conformance case '{case}' (cases: {', '.join(NAMES)})")
    os.makedirs(traces, exist_ok=True)
    folder = os.path.join(traces, case)
    if os.path.isdir(folder) and any(f.endswith(".meta") for f in os.listdir(folder)):
        return folder
    staging = f"{folder}.partial-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    if case not in STRATEGIES and case != "ghost-compute":
        os.makedirs(staging)
    done = subprocess.run(command(build, case, staging), capture_output=True, text=True,
                          env=dict(os.environ, OMP_NUM_THREADS="1"))
    if done.returncode != 0:
        raise NotMade(f"making the {case} trace: {done.stderr.strip()}")
    try:
        os.rename(staging, folder)
    except OSError:  # another process made it meanwhile
        shutil.rmtree(staging, ignore_errors=True)
    return folder
