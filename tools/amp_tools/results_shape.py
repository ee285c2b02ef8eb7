# SPDX-License-Identifier: BSD-3-Clause
"""What the report reads of a proxy's results file and of its trace statistics, checked once on reading:
a file that is valid JSON but of another shape (a field missing, null or of the wrong kind, zero steps,
a ragged matrix) is named with its first problem, so that it is left out with one line instead of
failing a figure."""
import math

# The timing entries the report draws (min / avg / max over ranks, in seconds), where present.
TIMING_ENTRIES = ("compute", "pack", "unpack", "gather_scatter", "mpi", "mpi_post", "mpi_wait", "collective", "amr")


def shown(value, most=60):
    """A value as a warning quotes it: its repr, cut after `most` characters."""
    text = repr(value)
    return text if len(text) <= most else text[:most] + "..."


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def is_name(value):
    """Whether `value` is a name a line can print: text, not empty, without a control character (a
    newline, NUL) or a lone surrogate. It may still hold '/' or '..': file names go through file_names."""
    return isinstance(value, str) and value != "" and value.isprintable()


def is_count(value, least=0):
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def results_problem(run):
    """The first problem of a results file (a dict) for the report, or None."""
    if not is_name(run.get("proxy")):
        return f"'proxy' is not a name (got {shown(run.get('proxy'))})"
    if not is_count(run.get("ranks"), 1):
        return f"'ranks' is not a positive integer (got {run.get('ranks')!r})"
    config = run.get("config")
    if not isinstance(config, dict):
        return f"'config' is not a table (got {config!r})"
    if "num_tsteps" in config and not is_count(config["num_tsteps"], 1):
        return f"'config.num_tsteps' is not a positive integer (got {config['num_tsteps']!r})"
    timing = run.get("timing")
    if not isinstance(timing, dict):
        return f"'timing' is not a table (got {timing!r})"
    if not is_number(timing.get("per_step_seconds")) or timing["per_step_seconds"] < 0:
        return f"'timing.per_step_seconds' is not a number of seconds (got {timing.get('per_step_seconds')!r})"
    for key in TIMING_ENTRIES:
        entry = timing.get(key)
        if entry is not None and not (isinstance(entry, dict)
                                      and all(is_number(entry.get(f)) for f in ("min", "avg", "max"))):
            return f"'timing.{key}' is not min / avg / max seconds (got {shown(entry)})"
    messages = run.get("messages")
    for table in ("messages", "bytes"):
        entry = run[table].get("per_step_per_rank") if isinstance(run.get(table), dict) else None
        if entry is not None and not spread_of_counts(entry):
            return f"'{table}.per_step_per_rank' is not min / avg / max >= 0 (got {shown(entry)})"
    histogram = messages.get("size_histogram") if isinstance(messages, dict) else None
    if not isinstance(histogram, list) or not all(
            isinstance(b, dict) and all(is_count(b.get(f)) for f in ("min_bytes", "max_bytes", "count"))
            for b in histogram):
        return "'messages.size_histogram' is not a list of byte ranges and counts"
    fom = run.get("fom")
    if not isinstance(fom, dict) or not all(is_number(v) for v in fom.values()):
        return f"'fom' is not a table of figures of merit (got {shown(fom)})"
    verification = run.get("verification")
    if not isinstance(verification, dict) or not isinstance(verification.get("passed"), bool):
        return "'verification.passed' is not true or false"
    if not isinstance(run.get("checksum"), str):
        return f"'checksum' is not a string (got {run.get('checksum')!r})"
    return machine_load_problem(run.get("machine_load"))


def spread_of_counts(entry):
    """Whether `entry` is {min, avg, max} of numbers >= 0 (messages or bytes per step and rank)."""
    return isinstance(entry, dict) and all(is_number(entry.get(f)) and entry[f] >= 0 for f in ("min", "avg", "max"))


def machine_load_problem(load):
    """The problem of a run's machine_load (absent or null in older results: none), or None."""
    if load is None:
        return None
    if not (isinstance(load, dict) and is_count(load.get("cores"), 1) and all(
            is_number(load.get(f)) and load[f] >= 0 for f in ("other_cpu_seconds", "wall_seconds"))
            and all(load.get(f) is None or is_number(load[f]) for f in ("load_average_start", "load_average_end"))):
        return f"'machine_load' is not the node's load of the run (got {shown(load)})"
    return None


def simulation_problem(sim):
    """The first problem of a simulation file (tools/simulate.py's JSON) for the report, or None."""
    if not isinstance(sim, dict):
        return "is not a table"
    if not is_number(sim.get("predicted_seconds")) or sim["predicted_seconds"] <= 0:
        return f"'predicted_seconds' is not a positive number of seconds (got {sim.get('predicted_seconds')!r})"
    if not is_count(sim.get("ranks"), 1):
        return f"'ranks' is not a positive integer (got {sim.get('ranks')!r})"
    for key in ("network", "simulator"):
        if not is_name(sim.get(key)):
            return f"'{key}' is not a name (got {shown(sim.get(key))})"
    measured = sim.get("measured_seconds")
    if measured is not None and not is_number(measured):
        return f"'measured_seconds' is not a number of seconds (got {measured!r})"
    overrides = sim.get("network_overrides")
    if overrides is not None and not isinstance(overrides, dict):
        return f"'network_overrides' is not a table (got {shown(overrides)})"
    return network_problem(sim) or profile_problem(sim.get("profile"))


def numbers(values):
    """Whether `values` is a list of numbers >= 0."""
    return isinstance(values, list) and all(is_number(v) and v >= 0 for v in values)


def network_problem(sim):
    """The first problem of a simulation's network figures (`nics`, `links`, `hops`, as
    network_metrics.network_figures writes them), or None; a simulation without `nics` has none."""
    if "nics" not in sim:
        return None
    nics = sim["nics"]
    if not (isinstance(nics, dict) and is_count(nics.get("count")) and numbers(nics.get("per_nic_bytes"))):
        return f"'nics' is not a count and bytes per NIC (got {shown(nics)})"
    if nics.get("intra_node_bytes") is not None and not is_number(nics["intra_node_bytes"]):
        return f"'nics.intra_node_bytes' is not a number of bytes (got {shown(nics['intra_node_bytes'])})"
    links = sim.get("links")
    if not isinstance(links, dict):
        return f"'links' is not a table of link classes (got {shown(links)})"
    for name, cls in links.items():
        if not (isinstance(cls, dict) and is_count(cls.get("count")) and numbers(cls.get("per_link_utilization"))):
            return f"'links' class {shown(name)} is not a link count and utilizations (got {shown(cls)})"
    hops = sim.get("hops")
    if not (isinstance(hops, dict) and is_number(hops.get("mean_per_byte"))
            and (hops.get("per_nic") is None or numbers(hops["per_nic"]))):
        return f"'hops' is not hops per byte (got {shown(hops)})"
    return None


def profile_problem(profile):
    """The problem of a simulation's `profile` (absent or null: none), or None."""
    if profile is None:
        return None
    # An SST-macro profile of before 2026-11-26 has no p2p (nor all its parts); a newer one has all three.
    complete = isinstance(profile, dict) and profile.get("p2p") is not None
    if not (isinstance(profile, dict) and all(is_number(profile.get(k)) or (profile.get(k) is None and not complete)
                                              for k in ("compute", "p2p", "collective"))):
        return f"'profile' is not fractions of compute, p2p and collective (got {shown(profile)})"
    return None


def matrix_problem(stats, ranks):
    """The problem of a trace-stats file's matrix_bytes for a run of `ranks` ranks (a square list of
    lists of byte counts, one row and column per rank), or None."""
    matrix = stats.get("matrix_bytes")
    if not isinstance(matrix, list):
        return "has no matrix_bytes"
    if len(matrix) != ranks or not all(isinstance(row, list) and len(row) == ranks and all(is_number(v) for v in row)
                                       for row in matrix):
        return f"has a matrix_bytes that is not {ranks} x {ranks} byte counts"
    return None
