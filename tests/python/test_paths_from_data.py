# SPDX-License-Identifier: BSD-3-Clause
"""Names from data never become paths unchecked: a grep-level check over every module of
amp_tools. Each path the tools build with os.path.join may interpolate only constants, names that passed
the one sanitizer (amp_tools.file_names: `component`, `output_path`), or a value listed in SAFE with the
reason it cannot hold a separator, '..' or a control character. A new path built from any other text
fails here until it goes through file_names or earns its line in SAFE."""
import ast
import glob
import os

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "amp_tools")

# What may stand in a path as it is, and why.
SAFE = {
    "LOCK": "a constant of study_folder",
    "MODEL_FILE": "a constant of study_compute_model",
    "SOURCE": "a constant of simgrid_export",
    "os.getpid()": "a number",
    "stamp": "study_folder's time stamp, digits and '-'",
    "n": "a counter (study_folder's -N suffix) or a network name checked in predict_at_scale against inputs/networks",
    "study.name": "Study checks it against [A-Za-z0-9_.-]+ when the file is read, and a stamp follows it",
    "proxy": "checked against study.PROXIES / proxy_command's choices (ghost, sage, nobel, micro)",
    "r['id']": "a run id: Study.runs joins the proxy, file_names.component parts and numbers",
    "run['id']": "a run id, as r['id']",
    "baseline['id']": "a run id, as r['id']",
    "network.label": "networks.Network.label: file_names.component of the name, and 8 hex digits",
    "network.topology": "networks.load checks it is one of networks.TOPOLOGIES",
    "simulator": "argparse choices simgrid, sstmac",
    "speed_text(host_speed)": "a number's text",
    "rank": "an int",
    "kind": "schemas.kind_of's answer: one of the fixed schema names of docs/schema/",
    "group": "an int (a dragonfly group)",
    "glob.escape(prefix)": "a trace's own .meta name, read from its folder (an input, never written)",
    "entry": "a name os.listdir gave of the runs folder (an input)",
    "path": "a deck or network file the user named (an input, read)",
    "deck": "a deck file the user named (an input, read)",
    "'build-openmpi' if mpi_flavour() == 'openmpi' else 'build'": "one of two constants",
    "*(component(part) for part in parts)": "file_names.output_path itself",
    "FIRST_STEP_FOLDER": "a constant of steady_state",
    "*([FIRST_STEP_FOLDER] if run.get('first_step') else [])": "the constant FIRST_STEP_FOLDER or nothing",
    "existing_trace": "steady_state.companion: the name of an existing trace folder (an input, read)",
    "existing_file": "steady_state.companion: the name of an existing simulation file (an input, read)",
    "opts.source or ''": "validation_summary: a summary file that a marker of VALIDATION.md names (an input, read)",
    "SUMMARY_FOLDER": "a constant of validation_summary",
    "record": "a calibration record a study's compute_seconds names (an input, read)",
    "network_file": "the network file a calibration record declares (an input, read)",
    "case": "conformance_traces.trace checks it is one of its NAMES",
}
SANITIZED = ("component(", "file_names.component(", "output_path(", "file_names.output_path(")


def interpolated(node):
    """The non-constant parts of one argument of a path: an f-string's values, a sum's terms, or itself."""
    if isinstance(node, ast.Constant):
        return []
    if isinstance(node, ast.JoinedStr):
        return [ast.unparse(v.value) for v in node.values if isinstance(v, ast.FormattedValue)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return interpolated(node.left) + interpolated(node.right)
    return [ast.unparse(node)]


def unchecked_parts(source):
    """(line, text) of every part of an os.path.join past its first argument that is neither constant,
    sanitized nor listed in SAFE."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "os.path.join":
            for argument in node.args[1:]:
                for part in interpolated(argument):
                    escaped = part.startswith("glob.escape(")
                    bare = part.removeprefix("glob.escape(").removesuffix(")") if escaped else part
                    if part not in SAFE and not bare.startswith(SANITIZED):
                        found.append((node.lineno, part))
    return found


def test_every_path_the_tools_build_interpolates_only_checked_names():
    problems = []
    for path in sorted(glob.glob(os.path.join(TOOLS, "*.py"))):
        with open(path) as f:
            problems += [f"{os.path.basename(path)}:{line}: {part}" for line, part in unchecked_parts(f.read())]
    assert not problems, "paths built from unchecked text (use amp_tools.file_names):\n" + "\n".join(problems)


def test_the_check_finds_a_name_from_data_in_a_path():
    """The check itself can fail: a figure named after a results file's proxy, as report once did."""
    source = 'import os\nos.path.join(out_dir, f"{run[\'proxy\']}-breakdown.png")\n'
    assert unchecked_parts(source) == [(2, "run['proxy']")]
    assert unchecked_parts('import os\nos.path.join(d, file_names.component(name) + ".png")\n') == []
