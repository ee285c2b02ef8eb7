# SPDX-License-Identifier: BSD-3-Clause
"""The failures of `./amp simulate` and its parts (simulate.py, simgrid_export.py, calibrate.py), each
one line that simulate's main() prints with its exit code: 2 bad input, 3 the simulator failed, 4 a
result that could not be written."""


class UsageError(Exception):
    """Bad input: exit 2."""


class SimulatorError(Exception):
    """The simulator (or the exporter, or the ping-pong) failed: exit 3."""


class OutputError(Exception):
    """A result could not be written: exit 4."""
