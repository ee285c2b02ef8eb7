#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The one reader of a proxy's results JSON (README "Output fields"): every tool asks these functions for
a run's strategy, transport, time per step, split, messages, verification and checksum, so that the file's
layout is decoded here alone. A run is the dict the proxy wrote (load), checked by results_shape where
a tool needs it whole. Every JSON file the tools read from disk, results or not (simulations, a study's
outcome and compute model, the SimGrid export's summary, amp-micro's rows), is read by load or read.

Usage: python3 -m amp_tools.results --verified RESULTS.json   (exit 0 when it exists and verified, else 1;
       a study's Slurm script asks it so)
"""
import errno
import json
import os
import stat
import sys

import amp_tools
from amp_tools import command_line


class NewerSchema(ValueError):
    """A file whose schema_version is newer than this AMP reads: one line naming both."""


def parse(text):
    """JSON text as data: ValueError where it is not JSON, or nested more deeply than Python's parser goes
    (RecursionError: about 1000 levels; no file AMP writes is 10 deep), NewerSchema where its
    schema_version is newer than any this AMP reads (amp_tools.NEWEST_SCHEMA_VERSION)."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("nested more deeply than AMP reads") from None
    version = data.get("schema_version") if isinstance(data, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > amp_tools.NEWEST_SCHEMA_VERSION:
        raise NewerSchema(f"schema_version {version} is newer than this AMP reads ({amp_tools.NEWEST_SCHEMA_VERSION})")
    return data


def load(path):
    """The results of one run, as the proxy wrote them (OSError or ValueError when unreadable: parse). Only
    a regular file is read: a FIFO or a device under a .json name is an OSError, never waited on."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", path)
    with os.fdopen(fd, "rb") as f:
        return parse(f.read())


def read(path):
    """load for a file named on the command line: BadInput, one line naming it, where it is missing, not a
    regular file, unreadable or not JSON (or not UTF-8)."""
    if not os.path.exists(path):
        raise command_line.BadInput(f"'{path}': no such file")
    if not os.path.isfile(path):
        raise command_line.BadInput(f"'{path}' is not a regular file")
    try:
        return load(path)
    except OSError as e:
        raise command_line.BadInput(f"cannot read '{path}': {e.strerror}") from None
    except NewerSchema as e:
        raise command_line.BadInput(f"'{path}': {e}") from None
    except ValueError as e:
        raise command_line.BadInput(f"'{path}' is not JSON ({e})") from None


def finished(path):
    """Whether the results at `path` exist and say the run's answer verified."""
    try:
        return verified(load(path))
    except (OSError, ValueError, KeyError, TypeError):
        return False


def steps(run):
    """Time steps of the run (at least 1)."""
    return max(1, run["config"].get("num_tsteps", 1))


def step_seconds(run):
    """Wall time per step, seconds."""
    return run["timing"]["per_step_seconds"]


def timing(run, key, field="avg"):
    """One entry of the run's timing (compute, pack, mpi, packed_elements, ...) over ranks by `field`
    (min, avg, max): seconds, or counts for the *_elements entries; None where the run has none."""
    entry = run["timing"].get(key)
    return None if entry is None else entry[field]


def loop_seconds(run):
    """Wall time of the whole time loop, seconds."""
    return run["timing"]["loop_seconds"]


def per_step_ms(run, key, field="avg"):
    """One timing entry (compute, pack, mpi, ...) per step in ms, over ranks by `field` (min, avg, max);
    0 where the run has no such entry."""
    value = timing(run, key, field)
    return 0.0 if value is None else value / steps(run) * 1e3


# The configuration key of the strategy (--strategy). Results of schema_version 1 also wrote it under an
# older name (the oldest under that name alone); this reader of them is the only place that name is read.
STRATEGY = "strategy"
OLD_STRATEGY = "comm_method"


def config_strategy(config, default="?"):
    """The strategy a run's configuration names: config.strategy, or config.comm_method in version-1 results."""
    return config.get(STRATEGY, config.get(OLD_STRATEGY, default))


def config(run):
    """The run's configuration with its strategy under `strategy` alone (the older name dropped), so that a
    tool that compares configurations sees one key for it whatever the file's age."""
    found = {k: v for k, v in run["config"].items() if k != OLD_STRATEGY}
    if OLD_STRATEGY in run["config"]:
        found[STRATEGY] = config_strategy(run["config"])
    return found


def strategy(run):
    """The strategy (--strategy) the run used."""
    return config_strategy(run["config"])


def transport(run):
    return run["config"].get("transport", "isend")


def messages_per_step_per_rank(run):
    return run["messages"]["per_step_per_rank"]["avg"]


def messages_per_second_per_rank(run):
    return run["messages"]["per_second_per_rank"]["avg"]


def bytes_per_step_per_rank(run):
    return run["bytes"]["per_step_per_rank"]["avg"]


def average_message_bytes(run):
    return run["bytes"]["total"] / max(1, run["messages"]["total"])


def verified(run):
    return run["verification"]["passed"] is True


def checksum(run):
    return run["checksum"]


def fom(run, key, default=None):
    """One figure of merit the proxy reports (e.g. cells_per_step_per_pe_per_second); `default` where the run
    reports none of that name (a KeyError without one)."""
    return run["fom"][key] if default is None else run["fom"].get(key, default)


def size_histogram(run):
    """The run's messages per power-of-two size bin: [{min_bytes, max_bytes, count}], over every rank and step."""
    return run["messages"]["size_histogram"]


def machine_load(run):
    """What the run measured of the node's load (load averages, other_cpu_seconds, wall_seconds, cores), or
    None: older results have none, and a file of another kind is no run."""
    load = run.get("machine_load") if isinstance(run, dict) else None
    return load if isinstance(load, dict) else None


def compute_per_variable_step(run):
    """The average rank's compute seconds per variable and step."""
    config = run["config"]
    return run["timing"]["compute"]["avg"] / (config["num_tsteps"] * config["num_vars"])


def block_cells(run):
    """Cells of one rank's block (nx * ny * nz of the configuration)."""
    config = run["config"]
    return config["nx"] * config["ny"] * config["nz"]


def synthesized_compute_step(run):
    """The first step of the compute model a synthesis used: {step, seconds}."""
    return run["synthesis"]["compute_model"]["steps"][0]


def synthesized_compute_seconds(run):
    """The compute time per step a synthesis modelled (its first step)."""
    return synthesized_compute_step(run)["seconds"]


def main(args):
    parser = command_line.Parser("results", __doc__)
    parser.add_argument("--verified", metavar="RESULTS.json", required=True,
                        help="exit 0 when this results file exists and says the run verified, else 1")
    try:
        path = parser.parse_args(args).verified
    except SystemExit as done:  # --help (0) or a usage error, said in one line (2)
        return done.code
    return 0 if finished(path) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
