# SPDX-License-Identifier: BSD-3-Clause
"""AMP's Python tools as one package: each module runs as `python3 -m amp_tools.<module>` with tools/ on
PYTHONPATH (./amp and CTest set it) or installed in place (`pip install -e .`, the root's pyproject.toml;
--help gives each one's usage); a tool that starts another one uses module_command and
module_environment, so that the child finds the package however this process found it."""
import os
import sys

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tools/
REPOSITORY = os.path.dirname(PACKAGE_PARENT)
# The schema_version of every JSON file the tools write (docs/schema/; the C++ side: src/amp/trace/format/
# json_schema_version.hpp), checked by amp_tools.schemas.
SCHEMA_VERSION = 1
# A proxy's results (a run, a --synthesize, a --plan-only) are at 2: the strategy under `strategy` alone.
# amp_tools.results still reads their version 1, which also wrote it under an older key.
RESULTS_SCHEMA_VERSION = 2
NEWEST_SCHEMA_VERSION = max(SCHEMA_VERSION, RESULTS_SCHEMA_VERSION)  # past it, a file is refused as newer


def module_command(module, python=None):
    """The command line that runs amp_tools.<module> as a program (with module_environment)."""
    return [python or sys.executable, "-m", f"amp_tools.{module}"]


def module_environment(env=None, **extra):
    """`env` (default: this process's) plus `extra`, with the package's folder first on PYTHONPATH."""
    env = dict(os.environ if env is None else env, **extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    return env
