# SPDX-License-Identifier: BSD-3-Clause
"""The one calibrated number of a seed deck: its `sweeps_per_exchange`, solved so that the deck's simulated
compute share meets the one figure declared for it in a calibration file (inputs/calibration/*.toml, which
says what, on what and how, and is committed before any run of it).

Usage: python3 -m amp_tools.calibrate_share CALIBRATION.toml PROXY [--root DIR] [--record FILE] [--build DIR]

Each round is a point of one study (runs/calibration-PROXY-<stamp>/, resumed by the next call): the seed deck
at the declared strategy, synthesized at the declared ranks over the declared steps and simulated on the
declared network and simulator with its one-step companion, so that the share is a steady step's
(amp_tools.steady_state). The rest of a step relative to its compute at value 1, q(s) = s (1/share - 1), is
interpolated linearly between the two simulated values nearest the target, and the value solving share(s) =
target is simulated next, until one lies within the declared tolerance. Prints every round and the value;
--record writes them as JSON (docs/validation/calibration-PROXY.json). Exit 0 when a value met the
tolerance, 1 when max_rounds passed without one, 2 for a bad calibration file.
"""
import datetime
import json
import os
import re
import subprocess
import sys
import tomllib

import amp_tools
from amp_tools import command_line
from amp_tools import file_names
from amp_tools import launch
from amp_tools import networks
from amp_tools import results
from amp_tools import steady_state
from amp_tools import whole_file

KEYS = {"figure": str, "target_compute_percent": float, "deck": str, "strategy": str, "network": str,
        "simulator": str, "ranks": int, "steps": int, "bracket": list, "tolerance_points": float, "max_rounds": int}
OPTIONAL = {"compute_model_seconds": float}  # a model given to every round (else the first round measures it)
DIGITS = 3  # significant digits of a calibrated value


class CalibrationError(ValueError):
    """A calibration file that cannot be used: one line."""


def declaration(path, proxy):
    """The checked table of `proxy` in the calibration file."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise CalibrationError(f"{path}: {e.strerror if isinstance(e, OSError) else e}") from None
    table = data.get(proxy)
    if not isinstance(table, dict):
        raise CalibrationError(f"{path}: no [{proxy}] table (it has: {', '.join(sorted(data)) or 'none'})")
    for key, kind in KEYS.items():
        value = table.get(key)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = table[key] = float(value)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise CalibrationError(f"{path}: [{proxy}] {key} must be a {kind.__name__} (got {value!r})")
    for key, kind in OPTIONAL.items():
        if key in table and (not isinstance(table[key], (int, float)) or isinstance(table[key], bool)
                             or not 0 < table[key] < 1e3):
            raise CalibrationError(f"{path}: [{proxy}] {key} must be a number of seconds above 0 (got {table[key]!r})")
    unknown = sorted(set(table) - set(KEYS) - set(OPTIONAL))
    if unknown:
        raise CalibrationError(f"{path}: [{proxy}] unknown key {unknown[0]!r} (keys: {', '.join(KEYS)})")
    if not 0 < table["target_compute_percent"] < 100:
        raise CalibrationError(f"{path}: [{proxy}] target_compute_percent must lie between 0 and 100")
    if len(table["bracket"]) < 2 or not all(isinstance(s, (int, float)) and 0 < s <= 1 for s in table["bracket"]):
        raise CalibrationError(f"{path}: [{proxy}] bracket must hold at least two values in (0, 1]")
    for key in ("deck", "network", "strategy", "simulator"):
        if file_names.component(os.path.basename(table[key])) != os.path.basename(table[key]):
            raise CalibrationError(f"{path}: [{proxy}] {key} {table[key]!r} is not a plain name or path")
    return table


def recorded_compute_seconds(path, proxy, stream_per_core, root):
    """The compute seconds per step that the calibration record at `path` gives `proxy` on a node of
    `stream_per_core` bytes/s per core, and a line saying so: the record's model (the seconds of its declared
    network's node) scaled by the two nodes' STREAM triad per core. That is the calibration file's rule: one
    model, the same on every machine, scaled only by each machine's sourced node speed. CalibrationError: one
    line naming what is wrong."""
    try:
        record = results.load(path)
    except (OSError, ValueError) as e:
        raise CalibrationError(f"{path}: {e.strerror if isinstance(e, OSError) else 'not JSON'}") from None
    if not isinstance(record, dict) or record.get("kind") != "calibration-record":
        raise CalibrationError(f"{path}: not a calibration record (its kind is not 'calibration-record')")
    if record.get("proxy") != proxy:
        raise CalibrationError(f"{path}: a calibration record of {record.get('proxy')!r}, not of {proxy!r}")
    model = record.get("compute_model_seconds")
    if isinstance(model, bool) or not isinstance(model, (int, float)) or not model > 0:
        raise CalibrationError(f"{path}: its compute_model_seconds is not a positive number (got {model!r})")
    network_file = (record.get("declared") or {}).get("network")
    if not isinstance(network_file, str):
        raise CalibrationError(f"{path}: names no declared network, so its model's node is unknown")
    try:
        node = networks.load(os.path.join(root, network_file)).stream_per_core
    except networks.NetworkError as e:
        raise CalibrationError(f"{path}: its network: {e}") from None
    if not node or not stream_per_core:
        raise CalibrationError(f"{path}: scaling its model needs stream_per_core in both its network ({network_file}) "
                               "and the study's networks")
    seconds = model * node / stream_per_core
    return seconds, (f"calibration record {path}: {model:.6g} s on {network_file}'s node, "
                     f"x {node / stream_per_core:.4g} "
                     f"(STREAM per core {node / 1e9:.4g} there / {stream_per_core / 1e9:.4g} GB/s on the target)")


def rounded(value):
    return float(f"{value:.{DIGITS}g}")


def solve(points, target):
    """The value s whose share meets `target` (a fraction), from {s: share} (at least two): q(s) = s (1/share -
    1) linear in s between the two values nearest the target in share; share(s) = s / (s + q(s)). None when no
    s in (0, 1] solves it (a share that the rest of the step caps below the target)."""
    nearest = sorted(points, key=lambda s: abs(points[s] - target))[:2]
    (s0, s1) = sorted(nearest)
    q0, q1 = (s * (1 / points[s] - 1) for s in (s0, s1))
    slope = (q1 - q0) / (s1 - s0)
    k = target / (1 - target)  # share = target  <=>  s = k q(s)
    if 1 - k * slope <= 0:
        return None  # the rest grows as fast as the compute: no share in reach of these two values meets it
    value = k * (q0 - slope * s0) / (1 - k * slope)
    return value if 0 < value <= 1 else None


def study_text(proxy, table, values, compute_seconds=None):
    flags = ", ".join(json.dumps(f"--num_tsteps {table['steps']} --sweeps_per_exchange {s!r}") for s in values)
    return (f"# Made by amp_tools.calibrate_share from the [{proxy}] table of a calibration file: "
            f"one point a round.\n"
            f"name = \"calibration-{proxy}\"\nproxies = [\"{proxy}\"]\nranks = [2]\nrepetitions = 1\ntrace = false\n\n"
            f"[strategies]\n{proxy} = [{json.dumps(table['strategy'])}]\n\n"
            f"[decks]\n{proxy} = [{json.dumps(table['deck'])}]\n\n"
            f"[flags]\n{proxy} = [{flags}]\n\n"
            f"[simulate]\nsimulators = [{json.dumps(table['simulator'])}]\n"
            f"networks = [{json.dumps(table['network'])}]\n"
            f"synthesize_ranks = [{table['ranks']}]\nsteady_state = true\n"
            + ("" if compute_seconds is None else f"compute_seconds = {compute_seconds!r}\n"))


def measured_model(folder):
    """The one compute model (seconds per variable sweep on the target node) of the first round's folder."""
    models = results.load(os.path.join(folder, "compute_model.json"))["models"]
    if len(models) != 1:
        raise CalibrationError(f"{folder}: {len(models)} compute models, expected the one all rounds share")
    return next(iter(models.values()))["seconds"]


def shares(folder, table):
    """{sweeps_per_exchange: steady compute share} of the study folder's simulations that fit the table."""
    from amp_tools import report_simulation  # matplotlib's module: only where a round's folder is read
    network = os.path.splitext(os.path.basename(table["network"]))[0]
    out = {}
    for _, _, ranks, label, simulator, _, sim, synthesized, run in report_simulation.load(folder):
        if not synthesized or ranks != table["ranks"] or simulator != table["simulator"] or label != network:
            continue
        profile = steady_state.profile_of(sim) if sim.get("steady") else None
        if profile:
            out[float(run["config"].get("sweeps_per_exchange", 1.0))] = profile["compute"]
    return out


def run_study(root, study_path, proxy, build=None):
    """Runs (or resumes) the study, through ./amp (which builds first) or on the binaries of `build`; its folder."""
    command = [os.path.join(root, "amp"), "study", study_path]
    if build:
        command = [sys.executable, "-m", "amp_tools.study", study_path, "--root", root, "--build", build,
                   "--mpiexec", launch.default_mpiexec(), "--cores", str(os.cpu_count())]
    done = subprocess.run(command, cwd=root, stdout=subprocess.PIPE, text=True)
    print(done.stdout, end="")
    if done.returncode != 0:
        raise CalibrationError(f"the calibration study {study_path} failed (exit {done.returncode})")
    # The folder the study says it made or resumed (a resumed earlier round's folder is not the newest one).
    named = re.findall(r"^study: [^:]+: (?:new folder|resuming) (\S+?)/?$", done.stdout, re.MULTILINE)
    if not named or not named[-1].startswith(f"runs/calibration-{proxy}-"):
        raise CalibrationError(f"the calibration study {study_path} named no folder of its own")
    return os.path.join(root, "runs", file_names.component(os.path.basename(named[-1])))


def calibrate(path, proxy, root, build=None):
    """{declared, rounds, sweeps_per_exchange (None: not met), compute_model_seconds, study_folders}."""
    table = declaration(path, proxy)
    target = table["target_compute_percent"] / 100
    study_path = os.path.join(root, "runs", f"calibration-{proxy}.toml")
    values = [rounded(s) for s in table["bracket"]]
    out = {"declared": table, "rounds": [], "sweeps_per_exchange": None,
           "compute_model_seconds": table.get("compute_model_seconds"), "study_folders": []}
    points = {}
    os.makedirs(os.path.dirname(study_path), exist_ok=True)
    while True:
        # The first round simulates the starting values and, unless declared, measures the compute model;
        # later rounds are studies of their own, given that model, so rounds differ only in sweeps_per_exchange.
        model = out["compute_model_seconds"]
        first_round = not out["study_folders"]
        whole_file.write_whole(study_path, study_text(proxy, table, values if first_round else values[-1:], model))
        folder = run_study(root, study_path, proxy, build)
        out["study_folders"].append(os.path.basename(folder))
        if model is None:
            out["compute_model_seconds"] = measured_model(folder)
        points.update(shares(folder, table))
        missing = [s for s in values if s not in points]
        if missing:
            raise CalibrationError(f"{folder}: no steady simulation of sweeps_per_exchange {missing[0]}")
        out["rounds"] = [{"sweeps_per_exchange": s, "compute_percent": round(100 * points[s], 3)} for s in values]
        for r in out["rounds"]:
            print(f"calibrate_share: {proxy} sweeps_per_exchange {r['sweeps_per_exchange']:g}: "
                  f"compute {r['compute_percent']:.2f} % (target {100 * target:.1f} %)")
        best = min(values, key=lambda s: abs(points[s] - target))
        if abs(points[best] - target) * 100 <= table["tolerance_points"]:
            out["sweeps_per_exchange"] = best
            return out
        solved = solve(points, target)
        if solved is None:
            out["unreachable"] = (f"no share in (0, 1] meets {100 * target:.1f} %: between the two values nearest it "
                                  "the rest of the step grows faster than the compute")
            print(f"calibrate_share: {proxy}: {out['unreachable']}")
            return out
        following = rounded(solved)
        if len(values) - len(table["bracket"]) >= table["max_rounds"] or following in values:
            return out
        values.append(following)


def main(argv=None):
    parser = command_line.Parser("calibrate_share", __doc__)
    parser.add_argument("calibration")
    parser.add_argument("proxy")
    parser.add_argument("--root", default=os.getcwd(), help="repository root (decks, networks, runs/)")
    parser.add_argument("--record", help="write the rounds and the value as JSON to this file")
    parser.add_argument("--build", help="run the studies on this build's binaries (default: ./amp study, which builds)")
    args = parser.parse_args(argv)
    try:
        out = calibrate(args.calibration, args.proxy, os.path.abspath(args.root),
                        os.path.abspath(args.build) if args.build else None)
    except (CalibrationError, whole_file.NotWritten) as e:
        print(f"calibrate_share: error: {e}", file=sys.stderr)
        return 2
    table, value = out["declared"], out["sweeps_per_exchange"]
    record = {"schema_version": amp_tools.SCHEMA_VERSION, "kind": "calibration-record", "proxy": args.proxy,
              "calibration_file": args.calibration, **out,
              "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    if args.record:
        try:
            whole_file.write_whole(args.record, json.dumps(record, indent=2) + "\n")
        except whole_file.NotWritten as e:
            print(f"calibrate_share: error: {e}", file=sys.stderr)
            return 4
    if value is None:
        why = out.get("unreachable") or f"none after {len(out['rounds'])} values"
        print(f"calibrate_share: {args.proxy}: no value within {table['tolerance_points']} points of the target: {why}",
              file=sys.stderr)
        return 1
    print(f"calibrate_share: {args.proxy}: sweeps_per_exchange = {value:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
