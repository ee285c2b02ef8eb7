#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks AMP's JSON files against their JSON Schemas (docs/schema/, one per kind of file, each with a
`schema_version`): a proxy's results (a run, a --synthesize, a --plan-only), amp-micro's results,
--list-combinations --json, amp-trace's stats --json and check --json, ./amp simulate's simulation
file, a study's runs.json, NAME.outcome.json and compute_model.json, the SimGrid export's
export.json and source.json, and a validation summary (docs/validation/<study>.json). The kind of a
file is told from its name and contents (kind_of); a tool of one's own can
load docs/schema/KIND.schema.json into any JSON Schema (draft 2020-12) validator instead.

Usage: python3 -m amp_tools.schemas FILE.json...
Exit 0 when every file is of a known kind and fits its schema; 1 when one does not (one line per such
file on stderr: the file, its kind and the first problem); 2 for bad usage (one line).
"""
import fnmatch
import json
import os
import sys

from amp_tools import REPOSITORY
from amp_tools import command_line
from amp_tools import results
from amp_tools import simulators

SCHEMA_FOLDER = os.path.join(REPOSITORY, "docs", "schema")
MOST_SHOWN = 160  # characters of a problem's line, past which it is cut

# Kinds told by the file's name alone, and the schema of each kind (docs/schema/KIND.schema.json).
KINDS_BY_NAME = (("runs.json", "study-runs"), ("compute_model.json", "study-compute-model"),
                 ("export.json", "simgrid-export"), ("source.json", "simgrid-export-source"),
                 ("*.outcome.json", "study-outcome"),
                 ("*.trace-stats.json", "trace-stats"),
                 *((f"simulation-*-{name}.json", "simulation") for name in simulators.NAMES))
KINDS = ("results", "results-synthesis", "results-plan-only", "micro-results", "combinations", "trace-stats",
         "trace-check", "simulation", "study-runs", "study-outcome", "study-compute-model", "simgrid-export",
         "simgrid-export-source", "validation-summary", "calibration-record")
PROXY_MODES = {None: "results", "synthesis": "results-synthesis", "plan-only": "results-plan-only"}


class SchemaError(Exception):
    """A file that does not fit its schema, or is of no known kind: one line."""


def kind_of(doc, path=""):
    """The kind (a name in KINDS) of the JSON data `doc` read from `path`, or None for a file of no kind
    AMP writes. The name decides for the study's, the simulation's and the export's files; the contents
    (`proxy`, `mode`, what amp-trace prints) for the rest, whatever their name."""
    name = os.path.basename(path)
    for pattern, kind in KINDS_BY_NAME:
        if fnmatch.fnmatchcase(name, pattern):
            return kind
    if not isinstance(doc, dict):
        return None
    if doc.get("kind") == "calibration-record":  # names its proxy too: told before the results
        return "calibration-record"
    if doc.get("proxy") == "amp-micro":
        return "micro-results"
    if "proxy" in doc and "combinations" in doc:
        return "combinations"
    if "proxy" in doc:
        mode = doc.get("mode")  # any JSON value: a list or a table is no mode (and the results schema says so)
        return PROXY_MODES.get(mode, "results") if mode is None or isinstance(mode, str) else "results"
    if doc.get("kind") == "validation-summary":
        return "validation-summary"
    if "findings" in doc and "counts" in doc:
        return "trace-check"
    if "matrix_bytes" in doc and "point_to_point" in doc:
        return "trace-stats"
    return None


def schema(kind):
    """The JSON Schema of `kind` (docs/schema/KIND.schema.json)."""
    with open(os.path.join(SCHEMA_FOLDER, f"{kind}.schema.json")) as f:
        return json.load(f)


def _validator(kind, cache={}):  # noqa: B006 (one validator per kind, built once)
    if kind not in cache:
        import jsonschema  # Debian: python3-jsonschema; only the programs that check files need it
        cache[kind] = jsonschema.Draft202012Validator(schema(kind))
    return cache[kind]


def problem_line(error):
    """One line for a jsonschema error: where in the file (a JSON pointer), and what is wrong there, with
    the value quoted short (jsonschema's own message quotes it whole)."""
    where = "/" + "/".join(str(part) for part in error.absolute_path)
    message = error.message
    if len(message) > MOST_SHOWN // 2:
        value = repr(error.instance)
        value = value if len(value) <= 40 else value[:40] + "..."
        rule = f"of type {error.validator_value!r}" if error.validator == "type" else \
            f"valid under its {error.validator!r} rule"
        message = f"{value} is not {rule}"
    text = f"at {where}: {message}"
    text = text if len(text) <= MOST_SHOWN else text[:MOST_SHOWN] + "..."
    return "".join(c if c.isprintable() else " " for c in text)


def validate(doc, kind):
    """Returns when `doc` fits the schema of `kind`; raises SchemaError with its first problem otherwise."""
    if kind not in KINDS:
        raise SchemaError(f"no schema for files of kind '{kind}' (kinds: {', '.join(KINDS)})")
    import jsonschema.exceptions
    error = jsonschema.exceptions.best_match(_validator(kind).iter_errors(doc))
    if error is not None:
        raise SchemaError(problem_line(error))


def _not_json(constant):
    raise ValueError(f"{constant} is no JSON number")


def read(path):
    """The data of the JSON file at `path` (command_line.BadInput, one line, where it cannot be read or is
    no JSON); NaN and Infinity, which Python's json would take, are refused as other readers refuse them."""
    if not os.path.isfile(path):
        return results.read(path)  # its one line: no such file, or not a regular file
    try:
        with open(path, "rb") as f:
            return json.loads(f.read(), parse_constant=_not_json)
    except RecursionError:
        raise command_line.BadInput(f"'{path}' is nested more deeply than AMP reads") from None
    except OSError as e:
        raise command_line.BadInput(f"cannot read '{path}': {e.strerror}") from None
    except ValueError as e:  # not JSON, not UTF-8, or NaN / Infinity
        raise command_line.BadInput(f"'{path}' is not JSON ({e})") from None


def checked(path):
    """The kind of the file at `path`, once it fits that kind's schema (SchemaError or BadInput: one line)."""
    doc = read(path)
    kind = kind_of(doc, path)
    if kind is None:
        raise SchemaError(f"{path}: of no kind AMP writes (see docs/schema/)")
    try:
        validate(doc, kind)
    except RecursionError:
        raise SchemaError(f"{path}: nested more deeply than AMP reads") from None
    except SchemaError as e:
        raise SchemaError(f"{path}: not a valid {kind} file (docs/schema/{kind}.schema.json): {e}") from None
    return kind


def main(args):
    parser = command_line.Parser("schemas", __doc__)
    parser.add_argument("files", nargs="+", metavar="FILE.json", help="a JSON file AMP wrote")
    paths = parser.parse_args(args).files
    try:
        import jsonschema  # noqa: F401
    except ImportError:
        command_line.refuse("schemas", "the Python module jsonschema is missing "
                                       "(Debian: apt-get install python3-jsonschema)")
    invalid = 0
    for path in paths:
        try:
            checked(path)
        except (SchemaError, command_line.BadInput) as e:
            print(f"schemas: {e}", file=sys.stderr)
            invalid += 1
    if invalid:
        return 1
    print(f"schemas: {len(paths)} file{'s' if len(paths) != 1 else ''} valid")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
