# SPDX-License-Identifier: BSD-3-Clause
"""The command line of amp_tools' programs: argparse whose --help prints the usage line and the module's
own description, and whose every usage error is one `NAME: error: ...` line on stderr and exit 2
(argparse's own adds the usage); the options every program that runs the proxies shares (common_options);
and BadInput, a file named on it that cannot be used, in one line (results.read, the one reader, raises it)."""
import argparse
import sys

from amp_tools import launch

USAGE_ERROR = 2


class Parser(argparse.ArgumentParser):
    """argparse for `python3 -m amp_tools.NAME`: its usage errors are one line and exit 2."""

    def __init__(self, name, description, **kwargs):
        self.name = name
        super().__init__(prog=f"python3 -m amp_tools.{name}", description=description.strip(),
                         formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)

    def error(self, message):
        refuse(self.name, f"{message} (--help for usage)")


class Once(argparse.Action):
    """An option of one value given at most once: a second, different value is a usage error (argparse would
    take the last silently); the same value again is harmless."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, self.dest + "_given", None)
        if given is not None and given != values:
            parser.error(f"{option_string} given twice with different values ({given!r} and {values!r}); give it once")
        setattr(namespace, self.dest + "_given", values)
        setattr(namespace, self.dest, values)


def common_options(launcher=True):
    """The parent parser (argparse `parents=[...]`) of the options shared by every program that runs the
    proxies, each with one default: --build (the driver's build folder) and, with `launcher`, --mpiexec
    (the driver's launcher) and --mpiexec-flags."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--build", default=launch.default_build(),
                        help="build folder with bin/amp-* (default: %(default)s)")
    if launcher:
        parent.add_argument("--mpiexec", default=launch.default_mpiexec(), help="launcher (default: %(default)s)")
        parent.add_argument("--mpiexec-flags", default="", help="extra launcher flags, as one shell string")
    return parent


def refuse(name, message):
    """Ends the program with one `NAME: error: MESSAGE` line and exit 2."""
    print(f"{name}: error: {message}", file=sys.stderr)
    sys.exit(USAGE_ERROR)


class BadInput(Exception):
    """A file named on the command line that cannot be used: one line naming it and the problem."""
