# SPDX-License-Identifier: BSD-3-Clause
"""Every program of amp_tools (a module with a `__main__` block or a main()) answers --help with its usage
and exit 0, and bad input with one `NAME: error: ...` line and exit 2, never a traceback. The
programs are found by reading the package's folder, so that a new one cannot be left out."""
import json
import os
import re
import subprocess
import sys

import pytest

import amp_tools

PACKAGE = os.path.join(amp_tools.PACKAGE_PARENT, "amp_tools")
RUNNABLE = re.compile(r"^(if __name__ == ['\"]__main__['\"]:|def main\()", re.MULTILINE)


def runnable_modules():
    names = []
    for entry in sorted(os.listdir(PACKAGE)):
        if entry.endswith(".py"):
            with open(os.path.join(PACKAGE, entry)) as f:
                if RUNNABLE.search(f.read()):
                    names.append(entry[:-len(".py")])
    return names


def run(module, *args, stdin=""):
    return subprocess.run([sys.executable, "-m", f"amp_tools.{module}", *args], input=stdin, capture_output=True,
                          text=True, env=amp_tools.module_environment(), timeout=60)


def assert_refused(done, module):
    """Exit 2, and stderr exactly one `MODULE: error: ...` line."""
    assert "Traceback" not in done.stderr
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(f"{module}: error: "), done.stderr


def test_the_programs_are_found_in_the_package():
    assert {"compare_runs", "machine_load", "launcher_banners", "simgrid_routes", "simulate", "study",
            "report"} <= set(runnable_modules())
    assert "whole_file" not in runnable_modules()


@pytest.mark.parametrize("module", runnable_modules())
def test_help_prints_the_usage_and_exits_0(module):
    done = run(module, "--help")
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout.lower()


@pytest.mark.parametrize("module", runnable_modules())
def test_an_unknown_option_is_one_line_and_exit_2(module):
    done = run(module, "--no-such-option")
    assert "Traceback" not in done.stderr
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.fixture
def ghost_results(report_fixtures, tmp_path):
    """A copy of a real amp-ghost results file, with a function that writes a changed copy."""
    with open(os.path.join(report_fixtures, "ghost-bspma-np2-rep1.json")) as f:
        run = json.load(f)

    def changed(name, change=lambda r: r):
        data = json.loads(json.dumps(run))
        path = tmp_path / name
        path.write_text(json.dumps(change(data)))
        return str(path)
    return changed


def set_step_seconds(run, value):
    run["timing"]["per_step_seconds"] = value
    return run


@pytest.mark.parametrize("case", ["missing", "junk", "folder", "fifo", "list", "string step", "no bytes"])
def test_compare_runs_refuses_a_file_that_is_no_run_in_one_line(case, tmp_path, ghost_results):
    good = ghost_results("good.json")
    if case == "missing":
        bad = str(tmp_path / "missing.json")
    elif case == "junk":
        bad = str(tmp_path / "junk.json")
        (tmp_path / "junk.json").write_text("{not json")
    elif case == "folder":
        bad = str(tmp_path)
    elif case == "fifo":
        bad = str(tmp_path / "fifo.json")
        os.mkfifo(bad)
    elif case == "list":
        bad = str(tmp_path / "list.json")
        (tmp_path / "list.json").write_text("[]")
    elif case == "string step":
        bad = ghost_results("string.json", lambda r: set_step_seconds(r, "0.01"))
    else:
        bad = ghost_results("nobytes.json", lambda r: {k: v for k, v in r.items() if k != "bytes"})
    done = run("compare_runs", good, bad)
    assert_refused(done, "compare_runs")
    assert bad in done.stderr
    assert done.stdout == ""


def test_compare_runs_without_files_is_a_usage_error():
    assert_refused(run("compare_runs"), "compare_runs")


def test_compare_runs_prints_the_table_and_a_zero_time_first_run_has_no_ratio(ghost_results):
    zero = ghost_results("zero.json", lambda r: set_step_seconds(r, 0))
    done = run("compare_runs", zero, ghost_results("good.json"))
    assert done.returncode == 0 and done.stderr == ""
    rows = done.stdout.splitlines()
    assert rows[1].split()[:4] == ["bspma", "isend", "0.00", "-"]
    assert rows[-1] == "checksums identical across 2 runs"


def test_compare_runs_leaves_out_a_bad_simulation_with_one_warning(ghost_results, tmp_path):
    good = ghost_results("good.json")
    os.mkdir(tmp_path / "good.trace")
    simulation = tmp_path / "good.trace" / "simulation-this-machine-0123abcd-simgrid.json"
    simulation.write_text("[]")
    done = run("compare_runs", good)
    assert done.returncode == 0
    assert done.stderr.startswith("compare_runs: warning: ") and len(done.stderr.splitlines()) == 1
    assert "sim ms/step" not in done.stdout


def test_machine_load_refuses_a_missing_file_and_passes_a_run(ghost_results, tmp_path):
    assert_refused(run("machine_load", str(tmp_path / "missing.json")), "machine_load")
    assert_refused(run("machine_load"), "machine_load")
    done = run("machine_load", ghost_results("good.json"))
    assert (done.returncode, done.stderr) == (0, "")


def test_launcher_banners_refuses_arguments_and_filters_stdin():
    assert_refused(run("launcher_banners", "extra"), "launcher_banners")
    done = run("launcher_banners", stdin="a line\n")
    assert (done.returncode, done.stdout) == (0, "a line\n")


@pytest.mark.parametrize("stdin", ["", "   \n", "{junk", "[]", '{"pairs":5}', '{"platform":"p.xml","pairs":5}',
                                   '{"platform":"p.xml","pairs":[["n0"]]}'])
def test_simgrid_routes_refuses_a_request_of_another_form_in_one_line(stdin):
    assert_refused(run("simgrid_routes", stdin=stdin), "simgrid_routes")


@pytest.mark.skipif(subprocess.run([sys.executable, "-c", "import simgrid"], capture_output=True).returncode != 0,
                    reason="no python3-simgrid for this python3")
def test_simgrid_routes_refuses_a_host_the_platform_lacks(tmp_path):
    platform = tmp_path / "p.xml"
    platform.write_text("<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">"
                        "<host id=\"n0\" speed=\"1Gf\"/><host id=\"n1\" speed=\"1Gf\"/>"
                        "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>"
                        "<route src=\"n0\" dst=\"n1\"><link_ctn id=\"l\"/></route></zone></platform>\n")
    request = {"platform": str(platform), "pairs": [["n0", "n1"]]}
    done = run("simgrid_routes", stdin=json.dumps(request))
    assert done.returncode == 0 and json.loads(done.stdout)["routes"] == [["l"]]
    done = run("simgrid_routes", stdin=json.dumps(dict(request, pairs=[["n0", "n9"]])))
    assert_refused(done, "simgrid_routes")
    assert "no host 'n9'" in done.stderr


def test_compare_runs_read_in_part_ends_without_a_traceback(ghost_results):
    """`compare_runs ... | head -1`: the reader closes the pipe after one line."""
    good = ghost_results("good.json")
    table = subprocess.Popen([sys.executable, "-m", "amp_tools.compare_runs"] + [good] * 2000, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=amp_tools.module_environment())
    table.stdout.readline()
    table.stdout.close()
    assert b"Traceback" not in table.stderr.read()
    table.wait(timeout=60)
