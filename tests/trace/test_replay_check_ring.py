#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""amp-trace check at scale, end to end: a hand-made ring trace of RANKS ranks (replay_ring_trace)
checks clean (exit 0, every message matched); the same ring with one receive a double too small
gives exactly that one small_receive finding (exit 1); unreadable input exits 2 with one line. The
clean check runs with at most 64 open files: the check must not hold a file open per rank.
Usage: test_replay_check_ring.py GENERATOR AMP_TRACE WORKDIR RANKS STEPS"""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

GENERATOR, AMP_TRACE, WORKDIR = sys.argv[1:4]
RANKS, STEPS = int(sys.argv[4]), int(sys.argv[5])


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def generate(work, prefix, *defect):
    out = subprocess.run([GENERATOR, work, prefix, str(RANKS), str(STEPS), *defect], capture_output=True,
                         text=True, timeout=120)
    if out.returncode != 0:
        fail(f"generator failed: {out.stderr.strip()}")
    return out.stdout.strip()


def few_open_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def check(*args, limit_files=False):
    return subprocess.run([AMP_TRACE, "check", *args], capture_output=True, text=True, timeout=120,
                          preexec_fn=few_open_files if limit_files else None)


def main():
    os.makedirs(WORKDIR, exist_ok=True)
    work = tempfile.mkdtemp(prefix=f"replay-ring-np{RANKS}-", dir=WORKDIR)
    messages = 2 * RANKS * STEPS  # each rank sends to both neighbours every step

    clean = check(generate(work, "clean"), limit_files=True)
    if clean.returncode != 0 or not clean.stdout.rstrip().endswith(
            f"{RANKS} ranks, {RANKS * (2 + 5 * STEPS)} records, {messages} messages ({messages} matched): clean"):
        fail(f"clean ring: exit {clean.returncode}, output {clean.stdout[-500:]!r} {clean.stderr.strip()}")

    bad_rank, bad_step = RANKS // 2 + 5, STEPS - 1
    bad = check("--json", generate(work, "bad", "small_receive", str(bad_rank), str(bad_step)))
    if bad.returncode != 1:
        fail(f"ring with a small receive: exit {bad.returncode}, expected 1 ({bad.stderr.strip()})")
    report = json.loads(bad.stdout)
    found = [(f["kind"], f["rank"], f["record"], f["call"]) for f in report["findings"]]
    expected = [("small_receive", bad_rank, 2 + 5 * bad_step, "MPI_Irecv")]
    if found != expected or report["total"] != 1 or report["matched"] != messages:
        fail(f"ring with a small receive: findings {found} (total {report['total']}), expected {expected}")
    left = (bad_rank - 1) % RANKS
    if not report["findings"][0]["message"].startswith(
            f"receive of 4088 bytes is smaller than the 4096-byte message from rank {left} "):
        fail("unexpected message: " + report["findings"][0]["message"])

    junk = os.path.join(work, "junk-0000.bin")
    with open(junk, "wb") as f:
        f.write(b"not a trace at all" * 10)
    for path in (junk, os.path.join(work, "missing.meta")):
        out = check(path)
        if out.returncode != 2 or len(out.stderr.strip().splitlines()) != 1 or out.stdout:
            fail(f"{path}: exit {out.returncode}, stderr {out.stderr!r}; expected exit 2 and one line")
    shutil.rmtree(work)
    print(f"{RANKS}-rank ring, {STEPS} steps: clean ({messages} messages matched); the small receive found "
          f"at rank {bad_rank} record {2 + 5 * bad_step}; unreadable input exits 2")


if __name__ == "__main__":
    main()
