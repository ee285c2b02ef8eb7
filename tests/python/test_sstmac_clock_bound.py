# SPDX-License-Identifier: BSD-3-Clause
"""SST-macro's clock bound (sstmac_machine.SSTMAC_MAX_SECONDS, from its timestamp.h/.cc: uint64 ticks of
100 as, maxTime() = 1844 s), checked where AMP reads what could pass it: a network time given to SST-macro
(refused with the file, exit 2, not SST-macro's abort), a trace whose compute reaches it (refused before the
replay) and a replay that ended before its own compute (its clock wrapped round: no prediction). A
simulator killed by a signal is named by the signal."""
import os
import subprocess
import sys

import pytest

from amp_tools import networks
from amp_tools import simulators
from amp_tools.simulators import sstmac_machine
from amp_tools.simulators import sstmac
from amp_tools.simulate_errors import SimulatorError, UsageError
from amp_tools.simulator_process import exit_text

TOOLS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))


def test_the_bound_is_sstmacs_max_time():
    assert sstmac_machine.SSTMAC_MAX_SECONDS == 1844  # (2^64 - 1) ticks // 1e16 ticks per second


@pytest.mark.parametrize("given, what", [
    ("nic_message_overhead=1e4", "message_overhead + nic_message_overhead = 10000 s"),
    ("message_overhead=1844", "message_overhead + nic_message_overhead = 1844 s"),
    ("link_latency=2000", "link_latency + router_latency = 2000 s"),
    ("router_latency=1900", "link_latency + router_latency = 1900 s"),
])
def test_a_network_time_past_the_bound_is_refused_for_sstmac(network_file, given, what):
    network = networks.load(network_file("torus-4x4x4"), [given])
    assert simulators.refusal(network, "sstmac") == (
        f"{network.path}: sstmac's clock holds less than 1844 s (uint64 ticks of 100 as): {what} cannot be given to it")
    assert simulators.refusal(network, "simgrid") is None  # SimGrid's clock is a double


def test_a_network_time_just_under_the_bound_is_given(network_file):
    network = networks.load(network_file("torus-4x4x4"), ["nic_message_overhead=1843"])
    assert simulators.refusal(network, "sstmac") is None


def test_simulate_refuses_it_in_one_line_before_anything_runs(repo, network_file, tmp_path):
    trace = tmp_path / "run.trace"
    trace.mkdir()
    (trace / "dumpi-x.meta").write_text("hostname=h\nnumprocs=1\nfileprefix=dumpi-x\n")
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", str(trace), "--network",
                           network_file("torus-4x4x4"), "--simulator", "sstmac", "--set", "nic_message_overhead=1e4",
                           "--build", str(tmp_path)], capture_output=True, text=True, timeout=60, cwd=repo,
                          env=dict(os.environ, PYTHONPATH=TOOLS))
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "nic_message_overhead = 10000 s cannot be given" in lines[0]


def summary(*compute):
    return {"ranks": list(range(len(compute))), "per_rank": [{"compute_seconds": c} for c in compute]}


def test_a_trace_whose_compute_reaches_the_bound_is_refused():
    sstmac.check_clock(summary(1800.0, 1843.9))  # just under: replayed
    with pytest.raises(UsageError, match="rank 1 of the trace computes 1900 s, and SST-macro's clock holds less "
                                         "than 1844 s of simulated time"):
        sstmac.check_clock(summary(950.0, 1900.0))


def test_a_replay_that_ended_before_its_compute_wrapped_round():
    sstmac.check_wrapped(summary(1800.0, 1800.0), 1801.2)
    with pytest.raises(SimulatorError, match="sstmac's clock passed its 1844 s bound and wrapped round: it ended at "
                                             "55.3 s, before rank 0's 1800 s of compute"):
        sstmac.check_wrapped(summary(1800.0, 1700.0), 55.3)


@pytest.mark.parametrize("code, text", [(-6, "killed by SIGABRT"), (-9, "killed by SIGKILL"), (134, "exit 134"),
                                        (1, "exit 1"), (-200, "killed by signal 200")])
def test_a_simulator_killed_by_a_signal_is_named_by_it(code, text):
    assert exit_text(code) == text


def test_sstmacs_abort_is_named_sigabrt():
    with pytest.raises(SimulatorError, match=r"sstmac failed \(killed by SIGABRT\): TimeDelta out of bounds"):
        sstmac.sstmac_prediction(-6, "", ["TimeDelta out of bounds"])


@pytest.mark.parametrize("failures, line", [
    ({"runs": 0, "calibrations": 0, "syntheses": 0, "simulations": 2},
     "study: 2 simulations failed; call again to retry them (finished runs are skipped)"),
    ({"runs": 1}, "study: 1 runs failed; call again to retry them (finished runs are skipped)"),
    ({"runs": 1, "syntheses": 1, "simulations": 3, "predictions": 1},
     "study: 1 runs, 1 syntheses, 3 simulations, 1 predictions failed; call again to retry them (finished runs are "
     "skipped)"),
    ({"runs": 0, "simulations": 0}, None),
])
def test_a_study_names_what_failed_by_kind(failures, line):
    from amp_tools.study import failure_line
    assert failure_line(failures) == line
