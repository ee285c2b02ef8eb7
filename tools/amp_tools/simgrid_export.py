# SPDX-License-Identifier: BSD-3-Clause
"""The SimGrid time-independent export of a trace (`amp-trace simgrid`), kept beside it as AMP's cache in
DIR/simgrid-ti-<speed>/. It is reused only while it is whole (its export.json holds what simulate reads),
not older than amp-trace (an older AMP's export may lack what the exporter now writes), and made from the
trace now in DIR: the trace's own files (the .meta and its .bin files: names, sizes, modification times)
are recorded in it as source.json and compared. Anything else is made again, never trusted."""
import fcntl
import glob
import json
import os
import shutil
import stat
import subprocess

from amp_tools import results
from amp_tools.output_places import ThroughLink, refuse_link
from amp_tools.simulate_errors import OutputError, SimulatorError, UsageError

SOURCE = "source.json"  # the trace files an export was made from, written by simulate beside export.json
# What simulate reads of export.json, and the type each must have.
SUMMARY_TYPES = {"ranks": list, "actions": int, "bytes": int, "messages": int, "synthesized": bool,
                 "per_rank": list, "smpirun_cfg": list}


def trace_meta(trace_dir):
    """The one .meta of a trace folder; a .meta that is not a regular file (a FIFO would hang its reader)
    is refused."""
    if not os.path.isdir(trace_dir):
        raise UsageError(f"{trace_dir}: no such trace directory")
    metas = sorted(glob.glob(os.path.join(glob.escape(trace_dir), "*.meta")))
    if len(metas) != 1:
        raise UsageError(f"{trace_dir}: holds {len(metas)} traced runs (.meta files); give a directory with one "
                         f"(a simulation's files go beside its trace: move each .meta and its .bin files into a "
                         f"folder of their own)")
    return regular(metas[0])


def trace_folder(given):
    """The trace folder a simulation is given: a folder, or the .meta of the one traced run in its folder."""
    if given.endswith(".meta") and not os.path.isdir(given):
        folder = os.path.dirname(given) or "."
        if not os.path.isfile(given):
            raise UsageError(f"{given}: no such trace .meta file")
        if os.path.realpath(trace_meta(folder)) != os.path.realpath(given):
            raise UsageError(f"{given}: not the one traced run of {folder}")
        return folder
    return given


def regular(path):
    """`path`, refused unless it is a regular file (or a link to one): only those are read."""
    try:
        is_regular = stat.S_ISREG(os.stat(path).st_mode)
    except OSError as e:
        raise UsageError(f"{path}: cannot read ({e.strerror or e})") from None
    if not is_regular:
        raise UsageError(f"{path}: not a regular file (a trace's files are read whole)")
    return path


def trace_files(trace_dir):
    """{name: [size, modification time in ns]} of the trace's own files: its .meta and the .bin files of
    its prefix, each a regular file."""
    meta = trace_meta(trace_dir)
    prefix = os.path.basename(meta)[:-len(".meta")]
    found = {}
    for path in [meta] + sorted(glob.glob(os.path.join(glob.escape(trace_dir), glob.escape(prefix) + "-*.bin"))):
        info = os.stat(regular(path))
        found[os.path.basename(path)] = [info.st_size, info.st_mtime_ns]
    return found


def run_cleaning_up(command):
    """subprocess.run(command) for a tool that removes what it began when sent SIGTERM (amp-trace): stopped
    by an interruption of ours, it gets that SIGTERM and is waited for, not killed (subprocess.run's SIGKILL
    would leave its staging folder behind)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stdout, stderr = process.communicate()
    except BaseException:
        process.terminate()
        process.communicate()
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def of_type(value, kind):
    """isinstance, where a bool is not an int."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def read_summary(out):
    """export.json of the export in `out` when it holds what simulate reads, else None."""
    try:
        summary = results.load(os.path.join(out, "export.json"))
    except (OSError, ValueError):
        return None
    if not isinstance(summary, dict) or not all(of_type(summary.get(key), kind) for key, kind in SUMMARY_TYPES.items()):
        return None
    if not summary["ranks"] or len(summary["per_rank"]) != len(summary["ranks"]):
        return None
    return summary


def kept_summary(out, amp_trace, source):
    """The summary of the export in `out` where it may be reused for the trace files `source`, else None."""
    try:
        if results.load(os.path.join(out, SOURCE)) != source_record(source):
            return None
        if os.path.getmtime(os.path.join(out, "export.json")) < os.path.getmtime(amp_trace):
            return None
    except (OSError, ValueError):
        return None
    return read_summary(out)


def remove(out):
    """Removes AMP's cache folder `out` (or whatever stands at its name: never a user's file, by its name)."""
    if os.path.isdir(out) and not os.path.islink(out):
        shutil.rmtree(out)
    elif os.path.lexists(out):
        os.unlink(out)


def source_record(source):
    """source.json's contents for the trace files `source` ({name: [size, mtime_ns]}), with its schema_version
    (docs/schema/simgrid-export-source.schema.json)."""
    import amp_tools
    return {"schema_version": amp_tools.SCHEMA_VERSION, "files": source}


def record_source(out, source):
    """Writes source.json into the export, whole (a partial renamed): the trace the export was made from."""
    partial = os.path.join(out, f"{SOURCE}.partial-{os.getpid()}")
    try:
        with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644), "w") as f:
            json.dump(source_record(source), f)
        os.replace(partial, os.path.join(out, SOURCE))
    except OSError as e:
        raise OutputError(f"{out}: cannot write {SOURCE} ({e.strerror or e})") from None
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def speed_text(host_speed):
    """The host speed as the export's folder and amp-trace are given it: short where that is exact ("1e+09"),
    else every digit, so two speeds that differ past the sixth digit never share an export."""
    short = f"{host_speed:g}"
    return short if float(short) == host_speed else repr(float(host_speed))


def export(trace_dir, amp_trace, host_speed):
    """(the export's folder, its export.json) of the trace at this host speed: the kept one where it may be
    reused, else made again. Two simulations of one trace take turns: the second waits for the first's
    export (a lock on the trace directory)."""
    out = os.path.join(trace_dir, f"simgrid-ti-{speed_text(host_speed)}")
    try:  # a link at the export's name is neither written through nor removed
        refuse_link(out)
    except ThroughLink as e:
        raise UsageError(str(e)) from None
    directory = os.open(trace_dir, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(directory, fcntl.LOCK_EX)
        source = trace_files(trace_dir)  # before the export: a trace replaced meanwhile is not taken for this one
        summary = kept_summary(out, amp_trace, source)
        if summary is None:
            remove(out)
            done = run_cleaning_up([amp_trace, "simgrid", trace_dir, out, "--host-speed", speed_text(host_speed)])
            if done.returncode != 0:
                line = (done.stderr.strip().splitlines() or ["amp-trace simgrid failed"])[-1]
                line = line.removeprefix("amp-trace: ").removeprefix("error: ")
                if done.returncode == 4:
                    raise OutputError(f"{trace_dir}: {line}")
                raise UsageError(f"{trace_dir}: {line}")
            summary = read_summary(out)
            if summary is None:
                raise SimulatorError(f"{out}: amp-trace simgrid wrote no usable export.json")
            record_source(out, source)
    finally:
        os.close(directory)
    return out, summary
