# SPDX-License-Identifier: BSD-3-Clause
"""Control characters in text a user gave (a --set KEY=VALUE, a folder's path that goes into a script): a
newline there would start a second line where one was meant, so such text is refused, never cleaned."""
import re

# C0 (newline, tab, NUL...), DEL and C1: what a terminal, a shell script or a TOML line may act on.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def first_control_character(text):
    """The first control character of `text`, as Python writes it ('\\n', '\\x00'), or None."""
    found = CONTROL.search(text)
    return repr(found.group())[1:-1] if found else None
