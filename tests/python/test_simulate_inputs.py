# SPDX-License-Identifier: BSD-3-Clause
"""`./amp simulate`'s inputs and what it says: --timeout, --calibrate's --output, a FIFO .meta,
AMP_SSTMAC, the kept export's checks, the temporary folder smpirun is given, and the measured comparison."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import pytest

from amp_tools import calibrate
from amp_tools import measured_comparison
from amp_tools import networks
from amp_tools import simgrid_export
from amp_tools import simulate
from amp_tools.simulators import sstmac
from amp_tools import simulator_process
from amp_tools.simulate_errors import UsageError


def run_simulate(repo, *arguments, env=None):
    """simulate as a process, as the driver runs it; (exit code, its output lines)."""
    done = subprocess.run([sys.executable, "-m", "amp_tools.simulate", *arguments], capture_output=True, text=True,
                          timeout=30, cwd=repo,
                          env=dict(os.environ, PYTHONPATH=os.path.join(repo, "tools"), **(env or {})))
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


@pytest.mark.parametrize("given", ["-1", "0", "nan", "inf", "1e300", "x"])
def test_timeout_must_be_a_positive_number_of_seconds(repo, network_file, tmp_path, given):
    code, lines = run_simulate(repo, str(tmp_path), "--network", network_file("torus-4x4x4"), "--build", str(tmp_path),
                               "--timeout", given)
    assert code == 2 and len(lines) == 1 and "--timeout: must be a positive number of seconds" in lines[0], lines


def test_timeout_default_is_half_an_hour():
    assert simulate.seconds("1800") == simulate.DEFAULT_TIMEOUT == 1800 and simulate.seconds("0.5") == 0.5


@pytest.mark.parametrize("output", ["", "  "])
def test_calibrate_refuses_an_empty_output(repo, tmp_path, output):
    code, lines = run_simulate(repo, "--calibrate", "--output", output, "--build", str(tmp_path), "--root",
                               str(tmp_path))
    assert code == 2 and lines == ["amp simulate: error: --output is empty: give the network file to write (or leave "
                                   "--output out for inputs/networks/this-machine.toml)"]
    assert os.listdir(tmp_path) == []  # no inputs/networks/this-machine.toml


def test_calibrate_refuses_a_symlink_output(repo, tmp_path):
    link = tmp_path / "machine.toml"
    link.symlink_to(tmp_path / "nowhere.toml")
    code, lines = run_simulate(repo, "--calibrate", "--output", str(link), "--build", str(tmp_path))
    assert code == 2 and lines == [f"amp simulate: error: {link}: is a symbolic link; give the file itself (a "
                                   f"calibration never writes through a link)"]
    assert sorted(os.listdir(tmp_path)) == ["machine.toml"] and not link.exists()


def test_a_fifo_meta_is_refused_not_read(repo, network_file, tmp_path):
    trace = tmp_path / "run.trace"
    trace.mkdir()
    os.mkfifo(trace / "dumpi-x.meta")
    code, lines = run_simulate(repo, str(trace), "--network", network_file("torus-4x4x4"), "--build", str(tmp_path))
    assert code == 2 and lines == [f"amp simulate: error: {trace}/dumpi-x.meta: not a regular file (a trace's files "
                                   f"are read whole)"]


def test_a_fifo_bin_is_refused(tmp_path):
    (tmp_path / "dumpi-x.meta").write_text("hostname=h\n")
    os.mkfifo(tmp_path / "dumpi-x-0000.bin")
    with pytest.raises(UsageError, match="dumpi-x-0000.bin: not a regular file"):
        simgrid_export.trace_files(str(tmp_path))


def test_sstmac_must_be_an_executable_file(tmp_path, monkeypatch):
    monkeypatch.setenv("AMP_SSTMAC", str(tmp_path))  # a directory: "executable", not a program
    with pytest.raises(UsageError, match="needs AMP_SSTMAC to name an sstmac executable file"):
        sstmac.sstmac_executable()


SUMMARY = {"ranks": [0, 1], "actions": 10, "bytes": 80, "messages": 2, "synthesized": True,
           "per_rank": [{"compute_seconds": 0}, {"compute_seconds": 0}], "recorded_seconds": 0,
           "smpirun_cfg": ["--cfg=smpi/allgather:rdb"]}


@pytest.fixture
def kept_export(tmp_path):
    """(trace folder, its export folder, an amp-trace older than the export) of a whole kept export."""
    trace = tmp_path / "trace"
    trace.mkdir()
    (trace / "dumpi-x.meta").write_text("hostname=h\n")
    (trace / "dumpi-x-0000.bin").write_bytes(b"0" * 10)
    out = trace / "simgrid-ti-1e+09"
    out.mkdir()
    (out / "export.json").write_text(json.dumps(SUMMARY))
    simgrid_export.record_source(str(out), simgrid_export.trace_files(str(trace)))
    amp_trace = tmp_path / "amp-trace"
    amp_trace.write_text("")
    os.utime(amp_trace, (0, 0))
    return str(trace), str(out), str(amp_trace)


def test_a_whole_export_of_this_trace_is_kept(kept_export):
    trace, out, amp_trace = kept_export
    assert simgrid_export.kept_summary(out, amp_trace, simgrid_export.trace_files(trace)) == SUMMARY


@pytest.mark.parametrize("junk", ["junk{", '{"x": 1}', "[]", '{"ranks": "x"}',
                                  json.dumps(dict(SUMMARY, ranks=[])), json.dumps(dict(SUMMARY, actions=True))])
def test_a_bad_export_json_is_not_trusted(kept_export, junk):
    trace, out, amp_trace = kept_export
    with open(os.path.join(out, "export.json"), "w") as f:
        f.write(junk)
    assert simgrid_export.kept_summary(out, amp_trace, simgrid_export.trace_files(trace)) is None


def test_an_export_of_a_replaced_trace_is_not_kept(kept_export):
    trace, out, amp_trace = kept_export
    with open(os.path.join(trace, "dumpi-x-0000.bin"), "ab") as f:
        f.write(b"more steps")
    assert simgrid_export.kept_summary(out, amp_trace, simgrid_export.trace_files(trace)) is None


def test_an_export_without_its_source_is_not_kept(kept_export):
    trace, out, amp_trace = kept_export
    os.remove(os.path.join(out, simgrid_export.SOURCE))
    assert simgrid_export.kept_summary(out, amp_trace, simgrid_export.trace_files(trace)) is None


def test_smpirun_gets_a_temporary_folder_without_a_space(tmp_path, monkeypatch):
    spaced = tmp_path / "with space"
    spaced.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spaced))
    folder = simulate.unsplit_temporary_folder()
    assert " " not in folder and os.access(folder, os.W_OK)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert simulate.unsplit_temporary_folder() == str(tmp_path)


def test_an_absurd_error_is_printed_short():
    assert measured_comparison.percent(0.0123, 0.0131) == "-6.1%"
    assert measured_comparison.percent(1.2e301, 8e-5) == "+1.5e+307%"


def calibration(tmp_path, host=None):
    """A network file written by --calibrate on this host, its host line changed to `host` if given."""
    path = str(tmp_path / "this-machine.toml")
    calibrate.write_calibration(argparse.Namespace(output=path, replace=True, cores=2), [{"bytes": 8}], 1e-6, 5e9, None)
    if host:
        with open(path) as f:
            text = f.read().replace(calibrate.HOST_LINE + calibrate.this_host(), calibrate.HOST_LINE + host)
        with open(path, "w") as f:
            f.write(text)
    return path


def meta(tmp_path, host):
    path = tmp_path / "dumpi-x.meta"
    path.write_text(f"hostname={host}\nnumprocs=2\n")
    return str(path)


def test_measured_is_compared_only_on_a_calibration_of_the_recorded_host(tmp_path, network_file):
    here = meta(tmp_path, calibrate.this_host())
    assert calibrate.calibrated_host(calibration(tmp_path)) == calibrate.this_host()
    assert measured_comparison.comparison(0.02, 0.01, calibration(tmp_path), here) == ", measured 0.01 s (+100.0%)"
    assert measured_comparison.comparison(0.02, 0.01, network_file("dragonfly-1024"), here) == ""
    assert measured_comparison.comparison(0.02, 0.01, calibration(tmp_path, "elsewhere"), here) == ""
    assert measured_comparison.comparison(0.02, None, calibration(tmp_path), here) == ""


def test_more_ranks_than_cores_is_warned_of(tmp_path):
    load = {"cores": 2, "other_cpu_seconds": 0.0, "wall_seconds": 1.0}
    for ranks, warned in ((4, True), (2, False)):
        (tmp_path / "run.json").write_text(json.dumps({"ranks": ranks, "machine_load": load}))
        text = measured_comparison.shared_cores(str(tmp_path / "run.trace"))
        assert (text is not None and "its 4 ranks ran on 2 cores" in text) if warned else text is None


def test_a_silent_simulator_is_ended_on_time():
    """--timeout holds for a simulator that prints nothing: it was checked only when a line came."""
    started = time.monotonic()
    with pytest.raises(simulator_process.SimulatorTimedOut, match="ran past 1 s"):
        simulator_process.run_simulator(["bash", "-c", "sleep 20"], "/tmp", 1, on_line=lambda line: False)
    assert time.monotonic() - started < 10


def test_the_latest_simulation_of_a_network_with_an_unsafe_name_is_found(tmp_path, repo, network_file):
    """A network's output name is made safe (file_names.component); the search for it uses the same name."""
    network = networks.load(network_file("torus-4x4x4"), ())
    network.name = "my net"
    written = tmp_path / f"simulation-{network.label}-simgrid.json"
    written.write_text("{}")
    assert simulate.latest_simulation(str(tmp_path), "my net", "simgrid") == str(written)


def test_host_speeds_apart_past_the_sixth_digit_get_exports_of_their_own():
    """The export's folder and amp-trace's --host-speed carry the speed exactly ('{:g}' kept 6 digits)."""
    assert simgrid_export.speed_text(1e9) == "1e+09"
    assert simgrid_export.speed_text(1.0000001e9) != simgrid_export.speed_text(1.0000002e9)
    assert float(simgrid_export.speed_text(1.23456789e9)) == 1.23456789e9
