# SPDX-License-Identifier: BSD-3-Clause
"""The one sanitizer for names that come from data (a proxy name, a network's name, a study value) and
become part of a file name: every output path that report, study and simulate build from such text
passes through `component` (one file-name part) or `output_path` (a file inside a folder).

A component keeps letters, digits and '.', '_', '+', '-'; any other character becomes '_', a leading dot
becomes '_' (no hidden files, no '..'), and a name longer than MAX_LENGTH is cut and given an 8-digit
hash of the whole text, so two long names that differ only at their end stay apart. A name that had to
change is also given that hash, so "a/b" and "a_b" never share a file.
"""
import hashlib
import os
import re

MAX_LENGTH = 80
KEPT = re.compile(r"[A-Za-z0-9._+-]")


def _digest(text):
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def component(text):
    """`text` (any str; other values are taken as str) as one safe file-name component, never empty,
    never '.', '..' or hidden, never holding '/', NUL or a control character."""
    text = str(text)
    safe = "".join(c if KEPT.fullmatch(c) else "_" for c in text)
    if safe.startswith("."):
        safe = "_" + safe[1:]
    changed = safe != text or not safe
    if len(safe) > MAX_LENGTH or changed:
        safe = f"{safe[:MAX_LENGTH - 9] or '_'}-{_digest(text)}"
    return safe


def output_path(folder, *parts):
    """folder/part1/part2... with each part made a safe component: the path always lies inside `folder`."""
    path = os.path.join(folder, *(component(part) for part in parts))
    inside = os.path.commonpath([os.path.abspath(folder), os.path.abspath(path)]) == os.path.abspath(folder)
    assert inside, f"{path} is outside {folder}"  # cannot happen: no component holds a separator or is '..'
    return path
