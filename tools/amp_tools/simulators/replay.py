# SPDX-License-Identifier: BSD-3-Clause
"""What `./amp simulate` hands every simulator's module (Job) and what each hands back (Outcome): the one
shape of a replay, whichever simulator runs it (simulators/__init__.py lists them)."""
import os
from dataclasses import dataclass, field


def missing_executable(variable, what, version):
    """"needs ..." when the environment variable `variable` names no executable file (`what`: the program it
    should name, and its `version`, for the line), else None: how a simulator outside AMP's own dependencies
    is found."""
    path = os.environ.get(variable)
    if not path or not os.path.isfile(path) or not os.access(path, os.X_OK):
        return (f"needs {variable} to name {what} executable file ({version}; "
                f"{variable} is {repr(path) if path else 'not set'})")
    return None


@dataclass
class Job:
    """One replay: the checked machine, the trace and its TI export (simgrid_export.export: the export's
    folder and its export.json), AMP's build and source trees, a temporary folder of its own, the seconds
    the simulator may run and the simulator ranks it runs on (--sim-ranks)."""
    network: object
    trace_dir: str
    export_dir: str
    summary: dict
    build: str
    root: str
    amp_trace: str
    workdir: str
    timeout: float
    sim_ranks: int = 1
    mpiexec: str = "mpiexec"


@dataclass
class Outcome:
    """A replay's result: the predicted seconds, per-rank finish times (None where the simulator gives none),
    the simulator's version, what it was given in its own terms, the engine that ran it, and the figures and
    notes the simulation's JSON carries beside the common fields (network_metrics, simulated_profile)."""
    predicted: float
    per_rank: list
    version: str
    description: dict
    engine: str
    figures: dict = field(default_factory=dict)
