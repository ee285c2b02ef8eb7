#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# --plan-only against the real run: runs a proxy under mpiexec with --dump-plan, then --plan-only for
# every rank r of the same rank count in one process each; every plan must be identical, and the
# plan-only report (one line, --results JSON) must count the same links and pieces. Or, for bad input
# to the plan flags, exit 2 with one error line. "{tmp}" in the proxy arguments is a scratch folder.
import json
import os
import subprocess
import sys
import tempfile

from checked_run import failure, launcher_parser, parse_with_program_arguments, refusal_line
from amp_tools import launch

fail = failure("test_plan_only")


def parse_arguments():
    p = launcher_parser()
    p.add_argument("--proxy", required=True, help="name the report line starts with, e.g. amp-sage")
    p.add_argument("--min-links", type=int, default=1, help="links summed over ranks must reach this")
    p.add_argument("--expect-phases", type=int, help="num_phases of every plan")
    p.add_argument("--expect-failure", metavar="REGEX", help="bad input: exit 2, one line matching REGEX")
    p.add_argument("--existing", metavar="NAME", help="create {tmp}/NAME before the run")
    p.add_argument("--max-peak-mib", type=float,
                   help="one plan-only run (the arguments say which rank of how many): peak RSS at most this")
    p.add_argument("--at-least", action="append", default=[], metavar="KEY=N",
                   help="with --max-peak-mib: the plan-only results KEY must be >= N")
    p.add_argument("--timeout", type=int, default=100)
    return parse_with_program_arguments(p, "proxy_arguments")


def run(a, command):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=a.timeout)
    except subprocess.TimeoutExpired:
        fail(f"did not finish in {a.timeout} s: {' '.join(command)}")


def mpi_command(a, np, arguments):
    return launch.mpiexec(a.mpiexec, np, [a.exe, "--progress", "0"] + arguments, a.mpiexec_flags)


def check_failure(a, arguments):
    done = run(a, mpi_command(a, a.np, arguments))
    print(f"test_plan_only: rejected as expected: {refusal_line(done, a.expect_failure, fail, exit_code=2)}")


def load(path):
    if not os.path.exists(path):
        fail(f"no plan dump {path}")
    with open(path) as f:
        return json.load(f)


def check_report(a, rank, stdout, results_path, plan):
    lines = [line for line in stdout.splitlines() if line.strip()]
    head = f"{a.proxy} plan-only: rank {rank} of {a.np}: plan "
    if len(lines) != 1 or not lines[0].startswith(head):
        fail(f"rank {rank}: expected one line starting '{head}', got {lines}")
    with open(results_path) as f:
        results = json.load(f)
    send_pieces = sum(len(link["send"]) for link in plan["links"])
    recv_pieces = sum(len(link["recv"]) for link in plan["links"])
    expected = {"proxy": a.proxy, "mode": "plan-only", "rank": rank, "ranks": a.np, "links": len(plan["links"]),
                "phases": plan["num_phases"], "send_pieces": send_pieces, "recv_pieces": recv_pieces}
    for key, value in expected.items():
        if results.get(key) != value:
            fail(f"rank {rank}: results {key} = {results.get(key)}, expected {value}")
    if f"links {len(plan['links'])}, pieces {send_pieces} send + {recv_pieces} recv" not in lines[0]:
        fail(f"rank {rank}: report line does not count {len(plan['links'])} links and the pieces: {lines[0]}")
    if not (results["plan_seconds"] >= 0 and results["peak_rss_mib"] > 0):
        fail(f"rank {rank}: plan_seconds {results['plan_seconds']} / peak_rss_mib {results['peak_rss_mib']}")


def check_limits(a, arguments, folder):
    results = os.path.join(folder, "limits.json")
    done = run(a, mpi_command(a, 1, arguments + ["--results", results]))
    if done.returncode != 0:
        fail(f"plan-only run exited {done.returncode}: {done.stderr.strip()}")
    with open(results) as f:
        r = json.load(f)
    for rule in a.at_least:
        key, value = rule.split("=")
        if r.get(key, -1) < float(value):
            fail(f"{key} = {r.get(key)}, expected at least {value}")
    if r["peak_rss_mib"] > a.max_peak_mib:
        fail(f"peak RSS {r['peak_rss_mib']:.1f} MiB, over the bound of {a.max_peak_mib} MiB")
    print(f"test_plan_only: peak RSS {r['peak_rss_mib']:.1f} MiB <= {a.max_peak_mib} MiB; {done.stdout.strip()}")


def main():
    a = parse_arguments()
    with tempfile.TemporaryDirectory() as folder:
        arguments = [arg.replace("{tmp}", folder) for arg in a.proxy_arguments]
        if a.existing:
            open(os.path.join(folder, a.existing), "w").close()
        if a.expect_failure:
            check_failure(a, arguments)
            return
        if a.max_peak_mib is not None:
            check_limits(a, arguments, folder)
            return
        real = os.path.join(folder, "real")
        # one step, in place of the case's own step count (a flag given twice with two values is refused)
        one_step = [w for i, w in enumerate(arguments) if w != "--num_tsteps" and
                    (i == 0 or arguments[i - 1] != "--num_tsteps")]
        done = run(a, mpi_command(a, a.np, one_step + ["--num_tsteps", "1", "--dump-plan", real]))
        if done.returncode != 0:
            fail(f"real run exited {done.returncode}: {done.stderr.strip()}")
        links = 0
        for rank in range(a.np):
            planned = os.path.join(folder, "planned")
            results = os.path.join(folder, f"plan{rank}.json")
            command = mpi_command(a, 1, arguments + ["--plan-only", "--ranks", str(a.np), "--rank", str(rank),
                                                     "--dump-plan", planned, "--results", results])
            done = run(a, command)
            if done.returncode != 0:
                fail(f"plan-only rank {rank} exited {done.returncode}: {done.stderr.strip()}")
            expected, got = load(f"{real}.{rank}"), load(f"{planned}.{rank}")
            if expected != got:
                fail(f"rank {rank}: the plan-only plan differs from the real run's")
            if a.expect_phases is not None and got["num_phases"] != a.expect_phases:
                fail(f"rank {rank}: num_phases {got['num_phases']}, expected {a.expect_phases}")
            check_report(a, rank, done.stdout, results, got)
            links += len(got["links"])
        if links < a.min_links:
            fail(f"{links} links over {a.np} ranks, expected at least {a.min_links}")
        print(f"test_plan_only: {a.np} plan-only plans equal the real run's ({links} links in all)")


if __name__ == "__main__":
    main()
