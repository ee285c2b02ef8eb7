#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""`--list-combinations --json` of the proxies (amp-ghost, amp-sage, amp-nobel, or their test builds with
more strategies), value by value: exit 0 with no MPI launcher, the same registry in all three (only
"proxy" differs), the built-in transports in their order with the MPI version, what each needs of a
strategy's cut, and the trace side's replayability and synthesis, and exactly the pairs this MPI refuses,
each with the line a run prints before exit 6. The strategies are read from the listing, with what each
says it produces, and the refusals follow from those capabilities alone (src/amp/comm/combination.hpp's rule):
a strategy added in one file passes unchanged, unless it exchanges one link at a time (a pacing the
listing does not show: LINK_BY_LINK_STRATEGIES names those). A new transport file changes TRANSPORTS.

Usage: test_combination_list.py --mpi-version MAJOR AMP-GHOST AMP-SAGE AMP-NOBEL"""
import argparse
import json
import os
import subprocess
import sys

# name: (MPI version, what it needs of a strategy's cut, replayable, synthesizable)
TRANSPORTS = {"isend": ("1.0", "any", True, True), "persistent": ("1.0", "any", True, True),
              "partitioned": ("4.0", "any", False, False), "rma": ("3.0", "any", False, False),
              "neighbor": ("3.0", "per_link", False, False), "datatype": ("1.0", "any", True, True)}
CUTS = ("per_link", "per_piece")
# What src/amp/comm/strategies registers for the built-in strategies: (cut, variables per group; 0: all of them).
BUILT_IN = {"bspma": ("per_link", 0), "onebyone": ("per_link", 0), "svaf": ("per_link", 1), "svcp": ("per_piece", 1)}
# Pacing (src/amp/comm/capabilities.hpp) is not in the listing: the strategies that exchange one link at a time
# (every other strategy paces by batch) and the transports that can move one link's messages on their own.
LINK_BY_LINK_STRATEGIES = {"onebyone"}
LINK_BY_LINK_TRANSPORTS = {"isend", "persistent", "datatype"}


def expected_refusals(found, mpi_version):
    """(strategy, transport) -> the refusal line, or None where only its prefix is fixed (an MPI too old),
    for every pair the capabilities refuse with MPI's buffers unstaged."""
    strategies = {s["name"]: s["cut"] for s in found["strategies"]}
    new_enough = {t: int(v[0][0]) <= mpi_version for t, v in TRANSPORTS.items()}
    cut_fits = {(s, t): (TRANSPORTS[t][1] == "any" or cut == "per_link")
                and (s not in LINK_BY_LINK_STRATEGIES or t in LINK_BY_LINK_TRANSPORTS)
                for s, cut in strategies.items() for t in TRANSPORTS}
    fitting = {s: ", ".join(t for t in TRANSPORTS if new_enough[t] and cut_fits[(s, t)]) for s in strategies}
    refused = {}
    for (s, t), fits in cut_fits.items():
        if not new_enough[t]:
            refused[(s, t)] = None  # "needs MPI 4.0, ...": checked by prefix
        elif not fits:
            moved = ", ".join(x for x in strategies if cut_fits[(x, t)])
            refused[(s, t)] = f"transport '{t}' does not fit strategy '{s}' ({t} fits {moved}; {s} fits {fitting[s]})"
    return refused


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--mpi-version", type=int, required=True)
    p.add_argument("exes", nargs=3)
    a = p.parse_args()
    problems, listings = [], []
    for exe in a.exes:
        done = subprocess.run([exe, "--list-combinations", "--json"], capture_output=True, text=True, timeout=60)
        if done.returncode != 0 or done.stderr:
            problems.append(f"{exe}: exit {done.returncode}, stderr {done.stderr!r}")
            continue
        listing = json.loads(done.stdout)
        proxy = listing.pop("proxy")
        if not os.path.basename(exe).startswith(proxy):
            problems.append(f"{exe}: proxy {proxy!r}")
        listings.append(listing)
    if problems:
        print("FAIL:", problems)
        return 1
    if any(listing != listings[0] for listing in listings):
        problems.append("the three proxies list different registries")
    found = listings[0]
    if int(found["mpi"]["version"].split(".")[0]) != a.mpi_version or not found["mpi"]["library"]:
        problems.append(f"mpi {found['mpi']}, expected major {a.mpi_version} and a library line")
    strategies = [s["name"] for s in found["strategies"]]
    if strategies != sorted(strategies) or not set(BUILT_IN) <= set(strategies):
        problems.append(f"strategies {strategies}: the built-in ones, by name")
    for s in found["strategies"]:
        if not s["description"] or s["cut"] not in CUTS or not isinstance(s["variables_per_group"], int):
            problems.append(f"strategy entry {s}")
        if s["name"] in BUILT_IN and (s["cut"], s["variables_per_group"]) != BUILT_IN[s["name"]]:
            problems.append(f"strategy {s['name']} produces {s['cut']}, {s['variables_per_group']}: "
                            f"expected {BUILT_IN[s['name']]}")
    got = {t["name"]: (t["mpi_version"], t["needs_cut"], t["replayable"], t["synthesizable"])
           for t in found["transports"]}
    if list(got) != list(TRANSPORTS) or got != TRANSPORTS:
        problems.append(f"transports {got}, expected {TRANSPORTS}")
    for t in found["transports"]:
        if (t["available"] != (int(t["mpi_version"][0]) <= a.mpi_version) or not t["description"]
                or not t["mpi_feature"]):
            problems.append(f"transport entry {t}")
        if t["synthesizable"] == ("not_synthesizable" in t):
            problems.append(f"transport {t['name']}: not_synthesizable given iff it cannot be synthesized")
    pairs = [(c["strategy"], c["transport"]) for c in found["combinations"]]
    if pairs != [(s, t) for t in TRANSPORTS for s in strategies]:
        problems.append(f"combinations {pairs}")
    refused = {(c["strategy"], c["transport"]): c.get("refusal") for c in found["combinations"] if not c["fits"]}
    expected = expected_refusals(found, a.mpi_version)
    if not any(line for line in expected.values()):
        problems.append("no strategy's cut is refused by a transport: the capability rule is not exercised")
    if set(refused) != set(expected):
        problems.append(f"refused {sorted(refused)}, expected {sorted(expected)}")
    for pair, line in expected.items():
        if line is not None and refused.get(pair) != line:
            problems.append(f"{pair}: refusal {refused.get(pair)!r}, expected {line!r}")
        if line is None and not (refused.get(pair)
                                 or "").startswith("transport 'partitioned' needs MPI 4.0, this MPI is"):
            problems.append(f"{pair}: refusal {refused.get(pair)!r}")
    for problem in problems:
        print("FAIL:", problem)
    print("FAILED" if problems else f"test_combination_list: OK: {len(pairs)} pairs, {len(refused)} refused")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
