#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Runs amp-nobel under mpiexec for several strategies and checks its JSON: verification passed, 2:1
# balance kept, checksums equal across strategies and to a 1-rank reference, exact message counts,
# AMR steps made and data migrated, the AMR steps that rebalanced and the blocks per rank after each;
# or, for bad input, a non-zero exit with one error line.
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import failure, launcher_parser, parse_with_program_arguments, without_exit_banners  # noqa: E402
from amp_tools import launch



fail = failure("test_nobel_run")


def parse_arguments():
    p = launcher_parser()
    p.add_argument("--strategies", default="bspma,onebyone,svaf,svcp")
    p.add_argument("--reference", action="store_true", help="also run bspma on 1 rank; checksums must match it")
    p.add_argument("--expect-messages", action="append", default=[], metavar="STRATEGY=N",
                   help="messages.total of this strategy's run")
    p.add_argument("--expect-message-bytes", type=int, help="every stepping message has this size (svcp)")
    p.add_argument("--min-amr-steps", type=int, default=0)
    p.add_argument("--expect-migration", action="store_true", help="AMR steps moved blocks between ranks")
    p.add_argument("--expect-rebalance-every", type=int, metavar="N",
                   help="AMR step i (from 1) rebalanced iff N > 0 and N divides i; after a rebalance the ranks' "
                        "blocks differ by at most 1, after another step by at most 7 more per refined or "
                        "coarsened block")
    p.add_argument("--expect-imbalance", action="store_true",
                   help="some AMR step without a rebalance left a rank 7 or more blocks (a refined block's "
                        "extra children) above another")
    p.add_argument("--expect-empty-rank", action="store_true",
                   help="some AMR step without a rebalance left a rank owning no blocks")
    p.add_argument("--expect-failure", metavar="REGEX")
    p.add_argument("--timeout", type=int, default=100)
    return parse_with_program_arguments(p, "proxy_arguments")


def run(a, np, arguments, folder, name):
    results = os.path.join(folder, f"{name}.json")
    command = launch.mpiexec(a.mpiexec, np, [a.exe, "--progress", "0", "--results", results] + arguments,
                             a.mpiexec_flags)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        fail(f"{name} did not finish in {a.timeout} s: {' '.join(command)}")
    return done, results


def check_rebalancing(name, r, every, imbalance):
    """The AMR history's rebalances follow `every` and its blocks per rank fit them (see --expect-rebalance-every)."""
    if r["config"]["rebalance_interval"] != every:
        fail(f"{name}: config rebalance_interval {r['config']['rebalance_interval']}, expected {every}")
    spread = 1  # the starting mesh is in equal shares
    widest = 0
    for i, h in enumerate(r["amr"]["history"], start=1):
        expected = every > 0 and i % every == 0
        per_rank = h["blocks_per_rank"]
        if h["rebalanced"] != expected:
            fail(f"{name}: AMR step {i} rebalanced {h['rebalanced']}, expected {expected}")
        if abs(per_rank["avg"] * r["ranks"] - h["blocks"]) > 1e-6:
            fail(f"{name}: AMR step {i}: {per_rank} blocks per rank do not add up to {h['blocks']}")
        bound = 1 if expected else spread + 7 * (h["refined"] + h["coarsened"])
        spread = per_rank["max"] - per_rank["min"]
        if spread > bound:
            fail(f"{name}: AMR step {i} left {per_rank} blocks per rank, spread {spread} > {bound}")
        if not expected:
            widest = max(widest, spread)
    if imbalance and widest < 7:
        fail(f"{name}: no AMR step without a rebalance left a spread of 7 or more blocks per rank: "
             f"{[h['blocks_per_rank'] for h in r['amr']['history']]}")


def main():
    a = parse_arguments()
    with tempfile.TemporaryDirectory() as folder:
        if a.expect_failure:
            done, results = run(a, a.np, a.proxy_arguments, folder, "bad")
            output = done.stdout + without_exit_banners(done.stderr)
            lines = [line for line in output.splitlines() if line.strip()]
            if done.returncode == 0:
                fail(f"expected failure, got exit 0: {lines}")
            if len(lines) != 1 or not re.search(a.expect_failure, lines[0]):
                fail(f"expected one line matching '{a.expect_failure}', got {lines}")
            if os.path.exists(results):
                fail("a failed run wrote results")
            print(f"test_nobel_run: OK: rejected with: {lines[0]}")
            return
        expected = dict(item.split("=", 1) for item in a.expect_messages)
        runs = {}
        strategies = a.strategies.split(",")
        plan = [(s, a.np) for s in strategies] + ([("bspma", 1)] if a.reference and a.np != 1 else [])
        for strategy, np in plan:
            name = f"{strategy}-np{np}"
            done, results = run(a, np, a.proxy_arguments + ["--strategy", strategy], folder, name)
            if done.returncode != 0:
                fail(f"{name} exited {done.returncode}: {done.stdout[-2000:]} {done.stderr[-2000:]}")
            with open(results) as f:
                r = json.load(f)
            v = r["verification"]
            if not v["passed"] or not v["balanced_2to1"]:
                fail(f"{name}: verification {v}")
            if r["ranks"] != np or r["config"]["strategy"] != strategy:
                fail(f"{name}: ran with {r['ranks']} ranks, {r['config']['strategy']}")
            if r["amr"]["steps"] < a.min_amr_steps:
                fail(f"{name}: {r['amr']['steps']} AMR steps, expected at least {a.min_amr_steps}")
            if any(not h["balanced_2to1"] for h in r["amr"]["history"]):
                fail(f"{name}: 2:1 balance broken after an AMR step: {r['amr']['history']}")
            if a.expect_migration and np == a.np and (r["amr"]["migrated_blocks"] == 0
                                                      or r["amr"]["migrated_bytes"] == 0):
                fail(f"{name}: no blocks migrated: {r['amr']}")
            if strategy in expected and np == a.np and r["messages"]["total"] != int(expected[strategy]):
                fail(f"{name}: {r['messages']['total']} messages, expected {expected[strategy]}")
            if a.expect_message_bytes and strategy == "svcp" and np == a.np:
                sizes = {(row["min_bytes"], row["max_bytes"]) for row in r["messages"]["size_histogram"]}
                bucket = [s for s in sizes if s[0] <= a.expect_message_bytes <= s[1]]
                if (len(sizes) != 1 or not bucket
                        or r["bytes"]["total"] != r["messages"]["total"] * a.expect_message_bytes):
                    fail(f"{name}: messages are not all {a.expect_message_bytes} B: {r['messages']}, {r['bytes']}")
            if a.expect_rebalance_every is not None:
                check_rebalancing(name, r, a.expect_rebalance_every, a.expect_imbalance and np == a.np and np > 1)
            fewest = min((h["blocks_per_rank"]["min"] for h in r["amr"]["history"]), default=None)
            if a.expect_empty_rank and np == a.np and fewest != 0:
                fail(f"{name}: every rank kept blocks: {[h['blocks_per_rank'] for h in r['amr']['history']]}")
            runs[name] = r
        checksums = {name: r["checksum"] for name, r in runs.items()}
        if len(set(checksums.values())) != 1:
            fail(f"checksums differ: {checksums}")
        print(f"test_nobel_run: OK: {len(runs)} runs, checksum {next(iter(checksums.values()))}")


if __name__ == "__main__":
    main()
