#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Fuzz of the proxies' input: a few hundred mutated command lines and TOML decks (fixed seed, tiny
sizes) against amp-ghost, amp-sage, amp-nobel and amp-micro, most at 1 rank, some at 2. Every outcome
must be a clean run (exit 0, no error line) or exactly one '<proxy>: error: ...' line with exit 2: no
crash, hang (per-case timeout), Kokkos backtrace, MPI_Abort banner or 'error on rank' line. Prints
the case count. Flags whose large values are legitimately slow (step and repetition counts) get
only small or invalid values, and nothing is traced (the trace tests cover that)."""
import os
import random
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

SEED = 99
CASE_TIMEOUT = 15
NASTY = ["0", "-1", "010", "0x10", "0b11", "1e3", "1.5", "inf", "-inf", "nan", "-0", "+3", " 3", "3 ", "", "abc",
         "2147483647", "2147483648", "-2147483649", "4294967296", "18446744073709551615", "18446744073709551616",
         "99999999999999999999999", "1e308", "1e-320", "true", "[1]", "--", "-", "٣", "3\u00a0"]
SMALL = ["1", "2", "3", "0", "-1", "010", "0x2", "1.5", "abc", "", "inf", "nan"]  # for flags slow when large
WORDS = ["bspma", "svaf", "svcp", "BSPMA", "10", "11", "isend", "persistent", "partitioned", "rma", "neighbor",
         "datatype", "weak", "strong", "3d27pt", "2d5pt", "24", "hilbert", "morton", "slab", "x", ""]

PROXIES = {
    "amp-ghost": {
        "base": ["--nx", "4", "--ny", "4", "--nz", "4", "--num_vars", "2", "--num_tsteps", "2", "--progress", "0"],
        "numbers": ["--nx", "--ny", "--nz", "--num_vars", "--npx", "--npy", "--npz", "--percent_sum", "--error_tol",
                    "--report_diffusion", "--seed", "--progress", "--ranks", "--rank", "--compute_seconds"],
        "slow": ["--num_tsteps", "--num_spikes", "--exchanges_per_step", "--face_propagations_per_step",
                 "--single_value_reductions_per_step"],
        "words": ["--stencil", "--strategy", "--transport", "--scaling"],
    },
    "amp-sage": {
        "base": ["--nx", "4", "--ny", "4", "--nz", "4", "--num_vars", "2", "--num_tsteps", "2", "--progress", "0"],
        "numbers": ["--nx", "--ny", "--nz", "--num_vars", "--error_tol", "--seed", "--progress", "--ranks", "--rank"],
        "slow": ["--num_tsteps"],
        "words": ["--partition", "--strategy", "--transport", "--scaling"],
    },
    "amp-nobel": {
        "base": ["--nbx", "2", "--nby", "2", "--nbz", "2", "--block", "4", "--max_level", "1", "--num_vars", "1",
                 "--num_tsteps", "2", "--progress", "0"],
        "numbers": ["--block", "--nbx", "--nby", "--nbz", "--max_level", "--num_vars", "--front_radius",
                    "--front_period",
                    "--cfl", "--error_tol", "--check_every", "--seed", "--progress", "--ranks", "--rank"],
        "slow": ["--num_tsteps", "--amr_interval"],
        "words": ["--strategy", "--transport"],
    },
    "amp-micro": {
        "base": ["pingpong", "--max-size", "64", "--iterations", "2", "--repetitions", "1", "--warmup", "0"],
        "numbers": ["--min-size", "--max-size", "--volume"],
        "slow": ["--iterations", "--warmup", "--repetitions"],
        "words": [],
    },
}
DECK_KEYS = {"amp-ghost": ["nx", "num_vars", "seed", "stencil", "strategy", "npx", "percent_sum", "progress"],
             "amp-sage": ["nx", "num_vars", "seed", "partition", "error_tol"],
             "amp-nobel": ["block", "nbx", "max_level", "front_radius", "cfl", "seed"]}
DECK_VALUES = ["4", "-1", "0", "0x10", "1.5", "inf", "nan", "-inf", "true", '"4"', '"010"', '"0x10"', "[4, 16]", "[]",
               "{ a = 1 }", "1979-05-27", '"bspma"', '"svcp"', "9223372036854775807", "1e400", "= 3", '"', "'x'",
               '"hilbert"', "18446744073709551615"]
EXTRA_DECK_LINES = ["", "nx = 4\nnx = 5\n", "unknown = 1\n", "[table]\nnx = 4\n", "trace = \"t\"\n",
                    "results = \"r.json\"\n",
                    "trace-setup = false\n", "ranks = 2\n", "plan-only = true\n", "nx = 4 # comment\n", "\x00\n"]


def mutate_command_line(rng, proxy):
    spec = PROXIES[proxy]
    arguments = list(spec["base"])
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        kind = rng.random()
        if kind < 0.45 and spec["numbers"]:
            arguments += [rng.choice(spec["numbers"]), rng.choice(NASTY)]
        elif kind < 0.6:
            arguments += [rng.choice(spec["slow"]), rng.choice(SMALL)]
        elif kind < 0.75 and spec["words"]:
            arguments += [rng.choice(spec["words"]), rng.choice(WORDS)]
        elif kind < 0.82:
            arguments += [rng.choice(["--bogus", "-x", "--nx=", "--=", "--results", "--input", "--plan-only"])]
        elif kind < 0.9 and len(arguments) > 1:
            del arguments[rng.randrange(1 if proxy == "amp-micro" else 0, len(arguments))]
        else:
            arguments += [rng.choice(["--results", "--csv" if proxy == "amp-micro" else "--results"]),
                          rng.choice(["r.json", "", "/nonexistent/r.json", ".", "/dev/full"])]
    if proxy == "amp-micro" and rng.random() < 0.2:
        arguments[0] = rng.choice(["stream", "allreduce", "msgrate", "shift", "bogus", "--max-size"])
        if arguments[0] == "stream":
            arguments += ["--array-size", rng.choice(["16", "0", "-5", "2147483647", "1e3", "0x10"])]
    return arguments, None


def mutate_deck(rng, proxy):
    lines = [f"{rng.choice(DECK_KEYS[proxy])} = {rng.choice(DECK_VALUES)}\n" for _ in range(rng.choice([1, 1, 2]))]
    if rng.random() < 0.4:
        lines.append(rng.choice(EXTRA_DECK_LINES))
    rng.shuffle(lines)
    return list(PROXIES[proxy]["base"]), "".join(lines)


def verdict(proxy, done):
    """None when the outcome is allowed, else what is wrong."""
    if done.returncode == "timeout":
        return "did not finish (hang?)"
    lines = fr.lines_of(done)
    bad = [line for line in lines if fr.ABORT_BANNER in line or "error on rank" in line or "backtrace" in line
           or "Kokkos::" in line or "terminate called" in line]
    if bad:
        return f"exit {done.returncode} with {bad[:3]}"
    errors = [line for line in lines if ": error" in line]
    if done.returncode == 0 and not errors:
        return None
    if done.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"{proxy}: error: "):
        return None
    return f"exit {done.returncode}, output {lines[:6]}"


def main():
    p = fr.parser(__doc__)
    p.add_argument("--cases", type=int, default=400)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--budget", type=float, default=80, help="seconds; cases not started by then are left out")
    a = p.parse_args()
    rng = random.Random(a.seed)
    cases = []
    for number in range(a.cases):
        proxy = rng.choice(list(PROXIES))
        with_deck = proxy != "amp-micro" and rng.random() < 0.35
        arguments, deck = mutate_deck(rng, proxy) if with_deck else mutate_command_line(rng, proxy)
        # One rank runs as a user starts a program directly (an MPI singleton, no launcher: Open MPI's
        # launcher alone takes about 2 s); amp-micro and a tenth of the rest run on 2 ranks through mpiexec.
        ranks = 2 if (proxy == "amp-micro" or rng.random() < 0.1) else None
        cases.append((number, proxy, arguments, deck, ranks))

    started = time.monotonic()

    def run_case(case):
        number, proxy, arguments, deck, ranks = case
        if time.monotonic() - started > a.budget:
            return "not run"
        with tempfile.TemporaryDirectory() as folder:
            if deck is not None:
                with open(os.path.join(folder, "deck.toml"), "w") as f:
                    f.write(deck)
                arguments = ["--input", "deck.toml"] + arguments
            done = fr.run(a, proxy, arguments, ranks=ranks, timeout=CASE_TIMEOUT, cwd=folder)
        problem = verdict(proxy, done)
        return None if problem is None else f"case {number}: {proxy} {arguments} at {ranks} ranks" + (
            f", deck {deck!r}" if deck is not None else "") + f": {problem}"

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(run_case, cases))
    ran = sum(outcome != "not run" for outcome in outcomes)
    problems = [r for r in outcomes if r not in (None, "not run")]
    for problem in problems:
        print(f"FAIL: {problem}")
    if problems:
        fr.fail(f"{len(problems)} of {ran} fuzz cases went wrong (seed {a.seed})")
    if ran < min(len(cases), 100):
        fr.fail(f"only {ran} of {len(cases)} fuzz cases ran in {a.budget:g} s")
    print(f"OK: {ran} of {len(cases)} fuzz cases run in the {a.budget:g} s budget (seed {a.seed}): each a clean run "
          "or one error line with exit 2")


if __name__ == "__main__":
    main()
