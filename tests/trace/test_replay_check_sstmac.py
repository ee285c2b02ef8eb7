#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The replayer agrees with `amp-trace check`: replays the hand-made traces trace_replay_check_test
wrote (one directory per test case) in the real SST-macro 16.0 (AMP_SSTMAC) and asserts
that each trace the check finds a replay-breaking defect in aborts SST-macro with the message the
finding names, and that the traces the check finds clean replay to the end. SST-macro is the sstmac
binary AMP_SSTMAC names; without it the test is skipped (exit 77).
Usage: test_replay_check_sstmac.py PARAMS_DIR (where torus.ini is) TRACES_DIR"""
import os
import subprocess
import sys

PARAMS, TRACES = sys.argv[1:3]
# test case -> what SST-macro prints (None: replays to the end)
EXPECTED = {
    "SmallReceiveIsFoundAtTheReceive": "MPI matching error: incoming message has 4096 bytes, but matches buffer of too "
                                       "small size 24",
    "CommunicatorNoCallCreated": "could not find mpi communicator 4",
    "WaitOnARequestNoCallCreated": "could not find mpi request 7",
    "DatatypeNoCallCreated": "unknown type id",
    "CallsSstMacroCannotReplay": "DUMPI callback MPI_Cart_create not implemented",
    "WildcardsUseTheRecordedStatus": None,
    "SendrecvPairsMatch": None,
    "PersistentRequestsStartedManyTimes": None,
    "SplitAndDupCommunicatorsTranslateRanks": None,
    "SizeChangeAfterTheFirstMessageWasReceivedIsFine": None,
}


def main():
    sstmac = os.environ.get("AMP_SSTMAC")
    if not sstmac:
        print("skipped: set AMP_SSTMAC (the sstmac binary) to cross-check against SST-macro")
        sys.exit(77)
    failures = []
    for case, expected in EXPECTED.items():
        meta = os.path.join(TRACES, case, "built.meta")
        with open(meta) as f:
            ranks = next(line.split("=")[1].strip() for line in f if line.startswith("numprocs="))
        run = subprocess.run([sstmac, "-f", "torus.ini", "-p", f"node.app1.dumpi_metaname={os.path.abspath(meta)}",
                              "-p", f"node.app1.size={ranks}"], cwd=PARAMS,
                             capture_output=True, text=True, timeout=120)
        output = run.stdout + run.stderr
        if expected is None and (run.returncode != 0 or "Estimated total runtime" not in output):
            failures.append(f"{case}: expected a clean replay, got exit {run.returncode}: {output.strip()[-300:]}")
        elif expected is not None and (run.returncode == 0 or expected not in output):
            failures.append(f"{case}: expected SST-macro to abort with '{expected}', got exit {run.returncode}: "
                            f"{output.strip()[-300:]}")
        else:
            print(f"{case}: {'replays clean' if expected is None else 'aborts: ' + expected}")
    if failures:
        print("FAILED:\n" + "\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
