# SPDX-License-Identifier: BSD-3-Clause
"""No module of amp_tools over 450 lines: a module that grows past it is split along a seam,
one idea per file."""
import glob
import os

import amp_tools

MOST_LINES = 450


def test_no_module_is_over_450_lines():
    over = {}
    package = os.path.join(amp_tools.REPOSITORY, "tools", "amp_tools")
    for path in glob.glob(os.path.join(package, "**", "*.py"), recursive=True):
        with open(path) as f:
            lines = sum(1 for _ in f)
        if lines > MOST_LINES:
            over[os.path.relpath(path, package)] = lines
    assert not over, f"modules over {MOST_LINES} lines: {over}"
