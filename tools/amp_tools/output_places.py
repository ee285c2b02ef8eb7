# SPDX-License-Identifier: BSD-3-Clause
"""The places AMP writes into (report/, a study's folder and files, a simulation's JSON, the SimGrid export,
a calibration's file) are never symbolic links it did not make: a link there would have AMP replace or add
files in the folder the link points to. Each such place is checked before it is written; a link is refused
with one line (ThroughLink, a usage error: exit 2)."""
import os


class ThroughLink(Exception):
    """An output place is a symbolic link: one line naming it (a usage error, exit 2)."""


def refuse_link(path):
    """Raises ThroughLink when `path` is a symbolic link (a dangling one too)."""
    if os.path.islink(path):
        raise ThroughLink(f"'{path}' is a symbolic link; AMP never writes through a link it did not make "
                          f"(remove the link or write elsewhere)")


def make_folder(path):
    """Creates the folder `path` (and its parents) unless it exists; a link at its name is refused."""
    refuse_link(path)
    os.makedirs(path, exist_ok=True)
    refuse_link(path)  # made meanwhile by another process: still not written through
