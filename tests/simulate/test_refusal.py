#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One refusal of `amp-trace simgrid` or `tools/amp_tools/simulate.py` per case, as a user meets it: exit 2, exactly
one stderr line that names the problem, and nothing written (no output directory, no partial one, no
simulation JSON; a file the user had stays as it was).

Usage: test_refusal.py CASE MPIEXEC BUILD ROOT WORKDIR    (exit 77: the case cannot run here)
"""
import glob
import os
import shutil
import subprocess
import sys

from amp_tools import launch

GHOST = ["--nx", "6", "--ny", "6", "--nz", "6", "--num_vars", "2", "--num_tsteps", "2"]
TORUS = ("topology = \"torus\"\nshape = {shape}\nlink_bandwidth = 1e9\nlink_latency = 1e-6\nhost_speed = 1e9\n"
         "ranks_per_node = 1\n")
DRAGONFLY = ("topology = \"dragonfly\"\ngroups = {groups}\nrouters_per_group = {routers}\nnodes_per_router = 1\n"
             "global_links_per_pair = {routers}\nlink_bandwidth = 1e9\nlink_latency = 1e-6\nhost_speed = 1e9\n"
             "ranks_per_node = 1\n")


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


class Case:
    def __init__(self, mpiexec, build, root, workdir, name):
        self.mpiexec, self.build, self.root = mpiexec, build, root
        self.dir = os.path.join(workdir, f"refusal-{name}")
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")

    def trace_ghost(self, *flags):
        trace = os.path.join(self.dir, "trace")
        done = subprocess.run(launch.mpiexec(self.mpiexec, 2, [os.path.join(self.build, "bin", "amp-ghost"), *GHOST,
                                                               *flags, "--trace", trace]),
                              capture_output=True, text=True, env=self.env)
        if done.returncode == 6:  # kCombinationRefused: this MPI lacks the transport (partitioned before 4.0)
            print(f"skipped: {done.stderr.strip().splitlines()[-1]}")
            sys.exit(77)
        if done.returncode != 0:
            fail(f"amp-ghost {' '.join(flags)} exited {done.returncode}: {done.stderr.strip()}")
        return trace

    def refused(self, command, expect, nothing_at=()):
        before = sorted(os.listdir(self.dir))
        done = subprocess.run(command, capture_output=True, text=True, env=self.env, cwd=self.dir)
        lines = done.stderr.strip().splitlines()
        if done.returncode != 2:
            fail(f"exit {done.returncode}, not 2: {done.stderr.strip()}")
        if len(lines) != 1 or expect not in lines[0]:
            fail(f"expected one line containing {expect!r}, got {lines}")
        for path in nothing_at:
            if os.path.exists(path):
                fail(f"{path} was left behind")
        if sorted(os.listdir(self.dir)) != before:
            fail(f"files appeared: {sorted(set(os.listdir(self.dir)) - set(before))}")
        print(f"refused as expected: {lines[0]}")

    def export(self, trace, expect):
        out = os.path.join(self.dir, "ti")
        self.refused([os.path.join(self.build, "bin", "amp-trace"), "simgrid", trace, out], expect, [out])

    def simulate(self, trace, network, expect, *extra, env=None):
        if env:
            self.env.update(env)
        self.refused([sys.executable, "-m", "amp_tools.simulate", trace, "--network", network,
                      "--build", self.build, *extra], expect)
        if glob.glob(os.path.join(trace, "simulation-*.json")):
            fail("a simulation JSON was written")

    def network_file(self, text):
        path = os.path.join(self.dir, "net.toml")
        with open(path, "w") as f:
            f.write(text)
        return path


def main():
    name, mpiexec, build, root, workdir = sys.argv[1:6]
    case = Case(mpiexec, build, root, workdir, name)
    torus = os.path.join(root, "inputs", "networks", "torus-4x4x4.toml")
    if name == "export_one_sided":
        # rma's passive-target synchronisation has no DUMPI record: the export refuses on the .meta's
        # counts before it reaches the window (ti_export_test covers MPI_Win_create's own refusal)
        case.export(case.trace_ghost("--transport", "rma"), "MPI_Win_flush x")
    elif name == "export_neighbourhood":
        case.export(case.trace_ghost("--transport", "neighbor"), "MPI_Ineighbor_alltoallv x")
    elif name == "export_partitioned":
        case.export(case.trace_ghost("--transport", "partitioned"), "MPI_Psend_init x")
    elif name == "export_existing_output":
        trace = case.trace_ghost()
        out = os.path.join(case.dir, "ti")
        os.makedirs(out)
        with open(os.path.join(out, "mine.txt"), "w") as f:
            f.write("the user's\n")
        case.refused([os.path.join(build, "bin", "amp-trace"), "simgrid", trace, out], "already exists")
        if os.listdir(out) != ["mine.txt"] or open(os.path.join(out, "mine.txt")).read() != "the user's\n":
            fail("the existing output directory was changed")
    elif name == "export_missing_trace":
        case.export(os.path.join(case.dir, "no-such-trace"), "no DUMPI trace found")
    elif name == "simulate_missing_trace":
        case.refused([sys.executable, "-m", "amp_tools.simulate", os.path.join(case.dir, "nothing"),
                      "--network", torus, "--build", build], "no such trace directory")
    elif name == "simulate_bad_network_file":
        case.simulate(case.trace_ghost(), case.network_file("topology = \"torus\"\nshape = [4, 4\n"), "not valid TOML")
    elif name == "simulate_unknown_topology":
        case.simulate(case.trace_ghost(), case.network_file("topology = \"hypercube\"\n"),
                      "topology must be one of dragonfly, fattree, flat, torus, not 'hypercube'")
    elif name == "simulate_missing_key":
        case.simulate(case.trace_ghost(), case.network_file(
            "topology = \"torus\"\nshape = [2, 2]\nlink_bandwidth = 1e9\nhost_speed = 1e9\nranks_per_node = 1\n"),
            "missing key 'link_latency'")
    elif name == "simulate_bad_value":
        case.simulate(case.trace_ghost(), case.network_file(
            "topology = \"torus\"\nshape = [2, 0]\nlink_bandwidth = 1e9\nlink_latency = 1e-6\nhost_speed = 1e9\n"
            "ranks_per_node = 1\n"), "shape must be a positive integer, not 0")
    elif name == "simulate_more_ranks_than_hosts":
        case.simulate(case.trace_ghost(), case.network_file(
            "topology = \"flat\"\nnodes = 1\nlink_bandwidth = 1e9\nlink_latency = 1e-6\nhost_speed = 1e9\n"
            "ranks_per_node = 1\n"), "the trace has 2 ranks, more than the network's 1 nodes x 1 ranks per node = 1")
    elif name == "simulate_routing_the_simulator_lacks":
        case.simulate(case.trace_ghost(), case.network_file(
            DRAGONFLY.format(groups=3, routers=4) + "routing = \"ugal\"\n"),
            "simgrid offers routing minimal on a dragonfly, not 'ugal'")
    elif name == "simulate_dragonfly_simgrid_cannot_route":  # SimGrid 3.32 crashed (SIGSEGV) on these
        case.simulate(case.trace_ghost(), case.network_file(DRAGONFLY.format(groups=8, routers=2)),
                      "routers_per_group (2) must be at least groups (8)")
    elif name == "simulate_network_larger_than_simgrid_builds":
        case.simulate(case.trace_ghost(), case.network_file(TORUS.format(shape="[1000, 1000, 10]")),
                      "10000000 nodes is more than AMP simulates")
    elif name == "simulate_count_beyond_its_bound":
        case.simulate(case.trace_ghost(), case.network_file(
            TORUS.format(shape="[4, 4, 4]").replace("ranks_per_node = 1", "ranks_per_node = 9223372036854775807")),
            "ranks_per_node = 9223372036854775807 is above the limit of 1024")
    elif name == "simulate_memory_beyond_this_machine":  # about 40 KiB a switch in SST-macro: 40 GiB here
        case.simulate(case.trace_ghost(), case.network_file(TORUS.format(shape="[1024, 1024, 1]")),
                      "sstmac would need about", "--simulator", "sstmac",
                      env={"AMP_SSTMAC": os.path.join(case.dir, "no-sstmac")})
    elif name == "simulate_sstmac_dragonfly_global_bandwidth":  # once dropped without a word
        case.simulate(case.trace_ghost(), case.network_file(DRAGONFLY.format(groups=3, routers=4)),
                      "global_bandwidth differs from link_bandwidth", "--simulator", "sstmac",
                      "--set", "global_bandwidth=2e9", env={"AMP_SSTMAC": os.path.join(case.dir, "no-sstmac")})
    elif name == "simulate_set_unknown_key":
        case.simulate(case.trace_ghost(), torus, "unknown key 'bogus' for topology 'torus'", "--set", "bogus=1")
    elif name == "simulate_unknown_option_one_line":
        case.simulate(case.trace_ghost(), torus, "unrecognized arguments: --bogus", "--bogus")
    elif name == "simulate_sstmac_without_binary":
        case.simulate(case.trace_ghost(), torus, "needs AMP_SSTMAC", "--simulator", "sstmac",
                      env={"AMP_SSTMAC": os.path.join(case.dir, "no-sstmac")})
    else:
        fail(f"unknown case {name}")


if __name__ == "__main__":
    main()
