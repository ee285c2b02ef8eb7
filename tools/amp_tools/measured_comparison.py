# SPDX-License-Identifier: BSD-3-Clause
"""What `./amp simulate` says of a recorded trace's measured time beside its prediction: the comparison only
where the network file is a calibration of the host the trace was recorded on (a prediction on another
machine is not an error against this one), and a warning where the traced run shared its cores (other
work took CPU, or it ran more ranks than the node has cores): its compute and measured times are then
inflated, the prediction with them."""
import math
import os

from amp_tools import calibrate
from amp_tools import machine_load
from amp_tools import results


def results_of(trace_dir):
    """The traced run's results (NAME.json beside NAME.trace/) as a dict, or None."""
    base = os.path.normpath(trace_dir)
    path = (base[:-len(".trace")] if base.endswith(".trace") else base) + ".json"
    try:
        if not os.path.isfile(path):  # a FIFO or a folder of that name is not read
            return None
        run = results.load(path)
    except (OSError, ValueError):
        return None
    return run if isinstance(run, dict) else None


def oversubscribed(run):
    """'N ranks on M cores' where the run had more ranks than its node (machine_load's, one node) has cores."""
    load = run.get("machine_load")
    ranks, cores = run.get("ranks"), load.get("cores") if isinstance(load, dict) else None
    if isinstance(ranks, int) and isinstance(cores, int) and 0 < cores < ranks:
        return f"its {ranks} ranks ran on {cores} core{'s' if cores > 1 else ''} (ranks took turns on a core)"
    return None


def shared_cores(trace_dir):
    """Why the traced run's times are inflated (it shared its cores), or None."""
    run = results_of(trace_dir)
    if run is None:
        return None
    reasons = [text for text in (oversubscribed(run), machine_load.shared_cores(run)) if text]
    return "; ".join(reasons) or None


def percent(predicted, measured):
    """The prediction's error against the measured time, as a signed percentage of sane length."""
    error = (predicted - measured) / measured * 100
    return f"{error:+.1f}%" if math.isfinite(error) and abs(error) < 1e5 else f"{error:+.3g}%"


def comparison(predicted, measured, network_path, meta):
    """', measured M s (+E%)' where the network file models the machine the trace of `meta` was recorded
    on, else ''."""
    if not measured or not calibrate.models_recorded_machine(network_path, meta):
        return ""
    return f", measured {measured:.6g} s ({percent(predicted, measured)})"
