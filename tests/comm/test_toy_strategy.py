#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The toy strategy (tests/comm/toy_strategy.cpp), added in one file outside comm/ and miniapps/:
- every proxy built with it (--with-toy) lists it, with its description and what it produces (SVAF's cut:
  one message per link, one variable per group), among its strategies, and its matrix has a pair for it
  with every transport, fitting every one this MPI is new enough for (neighbour collectives too: they
  need one message per link, which the toy's cut is; no transport names the strategies it fits);
  no plain proxy (--plain) lists it;
- over isend at --np ranks it exits 0, gives bspma's checksum exactly, and sends exactly SVAF's messages
  and bytes (the same cut, sent later);
- with MPI's buffers staged (AMP_MPI_BUFFERS=host) the listing refuses it the in-place transport, and
  that pair exits 6 (kCombinationRefused) with exactly the listing's refusal line.
The toy copies SVAF's completion loop on purpose: it may use only comm/'s public headers."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) + "/../common")
from checked_run import failure, launcher_parser, refusal_line  # noqa: E402
from amp_tools import launch
from amp_tools import combinations  # noqa: E402

fail = failure("test_toy_strategy")
TOY = "toy"
DESCRIPTION = "test only: one message per variable per link, sent when the ghosts are needed"
SMALL = {"ghost": ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "3", "--num_tsteps", "3", "--num_spikes", "1"],
         "sage": ["--nx", "7", "--ny", "6", "--nz", "5", "--num_vars", "3", "--num_tsteps", "3"],
         "nobel": ["--num_tsteps", "4", "--amr_interval", "2"]}


def proxy_of(exe):
    return re.match(r"amp-([a-z]+)", os.path.basename(exe)).group(1)


def run(a, exe, arguments, results=None, env=None):
    command = launch.mpiexec(a.mpiexec, a.np, [exe, "--progress", "0"] + arguments, a.mpiexec_flags)
    if results:
        command += ["--results", results]
    return subprocess.run(command, capture_output=True, text=True, timeout=240, env=env)


def staged_listing(exe):
    """The listing with MPI's buffers staged through host memory (AMP_MPI_BUFFERS=host)."""
    os.environ["AMP_MPI_BUFFERS"] = "host"
    try:
        return combinations.listing(exe)
    finally:
        os.environ.pop("AMP_MPI_BUFFERS", None)


def checked_results(a, exe, arguments, folder, label):
    results = os.path.join(folder, f"{label}.json")
    done = run(a, exe, arguments, results)
    if done.returncode != 0:
        fail(f"{label}: exit {done.returncode}: {done.stderr[-1500:]}")
    with open(results) as f:
        return json.load(f)


def main():
    p = launcher_parser(description=__doc__)
    p.add_argument("--with-toy", nargs=3, required=True, help="amp-ghost, amp-sage, amp-nobel built with the toy")
    p.add_argument("--plain", nargs=3, required=True, help="the same proxies without it")
    p.add_argument("--nobel-deck", required=True)
    a = p.parse_args()
    os.environ.pop("AMP_MPI_BUFFERS", None)
    for exe in a.plain:
        if TOY in combinations.names(exe)[0]:
            fail(f"{os.path.basename(exe)} lists the test-only strategy '{TOY}'")
    with tempfile.TemporaryDirectory() as folder:
        for exe in a.with_toy:
            proxy = proxy_of(exe)
            listed = combinations.listing(exe)
            strategies = {s["name"]: s["description"] for s in listed["strategies"]}
            transports = [t["name"] for t in listed["transports"]]
            if strategies.get(TOY) != DESCRIPTION:
                fail(f"{proxy}: '{TOY}' is not listed with its description: {strategies}")
            produces = next((s["cut"], s["variables_per_group"]) for s in listed["strategies"] if s["name"] == TOY)
            if produces != ("per_link", 1):
                fail(f"{proxy}: '{TOY}' is listed as producing {produces}, not one message per link and variable")
            plain = combinations.listing(next(e for e in a.plain if proxy_of(e) == proxy))
            if [s for s in strategies if s != TOY] != [s["name"] for s in plain["strategies"]]:
                fail(f"{proxy}: the other strategies differ from the plain proxy's: {list(strategies)}")
            pairs = combinations.pairs(listed)
            toy_pairs = {t: pairs[(TOY, t)] for t in transports if (TOY, t) in pairs}
            if list(toy_pairs) != transports:
                fail(f"{proxy}: the matrix has '{TOY}' with {list(toy_pairs)}, not every transport {transports}")
            # The registry's capabilities, applied to a strategy it has never heard of: its cut is one message
            # per link, which every transport moves, so each fits where this MPI is new enough.
            for t in listed["transports"]:
                expected = t["available"]
                if toy_pairs[t["name"]]["fits"] != expected:
                    fail(f"{proxy}: {TOY}/{t['name']} fits is {toy_pairs[t['name']]['fits']}, expected {expected}")
            base = SMALL[proxy] + (["--input", a.nobel_deck] if proxy == "nobel" else [])
            runs = {s: checked_results(a, exe, base + ["--strategy", s, "--transport", "isend"], folder, f"{proxy}-{s}")
                    for s in ("bspma", "svaf", TOY)}
            toy, bspma, svaf = runs[TOY], runs["bspma"], runs["svaf"]
            if toy["config"]["strategy"] != TOY or not toy["verification"]["passed"]:
                fail(f"{proxy}: the toy run says {toy['config']['strategy']}, verification {toy['verification']}")
            if toy["checksum"] != bspma["checksum"]:
                fail(f"{proxy}: {TOY} checksum {toy['checksum']} != bspma's {bspma['checksum']}")
            counts = lambda r: (r["messages"]["total"], r["bytes"]["total"])  # noqa: E731
            if counts(toy) != counts(svaf):
                fail(f"{proxy}: {TOY} sent {counts(toy)} (messages, bytes), svaf {counts(svaf)}")
            staged = {c["transport"]: c for c in staged_listing(exe)["combinations"] if c["strategy"] == TOY}
            in_place = [t["name"] for t in listed["transports"] if t["in_place"] and t["available"]]
            if not in_place or any(staged[t]["fits"] for t in in_place):
                fail(f"{proxy}: staged, {TOY} should be refused every in-place transport {in_place}: {staged}")
            refused = staged[in_place[0]]["refusal"]
            line = refusal_line(run(a, exe, base + ["--strategy", TOY, "--transport", in_place[0]],
                                    env=dict(os.environ, AMP_MPI_BUFFERS="host")),
                                "^" + re.escape(f"amp-{proxy}: error: {refused}") + "$",
                                lambda why: fail(f"{proxy}: {TOY}/{in_place[0]} staged: {why}"),
                                combinations.COMBINATION_REFUSED)
            print(f"ok: amp-{proxy} with {TOY}: listed, checksum {toy['checksum']} = bspma's, "
                  f"{counts(toy)[0]} messages = svaf's; refused with exit 6: {line}")
    print("test_toy_strategy: OK")


if __name__ == "__main__":
    main()
