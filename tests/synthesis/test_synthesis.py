#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Synthesized traces equal recorded ones: for every strategy and every transport a synthesis can
write, one proxy at one rank count runs for real through mpiexec with --trace, and again in one
process with --synthesize DIR --ranks N; both traces are read back with `amp-trace dump` and must
match call for call (function, every argument, request, communicator and datatype ids, order) on
every rank. What may differ: timestamps (the synthesis's clock is its compute model), MPI_Init_thread's
argv (the command lines differ; the function and its thread levels are compared) and absolute addresses (MPI_Get_address
values and the
displacements of MPI_Type_create_struct, which move from run to run anyway). Also checks that the
transports a synthesis cannot write are refused in one line and leave no files; at 2 ranks, so are
bad synthesis flags and a synthesis started under mpiexec.

With --check-only, only synthesizes NP ranks (more than this machine could run) and requires
`amp-trace check` to find the trace clean: every message matched, nothing a replayer would trip on."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)) + "/../common")
from checked_run import failure, launcher_parser, parse_with_program_arguments, refusal_line  # noqa: E402
from amp_tools import launch
from amp_tools import combinations  # noqa: E402  (the binary's --list-combinations --json)

fail = failure("test_synthesis")

WALL = re.compile(r" wall [0-9.]+\.\.[0-9.]+")
ADDRESS = re.compile(r"(int address=)-?\d+")
DISPLACEMENTS = re.compile(r"(MPI_Type_create_struct .*int displacements\[\d+\]=)\[[-0-9, ]*\]")


def comparable(dump):
    """The dump's lines with what may differ masked, and the rank headers without the file names."""
    lines = []
    for line in dump.splitlines():
        if line.startswith("# rank"):
            line = line.split(":")[0]
        elif line.startswith("MPI_Init"):  # the record itself and its thread levels stay; only argv is masked
            line = " | ".join("int argc=<argv>" if field.startswith("int argc=") else field
                              for field in line.split(" | "))
        line = WALL.sub("", line)
        line = ADDRESS.sub(r"\1<address>", line)
        line = DISPLACEMENTS.sub(r"\1<addresses>", line)
        lines.append(line)
    return lines


def run(command, timeout):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"did not finish in {timeout} s: {' '.join(command)}")


def dump(a, directory):
    done = run([a.amp_trace, "dump", directory], a.timeout)
    if done.returncode != 0:
        fail(f"amp-trace dump {directory} failed: {done.stderr.strip()}")
    return comparable(done.stdout)


def check_refusals(a, folder):
    """Bad synthesis flags: one line, exit 2, nothing written."""
    directory = os.path.join(folder, "refused")
    one_process = [a.exe] + a.proxy_arguments
    cases = [
        (one_process + ["--synthesize", directory], r"--synthesize needs --ranks N, the virtual rank count"),
        (one_process + ["--synthesize", directory, "--ranks", "0"], r"--ranks must be at least 1 \(got 0\)"),
        (one_process + ["--synthesize", directory, "--ranks", "x"], r"--ranks: 'x' is not a number"),
        (one_process + ["--synthesize", directory, "--ranks", "2", "--compute_seconds", "-1"],
         r"--compute_seconds must be >= 0 \(got -1\)"),
        (one_process + ["--compute_seconds", "0.001"], r"--compute_seconds needs --synthesize"),
        (one_process + ["--synthesize", directory, "--ranks", "2", "--trace", os.path.join(folder, "t")],
         r"--synthesize writes its own traces into its directory; drop --trace"),
        (launch.mpiexec(a.mpiexec, 2, one_process + ["--synthesize", directory, "--ranks", "4"], a.mpiexec_flags),
         r"--synthesize runs in one process \(started with 2 MPI ranks\)"),
    ]
    for command, regex in cases:
        refusal_line(run(command, a.timeout), regex, fail, exit_code=2)
        if os.path.isdir(directory) and os.listdir(directory):
            fail(f"'{' '.join(command)}' was refused but left {os.listdir(directory)}")
    return len(cases)


def check_only(a):
    with tempfile.TemporaryDirectory() as folder:
        directory = os.path.join(folder, "synthesized")
        synthesis = run([a.exe] + a.proxy_arguments + ["--synthesize", directory, "--ranks", str(a.np)], a.timeout)
        if synthesis.returncode != 0:
            fail(f"the synthesis failed ({synthesis.returncode}): {synthesis.stderr.strip()[-400:]}")
        checked = run([a.amp_trace, "check", directory], a.timeout)
        found = re.search(rf": {a.np} ranks, \d+ records, (\d+) messages \((\d+) matched\): clean$",
                          checked.stdout.strip())
        if checked.returncode != 0 or not found or found.group(1) != found.group(2) or found.group(1) == "0":
            fail(f"amp-trace check of the {a.np}-rank synthesis is not clean ({checked.returncode}): "
                 f"{(checked.stdout + checked.stderr).strip()[-600:]}")
        print(f"test_synthesis: {a.np} synthesized ranks check clean ({found.group(1)} messages, all matched)")


def main():
    p = launcher_parser(description=__doc__)
    p.add_argument("--amp-trace", required=True)
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--check-only", action="store_true", help="synthesize NP ranks and require a clean check")
    a = parse_with_program_arguments(p, "proxy_arguments")
    if a.check_only:
        return check_only(a)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    listed = combinations.listing(a.exe)
    fits = combinations.pairs(listed)
    strategies = [s["name"] for s in listed["strategies"]]
    synthesizable = [t["name"] for t in listed["transports"] if t["synthesizable"]]
    # The transports a synthesis refuses (those that fit svaf here, so the synthesis check is reached).
    refused = {t["name"]: t["not_synthesizable"] for t in listed["transports"]
               if not t["synthesizable"] and fits[("svaf", t["name"])]["fits"]}
    if not synthesizable or not refused:
        fail(f"the listing has no synthesizable transport or none refused: {synthesizable}, {refused}")
    compared = 0
    with tempfile.TemporaryDirectory() as folder:
        for strategy in strategies:
            for transport in synthesizable:
                name = f"{strategy}/{transport} at {a.np} ranks"
                arguments = a.proxy_arguments + ["--progress", "0", "--strategy", strategy, "--transport", transport]
                recorded = os.path.join(folder, f"{strategy}-{transport}-recorded")
                synthesized = os.path.join(folder, f"{strategy}-{transport}-synthesized")
                real = run(launch.mpiexec(a.mpiexec, a.np, [a.exe] + arguments + ["--trace", recorded],
                                          a.mpiexec_flags),
                           a.timeout)
                if real.returncode != 0:
                    fail(f"{name}: the recorded run failed ({real.returncode}): {real.stderr.strip()[-400:]}")
                synthesis = run([a.exe] + arguments + ["--synthesize", synthesized, "--ranks", str(a.np)], a.timeout)
                if synthesis.returncode != 0:
                    fail(f"{name}: the synthesis failed ({synthesis.returncode}): {synthesis.stderr.strip()[-400:]}")
                if not re.search(rf"synthesized {a.np} ranks in .*\ncompute model: \S+ s per ", synthesis.stdout):
                    fail(f"{name}: the synthesis did not report its ranks and compute model: {synthesis.stdout}")
                want, got = dump(a, recorded), dump(a, synthesized)
                # the proxies' MPI_Init_thread(FUNNELED) is recorded as MPI_Init (SST-macro's replay needs it)
                if sum(line.startswith("MPI_Init ") for line in want) != a.np:
                    fail(f"{name}: the recorded trace does not have {a.np} ranks")
                for number, (w, g) in enumerate(zip(want, got)):
                    if w != g:
                        fail(f"{name}: dump line {number + 1} differs:\n  recorded:    {w[:300]}\n"
                             f"  synthesized: {g[:300]}")
                if len(want) != len(got):
                    fail(f"{name}: {len(want)} recorded dump lines, {len(got)} synthesized")
                compared += len(want)
        for transport, why in refused.items():
            directory = os.path.join(folder, f"refused-{transport}")
            done = run([a.exe] + a.proxy_arguments + ["--strategy", "svaf", "--transport", transport,
                                                       "--synthesize", directory, "--ranks", str(a.np)], a.timeout)
            refusal_line(done, re.escape(f"transport '{transport}' cannot be synthesized: {why} (synthesize with "
                                         f"{', '.join(synthesizable)})"), fail, exit_code=2)
            if os.path.isdir(directory) and os.listdir(directory):
                fail(f"the refused {transport} synthesis left files: {os.listdir(directory)}")
        bad_flags = check_refusals(a, folder) if a.np == 2 else 0
    print(f"test_synthesis: {len(strategies) * len(synthesizable)} combinations at {a.np} ranks: synthesized "
          f"traces equal recorded ones ({compared} dump lines); {', '.join(refused)} refused"
          + (f"; {bad_flags} bad synthesis flags refused" if bad_flags else ""))


if __name__ == "__main__":
    main()
