# SPDX-License-Identifier: BSD-3-Clause
"""Who imports whom, read from the source: amp_tools has no import circle (a module that needs another's
name imports it from where it is defined, and the two never need each other), and neither bench/ nor
tools/ imports from tests/ (what a bench shares with a test lives in amp_tools, as conformance_traces)."""
import ast
import glob
import os

import amp_tools

ROOT = amp_tools.REPOSITORY
PACKAGE = os.path.join(ROOT, "tools", "amp_tools")


def module_name(path):
    """amp_tools' dotted name of a file of the package (its __init__.py: the package itself)."""
    parts = os.path.relpath(path, os.path.dirname(PACKAGE))[:-len(".py")].split(os.sep)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree, package_modules):
    """The modules of the package that a parsed file imports, at any depth (a function's own import too):
    `from amp_tools import x` names the module amp_tools.x where one exists, else amp_tools itself."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in package_modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                whole = f"{node.module}.{a.name}"
                found.add(whole if whole in package_modules else node.module)
    return found & package_modules


def package_graph(sources):
    """{module: the package's modules it imports} for `sources` ({module: its source text})."""
    modules = set(sources)
    return {m: imported(ast.parse(text), modules) - {m} for m, text in sources.items()}


def circles(graph):
    """Each import circle once, as the list of its modules from its smallest name round to it again."""
    found = set()

    def walk(path):
        for nxt in sorted(graph.get(path[-1], ())):
            if nxt == path[0]:
                found.add(tuple(path))
            elif nxt not in path and nxt > path[0]:  # a circle is found from its smallest member alone
                walk(path + [nxt])

    for start in sorted(graph):
        walk([start])
    return sorted(list(c) + [c[0]] for c in found)


def package_sources():
    sources = {}
    for path in sorted(glob.glob(os.path.join(PACKAGE, "**", "*.py"), recursive=True)):
        with open(path) as f:
            sources[module_name(path)] = f.read()
    return sources


def test_amp_tools_has_no_import_circle():
    graph = package_graph(package_sources())
    assert "amp_tools.results" in graph and "amp_tools.simulators.sstmac" in graph  # the whole package was read
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle_of_two_and_of_three():
    """Its own check: circles it must see (a module that imports a name back from one that imports it)."""
    two = {"amp_tools": "", "amp_tools.a": "from amp_tools import b\n", "amp_tools.b": "from amp_tools.a import f\n"}
    assert circles(package_graph(two)) == [["amp_tools.a", "amp_tools.b", "amp_tools.a"]]
    three = {"amp_tools.x": "def f():\n    import amp_tools.y\n", "amp_tools.y": "from amp_tools import z\n",
             "amp_tools.z": "from amp_tools import x\n", "amp_tools.w": "import amp_tools.x\n"}
    assert circles(package_graph(three)) == [["amp_tools.x", "amp_tools.y", "amp_tools.z", "amp_tools.x"]]


def test_modules_of_tests():
    """What the next test looks for: the names a file under tests/ is imported by (its module names)."""
    names = modules_of_tests()
    assert {"test_conformance", "fault_run", "test_study_simulate", "conftest"} <= names
    assert "amp_tools" not in names and "results" not in names


def modules_of_tests():
    return {os.path.basename(p)[:-len(".py")] for p in glob.glob(os.path.join(ROOT, "tests", "**", "*.py"),
                                                                  recursive=True)}


def imports_of_tests(source, names):
    """Each place a file's source reaches into tests/: an import of a module that lives there, or a sys.path
    entry that names the folder."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0] in names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in names:
            found.append(f"{node.lineno}: from {node.module}")
        elif isinstance(node, ast.Call) and ast.unparse(node.func) in ("sys.path.insert", "sys.path.append"):
            if any(isinstance(c, ast.Constant) and c.value == "tests" for c in ast.walk(node)):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda where: int(where.split(":")[0]))


def test_bench_and_tools_import_nothing_from_tests():
    names = modules_of_tests()
    found = []
    for folder in ("bench", "tools"):
        for path in sorted(glob.glob(os.path.join(ROOT, folder, "**", "*.py"), recursive=True)):
            with open(path) as f:
                found += [f"{os.path.relpath(path, ROOT)}:{where}" for where in imports_of_tests(f.read(), names)]
    assert found == []


def test_an_import_from_tests_is_found():
    names = {"test_conformance", "fault_run"}
    source = ("import os\nimport sys\nsys.path.insert(0, os.path.join(ROOT, 'tests', 'simulate'))\n"
              "from test_conformance import Suite\nimport fault_run as fr\nfrom amp_tools import results\n")
    assert imports_of_tests(source, names) == [
        "3: sys.path.insert(0, os.path.join(ROOT, 'tests', 'simulate'))", "4: from test_conformance",
        "5: import fault_run"]
