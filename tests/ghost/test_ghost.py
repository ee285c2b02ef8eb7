#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp-ghost system checks through mpiexec: the strategy x process-grid matrix (identical checksums,
exact message and byte counts), the sweep in place against the sweep into a second grid, the matrix with a
share of the sweeps (--sweeps_per_exchange), verification catching a perturbed sum, and bad input."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from amp_tools.launcher_banners import without_exit_banners  # noqa: E402  (Open MPI's banners on a non-zero exit)
from amp_tools import combinations  # noqa: E402  (the binary's --list-combinations --json)
from amp_tools import launch

GLOBAL = 12          # global cells per axis (strong scaling), divisible by 1, 2, 4
VARS, STEPS = 3, 4
# Spikes at steps 0, 1 and 2 of 4: the sweeps before steps 1 and 2 are followed by a spike, so their
# faces are packed after it (on 4x1x1 some spikes land on a yz face, where the sweep's copies would be
# stale); the sweep of step 2 writes its faces into the send slots itself.
SPIKES = 3
GRIDS = [(1, (1, 1, 1)), (2, (2, 1, 1)), (2, (1, 1, 2)), (4, (4, 1, 1)), (4, (2, 2, 1)), (4, (1, 2, 2)), (4, (1, 1, 4))]


def run(args, ranks, exe, mpiexec, extra, timeout=120):
    cmd = launch.mpiexec(mpiexec, ranks, [exe] + extra)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def messages_per_exchange(strategy, pieces):
    """Messages one link carries per exchange under the strategies whose cut this check knows (None:
    another registered strategy, checked for its checksum only)."""
    return {"bspma": 1, "onebyone": 1, "svaf": VARS, "svcp": VARS * pieces}.get(strategy)


def expected_traffic(stencil, grid, strategy):
    """Messages and bytes of one run, summed over ranks, from the face geometry (None: not known)."""
    edges = stencil in ("2d9pt", "3d27pt")
    axes = 3 if stencil.startswith("3d") else 2
    n = [GLOBAL // g for g in grid]
    elements = [n[1] * n[2], (n[0] + 2 if edges else n[0]) * n[2], (n[0] + 2) * (n[1] + 2 if edges else n[1])]
    pieces = [n[2], n[2], 1]
    messages = bytes_ = 0
    for pz in range(grid[2]):
        for py in range(grid[1]):
            for px in range(grid[0]):
                coords = (px, py, pz)
                for a in range(axes):
                    for side in (-1, 1):
                        if not 0 <= coords[a] + side < grid[a]:
                            continue
                        per_exchange = messages_per_exchange(strategy, pieces[a])
                        if per_exchange is None:
                            return None
                        messages += per_exchange * STEPS
                        bytes_ += elements[a] * 8 * VARS * STEPS
    return messages, bytes_


def verified_run(opts, ranks, grid, domain, settings, results, label, failures):
    """One strong-scaled amp-ghost run on process grid `grid` writing `results`: its results, or None with
    the failure noted (a non-zero exit). A failed verification is noted too."""
    for stale in (results, results + ".partial"):
        if os.path.exists(stale):
            os.remove(stale)
    extra = ["--scaling", "strong", "--nx", str(domain[0]), "--ny", str(domain[1]), "--nz", str(domain[2]),
             "--npx", str(grid[0]), "--npy", str(grid[1]), "--npz", str(grid[2]), "--results", results]
    for key, value in settings.items():
        extra += [f"--{key}", str(value)]
    proc = run(opts, ranks, opts.exe, opts.mpiexec, extra)
    if proc.returncode != 0:
        failures.append(f"{label}: exit {proc.returncode}: {proc.stderr.strip()}")
        return None
    r = json.load(open(results))
    if not r["verification"]["passed"]:
        failures.append(f"{label}: verification failed")
    return r


def matrix(opts):
    os.makedirs(opts.workdir, exist_ok=True)
    checksums = {}
    failures = []
    strategies, _ = combinations.names(opts.exe)
    for ranks, grid in GRIDS:
        for strategy in strategies:
            results = os.path.join(opts.workdir, f"{strategy}-{ranks}-{'x'.join(map(str, grid))}.json")
            settings = {"num_vars": VARS, "num_tsteps": STEPS, "num_spikes": SPIKES, "stencil": opts.stencil,
                        "strategy": strategy}
            label = f"{opts.stencil} {strategy} ranks={ranks} grid={grid}"
            r = verified_run(opts, ranks, grid, (GLOBAL,) * 3, settings, results, label, failures)
            if r is None:
                continue
            checksums[label] = r["checksum"]
            messages, bytes_ = (expected_traffic(opts.stencil, grid, strategy)
                                or (r["messages"]["total"], r["bytes"]["total"]))
            if r["messages"]["total"] != messages or r["bytes"]["total"] != bytes_:
                failures.append(f"{label}: messages {r['messages']['total']} bytes {r['bytes']['total']}, "
                                f"expected {messages} and {bytes_}")
            print(f"{label}: checksum {r['checksum']} messages {r['messages']['total']} bytes {r['bytes']['total']}")
    if len(set(checksums.values())) != 1:
        failures.append("checksums differ: " + json.dumps(checksums, indent=1))
    return failures


# The 3D7PT and 3D27PT sweeps in place (kernels/in_place_*.hpp) and into a second grid give one checksum
# per stencil: a 128x32x32 domain whose blocks are swept in place on 1x1x1, 2x1x1, 1x1x2, 2x2x1 and 2x1x2
# (lines of 64-128 cells, blocks from memory; their received yz ghosts wait in side arrays, for 3D27PT all
# but those the y or z phase sends on: kernels/yz_ghost_sides.hpp) and into a second grid on 4x1x1
# (32-cell lines).
IN_PLACE_DOMAIN = (128, 32, 32)
IN_PLACE_GRIDS = [(1, (1, 1, 1), True), (2, (2, 1, 1), True), (2, (1, 1, 2), True), (4, (4, 1, 1), False),
                  (4, (2, 2, 1), True), (4, (2, 1, 2), True)]


def in_place(opts):
    os.makedirs(opts.workdir, exist_ok=True)
    failures = []
    for stencil in ("3d7pt", "3d27pt"):
        checksums = {}
        for ranks, grid, expected in IN_PLACE_GRIDS:
            for strategy in ("bspma", "svaf"):
                results = os.path.join(opts.workdir, f"in-place-{stencil}-{strategy}-{'x'.join(map(str, grid))}.json")
                settings = {"num_vars": 2, "num_tsteps": 3, "num_spikes": 2, "stencil": stencil, "strategy": strategy}
                label = f"{stencil} {strategy} grid={grid}"
                r = verified_run(opts, ranks, grid, IN_PLACE_DOMAIN, settings, results, label, failures)
                if r is None:
                    continue
                checksums[label] = r["checksum"]
                if r["config"]["sweep_in_place"] != expected:
                    failures.append(f"{label}: sweep_in_place {r['config']['sweep_in_place']}, expected {expected}")
                print(f"{label}: in place {r['config']['sweep_in_place']}, checksum {r['checksum']}")
        if len(set(checksums.values())) != 1:
            failures.append(f"{stencil}: checksums differ: " + json.dumps(checksums, indent=1))
    return failures


# A share of the sweeps: 2 exchanges a step, 0.3 of the variables' sweeps before each (7 of the 24 pairs).
SHARE, EXCHANGES = 0.3, 2
SHARE_GRIDS = [(1, (1, 1, 1)), (2, (2, 1, 1)), (4, (2, 2, 1))]


def sweeps(opts):
    """--sweeps_per_exchange below 1: one checksum for every strategy and process grid, another than at 1 (the
    key changes the answer), the messages and bytes of a run at 1 (every variable is still sent at every
    exchange), verification passing; and a synthesis's modelled compute exactly the swept pairs' (7 x 1 ms)."""
    os.makedirs(opts.workdir, exist_ok=True)
    checksums = {SHARE: {}, 1.0: {}}
    failures = []
    strategies, _ = combinations.names(opts.exe)
    for share in (SHARE, 1.0):
        for ranks, grid in SHARE_GRIDS:
            for strategy in strategies if share != 1.0 else ["bspma"]:
                label = f"share {share} {strategy} ranks={ranks} grid={grid}"
                name = f"sweeps-{share}-{strategy}-{ranks}-{'x'.join(map(str, grid))}.json"
                settings = {"num_vars": VARS, "num_tsteps": STEPS, "num_spikes": SPIKES, "stencil": opts.stencil,
                            "exchanges_per_step": EXCHANGES, "sweeps_per_exchange": share, "strategy": strategy}
                r = verified_run(opts, ranks, grid, (GLOBAL,) * 3, settings, os.path.join(opts.workdir, name), label,
                                 failures)
                if r is None:
                    continue
                checksums[share][label] = r["checksum"]
                expected = expected_traffic(opts.stencil, grid, strategy)
                if expected and (r["messages"]["total"], r["bytes"]["total"]) != tuple(EXCHANGES * n for n in expected):
                    failures.append(f"{label}: messages {r['messages']['total']} bytes {r['bytes']['total']}, "
                                    f"expected {EXCHANGES} x {expected}")
                print(f"{label}: checksum {r['checksum']} messages {r['messages']['total']}")
    if len(set(checksums[SHARE].values())) != 1:
        failures.append("checksums differ at one share: " + json.dumps(checksums[SHARE], indent=1))
    if set(checksums[SHARE].values()) & set(checksums[1.0].values()):
        failures.append("the share changed nothing: the same checksum as every sweep made")
    swept = sum(1 for n in range(VARS * STEPS * EXCHANGES) if int((n + 1) * SHARE) > int(n * SHARE))
    size = ["--scaling", "strong", "--nx", str(GLOBAL), "--ny", str(GLOBAL), "--nz", str(GLOBAL),
            "--num_vars", str(VARS), "--num_tsteps", str(STEPS), "--num_spikes", str(SPIKES), "--stencil", opts.stencil,
            "--exchanges_per_step", str(EXCHANGES)]
    with tempfile.TemporaryDirectory() as directory:
        results = os.path.join(directory, "synthesis.json")
        proc = run(opts, 1, opts.exe, opts.mpiexec,
                   size + ["--sweeps_per_exchange", str(SHARE), "--synthesize", os.path.join(directory, "trace"),
                           "--ranks", "4", "--compute_seconds", "0.001", "--results", results])
        if proc.returncode != 0:
            failures.append(f"synthesis: exit {proc.returncode}: {proc.stderr.strip()}")
        else:
            # A synthesis's clock moves only by the compute model: MPI_Finalize - MPI_Init is each rank's compute.
            dump = subprocess.run([os.path.join(os.path.dirname(opts.exe), "amp-trace"), "dump",
                                   os.path.join(directory, "trace")], capture_output=True, text=True)
            starts = {call: [float(line.split()[2].split("..")[0]) for line in dump.stdout.splitlines()
                             if line.startswith(call + " ")] for call in ("MPI_Init", "MPI_Finalize")}
            spans = [end - begin for begin, end in zip(starts["MPI_Init"], starts["MPI_Finalize"])]
            if len(spans) != 4 or any(abs(span - swept * 0.001) > 1e-9 for span in spans):
                failures.append(f"synthesis: ranks' modelled compute {spans} s, expected {swept} sweeps x 1 ms each")
            print(f"synthesis: modelled compute {spans} s for {swept} swept pairs")
    return failures


def fault(opts):
    proc = run(opts, 2, opts.exe, opts.mpiexec, ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "2",
                                                  "--num_tsteps", "6", "--inject_fault", "1000"])
    print(proc.stdout, proc.stderr)
    failures = []
    if proc.returncode != 1:
        failures.append(f"exit code {proc.returncode}, expected 1 (verification failure)")
    if "verification failed" not in proc.stderr:
        failures.append("no 'verification failed' message")
    clean = run(opts, 2, opts.exe, opts.mpiexec, ["--nx", "8", "--ny", "8", "--nz", "8", "--num_vars", "2",
                                                  "--num_tsteps", "6"])
    if clean.returncode != 0:
        failures.append(f"the same run without the fault failed: {clean.stderr}")
    return failures


def bad_input(opts):
    os.makedirs(opts.workdir, exist_ok=True)
    garbage = os.path.join(opts.workdir, "garbage.toml")
    with open(garbage, "w") as f:
        f.write("nx = = 3\n[[[\n")
    unknown_key = os.path.join(opts.workdir, "unknown-key.toml")
    with open(unknown_key, "w") as f:
        f.write("nx = 8\nstencill = \"3d7pt\"\n")
    existing = os.path.join(opts.workdir, "existing.json")
    with open(existing, "w") as f:
        f.write("user data\n")
    small = ["--nx", "4", "--ny", "4", "--nz", "4", "--num_tsteps", "1", "--num_vars", "1"]
    # A pair the listing refuses (neighbor with svcp, here) exits 6, with the listing's own reason.
    refused = [c for c in combinations.listing(opts.exe)["combinations"] if not c["fits"]]
    cases = [
        (2, ["--strategy", "carrier"], "unknown strategy"),
        (2, ["--transport", "carrier"], "unknown transport 'carrier' (use "
         + ", ".join(combinations.names(opts.exe)[1]) + ")"),
        (2, ["--stencil", "3d9pt"], "unknown stencil"),
        (4, ["--scaling", "strong", "--nx", "10", "--npx", "4", "--npy", "1", "--npz", "1"], "does not divide"),
        (2, ["--npx", "3"], "does not match"),
        (2, ["--npx", "1", "--npy", "1", "--npz", "1"], "does not match"),
        (2, ["--nx", "0"], "must be positive"),
        (2, ["--num_vars", "0"], "num_vars"),
        (2, ["--num_tsteps", "abc"], "num_tsteps"),
        (2, ["--bogus"], "bogus"),
        (2, ["--input", os.path.join(opts.workdir, "missing.toml")], "missing.toml"),
        (2, ["--input", garbage], "garbage.toml"),
        (2, ["--input", unknown_key], "stencill"),
        (2, ["--results", existing], "already exists"),
        (2, ["--error_tol", "40"], "error_tol"),
        (2, ["--percent_sum", "101"], "percent_sum"),
    ]
    cases = [(ranks, flags, needle, combinations.BAD_INPUT) for ranks, flags, needle in cases]
    cases += [(2, ["--strategy", c["strategy"], "--transport", c["transport"]], c["refusal"],
               combinations.COMBINATION_REFUSED) for c in refused[:1]]
    if not refused:
        return ["the listing refuses no combination; expected at least neighbor with svcp"]
    failures = []
    for ranks, flags, needle, code in cases:
        # the case's flags in place of the small run's own (a flag given twice with two values is refused)
        given = set(flags[::2])
        base = [w for pair in zip(small[::2], small[1::2]) if pair[0] not in given for w in pair]
        proc = run(opts, ranks, opts.exe, opts.mpiexec, base + flags, timeout=60)
        lines = [l for l in without_exit_banners(proc.stderr).splitlines() if l.strip()]
        ok = (proc.returncode == code and len(lines) == 1 and needle in lines[0]
              and lines[0].startswith("amp-ghost: error:"))
        print(f"{'ok  ' if ok else 'FAIL'} {' '.join(flags)} -> exit {proc.returncode}: {proc.stderr.strip()}")
        if not ok:
            failures.append(f"{flags}: exit {proc.returncode}, stderr {proc.stderr!r}, expected one line with "
                            f"{needle!r}")
    if open(existing).read() != "user data\n":
        failures.append("an existing results file was modified")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["matrix", "inplace", "sweeps", "fault", "badinput"])
    parser.add_argument("--mpiexec", required=True)
    parser.add_argument("--exe", required=True)
    parser.add_argument("--stencil", default="3d7pt")
    parser.add_argument("--workdir", default=tempfile.mkdtemp())
    opts = parser.parse_args()
    modes = {"matrix": matrix, "inplace": in_place, "sweeps": sweeps, "fault": fault, "badinput": bad_input}
    failures = modes[opts.mode](opts)
    for f in failures:
        print("FAILED:", f)
    print(f"{'FAILED' if failures else 'PASSED'}: amp-ghost {opts.mode}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
