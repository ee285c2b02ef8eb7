# SPDX-License-Identifier: BSD-3-Clause
"""A file written whole under its final name or not at all: the text goes to NAME.part, is checked up to
fsync, and is renamed to NAME; on failure (a full disk) the .part is removed and NotWritten names the
file and the cause in one line."""
import os


class NotWritten(Exception):
    """A file could not be written (a full disk, an I/O error): one line naming it and the cause."""


def write_whole(path, data):
    """Writes `data` (str or bytes) to PATH.part, up to fsync, then renames it to PATH."""
    part = path + ".part"
    try:
        with open(part, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.rename(part, path)
    except OSError as e:
        if os.path.exists(part):
            os.remove(part)
        raise NotWritten(f"cannot write '{path}': {e.strerror}") from None
