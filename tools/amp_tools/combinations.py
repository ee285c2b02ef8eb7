# SPDX-License-Identifier: BSD-3-Clause
"""Which strategies and transports a proxy binary registered, and which pairs of them fit, asked of the
binary itself, so that no second copy of its registry lives here: `listing()` reads
`amp-PROXY --list-combinations --json` (README "Strategies and transports"); `verdicts()` sets up each
pair (a cheap `--plan-only` per pair, so a deck's own checks count too) and tells a pair that does not
fit from a bad name by the exit code, never by the message's words.
"""
import concurrent.futures
import json
import os
import subprocess

# src/amp/miniapps/common/exit_codes.hpp: a known strategy and a known transport that do not go together here.
COMBINATION_REFUSED = 6
# ... and everything else refused at start-up (a bad name among them).
BAD_INPUT = 2


def listing(binary):
    """The binary's --list-combinations --json, as a dict (run without mpiexec)."""
    done = subprocess.run([binary, "--list-combinations", "--json"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"{binary} --list-combinations --json: exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def names(binary):
    """(strategy names, transport names) in the binary's listing order."""
    found = listing(binary)
    return [s["name"] for s in found["strategies"]], [t["name"] for t in found["transports"]]


def pairs(found):
    """(strategy, transport) -> the combination's entry (fits, and its refusal when it does not)."""
    return {(c["strategy"], c["transport"]): c for c in found["combinations"]}


class Verdict:
    """What the binary said about one (strategy, transport) pair: fits, does not fit, or a bad name."""

    def __init__(self, status, line):
        self.status, self.line = status, line
        self.fits = status == 0
        self.not_fitting = status == COMBINATION_REFUSED

    @property
    def reason(self):
        """The binary's refusal without its 'amp-ghost: error: ' prefix."""
        return self.line.split("error: ", 1)[-1]


def ask(binary, strategy, transport):
    """Sets up rank 0 of 1 virtual rank with this strategy and transport, without mpiexec."""
    command = [binary, "--plan-only", "--ranks", "1", "--rank", "0"]
    if strategy:
        command += ["--strategy", strategy]
    if transport:
        command += ["--transport", transport]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    lines = [line for line in (done.stderr + done.stdout).splitlines() if "error:" in line]
    return Verdict(done.returncode, lines[0] if lines else (done.stderr.strip().splitlines() or [""])[-1])


def verdicts(binary, strategies, transports):
    """(strategy, transport) -> Verdict for every pair of the two axes (None: the proxy's default)."""
    pairs_asked = [(s, t) for s in strategies for t in transports]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return dict(zip(pairs_asked, pool.map(lambda pair: ask(binary, *pair), pairs_asked)))
