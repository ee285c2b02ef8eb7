#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""SST-macro's prediction is read only from a replay that reached the end of its trace: a replay that ran
out of events first (its network model deadlocked, or its round-robin NIC queue lost messages) exits 0 and
prints the simulated time it had reached (fixtures: the last lines of two real runs of the 3-D halo, one
with a NIC buffer of a single packet, which deadlocks)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
from amp_tools import simulate_errors  # noqa: E402
from amp_tools.simulators import sstmac as simulate_sstmac  # noqa: E402


def read(name):
    with open(os.path.join(HERE, "fixtures", name)) as f:
        return f.read()


def main():
    assert simulate_sstmac.sstmac_prediction(0, read("sstmac-finished.txt"), []) == 0.00048679
    try:
        simulate_sstmac.sstmac_prediction(0, read("sstmac-deadlocked.txt"), [])
    except simulate_sstmac.SstmacStopped as e:  # ./amp simulate replays again with the FIFO queue on this one
        message = str(e)
        assert "stopped before the end of the trace (rank 0 at 5 percent" in message, message
    else:
        sys.exit("FAIL: a deadlocked replay's time was taken as a prediction")
    try:
        simulate_sstmac.sstmac_prediction(134, "MPI matching error\n", ["aborted"])
    except simulate_errors.SimulatorError as e:
        assert "sstmac failed (exit 134)" in str(e), str(e)
    else:
        sys.exit("FAIL: a failed replay was taken as a prediction")
    print("ok: finished, deadlocked and failed replays told apart")


if __name__ == "__main__":
    main()
