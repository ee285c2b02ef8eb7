# SPDX-License-Identifier: BSD-3-Clause
"""The JSON Schemas of AMP's files (docs/schema/, amp_tools.schemas): each accepts a real file of its kind
(tests/python/fixtures/schemas: written by the proxies, amp-micro, amp-trace, ./amp simulate and a study,
with schema_version added) and refuses it broken: a key a reader needs removed, a value of the wrong type
or out of range, each named in one line."""
import copy
import json
import math
import os

import jsonschema
import pytest

import amp_tools
from amp_tools import results
from amp_tools import schemas

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "schemas")
GONE = object()  # a break that removes the key

# Each fixture file and the kind it is.
FIXTURE_KINDS = {
    "results-ghost.json": "results", "results-sage.json": "results", "results-nobel.json": "results",
    "results-failed-verification.json": "results", "results-synthesis.json": "results-synthesis",
    "results-plan-only.json": "results-plan-only", "micro-results.json": "micro-results",
    "combinations.json": "combinations", "ghost-bspma-np2-rep1.trace-stats.json": "trace-stats",
    "trace-check.json": "trace-check", "simulation-torus-4x4x4-8b192a7b-simgrid.json": "simulation",
    "export.json": "simgrid-export", "runs.json": "study-runs",
    "ghost-quick-bspma-isend-np2-rep1.outcome.json": "study-outcome", "compute_model.json": "study-compute-model",
    "validation-summary.json": "validation-summary", "source.json": "simgrid-export-source",
    "calibration-record.json": "calibration-record",
}

# A proxy's results are at their own schema_version; every other kind at amp_tools.SCHEMA_VERSION.
RESULTS_KINDS = ("results", "results-synthesis", "results-plan-only")


def version_of(kind):
    return amp_tools.RESULTS_SCHEMA_VERSION if kind in RESULTS_KINDS else amp_tools.SCHEMA_VERSION


# (fixture, where in it, what it becomes: GONE removes it) -> a file its readers could not use.
BREAKS = [
    ("results-ghost.json", ("timing", "per_step_seconds"), GONE),
    ("results-ghost.json", ("timing", "mpi_wait"), GONE),
    ("results-ghost.json", ("timing", "compute", "avg"), "0.1"),
    ("results-ghost.json", ("checksum",), 123),
    ("results-ghost.json", ("checksum",), "not hex"),
    ("results-ghost.json", ("config", "strategy"), GONE),
    ("results-ghost.json", ("config", results.OLD_STRATEGY), "bspma"),  # version 1's second key: not in 2
    ("results-synthesis.json", ("config", results.OLD_STRATEGY), "bspma"),
    ("results-ghost.json", ("config", "num_tsteps"), 0),
    ("results-ghost.json", ("config", "process_grid"), [1, 2]),
    ("results-ghost.json", ("verification", "passed"), "yes"),
    ("results-ghost.json", ("messages", "size_histogram", 0, "count"), -1),
    ("results-ghost.json", ("messages", "total"), 8.5),
    ("results-ghost.json", ("bytes", "per_step_per_rank"), GONE),
    ("results-ghost.json", ("fom", "gflops"), None),
    ("results-ghost.json", ("machine_load", "cores"), 0),
    ("results-ghost.json", ("machine_load",), GONE),
    ("results-ghost.json", ("ranks",), True),
    ("results-ghost.json", ("proxy",), "amp-other"),
    ("results-ghost.json", ("unknown_key",), 1),
    ("results-sage.json", ("partition",), GONE),
    ("results-nobel.json", ("amr",), GONE),
    ("results-nobel.json", ("verification", "balanced_2to1"), GONE),
    ("results-synthesis.json", ("synthesis", "compute_model", "steps"), []),
    ("results-synthesis.json", ("synthesis", "trace_bytes"), GONE),
    ("results-synthesis.json", ("mode",), "synth"),
    ("results-plan-only.json", ("links",), "4"),
    ("results-plan-only.json", ("owned_cells",), "many"),
    ("results-plan-only.json", ("send_pieces",), GONE),
    ("micro-results.json", ("rows", 0, "verified"), "true"),
    ("micro-results.json", ("benchmark",), "nonesuch"),
    ("micro-results.json", ("run", "ranks"), GONE),
    ("combinations.json", ("combinations", 0, "fits"), "yes"),
    ("combinations.json", ("transports",), GONE),
    ("ghost-bspma-np2-rep1.trace-stats.json", ("matrix_bytes", 0, 0), -1),
    ("ghost-bspma-np2-rep1.trace-stats.json", ("per_rank",), GONE),
    ("trace-check.json", ("counts", "no_such_finding"), 1),
    ("trace-check.json", ("total",), 1.5),
    ("simulation-torus-4x4x4-8b192a7b-simgrid.json", ("predicted_seconds",), 0),
    ("simulation-torus-4x4x4-8b192a7b-simgrid.json", ("network_key",), "xyz"),
    ("simulation-torus-4x4x4-8b192a7b-simgrid.json", ("simulator",), "ns3"),
    ("simulation-torus-4x4x4-8b192a7b-simgrid.json", ("measured_seconds",), "none"),
    ("simulation-torus-4x4x4-8b192a7b-simgrid.json", ("profile",), GONE),
    ("simulation-torus-4x4x4-8b192a7b-simgrid.json", ("nics", "per_nic_bytes"), "many"),
    ("simulation-torus-4x4x4-8b192a7b-simgrid.json", ("links",), GONE),
    ("export.json", ("smpirun_cfg",), GONE),
    ("export.json", ("per_rank", 0, "actions"), None),
    ("runs.json", ("runs",), []),
    ("runs.json", ("runs", 0, "ranks"), "2"),
    ("runs.json", ("runs", 0, "id"), "../escape"),
    ("ghost-quick-bspma-isend-np2-rep1.outcome.json", ("trace",), "maybe"),
    ("ghost-quick-bspma-isend-np2-rep1.outcome.json", ("exit_code",), "0"),
    ("compute_model.json", ("node", "scale"), 0),
    ("compute_model.json", ("models",), []),
    ("source.json", ("files",), {}),
    ("source.json", ("files", "dumpi-2026.11.29.08.15.05.meta"), [294]),
    ("calibration-record.json", ("rounds", 0, "compute_percent"), 120),
    ("calibration-record.json", ("kind",), "calibration"),
    ("validation-summary.json", ("points",), []),
    ("validation-summary.json", ("points", 0, "per_step_seconds"), GONE),
    ("validation-summary.json", ("points", 1, "profile", "p2p"), "12 %"),
]


def fixture(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return json.load(f)


def broken(doc, where, value):
    """A copy of `doc` with the value at `where` (keys and indexes) replaced, or removed for GONE."""
    doc = copy.deepcopy(doc)
    parent = doc
    for part in where[:-1]:
        parent = parent[part]
    if value is GONE:
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    return doc


def test_every_kind_has_a_schema_and_a_real_file():
    assert sorted(set(FIXTURE_KINDS.values())) == sorted(schemas.KINDS)
    assert sorted(os.listdir(FIXTURES)) == sorted(FIXTURE_KINDS)
    assert sorted(f[:-len(".schema.json")] for f in os.listdir(schemas.SCHEMA_FOLDER)) == sorted(schemas.KINDS)


@pytest.mark.parametrize("kind", schemas.KINDS)
def test_each_schema_is_a_schema_that_requires_its_version(kind):
    schema = schemas.schema(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "schema_version" in schema["required"]
    assert schema["properties"]["schema_version"]["const"] == version_of(kind)


@pytest.mark.parametrize("name", sorted(FIXTURE_KINDS))
def test_each_real_file_is_of_its_kind_and_fits_its_schema(name):
    doc = fixture(name)
    assert schemas.kind_of(doc, os.path.join("some", "folder", name)) == FIXTURE_KINDS[name]
    schemas.validate(doc, FIXTURE_KINDS[name])


@pytest.mark.parametrize("name", sorted(FIXTURE_KINDS))
def test_a_file_without_its_schema_version_is_refused(name):
    doc = broken(fixture(name), ("schema_version",), GONE)
    with pytest.raises(schemas.SchemaError, match="'schema_version' is a required property"):
        schemas.validate(doc, FIXTURE_KINDS[name])
    wanted = version_of(FIXTURE_KINDS[name])
    with pytest.raises(schemas.SchemaError, match=f"at /schema_version: {wanted} was expected"):
        schemas.validate(broken(doc, ("schema_version",), wanted + 1), FIXTURE_KINDS[name])


@pytest.mark.parametrize("name,where,value", BREAKS,
                         ids=lambda v: "-".join(map(str, v)) if isinstance(v, tuple) else None)
def test_a_broken_file_is_refused_in_one_line_naming_where(name, where, value):
    doc = broken(fixture(name), where, value)
    with pytest.raises(schemas.SchemaError) as refused:
        schemas.validate(doc, FIXTURE_KINDS[name])
    line = str(refused.value)
    assert "\n" not in line and len(line) <= schemas.MOST_SHOWN + 3
    parent = "/" + "/".join(map(str, where[:-1]))
    assert line.startswith(f"at {parent}"), line  # the key's place, or its parent's where it is missing


def test_the_old_list_of_runs_is_refused():
    with pytest.raises(schemas.SchemaError, match="is not of type 'object'"):
        schemas.validate(fixture("runs.json")["runs"], "study-runs")


def test_kinds_are_told_by_name_and_contents():
    run = fixture("results-ghost.json")
    assert schemas.kind_of(run, "anything.json") == "results"
    assert schemas.kind_of(run, "x.outcome.json") == "study-outcome"  # the name decides for a study's file
    assert schemas.kind_of(fixture("micro-results.json"), "compute-model-stream.json") == "micro-results"
    synthesis = fixture("results-synthesis.json")
    assert schemas.kind_of(synthesis, "compute-model-ghost-bspma-synth4.json") == "results-synthesis"
    old_source = {"dumpi.meta": [1, 2]}  # an export's record as written before it had a schema_version
    assert schemas.kind_of(old_source, "source.json") == "simgrid-export-source"
    with pytest.raises(schemas.SchemaError, match="'schema_version' is a required property"):
        schemas.validate(old_source, "simgrid-export-source")
    assert schemas.kind_of([1, 2], "numbers.json") is None
    with pytest.raises(schemas.SchemaError, match="no schema for files of kind 'nonesuch'"):
        schemas.validate(run, "nonesuch")


def write(tmp_path, name, doc, text=None):
    path = tmp_path / name
    path.write_text(text if text is not None else json.dumps(doc))
    return str(path)


def test_nan_is_no_json(tmp_path):
    doc = broken(fixture("results-ghost.json"), ("timing", "per_step_seconds"), math.nan)
    path = write(tmp_path, "run.json", None, json.dumps(doc))
    with pytest.raises(schemas.command_line.BadInput, match="is not JSON .*NaN is no JSON number"):
        schemas.read(path)


def test_the_command_says_each_invalid_file_in_one_line(tmp_path, capsys):
    good = write(tmp_path, "good.json", fixture("results-ghost.json"))
    bad = write(tmp_path, "bad.json", broken(fixture("results-ghost.json"), ("checksum",), 1))
    stranger = write(tmp_path, "stranger.json", {"hello": 1})
    assert schemas.main([good]) == 0
    assert capsys.readouterr().out == "schemas: 1 file valid\n"
    assert schemas.main([good, bad, stranger, str(tmp_path / "missing.json")]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines == [f"schemas: {bad}: not a valid results file (docs/schema/results.schema.json): "
                     "at /checksum: 1 is not of type 'string'",
                     f"schemas: {stranger}: of no kind AMP writes (see docs/schema/)",
                     f"schemas: '{tmp_path / 'missing.json'}': no such file"]


def test_the_command_without_files_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        schemas.main([])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


CHECK_TREE = os.path.join(os.path.dirname(FIXTURES), "..", "..", "common", "test_json_outputs.py")


def check_tree(tmp_path, *args, every_kind=False):
    """test_json_outputs.py (the CTest test schemas_validate_every_json_written) on tmp_path/tree."""
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(schemas.__file__)),
               AMP_SCHEMAS_EVERY_KIND="1" if every_kind else "0")
    code = tmp_path / "code" / "writer"  # what writes the files, changed at time 100
    code.parent.mkdir(exist_ok=True)
    code.write_text("")
    os.utime(code, (100, 100))
    command = [sys.executable, CHECK_TREE, "--tree", str(tmp_path / "tree"), "--code", str(code.parent), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    return done.returncode, done.stdout.splitlines()


def test_the_tree_check_fails_on_any_invalid_or_unknown_file(tmp_path):
    tree = tmp_path / "tree" / "driver" / "work"
    tree.mkdir(parents=True)
    (tree / "run.json").write_text(json.dumps(fixture("results-ghost.json")))
    (tree / "machine.json").write_text("{}")  # a simulation's machine: no results
    assert check_tree(tmp_path) == (0, ["schemas: 1 files checked (results 1); 1 passed over; 0 problems"])
    (tree / "bad.outcome.json").write_text(json.dumps({"schema_version": 1, "exit_code": 0, "trace": "none"}))
    (tree / "notes.json").write_text("{}")
    status, lines = check_tree(tmp_path)
    assert status == 1 and lines[-1] == "schemas: 1 files checked (results 1); 1 passed over; 2 problems"
    assert "bad.outcome.json: not a valid study-outcome file" in lines[0] and "'shared_cores'" in lines[0]
    assert "notes.json: of no kind AMP writes" in lines[1]
    assert check_tree(tmp_path, "--except", "driver/work")[0] == 0  # a folder of hand-made inputs


def test_the_tree_check_passes_over_stale_files_and_fixture_copies(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "stale.json").write_text("{}")
    os.utime(tree / "stale.json", (0, 0))  # older than the code: from an earlier build
    copied = tmp_path / "source" / "fixtures"
    copied.mkdir(parents=True)
    (copied / "old-run.json").write_text('{"proxy": "amp-ghost"}')
    (tree / "old-run.json").write_text('{"proxy": "amp-ghost"}')
    assert check_tree(tmp_path, "--fixtures", str(tmp_path / "source")) == (
        0, ["schemas: 0 files checked (none); 2 passed over; 0 problems"])


def test_the_whole_suite_must_write_every_expected_kind(tmp_path):
    (tmp_path / "tree").mkdir()
    (tmp_path / "tree" / "run.json").write_text(json.dumps(fixture("results-ghost.json")))
    assert check_tree(tmp_path, "--expect", "results", "simulation")[0] == 0
    status, lines = check_tree(tmp_path, "--expect", "results", "simulation", every_kind=True)
    assert status == 1
    assert lines[0] == "schemas: no simulation file was written (the whole suite ran: AMP_SCHEMAS_EVERY_KIND=1)"
