# SPDX-License-Identifier: BSD-3-Clause
"""A study's folder, runs/<name>-<stamp>/: found again for the same study file or made new, held by one
`./amp study` at a time (a lock file, flock); an earlier attempt's file in it is set aside as
NAME.attempt-N."""
import datetime
import errno
import fcntl
import os
import shutil

from amp_tools.output_places import refuse_link
from amp_tools.whole_file import NotWritten, write_whole

LOCK = "study.lock"


class FolderBusy(Exception):
    """Another `./amp study` holds the folder: a usage error (exit 2)."""


def keep_aside(path):
    """Renames an earlier attempt's file or folder to PATH.attempt-N (nothing is overwritten)."""
    if not os.path.lexists(path):
        return
    n = 1
    while os.path.lexists(f"{path}.attempt-{n}"):
        n += 1
    os.rename(path, f"{path}.attempt-{n}")


def lock(folder):
    """Holds FOLDER/study.lock until this process ends (the descriptor is not inherited by the runs);
    raises FolderBusy naming the holder's pid when another process holds it."""
    path = os.path.join(folder, LOCK)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise NotWritten(f"cannot create the lock file '{path}': {e.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise NotWritten(f"cannot lock '{path}': {e.strerror}") from None
        holder = os.read(fd, 32).decode(errors="replace").strip()
        os.close(fd)
        raise FolderBusy(f"{folder}/ is in use by another ./amp study (pid {holder or 'unknown'}); wait for it to "
                         "end, or give --new") from None
    try:  # the pid is only for the message above: a full disk does not stop the study here
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError:
        pass
    return fd


def open_folder(study, root, new):
    """The latest runs/<name>-<stamp>/ made from this very study file, or a new one holding a copy of
    it; locked. Returns (folder, resumed). study.name is checked against a strict pattern (letters, digits,
    '.', '_', '-': Study), so it is a file-name part as it stands."""
    runs_dir = os.path.join(root, "runs")
    if not new and os.path.isdir(runs_dir):
        for entry in sorted(os.listdir(runs_dir), reverse=True):
            saved = os.path.join(runs_dir, entry, "study.toml")
            if entry.startswith(study.name + "-") and os.path.isfile(saved):
                refuse_link(os.path.join(runs_dir, entry))  # resumed, it would be written into
                with open(saved, "rb") as f:
                    if f.read() == study.text_bytes:
                        folder = os.path.join(runs_dir, entry)
                        lock(folder)
                        return folder, True
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    folder, n = os.path.join(runs_dir, f"{study.name}-{stamp}"), 0
    while True:
        try:
            os.makedirs(folder)
            break
        except FileExistsError:  # an earlier study, or one started in the same second
            n += 1
            folder = os.path.join(runs_dir, f"{study.name}-{stamp}-{n}")
        except OSError as e:
            raise NotWritten(f"cannot create the study folder '{folder}': {e.strerror}") from None
    try:
        lock(folder)
        # study.toml appears whole, and only once this process holds the folder: a second call resuming it
        # finds the lock taken.
        write_whole(os.path.join(folder, "study.toml"), study.text_bytes)
    except NotWritten:
        shutil.rmtree(folder, ignore_errors=True)  # nothing but the lock file and a removed .part
        raise
    return folder, False
