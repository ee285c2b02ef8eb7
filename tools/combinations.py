"""Which strategy and transport names a proxy binary accepts, and which pairs of them fit, asked of the
binary itself (a cheap `--plan-only` set-up per pair), so that no second copy of its registry lives here.
"""
import concurrent.futures
import os
import subprocess

# Refusals that mean "this pair does not fit here" (skip it), not "this name is wrong" (refuse the study).
NOT_FITTING = ("does not fit", "needs MPI")


class Verdict:
    """What the binary said about one (strategy, transport) pair: fits, does not fit, or a bad name."""

    def __init__(self, status, line):
        self.status, self.line = status, line
        self.fits = status == 0
        self.not_fitting = status != 0 and any(words in line for words in NOT_FITTING)

    @property
    def reason(self):
        """The binary's refusal without its 'amp-ghost: error: ' prefix."""
        return self.line.split("error: ", 1)[-1]


def ask(binary, strategy, transport):
    """Sets up rank 0 of 1 virtual rank with this strategy and transport, without mpiexec."""
    command = [binary, "--plan-only", "--ranks", "1", "--rank", "0"]
    if strategy:
        command += ["--comm_method", strategy]
    if transport:
        command += ["--transport", transport]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    lines = [line for line in (done.stderr + done.stdout).splitlines() if "error:" in line]
    return Verdict(done.returncode, lines[0] if lines else (done.stderr.strip().splitlines() or [""])[-1])


def verdicts(binary, strategies, transports):
    """(strategy, transport) -> Verdict for every pair of the two axes (None: the proxy's default)."""
    pairs = [(s, t) for s in strategies for t in transports]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return dict(zip(pairs, pool.map(lambda pair: ask(binary, *pair), pairs)))
