#!/usr/bin/env python3
"""Start-up refusals, each as a user would meet it: exit 2, exactly the one line, nothing written.
Covers the thread count Kokkos cannot run (OMP_NUM_THREADS=600), decimal-only and in-range numbers on
the command line and in decks (--nx 0x10, --seed -1; --nx 010 is ten), finite bounded
--compute_seconds, --ranks beyond 2^24, a refused real run or synthesis leaving no trace and no folder, deck keys that could
not work (an array for a scalar, trace, trace-setup), and empty --results / --trace or --trace-setup
alone; runs larger than the node's memory (amp-micro stream's arrays, amp-nobel's worst-case refined
mesh) refused with the memory line."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

TINY = ["--nx", "4", "--ny", "4", "--nz", "4", "--num_tsteps", "1", "--progress", "0"]
PLAN = ["--plan-only", "--ranks", "2147483647", "--rank", "0"]

# (what, proxy, arguments, ranks (None: no mpiexec), environment, deck text, the line)
CASES = [
    ("600 threads", "amp-ghost", TINY, 2, {"OMP_NUM_THREADS": "600"}, None,
     "amp-ghost: error: OMP_NUM_THREADS=600 asks for 600 host threads per rank; Kokkos's OpenMP back end allows at most 512"),
    ("600 threads, sage", "amp-sage", TINY, 1, {"OMP_NUM_THREADS": "600"}, None,
     "amp-sage: error: OMP_NUM_THREADS=600 asks for 600 host threads per rank; Kokkos's OpenMP back end allows at most 512"),
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
     "amp-ghost: error: --compute_seconds must be at most 3600 seconds (got 1000000)"),
    ("a modelled run the trace clock cannot hold", "amp-ghost",
     TINY[:-4] + ["--num_tsteps", "30", "--synthesize", "{tmp}/s", "--ranks", "2", "--compute_seconds", "3000"], None, {}, None,
     "amp-ghost: error: the modelled run of one rank lasts more than 60000 s, more than a DUMPI trace's clock holds; "
     "give a smaller --compute_seconds or fewer steps"),
    ("2^31-1 ranks, ghost plan", "amp-ghost", PLAN, None, {}, None, "amp-ghost: error: --ranks must be at most 16777216 (got 2147483647)"),
    ("2^31-1 ranks, sage plan", "amp-sage", PLAN, None, {}, None, "amp-sage: error: --ranks must be at most 16777216 (got 2147483647)"),
    ("2^31-1 ranks, nobel plan", "amp-nobel", PLAN, None, {}, None, "amp-nobel: error: --ranks must be at most 16777216 (got 2147483647)"),
    ("2^31-1 ranks, synthesis", "amp-ghost", ["--synthesize", "{tmp}/s", "--ranks", "2147483647"], None, {}, None,
     "amp-ghost: error: --ranks must be at most 16777216 (got 2147483647)"),
    ("refused synthesis", "amp-ghost", ["--nx", "7", "--npx", "2", "--scaling", "strong", "--synthesize", "{tmp}/s/deeper",
                                        "--ranks", "2"], None, {}, None,
     "amp-ghost: error: global nx=7 does not divide by npx=2 (strong scaling)"),
    ("refused real run with --trace", "amp-ghost", ["--nx", "7", "--npx", "2", "--scaling", "strong", "--trace",
                                                    "{tmp}/junk/deeper"], 2, {}, None,
     "amp-ghost: error: global nx=7 does not divide by npx=2 (strong scaling)"),
    ("refused real run with --trace --trace-setup", "amp-sage", ["--partition", "zigzag", "--trace", "{tmp}/t",
                                                                 "--trace-setup"], 2, {}, None,
     "amp-sage: error: unknown partition 'zigzag' (use hilbert, morton or slab)"),
    ("array for a scalar", "amp-ghost", [], 1, {}, "nx = [4, 16]\n", "amp-ghost: error: input deck '{deck}' line 1: 'nx' takes one value, not an array"),
    ("trace in a deck", "amp-ghost", [], 1, {}, 'trace = "{tmp}/t"\n',
     "amp-ghost: error: input deck '{deck}' line 1: 'trace' must be given on the command line as --trace (it is read before the deck)"),
    ("trace-setup in a deck", "amp-sage", [], 1, {}, "trace-setup = true\n",
     "amp-sage: error: input deck '{deck}' line 1: 'trace-setup' must be given on the command line as --trace-setup (it is read before the deck)"),
    ("empty results", "amp-ghost", ["--results", ""], 2, {}, None, "amp-ghost: error: --results needs a file name"),
    ("empty trace", "amp-nobel", ["--trace", ""], 1, {}, None, "amp-nobel: error: --trace needs a directory"),
    ("micro empty csv", "amp-micro", ["pingpong", "--csv", ""], 2, {}, None, "amp-micro: error: --csv needs a file name"),
    ("micro empty trace", "amp-micro", ["pingpong", "--trace", ""], 2, {}, None, "amp-micro: error: --trace needs a directory"),
    ("micro trace-setup alone", "amp-micro", ["pingpong", "--trace-setup"], 2, {}, None,
     "amp-micro: error: --trace-setup needs --trace DIR (it widens what is traced)"),
    ("trace-setup alone", "amp-ghost", ["--trace-setup"], 1, {}, None, "amp-ghost: error: --trace-setup needs --trace DIR (it widens what is traced)"),
]

MEMORY = r"{}: error: not enough memory: needs [0-9.]+ GiB per rank, this node has [0-9.]+ GiB( for 2 ranks)?"
# (what, proxy, arguments, ranks): refused before anything large is allocated (a broken check runs
# until the per-case timeout).
MEMORY_CASES = [
    ("stream arrays of 2^31-1 doubles", "amp-micro", ["stream", "--array-size", "2147483647"], 2),
    ("nobel max_level 10", "amp-nobel", ["--max_level", "10"], 1),
    ("ghost ny 2^31-1 (once overflowed the estimate; found by the fuzz)", "amp-ghost",
     ["--nx", "4", "--ny", "2147483647", "--nz", "4", "--num_vars", "2"], 1),
    ("nobel refined 16^3 root blocks of 16^3 cells", "amp-nobel",
     ["--nbx", "16", "--nby", "16", "--nbz", "16", "--max_level", "3", "--block", "16", "--num_vars", "4"], 2),
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
        done = fr.run(a, proxy, arguments, ranks=ranks, timeout=20)
        lines = fr.lines_of(done)
        if done.returncode != 2 or len(lines) != 1 or not re.fullmatch(MEMORY.format(proxy), lines[0]):
            print(f"FAIL: {what}: expected exit 2 and one line matching {MEMORY.format(proxy)!r}; got exit "
                  f"{done.returncode}: {lines}")
            failed += 1
    if failed:
        fr.fail(f"{failed} of {len(CASES) + len(MEMORY_CASES)} refusals wrong")
    ten_is_decimal(a)
    print(f"OK: {len(CASES) + len(MEMORY_CASES)} refusals, each one exact line with exit 2 and nothing written; --nx 010 is 10")


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
        done = fr.run(a, "amp-ghost", ["--nx", "010", "--ny", "4", "--nz", "4", "--plan-only", "--ranks", "1", "--rank", "0",
                                       "--results", results], ranks=None)
        if done.returncode != 0:
            fr.fail(f"--nx 010: exit {done.returncode}: {fr.lines_of(done)}")
        with open(results) as f:
            block = json.load(f)["block"]
        if block != [10, 4, 4]:
            fr.fail(f"--nx 010 gave block {block}, expected [10, 4, 4]")


if __name__ == "__main__":
    main()
