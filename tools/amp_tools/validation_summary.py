# SPDX-License-Identifier: BSD-3-Clause
"""The numbers docs/VALIDATION.md quotes, kept traceable: a study's run folder (runs/<study>-<stamp>/, which git
ignores) summarized into one small committed file, docs/validation/<study>.json, and the tables of
VALIDATION.md printed from that file, and only from it (here, the one place that computes their rows), so
that a test can check that every AMP number of those tables is the summary's.

A summary holds, per simulated point (proxy, strategy, transport, simulator, network, ranks): the steady
step's seconds and set-up (amp_tools.steady_state, where the point has its one-step companion), its profile
(compute / point-to-point / collective shares), its point-to-point messages and bytes per step, messages a
minute per rank and mean message size, the replay's wall seconds, the deck, flags and compute model the
point was made with; and the run folder's name and dates.

A table of VALIDATION.md that comes from a summary is preceded by the line that prints it, as an HTML
comment (the test reads the arguments after the module name):

    <!-- rows: python3 -m amp_tools.validation_summary docs/validation/cielo-profile.json --table profile
         --network xt6-seastar -->

Usage: python3 -m amp_tools.validation_summary RUN_DIR --output docs/validation/NAME.json
       python3 -m amp_tools.validation_summary SUMMARY.json|RUN_DIR --table profile|swap|scaling|aces|micro|points
           [--network N] [--ranks N]
       python3 -m amp_tools.validation_summary --check docs/VALIDATION.md
"""
import datetime
import glob
import json
import os
import re
import shlex
import statistics
import sys

import amp_tools
from amp_tools import command_line
from amp_tools import results
from amp_tools.output_places import ThroughLink
from amp_tools.whole_file import NotWritten, write_whole

KIND = "validation-summary"
MICRO_KIND = "micro-seed-figures"  # bench/simulate/micro_seed_figures.py's record: replayed ping-pongs
FORMAT = 1  # the layout of a summary's points (a reader refuses a newer one)
ORDER = {"ghost": 0, "sage": 1, "nobel": 2}  # the seeds' order: CTH, SAGE, xNOBEL
SUMMARY_FOLDER = os.path.join("docs", "validation")
MARKER = re.compile(r"^<!-- rows: python3 -m amp_tools\.validation_summary (.*?) -->\s*$")
PROFILE_HEADER = ("| proxy | strategy | simulator | compute | p2p (MPI) | collective (MPI_SYNC) | per step | set-up | "
                  "messages per minute per rank | mean message | replays (s) |")
SWAP_HEADER = ("| proxy | strategy | ranks | simulator | XT6 (ms per step) | XE6 (ms per step) | speed-up | "
               "replays (s) |")
ACES_HEADER = ("| strategy | ranks | ranks per NIC | global links per pair | minimal (ms) | valiant (ms) | UGAL (ms) | "
               "hops min / val / UGAL | max global, node link utilization | start-up (us) |")
SCALING_HEADER = ("| proxy | strategy | network | ranks | per step (ms) | over the fewest ranks' | compute | "
                  "p2p (MPI) | replays (s) |")
MICRO_HEADER = "| machine | simulator | one way, 8 B (us) | bandwidth, 4 MiB (MB/s) |"
POINTS_HEADER = ("| point | flags | network | profile over | compute | p2p (MPI) | collective (MPI_SYNC) | per step | "
                 "NIC queue |")
SWAP_MACHINES = ("xt6-seastar", "xe6-gemini")  # the swap study's two networks, the files' own machines


class SummaryError(ValueError):
    """A folder or summary that cannot give a table: one line naming it."""


def started_at(folder_name):
    """The study's start from its folder's stamp (<name>-YYYYMMDD-HHMMSS[-N], the machine's clock), or None."""
    found = re.search(r"-(\d{8}-\d{6})(?:-\d+)?$", folder_name)
    if not found:
        return None
    try:
        return datetime.datetime.strptime(found.group(1), "%Y%m%d-%H%M%S").isoformat()
    except ValueError:
        return None


def manifest_points(folder):
    """{point id (a run id without its -npN-repM): the run's deck and flags} from the folder's runs.json."""
    try:
        runs = results.load(os.path.join(folder, "runs.json"))["runs"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    out = {}
    for r in runs if isinstance(runs, list) else []:
        if isinstance(r, dict) and isinstance(r.get("id"), str):
            out.setdefault(r["id"].rsplit("-np", 1)[0], {"deck": r.get("deck"), "flags": r.get("flags")})
    return out


def point_of(made_from, models, proxy, label, steps, sim, synthesized, run):
    """One simulated point of a folder (a row of report_simulation.load), with made_from (manifest_points) and
    models (compute_model.json's models)."""
    from amp_tools import steady_state
    trace = os.path.basename(os.path.normpath(sim.get("trace") or ""))
    point_id = trace[:-len(".trace")] if trace.endswith(".trace") else trace
    state = sim.get("steady")
    per_step = state["per_step_seconds"] if state else sim["predicted_seconds"] / steps
    profile = steady_state.profile_of(sim)
    messages = state["messages_per_step"] if state else sim["messages"] / steps
    sent = state["bytes_per_step"] if state else sim["bytes"] / steps
    origin = made_from.get(re.sub(r"-synth\d+$", "", point_id.rsplit("-np", 1)[0]), {})
    given = {**(sim.get("network_parameters") or {}), **(sim.get("network_overrides") or {})}
    model = (run.get("synthesis") or {}).get("compute_model") if synthesized else None
    seconds = (model or {}).get("steps", [{}])[0].get("seconds")
    key = next((k for k, m in sorted(models.items()) if seconds is not None and m.get("seconds") == seconds), None)
    return {
        "id": point_id, "proxy": proxy.replace("amp-", "", 1), "strategy": label.split("/")[0],
        "transport": label.split("/", 1)[1] if "/" in label else None, "simulator": sim["simulator"],
        "simulator_version": sim.get("simulator_version"), "network": sim["network"],
        "network_overrides": sim.get("network_overrides") or {}, "ranks": sim["ranks"], "steps": steps,
        "synthesized": synthesized, "deck": origin.get("deck"), "flags": origin.get("flags"),
        "block": [run["config"].get(k) for k in ("nx", "ny", "nz")] if proxy.endswith("ghost") else None,
        "num_vars": run["config"].get("num_vars"), "compute_model": model,
        "compute_model_key": key,  # its entry in the summary's compute_models (the folder's compute_model.json)
        "steady": bool(state),  # per step, set-up and profile are steps 2..K's; else the run's mean step
        "per_step_seconds": per_step, "setup_seconds": state["setup_seconds"] if state else None,
        "predicted_seconds": sim["predicted_seconds"],
        "profile": {k: profile[k] for k in ("compute", "p2p", "collective")} if profile else None,
        "messages_per_step": messages, "bytes_per_step": sent,
        "messages_per_minute_per_rank": messages / sim["ranks"] / per_step * 60 if per_step > 0 else None,
        "mean_message_bytes": sent / max(1.0, messages),
        "injection_queue": (sim.get("simulated_network") or {}).get("injection_queue"),
        "replay_seconds": sim.get("simulation_wall_seconds"),
        **{k: given.get(k) for k in ("routing", "ranks_per_node", "global_links_per_pair", "seed")},
        "hops_mean_per_byte": (sim.get("hops") or {}).get("mean_per_byte"),
        "link_utilization": {c: v.get("mean_utilization") for c, v in (sim.get("links") or {}).items()
                             if isinstance(v, dict)},
        "sstmac_startup_seconds": sim.get("sstmac_startup_seconds"),
    }


def summarize(folder):
    """The summary (a dict) of a study's run folder: every simulated point, sorted."""
    from amp_tools import report_simulation  # matplotlib's module: only where a run folder is read
    folder = os.path.normpath(folder)
    if not os.path.isdir(folder):
        raise SummaryError(f"{folder}: no such run folder")
    made_from = manifest_points(folder)
    models = None
    if os.path.isfile(os.path.join(folder, "compute_model.json")):
        try:
            models = results.load(os.path.join(folder, "compute_model.json"))
            models.pop("schema_version", None)
        except (OSError, ValueError, AttributeError):
            models = None
    entries = (models or {}).get("models") if isinstance((models or {}).get("models"), dict) else {}
    points = [point_of(made_from, entries, proxy, label, steps, sim, synthesized, run)
              for proxy, label, _, _, _, steps, sim, synthesized, run in report_simulation.load(folder)]
    if not points:
        raise SummaryError(f"{folder}: no simulated point (no <run>.trace/simulation-*.json beside a results file)")
    points.sort(key=sort_key)
    written = [os.path.getmtime(p) for p in glob.glob(os.path.join(glob.escape(folder), "**", "simulation-*.json"),
                                                      recursive=True)]
    name = os.path.basename(folder)
    return {"schema_version": amp_tools.SCHEMA_VERSION, "kind": KIND, "format": FORMAT,
            "study": re.sub(r"-\d{8}-\d{6}(?:-\d+)?$", "", name), "run_folder": name,
            "started": started_at(name),
            "last_simulation_written": datetime.datetime.fromtimestamp(max(written), datetime.timezone.utc)
            .isoformat(timespec="seconds") if written else None,
            "compute_models": models, "points": points}


def sort_key(p):
    return (ORDER.get(p["proxy"], len(ORDER)), p["proxy"], p["ranks"], p["strategy"], p["transport"] or "",
            p["simulator"], p["network"], json.dumps(p["network_overrides"], sort_keys=True))


def summary_files(root):
    """The summaries in ROOT/docs/validation/: its JSON files but the calibration records (calibration-*.json,
    amp_tools.calibrate_share's, which VALIDATION.md quotes in prose, not in a table)."""
    return sorted(p for p in glob.glob(os.path.join(root, SUMMARY_FOLDER, "*.json"))
                  if not os.path.basename(p).startswith("calibration-"))


def load_summary(path):
    """A committed summary, checked for the fields the tables read. Raises SummaryError."""
    try:
        data = results.load(path)
    except OSError as e:
        raise SummaryError(f"{path}: cannot read it ({e.strerror})") from None
    except ValueError as e:
        raise SummaryError(f"{path}: not JSON ({e})") from None
    if isinstance(data, dict) and data.get("kind") == MICRO_KIND and isinstance(data.get("rows"), list):
        return data
    if not isinstance(data, dict) or data.get("kind") != KIND or not isinstance(data.get("points"), list):
        raise SummaryError(f"{path}: not a validation summary (no kind '{KIND}' with points, or '{MICRO_KIND}' "
                           "with rows)")
    if not isinstance(data.get("format"), int) or data["format"] > FORMAT:
        raise SummaryError(f"{path}: summary format {data.get('format')!r}, this tool reads {FORMAT} and older")
    return data


def profile_rows(summary, network, ranks=None):
    """VALIDATION.md's profile table (section 1) of the summary's steady points on `network` (at `ranks`)."""
    lines = [PROFILE_HEADER, "|---|---|---|---|---|---|---|---|---|---|---|"]
    for p in summary["points"]:
        if p["network"] != network or p["network_overrides"] or not p["steady"] or ranks not in (None, p["ranks"]):
            continue
        shares = (" | ".join(f"{100 * p['profile'][k]:.1f}" for k in ("compute", "p2p", "collective"))
                  if p["profile"] else "- | - | -")
        rate = p["messages_per_step"] / p["ranks"] / p["per_step_seconds"] * 60  # recomputed, not read
        size = p["bytes_per_step"] / max(1.0, p["messages_per_step"])
        lines.append(f"| {p['proxy']} | {p['strategy']} | {p['simulator']} | {shares} | "
                     f"{p['per_step_seconds'] * 1e3:.2f} ms | {p['setup_seconds'] * 1e3:.2f} ms | {rate:,.0f} | "
                     f"{size:,.0f} B | {p['replay_seconds']:.0f} |")
    return lines


def swap_rows(summary, ranks=None):
    """VALIDATION.md's swap table (section 2): per proxy, strategy, rank count and simulator, the time per step on
    xt6-seastar and xe6-gemini and the speed-up; a Gemini with its two link widths (network_overrides
    dimension_bandwidth) beside it; (FIFO) marks a time from SST-macro's FIFO NIC queue."""
    got = {}
    for p in summary["points"]:
        widths = p["network_overrides"].get("dimension_bandwidth")
        if (p["network_overrides"] and not widths) or ranks not in (None, p["ranks"]):
            continue
        machine = f"{p['network']} two widths" if widths else p["network"]
        key = (p["proxy"], p["strategy"], p["ranks"], p["simulator"])
        got.setdefault(key, {})[machine] = (p["per_step_seconds"], p["replay_seconds"], p["injection_queue"] == "fifo")
    lines = [SWAP_HEADER, "|---|---|---|---|---|---|---|---|"]
    xt6, xe6 = SWAP_MACHINES
    for (proxy, strategy, n, simulator), by in sorted(got.items(), key=lambda kv: (ORDER.get(kv[0][0], len(ORDER)),
                                                                              kv[0][0], kv[0][2], kv[0][1], kv[0][3])):
        if xt6 not in by or xe6 not in by:
            continue
        mark = lambda machine: " (FIFO)" if by[machine][2] else ""  # noqa: E731
        extra = ""
        if f"{xe6} two widths" in by:
            two = by[f"{xe6} two widths"][0]
            extra = f" (two widths: {two * 1e3:.3f} ms{mark(f'{xe6} two widths')}, {by[xt6][0] / two:.2f}x)"
        walls = [w for _, w, _ in by.values()]
        lines.append(f"| {proxy} | {strategy} | {n} | {simulator} | {by[xt6][0] * 1e3:.3f}{mark(xt6)} | "
                     f"{by[xe6][0] * 1e3:.3f}{mark(xe6)}{extra} | {by[xt6][0] / by[xe6][0]:.2f}x | "
                     f"{min(walls):.0f}-{max(walls):.0f} |")
    return lines


def scaling_rows(summary):
    """VALIDATION.md's scaling table (section 2): per proxy, strategy and network, the steady time per step at each
    rank count and its ratio to the fewest ranks' (weak scaling: 1.00 is flat), with the step's compute and
    point-to-point shares."""
    lines = [SCALING_HEADER, "|---|---|---|---|---|---|---|---|---|"]
    series = {}
    for p in summary["points"]:
        if not p["network_overrides"] and p["steady"]:
            key = (ORDER.get(p["proxy"], len(ORDER)), p["proxy"], p["strategy"], p["network"])
            series.setdefault(key, []).append(p)
    for (_, proxy, strategy, network), points in sorted(series.items()):
        points.sort(key=lambda p: p["ranks"])
        first = points[0]["per_step_seconds"]
        for p in points:
            shares = (" | ".join(f"{100 * p['profile'][k]:.1f}" for k in ("compute", "p2p")) if p["profile"]
                      else "- | -")
            lines.append(f"| {proxy} | {strategy} | {network} | {p['ranks']} | {p['per_step_seconds'] * 1e3:.2f} | "
                         f"{p['per_step_seconds'] / first:.3f} | {shares} | {p['replay_seconds']:.0f} |")
    return lines


def points_rows(summary):
    """VALIDATION.md's table of an experiment's points, one row each: its flags, the steps its profile covers
    (the steady steps where its one-step companion was replayed alike, else the whole run, set-up included), the
    profile, the time per step over those steps and SST-macro's NIC queue."""
    lines = [POINTS_HEADER, "|---|---|---|---|---|---|---|---|---|"]
    for p in summary["points"]:
        shares = (" | ".join(f"{100 * p['profile'][k]:.1f}" for k in ("compute", "p2p", "collective"))
                  if p["profile"] else "- | - | -")
        over = f"steps 2-{p['steps']}" if p["steady"] else f"steps 1-{p['steps']}"
        lines.append(f"| {p['id']} | {p['flags'] or ''} | {p['network']} | {over} | {shares} | "
                     f"{p['per_step_seconds'] * 1e3:.2f} ms | {p['injection_queue'] or '-'} |")
    return lines


def micro_rows(record):
    """VALIDATION.md's ping-pong table (section 5), of a micro_seed_figures record: per machine and simulator,
    the replayed one-way time of a small message and the bandwidth of a large one."""
    if record.get("kind") != MICRO_KIND:
        raise SummaryError(f"--table micro reads a '{MICRO_KIND}' record (bench/simulate/micro_seed_figures.py)")
    lines = [MICRO_HEADER, "|---|---|---|---|"]
    for r in record["rows"]:
        lines.append(f"| {r['machine']} | {r['simulator']} | {r['one_way_us_8B']:.3f} | "
                     f"{r['bandwidth_MBps_4MiB']:,.1f} |")
    return lines


def aces_rows(summary):
    """VALIDATION.md's routing table (section 3), of the points on cascade-dragonfly: per strategy, ranks, ranks
    per NIC and global links per pair, minimal's time and valiant's and UGAL's (median [min - max] over seeds),
    their mean hops per byte, the busiest variant's mean utilization of the global and node links, SST-macro's
    start-up left out."""
    variants = {}  # (strategy, ranks, ranks per NIC, global links per pair): {routing: [points, one per seed]}
    for p in summary["points"]:
        if p["network"] == "cascade-dragonfly":
            key = (p["strategy"], p["ranks"], p.get("ranks_per_node"), p.get("global_links_per_pair"))
            variants.setdefault(key, {}).setdefault(p.get("routing"), []).append(p)
    lines = [ACES_HEADER, "|---|---|---|---|---|---|---|---|---|---|"]
    for (strategy, ranks, rpn, links), by in sorted(variants.items(),
                                                    key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], -kv[0][3])):
        def ms(routing):  # a variant SST-macro did not finish has no prediction
            t = [(p["per_step_seconds"] if p["steady"] else p["predicted_seconds"]) * 1e3 for p in by.get(routing, [])]
            if not t:
                return "none"
            return f"{t[0]:.3f}" if len(t) == 1 else f"{statistics.median(t):.3f} [{min(t):.3f} - {max(t):.3f}]"
        hops = " / ".join(f"{statistics.median(p['hops_mean_per_byte'] for p in by[r]):.2f}" if r in by else "-"
                          for r in ("minimal", "valiant", "ugal"))
        every = [p for found in by.values() for p in found]
        use = lambda c: max((p.get("link_utilization") or {}).get(c) or 0.0 for p in every)  # noqa: E731
        start = [(p.get("sstmac_startup_seconds") or 0.0) * 1e6 for p in every]
        lines.append(f"| {strategy} | {ranks} | {rpn} | {links} | {ms('minimal')} | {ms('valiant')} | {ms('ugal')} | "
                     f"{hops} | {use('global') * 100:.1f} %, {use('node') * 100:.1f} % | "
                     f"{min(start):.0f}-{max(start):.0f} |")
    return lines


def table_parser():
    parser = command_line.Parser("validation_summary", __doc__.split("\n\n")[0])
    parser.add_argument("source", nargs="?", help="a study's run folder (runs/<study>-<stamp>) or a summary JSON")
    parser.add_argument("--output", help="write the run folder's summary here (docs/validation/<study>.json)")
    parser.add_argument("--table", choices=("profile", "swap", "scaling", "aces", "micro", "points"),
                        help="print this table of VALIDATION.md")
    parser.add_argument("--network", help="the profile table's network (xt6-seastar)")
    parser.add_argument("--ranks", type=int, help="only the points at this rank count")
    parser.add_argument("--check", metavar="MARKDOWN", help="check every table of MARKDOWN marked with its rows' "
                                                            "command against the summaries it names")
    return parser


def summary_of(source):
    """The summary of `source`: a summary JSON file, or a run folder summarized now."""
    return summarize(source) if os.path.isdir(source) else load_summary(source)


def rows(summary, table, network=None, ranks=None):
    if table == "profile":
        if not network:
            raise SummaryError("--table profile needs --network (the profile table is one network's)")
        return profile_rows(summary, network, ranks)
    if table == "scaling":
        return scaling_rows(summary)
    if table == "points":
        return points_rows(summary)
    if table == "micro":
        return micro_rows(summary)
    if summary.get("kind") != KIND:
        raise SummaryError(f"--table {table} reads a '{KIND}' summary (python3 -m amp_tools.validation_summary "
                           "RUN_DIR --output FILE)")
    return aces_rows(summary) if table == "aces" else swap_rows(summary, ranks)


def marked_tables(text):
    """(line number, the marker's arguments, the table's lines right below it) for every marker of `text`."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        found = MARKER.match(line)
        if found:
            table = []
            for below in lines[i + 1:]:
                if not below.startswith("|"):
                    break
                table.append(below)
            out.append((i + 1, found.group(1), table))
    return out


def check_document(path, root):
    """Problems (one line each) of the markdown file `path`: a marked table that is not exactly the rows its
    summary gives, a marker naming no summary, a profile, swap or routing table with no marker (its numbers traced to
    no summary), a summary of ROOT/docs/validation/ that no marker names. Summaries are named relative to
    ROOT. Returns (problems, the summaries the markers named)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    problems, named = [], set()
    marked = set()
    for number, arguments, table in marked_tables(text):
        try:
            opts = table_parser().parse_args(shlex.split(arguments))
        except SystemExit:
            problems.append(f"{path}:{number}: the marker's arguments are not the tool's: {arguments}")
            continue
        source = os.path.join(root, opts.source or "")  # a summary the marker names (an input, read)
        if not opts.table or not os.path.isfile(source):
            problems.append(f"{path}:{number}: the marker names no summary file and table ({arguments})")
            continue
        named.add(os.path.normpath(source))
        try:
            expected = rows(load_summary(source), opts.table, opts.network, opts.ranks)
        except SummaryError as e:
            problems.append(f"{path}:{number}: {e}")
            continue
        marked.add(number + 1)
        if table != expected:
            wrong = next((f"line {number + 1 + k}: '{a}', the summary gives '{b}'"
                          for k, (a, b) in enumerate(zip(table, expected)) if a != b),
                         f"{len(table)} lines, the summary gives {len(expected)}")
            problems.append(f"{path}:{number}: the table below the marker is not {os.path.relpath(source, root)}'s "
                            f"({wrong})")
    for number, line in enumerate(text.splitlines(), start=1):
        if line in (PROFILE_HEADER, SWAP_HEADER, SCALING_HEADER, ACES_HEADER, MICRO_HEADER,
                    POINTS_HEADER) and number not in marked:
            problems.append(f"{path}:{number}: a profile, swap, scaling or routing table with no "
                            "'<!-- rows: ... -->' marker above it: its numbers come from no committed summary")
    for summary in summary_files(root):
        if os.path.normpath(summary) not in named:
            problems.append(f"{os.path.relpath(summary, root)}: no table of {os.path.basename(path)} is marked with it")
    return problems, named


def main(argv=None):
    parser = table_parser()
    opts = parser.parse_args(argv)
    try:
        if opts.check:
            problems, _ = check_document(opts.check, amp_tools.REPOSITORY)
            for p in problems:
                print(f"validation_summary: {p}", file=sys.stderr)
            return 1 if problems else 0
        if not opts.source or not (opts.output or opts.table):
            parser.error("give a run folder or summary with --output or --table, or --check MARKDOWN")
        if opts.output and not os.path.isdir(opts.source):
            parser.error(f"--output summarizes a run folder: {opts.source} is not one")
        summary = summary_of(opts.source)
        if opts.output:
            if os.path.islink(opts.output) or os.path.isdir(opts.output):
                parser.error(f"--output {opts.output} is a symbolic link or a directory")
            write_whole(opts.output, json.dumps(summary, indent=1, sort_keys=True) + "\n")
            print(f"validation_summary: {len(summary['points'])} points of {summary['run_folder']} in {opts.output}")
        if opts.table:
            print("\n".join(rows(summary, opts.table, opts.network, opts.ranks)))
    except (SummaryError, ThroughLink) as e:
        print(f"validation_summary: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"validation_summary: error: cannot read '{e.filename}': {e.strerror}", file=sys.stderr)
        return 2
    except NotWritten as e:
        print(f"validation_summary: error: {e}", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
