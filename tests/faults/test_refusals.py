#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Start-up refusals, each as a user would meet it: exit 2, exactly the one line, nothing written.
Covers the thread count Kokkos cannot run (OMP_NUM_THREADS=600), decimal-only and in-range numbers on
the command line and in decks (--nx 0x10, --seed -1; --nx 010 is ten), finite bounded
--compute_seconds, --ranks beyond 2^24, a refused real run or synthesis leaving no trace and no folder, deck keys that
could
not work (an array for a scalar, trace, trace-setup), and empty --results / --trace or --trace-setup
alone; runs larger than the node's memory (amp-micro stream's arrays, amp-nobel's worst-case refined
mesh; --plan-only and --synthesize set-ups) refused with the memory line. AMP_MPI_BUFFERS not
auto/device/host, --list-combinations with flags a run refuses (and printed once from 2 ranks),
--plan-only without --rank, --compute_seconds below 0 or NaN (0 synthesizes)."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

TINY = ["--nx", "4", "--ny", "4", "--nz", "4", "--num_tsteps", "1", "--progress", "0"]
PLAN = ["--plan-only", "--ranks", "2147483647", "--rank", "0"]
BUFFERS = "{}: error: AMP_MPI_BUFFERS must be auto, device or host (got '{}')"

# (what, proxy, arguments, ranks (None: no mpiexec), environment, deck text, the line)
CASES = [
    ("600 threads", "amp-ghost", TINY, 2, {"OMP_NUM_THREADS": "600"}, None,
     "amp-ghost: error: OMP_NUM_THREADS=600 asks for 600 host threads per rank; Kokkos's OpenMP back end allows at "
     "most 512"),
    ("600 threads, sage", "amp-sage", TINY, 1, {"OMP_NUM_THREADS": "600"}, None,
     "amp-sage: error: OMP_NUM_THREADS=600 asks for 600 host threads per rank; Kokkos's OpenMP back end allows at most "
     "512"),
    ("hex", "amp-ghost", ["--nx", "0x10"], 1, {}, None, "amp-ghost: error: --nx: '0x10' is not a decimal integer"),
    ("negative seed", "amp-ghost", ["--seed", "-1"], 1, {}, None, "amp-ghost: error: --seed: '-1' is negative"),
    ("negative seed, sage", "amp-sage", ["--seed", "-1"], 1, {}, None, "amp-sage: error: --seed: '-1' is negative"),
    ("negative seed, nobel", "amp-nobel", ["--seed", "-1"], 1, {}, None, "amp-nobel: error: --seed: '-1' is negative"),
    ("negative seed in a deck", "amp-ghost", [], 1, {}, "seed = -1\n", "amp-ghost: error: --seed: '-1' is negative"),
    ("out of range", "amp-ghost", ["--seed", "18446744073709551616"], 1, {}, None,
     "amp-ghost: error: --seed: '18446744073709551616' is out of range"),
    ("micro octal", "amp-micro", ["pingpong", "--iterations", "0x10"], 2, {}, None,
     "amp-micro: error: --iterations: '0x10' is not a decimal integer"),
    ("inf", "amp-ghost", TINY + ["--synthesize", "{tmp}/s", "--ranks", "2", "--compute_seconds", "inf"], None, {}, None,
     "amp-ghost: error: --compute_seconds must be at most 3600 seconds (got inf)"),
    ("1e6", "amp-ghost", TINY + ["--synthesize", "{tmp}/s", "--ranks", "2", "--compute_seconds", "1e6"], None, {}, None,
     "amp-ghost: error: --compute_seconds must be at most 3600 seconds (got 1e6)"),
    ("a modelled run the trace clock cannot hold", "amp-ghost",
     TINY[:-4] + ["--num_tsteps", "30", "--synthesize", "{tmp}/s", "--ranks", "2", "--compute_seconds", "3000"], None,
     {}, None,
     "amp-ghost: error: the modelled run of one rank lasts more than 60000 s, more than a DUMPI trace's clock holds; "
     "give a smaller --compute_seconds or fewer steps"),
    ("2^31-1 ranks, ghost plan", "amp-ghost", PLAN, None, {}, None,
     "amp-ghost: error: --ranks must be at most 16777216 (got 2147483647)"),
    ("2^31-1 ranks, sage plan", "amp-sage", PLAN, None, {}, None,
     "amp-sage: error: --ranks must be at most 16777216 (got 2147483647)"),
    ("2^31-1 ranks, nobel plan", "amp-nobel", PLAN, None, {}, None,
     "amp-nobel: error: --ranks must be at most 16777216 (got 2147483647)"),
    ("2^31-1 ranks, synthesis", "amp-ghost", ["--synthesize", "{tmp}/s", "--ranks", "2147483647"], None, {}, None,
     "amp-ghost: error: --ranks must be at most 16777216 (got 2147483647)"),
    ("refused synthesis", "amp-ghost",
     ["--nx", "7", "--npx", "2", "--scaling", "strong", "--synthesize", "{tmp}/s/deeper",
                                        "--ranks", "2"], None, {}, None,
     "amp-ghost: error: global nx=7 does not divide by npx=2 (strong scaling)"),
    ("refused real run with --trace", "amp-ghost", ["--nx", "7", "--npx", "2", "--scaling", "strong", "--trace",
                                                    "{tmp}/junk/deeper"], 2, {}, None,
     "amp-ghost: error: global nx=7 does not divide by npx=2 (strong scaling)"),
    ("refused real run with --trace --trace-setup", "amp-sage", ["--partition", "zigzag", "--trace", "{tmp}/t",
                                                                 "--trace-setup"], 2, {}, None,
     "amp-sage: error: unknown partition 'zigzag' (use hilbert, morton or slab)"),
    ("array for a scalar", "amp-ghost", [], 1, {}, "nx = [4, 16]\n",
     "amp-ghost: error: input deck '{deck}' line 1: 'nx' takes one value, not an array"),
    ("2^31 steps", "amp-ghost", ["--num_tsteps", "2147483648"], 1, {}, None,
     "amp-ghost: error: --num_tsteps: '2147483648' is out of range (from -2147483648 to 2147483647)"),
    ("3e9 steps in a deck", "amp-sage", [], 1, {}, "num_tsteps = 3000000000\n",
     "amp-sage: error: --num_tsteps: '3000000000' is out of range (from -2147483648 to 2147483647)"),
    ("a float for a whole number in a deck", "amp-ghost", [], 1, {}, "exchanges_per_step = 1e2\n",
     "amp-ghost: error: input deck '{deck}' line 1: 'exchanges_per_step' takes a whole number in decimal digits, "
     "not the floating-point 100"),
    ("a string for a number in a deck", "amp-nobel", [], 1, {}, 'num_tsteps = "3"\n',
     "amp-nobel: error: input deck '{deck}' line 1: 'num_tsteps' takes a number, not the string \"3\""),
    ("a hex float", "amp-ghost", TINY + ["--synthesize", "{tmp}/s", "--ranks", "2", "--compute_seconds", "0x1p-3"],
     None, {}, None, "amp-ghost: error: --compute_seconds: '0x1p-3' is not a decimal number (e.g. 0.125 or 1.25e-1)"),
    ("a hex float flag", "amp-ghost", ["--sweeps_per_exchange", "0x1p0"], 1, {}, None,
     "amp-ghost: error: --sweeps_per_exchange: '0x1p0' is not a decimal number (e.g. 0.125 or 1.25e-1)"),
    ("a flag given twice", "amp-ghost", ["--nx", "8", "--nx", "16"], 1, {}, None,
     "amp-ghost: error: --nx given twice with different values ('8' and '16'); give it once"),
    ("a flag given under both its names", "amp-sage", ["--comm_method", "svaf", "--strategy", "svcp"], 1, {}, None,
     "amp-sage: error: --strategy or --comm_method given twice with different values ('svaf' and 'svcp'); "
     "give it once"),
    ("one flag under two names in a deck", "amp-ghost", [], 1, {}, 'strategy = "bspma"\ncomm_method = "svaf"\n',
     "amp-ghost: error: input deck '{deck}' line 2: 'comm_method' sets the same flag as 'strategy' (line 1); give one "
     "of them"),
    ("one flag under two names in a deck, the older first", "amp-sage", [], 1, {},
     'comm_method = "svaf"\nstrategy = "bspma"\n',
     "amp-sage: error: input deck '{deck}' line 2: 'strategy' sets the same flag as 'comm_method' (line 1); give one "
     "of them"),
    ("trace in a deck", "amp-ghost", [], 1, {}, 'trace = "{tmp}/t"\n',
     "amp-ghost: error: input deck '{deck}' line 1: 'trace' must be given on the command line as --trace (it is read "
     "before the deck)"),
    ("trace-setup in a deck", "amp-sage", [], 1, {}, "trace-setup = true\n",
     "amp-sage: error: input deck '{deck}' line 1: 'trace-setup' must be given on the command line as --trace-setup "
     "(it is read before the deck)"),
    ("empty results", "amp-ghost", ["--results", ""], 2, {}, None, "amp-ghost: error: --results needs a file name"),
    ("empty trace", "amp-nobel", ["--trace", ""], 1, {}, None, "amp-nobel: error: --trace needs a directory"),
    ("micro empty csv", "amp-micro", ["pingpong", "--csv", ""], 2, {}, None,
     "amp-micro: error: --csv needs a file name"),
    ("micro empty trace", "amp-micro", ["pingpong", "--trace", ""], 2, {}, None,
     "amp-micro: error: --trace needs a directory"),
    ("micro trace-setup alone", "amp-micro", ["pingpong", "--trace-setup"], 2, {}, None,
     "amp-micro: error: --trace-setup needs --trace DIR (it widens what is traced)"),
    ("trace-setup alone", "amp-ghost", ["--trace-setup"], 1, {}, None,
     "amp-ghost: error: --trace-setup needs --trace DIR (it widens what is traced)"),
    # AMP_MPI_BUFFERS checked as text, for runs and listings, on every rank
    ("AMP_MPI_BUFFERS=bogus", "amp-ghost", TINY, 2, {"AMP_MPI_BUFFERS": "bogus"}, None,
     BUFFERS.format("amp-ghost", "bogus")),
    ("AMP_MPI_BUFFERS=DEVICE, listing", "amp-sage", ["--list-combinations"], None, {"AMP_MPI_BUFFERS": "DEVICE"}, None,
     BUFFERS.format("amp-sage", "DEVICE")),
    ("AMP_MPI_BUFFERS=' host', listing", "amp-nobel", ["--list-combinations", "--json"], 2,
     {"AMP_MPI_BUFFERS": " host"},
     None, BUFFERS.format("amp-nobel", " host")),
    # --list-combinations checks the other flags as a run does
    ("listing, --nx 0", "amp-ghost", ["--list-combinations", "--json", "--nx", "0"], None, {}, None,
     "amp-ghost: error: grid sizes must be positive (nx=0 ny=100 nz=100)"),
    ("listing, unknown flag", "amp-ghost", ["--list-combinations", "--json", "--bogus-flag"], None, {}, None,
     "amp-ghost: error: The following argument was not expected: --bogus-flag"),
    ("listing, unknown strategy", "amp-sage", ["--list-combinations", "--json", "--strategy", "nope"], None, {}, None,
     "amp-sage: error: unknown strategy 'nope' (use bspma, onebyone, svaf, svcp)"),
    ("listing, missing deck", "amp-nobel", ["--list-combinations", "--json", "--input", "none.toml"], None, {}, None,
     "amp-nobel: error: input deck 'none.toml': no such file"),
    ("a folder as the deck", "amp-ghost", ["--input", "."], 1, {}, None,
     "amp-ghost: error: input deck '.' is a folder; give a deck file (TOML)"),
    ("listing, --trace", "amp-ghost", ["--list-combinations", "--trace", "{tmp}/t"], 2, {}, None,
     "amp-ghost: error: --list-combinations runs nothing, so there is nothing to --trace"),
    ("--json alone", "amp-ghost", ["--json"], None, {}, None, "amp-ghost: error: --json requires --list-combinations"),
    # wording of a missing --rank; --compute_seconds 0 is accepted, below 0 and NaN are not
    ("plan-only without --rank", "amp-ghost", ["--plan-only", "--ranks", "8"], None, {}, None,
     "amp-ghost: error: --plan-only needs --rank R, the rank whose plan is built (0..7 for --ranks 8)"),
    ("negative compute", "amp-ghost", TINY + ["--synthesize", "{tmp}/s", "--ranks", "2", "--compute_seconds", "-0.5"],
     None,
     {}, None, "amp-ghost: error: --compute_seconds must be >= 0 (got -0.5)"),
    ("NaN compute", "amp-ghost", TINY + ["--synthesize", "{tmp}/s", "--ranks", "2", "--compute_seconds", "nan"], None,
     {}, None, "amp-ghost: error: --compute_seconds must be >= 0 (got nan)"),
]

MEMORY = r"{}: error: not enough memory: needs [0-9.]+ GiB per rank, this node has [0-9.]+ GiB( for 2 ranks)?"
# (what, proxy, arguments, ranks): refused before anything large is allocated (a broken check runs
# until the per-case timeout, fault_run's 60 s: an Open MPI launch takes 2 s here, far more on a loaded machine).
MEMORY_CASES = [
    ("stream arrays of 2^31-1 doubles", "amp-micro", ["stream", "--array-size", "2147483647"], 2),
    ("nobel max_level 10", "amp-nobel", ["--max_level", "10"], 1),
    ("ghost ny 2^31-1 (once overflowed the estimate; found by the fuzz)", "amp-ghost",
     ["--nx", "4", "--ny", "2147483647", "--nz", "4", "--num_vars", "2"], 1),
    # 32^3 root blocks (107 GiB per rank): 16^3 (26 GiB) would fit, and run, on a node of 64 GiB
    ("nobel refined 32^3 root blocks of 16^3 cells", "amp-nobel",
     ["--nbx", "32", "--nby", "32", "--nbz", "32", "--max_level", "3", "--block", "16", "--num_vars", "4"], 2),
    # --plan-only and --synthesize build the set-up too (once std::bad_alloc, exit 3)
    ("nobel plan-only of 2000^3 root blocks", "amp-nobel",
     ["--plan-only", "--ranks", "4", "--rank", "0", "--nbx", "2000", "--nby", "2000", "--nbz", "2000"], None),
    ("nobel synthesis of 2000^3 root blocks", "amp-nobel",
     ["--synthesize", "{tmp}/s", "--ranks", "4", "--nbx", "2000", "--nby", "2000", "--nbz", "2000"], None),
    ("sage plan-only of 10^13 cells", "amp-sage",
     ["--plan-only", "--ranks", "1", "--rank", "0", "--nx", "100000", "--ny", "100000", "--nz", "1000"], None),
]


def main():
    a = fr.parser(__doc__).parse_args()
    failed = 0
    for what, proxy, arguments, ranks, env, deck, line in CASES:
        try:
            refused_cleanly(a, proxy, arguments, ranks, env, deck, line, what)
        except SystemExit:  # fr.fail printed the case; go on, so one run shows every broken case
            failed += 1
    for what, proxy, arguments, ranks in MEMORY_CASES:
        with tempfile.TemporaryDirectory() as tmp:
            done = fr.run(a, proxy, [x.format(tmp=tmp) for x in arguments], ranks=ranks, cwd=tmp)
            lines = fr.lines_of(done)
            if (done.returncode != 2 or len(lines) != 1 or not re.fullmatch(MEMORY.format(proxy), lines[0])
                    or os.listdir(tmp)):
                print(f"FAIL: {what}: expected exit 2, one line matching {MEMORY.format(proxy)!r} and nothing written; "
                      f"got exit {done.returncode}: {lines}, files {os.listdir(tmp)}")
                failed += 1
    if failed:
        fr.fail(f"{failed} of {len(CASES) + len(MEMORY_CASES)} refusals wrong")
    ten_is_decimal(a)
    listing_printed_once(a)
    zero_compute_is_accepted(a)
    print(f"OK: {len(CASES) + len(MEMORY_CASES)} refusals, each one exact line with exit 2 and nothing written; --nx "
          "010 "
          "is 10; one listing from 2 ranks; --compute_seconds 0 synthesizes")


def refused_cleanly(a, proxy, arguments, ranks, env, deck, line, what):
    with tempfile.TemporaryDirectory() as tmp:
        deck_path = os.path.join(tmp, "deck.toml")
        if deck is not None:
            with open(deck_path, "w") as f:
                f.write(deck.format(tmp=tmp))
            arguments = ["--input", deck_path] + arguments
        arguments = [x.format(tmp=tmp) for x in arguments]
        done = fr.run(a, proxy, arguments, ranks=ranks, env=env, cwd=tmp)
        fr.expect_refusal(done, 2, line.format(deck=deck_path), what)
        fr.expect_files(tmp, ["deck.toml"] if deck is not None else [], f"{what}: nothing written")


def ten_is_decimal(a):
    """010 is ten, not octal eight (a plan-only run reports its block)."""
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, "p.json")
        done = fr.run(a, "amp-ghost",
                      ["--nx", "010", "--ny", "4", "--nz", "4", "--plan-only", "--ranks", "1", "--rank", "0",
                                       "--results", results], ranks=None)
        if done.returncode != 0:
            fr.fail(f"--nx 010: exit {done.returncode}: {fr.lines_of(done)}")
        with open(results) as f:
            block = json.load(f)["block"]
        if block != [10, 4, 4]:
            fr.fail(f"--nx 010 gave block {block}, expected [10, 4, 4]")


def listing_printed_once(a):
    """Under mpiexec -n 2, rank 0 alone prints the listing: one JSON document."""
    done = fr.run(a, "amp-ghost", ["--list-combinations", "--json"], ranks=2)
    try:
        listing = json.loads(done.stdout)
    except json.JSONDecodeError as e:
        fr.fail(f"--list-combinations --json from 2 ranks is not one JSON document ({e}): {done.stdout[:200]!r}...")
    if done.returncode != 0 or done.stderr.strip() or listing.get("proxy") != "amp-ghost":
        fr.fail(f"--list-combinations --json from 2 ranks: exit {done.returncode}, stderr {done.stderr.strip()!r}")


def zero_compute_is_accepted(a):
    """--compute_seconds 0 (a network study's pure communication) synthesizes, with a zero model."""
    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, "s.json")
        done = fr.run(a, "amp-ghost", TINY
                      + ["--synthesize", os.path.join(tmp, "s"), "--ranks", "2", "--compute_seconds",
                                              "0", "--results", results], ranks=None)
        if done.returncode != 0:
            fr.fail(f"--compute_seconds 0: exit {done.returncode}: {fr.lines_of(done)}")
        with open(results) as f:
            model = json.load(f)["synthesis"]["compute_model"]
        if model["source"] != "given with --compute_seconds" or [s["seconds"] for s in model["steps"]] != [0]:
            fr.fail(f"--compute_seconds 0: the compute model is {model}")


if __name__ == "__main__":
    main()
