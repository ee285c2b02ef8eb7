"""What the report reads of a proxy's results file and of its trace statistics, checked once on reading:
a file that is valid JSON but of another shape (a field missing, null or of the wrong kind, zero steps,
a ragged matrix) is named with its first problem, so that it is left out with one line instead of
failing a figure."""
import math

# The timing entries the report draws (min / avg / max over ranks, in seconds), where present.
TIMING_ENTRIES = ("compute", "pack", "unpack", "gather_scatter", "mpi", "mpi_post", "mpi_wait", "collective", "amr")


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def is_count(value, least=0):
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def results_problem(run):
    """The first problem of a results file (a dict) for the report, or None."""
    if not isinstance(run.get("proxy"), str):
        return f"'proxy' is not a name (got {run.get('proxy')!r})"
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
        if entry is not None and not (isinstance(entry, dict) and all(is_number(entry.get(f)) for f in ("min", "avg", "max"))):
            return f"'timing.{key}' is not min / avg / max seconds (got {entry!r})"
    messages = run.get("messages")
    histogram = messages.get("size_histogram") if isinstance(messages, dict) else None
    if not isinstance(histogram, list) or not all(
            isinstance(b, dict) and all(is_count(b.get(f)) for f in ("min_bytes", "max_bytes", "count")) for b in histogram):
        return "'messages.size_histogram' is not a list of byte ranges and counts"
    if not isinstance(run.get("fom"), dict):
        return f"'fom' is not a table (got {run.get('fom')!r})"
    verification = run.get("verification")
    if not isinstance(verification, dict) or not isinstance(verification.get("passed"), bool):
        return "'verification.passed' is not true or false"
    if not isinstance(run.get("checksum"), str):
        return f"'checksum' is not a string (got {run.get('checksum')!r})"
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
        if not isinstance(sim.get(key), str):
            return f"'{key}' is not a name (got {sim.get(key)!r})"
    measured = sim.get("measured_seconds")
    if measured is not None and not is_number(measured):
        return f"'measured_seconds' is not a number of seconds (got {measured!r})"
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
