#!/usr/bin/env python3
"""`--list-combinations --json` of the plain proxies (amp-ghost, amp-sage, amp-nobel), value by value:
exit 0 with no MPI launcher, the same registry in all three (only "proxy" differs), the built-in
strategies and transports in their order with the MPI version, replayability and synthesis each
registered, and exactly the pairs this MPI refuses, each with the line a run prints before exit 6.
This pins what comm/strategies and comm/transports register today; a new strategy or transport file
changes these expectations, and nothing else in the scripts.

Usage: check_combination_list.py --mpi-version MAJOR AMP-GHOST AMP-SAGE AMP-NOBEL"""
import argparse
import json
import subprocess
import sys

STRATEGIES = ["bspma", "svaf", "svcp"]
# name: (MPI version, replayable, synthesizable)
TRANSPORTS = {"isend": ("1.0", True, True), "persistent": ("1.0", True, True), "partitioned": ("4.0", False, False),
              "rma": ("3.0", False, False), "neighbor": ("3.0", False, False), "datatype": ("1.0", True, True)}


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
        if not exe.endswith(proxy):
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
    if [s["name"] for s in found["strategies"]] != STRATEGIES or not all(s["description"] for s in found["strategies"]):
        problems.append(f"strategies {found['strategies']}")
    got = {t["name"]: (t["mpi_version"], t["replayable"], t["synthesizable"]) for t in found["transports"]}
    if list(got) != list(TRANSPORTS) or got != TRANSPORTS:
        problems.append(f"transports {got}, expected {TRANSPORTS}")
    for t in found["transports"]:
        if t["available"] != (int(t["mpi_version"][0]) <= a.mpi_version) or not t["description"] or not t["mpi_feature"]:
            problems.append(f"transport entry {t}")
        if t["synthesizable"] == ("not_synthesizable" in t):
            problems.append(f"transport {t['name']}: not_synthesizable given iff it cannot be synthesized")
    pairs = [(c["strategy"], c["transport"]) for c in found["combinations"]]
    if pairs != [(s, t) for t in TRANSPORTS for s in STRATEGIES]:
        problems.append(f"combinations {pairs}")
    refused = {(c["strategy"], c["transport"]): c.get("refusal") for c in found["combinations"] if not c["fits"]}
    fitting_svcp = ", ".join(t for t in TRANSPORTS if t != "neighbor" and (t != "partitioned" or a.mpi_version >= 4))
    expected = {("svcp", "neighbor"): f"transport 'neighbor' does not fit strategy 'svcp' (neighbor fits bspma, svaf; "
                                      f"svcp fits {fitting_svcp})"}
    if a.mpi_version < 4:
        expected.update({(s, "partitioned"): None for s in STRATEGIES})  # "needs MPI 4.0, ...": checked by prefix
    if set(refused) != set(expected):
        problems.append(f"refused {sorted(refused)}, expected {sorted(expected)}")
    for pair, line in expected.items():
        if line is not None and refused.get(pair) != line:
            problems.append(f"{pair}: refusal {refused.get(pair)!r}, expected {line!r}")
        if line is None and not (refused.get(pair) or "").startswith("transport 'partitioned' needs MPI 4.0, this MPI is"):
            problems.append(f"{pair}: refusal {refused.get(pair)!r}")
    for problem in problems:
        print("FAIL:", problem)
    print("FAILED" if problems else f"check_combination_list: OK: {len(pairs)} pairs, {len(refused)} refused")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
