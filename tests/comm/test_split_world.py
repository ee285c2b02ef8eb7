#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp-ghost on one half of a world and amp-sage on the other (tests/comm/split_world_program.cpp, on
sub-communicators of MPI_COMM_WORLD) must each give exactly the checksum of its own plain run on as
many ranks, exit 0, and print its summary once (rank 0 of its half alone).

Usage: test_split_world.py --mpiexec M --np N --exe SPLIT_PROGRAM --ghost-exe G --sage-exe S
                            --ghost ARGS... --sage ARGS...   (N even; each plain run on N/2 ranks)
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) + "/../common")
from checked_run import failure, launcher_parser, without_exit_banners  # noqa: E402
from amp_tools import launch

fail = failure("test_split_world")

parser = launcher_parser(__doc__)
parser.allow_abbrev = False  # --ghost (the proxy arguments) is not --ghost-exe
parser.add_argument("--ghost-exe", required=True)
parser.add_argument("--sage-exe", required=True)
a, rest = parser.parse_known_args()
if "--ghost" not in rest or "--sage" not in rest or rest.index("--ghost") > rest.index("--sage"):
    fail(f"expected --ghost ARGS... --sage ARGS..., got {rest}")
ghost_args = rest[rest.index("--ghost") + 1:rest.index("--sage")]
sage_args = rest[rest.index("--sage") + 1:]


def run(np, command, what):
    full = launch.mpiexec(a.mpiexec, np, command, a.mpiexec_flags)
    try:
        done = subprocess.run(full, capture_output=True, text=True, timeout=200)
    except subprocess.TimeoutExpired:
        fail(f"{what} did not finish in 200 s: {' '.join(full)}")
    if done.returncode != 0:
        fail(f"{what} exited {done.returncode}: {' '.join(full)}\n{done.stdout}{without_exit_banners(done.stderr)}")
    return done.stdout


def checksum(path, what):
    try:
        with open(path) as f:
            return json.load(f)["checksum"]
    except (OSError, ValueError, KeyError) as e:
        fail(f"{what}: no checksum in {path}: {e}")


with tempfile.TemporaryDirectory(prefix="amp-split-") as d:
    out = {name: os.path.join(d, name + ".json") for name in ("split_ghost", "split_sage", "ghost", "sage")}
    split_stdout = run(a.np, [a.exe, "--ghost", *ghost_args, "--results", out["split_ghost"],
                              "--sage", *sage_args, "--results", out["split_sage"]], "the split run")
    run(a.np // 2, [a.ghost_exe, *ghost_args, "--results", out["ghost"]], "plain amp-ghost")
    run(a.np // 2, [a.sage_exe, *sage_args, "--results", out["sage"]], "plain amp-sage")
    for proxy in ("ghost", "sage"):
        split, plain = checksum(out["split_" + proxy], "split " + proxy), checksum(out[proxy], "plain " + proxy)
        if split != plain:
            fail(f"amp-{proxy} on half of {a.np} ranks: checksum {split}, its plain {a.np // 2}-rank run: {plain}")
        heading = f"amp-{proxy}: "
        printed = [line for line in split_stdout.splitlines() if line.startswith(heading)]
        if len(printed) != 1 or f"on {a.np // 2} ranks" not in printed[0]:
            fail(f"expected amp-{proxy}'s summary once, on {a.np // 2} ranks; got {printed}")
        print(f"test_split_world: amp-{proxy} on half of {a.np} ranks: checksum {split}, as its plain run")
sys.exit(0)
