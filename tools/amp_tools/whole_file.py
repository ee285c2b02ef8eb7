# SPDX-License-Identifier: BSD-3-Clause
"""A file written whole under its final name or not at all: the text goes to NAME.part, is checked up to
fsync, and is renamed to NAME; on failure (a full disk) the .part is removed and NotWritten names the
file and the cause in one line."""
import os

from amp_tools.output_places import refuse_link


class NotWritten(Exception):
    """A file could not be written (a full disk, an I/O error): one line naming it and the cause."""


def write_whole(path, data):
    """Writes `data` (str or bytes) to PATH.part, up to fsync, then renames it to PATH; a symbolic link at
    either name is refused (ThroughLink), and the .part is never opened through one."""
    part = path + ".part"
    refuse_link(path)
    refuse_link(part)
    try:
        with open(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644), "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.rename(part, path)
    except OSError as e:
        if os.path.exists(part):
            os.remove(part)
        raise NotWritten(f"cannot write '{path}': {e.strerror}") from None
