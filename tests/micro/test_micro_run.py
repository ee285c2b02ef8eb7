#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Runs amp-micro under mpiexec and checks what it reports: the JSON results (verified flags, row
# counts, sizes, column values) and the CSV, or for bad input a non-zero exit with one error line.
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checked_run import failure, launcher_parser, parse_with_program_arguments  # noqa: E402
from amp_tools import launch


fail = failure("test_micro_run")


def parse_arguments():
    parser = launcher_parser()
    parser.add_argument("--expect-rows", type=int)
    parser.add_argument("--expect-sizes", help="comma-separated distinct 'bytes' values, in order")
    parser.add_argument("--expect-column", action="append", default=[], metavar="NAME=VALUE",
                        help="every row has this value in this column")
    parser.add_argument("--expect-column-at-least", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--expect-failure", metavar="REGEX",
                        help="the run must exit non-zero with exactly one error line matching REGEX")
    parser.add_argument("--existing-results", action="store_true",
                        help="point --results at an existing file; it must be refused and left unchanged")
    parser.add_argument("--expect-trace", action="store_true",
                        help="pass --trace DIR; DIR must then hold one .meta and one .bin per rank")
    parser.add_argument("--timeout", type=int, default=60)
    return parse_with_program_arguments(parser, "benchmark_arguments")


def run(arguments, extra):
    command = launch.mpiexec(arguments.mpiexec, arguments.np, [arguments.exe] + arguments.benchmark_arguments + extra,
                             arguments.mpiexec_flags)
    environment = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=arguments.timeout, env=environment)
    except subprocess.TimeoutExpired:
        fail(f"timed out after {arguments.timeout} s (a hang?): {' '.join(command)}")


def check_failure(arguments, folder):
    extra = []
    existing = os.path.join(folder, "existing.json")
    if arguments.existing_results:
        with open(existing, "w") as out:
            out.write("keep me\n")
        extra = ["--results", existing]
    result = run(arguments, extra)
    print(result.stdout, result.stderr, sep="\n")
    if result.returncode == 0:
        fail("expected a non-zero exit")
    error_lines = [line for line in result.stderr.splitlines() if "error" in line.lower()]
    if len(error_lines) != 1:
        fail(f"expected exactly one error line, got {len(error_lines)}: {error_lines}")
    if not re.search(arguments.expect_failure, error_lines[0]):
        fail(f"error line {error_lines[0]!r} does not match {arguments.expect_failure!r}")
    if arguments.existing_results:
        with open(existing) as kept:
            if kept.read() != "keep me\n":
                fail("the existing results file was overwritten")


def matches(value, expected):
    if isinstance(value, bool):
        return str(value).lower() == expected.lower()
    if isinstance(value, (int, float)):
        return float(value) == float(expected)
    return str(value) == expected


def check_success(arguments, folder):
    results_path = os.path.join(folder, "results.json")
    csv_path = os.path.join(folder, "results.csv")
    extra = ["--results", results_path, "--csv", csv_path]
    trace_folder = os.path.join(folder, "trace")
    if arguments.expect_trace:
        os.mkdir(trace_folder)
        extra += ["--trace", trace_folder]
    result = run(arguments, extra)
    print(result.stdout, result.stderr, sep="\n")
    if result.returncode != 0:
        fail(f"exit code {result.returncode}")
    with open(results_path) as source:
        results = json.load(source)
    rows = results["rows"]
    if results["benchmark"] != arguments.benchmark_arguments[0]:
        fail(f"benchmark {results['benchmark']!r} is not {arguments.benchmark_arguments[0]!r}")
    if results["run"]["ranks"] != arguments.np:
        fail(f"results say {results['run']['ranks']} ranks, launched {arguments.np}")
    if results["verified"] is not True or not rows or not all(row["verified"] is True for row in rows):
        fail("not every row verified")
    if arguments.expect_rows is not None and len(rows) != arguments.expect_rows:
        fail(f"{len(rows)} rows, expected {arguments.expect_rows}")
    if arguments.expect_sizes:
        sizes = []
        for row in rows:
            if row["bytes"] not in sizes:
                sizes.append(row["bytes"])
        expected = [int(size) for size in arguments.expect_sizes.split(",")]
        if sizes != expected:
            fail(f"sizes {sizes}, expected {expected}")
    for expectation in arguments.expect_column:
        name, expected = expectation.split("=", 1)
        for row in rows:
            if not matches(row[name], expected):
                fail(f"column {name} is {row[name]!r}, expected {expected}")
    for expectation in arguments.expect_column_at_least:
        name, least = expectation.split("=", 1)
        for row in rows:
            if not float(row[name]) >= float(least):
                fail(f"column {name} is {row[name]!r}, expected at least {least}")
    if arguments.expect_trace:
        names = os.listdir(trace_folder)
        metas = [name for name in names if name.endswith(".meta")]
        bins = [name for name in names if name.endswith(".bin")
                and os.path.getsize(os.path.join(trace_folder, name)) > 0]
        if len(metas) != 1 or len(bins) != arguments.np:
            fail(f"trace folder holds {names}; expected one .meta and {arguments.np} non-empty .bin files")
    with open(csv_path, newline="") as source:
        table = list(csv.reader(source))
    if table[0] != results["columns"] or len(table) != len(rows) + 1:
        fail(f"CSV has header {table[0]} and {len(table) - 1} rows; JSON has {results['columns']} and {len(rows)}")


def main():
    arguments = parse_arguments()
    with tempfile.TemporaryDirectory(prefix="amp-micro-test-") as folder:
        if arguments.expect_failure:
            check_failure(arguments, folder)
        else:
            check_success(arguments, folder)
    print("test_micro_run: PASS")


if __name__ == "__main__":
    main()
