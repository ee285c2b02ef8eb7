# SPDX-License-Identifier: BSD-3-Clause
"""The one builder of a proxy's command line: a proxy name, a deck or none, and flags (a dict or a list)
become `mpiexec -n N <build>/bin/amp-PROXY --input DECK FLAGS...` (or the proxy alone, for a
one-process run such as --plan-only or --synthesize). The driver and bench/ use it.

Usage: python3 -m amp_tools.proxy_command PROXY [--input DECK] [--ranks N] [--build DIR] [--mpiexec M]
                                          [--mpiexec-flags F] [--null] [-- PROXY_FLAGS...]
       prints the command line, shell-quoted (with --null: each word ended by a NUL, for bash's mapfile -d '').
Exit codes: 0 printed, 2 usage error (one line on stderr).
"""
import os
import shlex
import sys

from amp_tools import command_line
from amp_tools import launch

PROXIES = ("ghost", "sage", "nobel", "micro")


def executable(proxy, build=None):
    """<build>/bin/amp-PROXY (build: the default build folder when None)."""
    return os.path.join(build or launch.default_build(), "bin", f"amp-{proxy}")


def flag_words(flags):
    """A proxy's flags as words: a dict {"nx": 8, "strategy": "svaf"} gives --nx 8 --strategy svaf in
    its order (a None value is left out); a list or tuple is taken as words already."""
    if not isinstance(flags, dict):
        return [str(word) for word in flags]
    return [word for key, value in flags.items() if value is not None for word in (f"--{key}", str(value))]


def proxy_line(proxy, flags=(), deck=None, build=None):
    """The proxy's own command, without a launcher: [exe, --input DECK, *flags]."""
    return [executable(proxy, build), *(["--input", deck] if deck else []), *flag_words(flags)]


def steps_flags(proxy, steps):
    """Flags that make a run of `steps` time steps: --num_tsteps, and for ghost --num_spikes 1, which a
    shorter run than its deck's needs (ghost refuses more spikes than steps; a spike is a source, which
    neither the trace nor a synthesis sees)."""
    return ["--num_tsteps", str(steps), *(["--num_spikes", "1"] if proxy == "ghost" else [])]


def without_flags(words, flags):
    """`words` (flags and their values, no binary) less every flag of `flags` with its value (`--flag VALUE`
    or `--flag=VALUE`): what is left to give a flag of its own (a proxy refuses one given twice)."""
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in flags:
            skip = True  # and its value
        elif word.split("=", 1)[0] not in flags:
            kept.append(word)
    return kept


def with_steps(args, proxy, steps):
    """A run's command line `args` (the binary first) made a run of `steps` time steps: the flags of
    steps_flags in place of any the run gives itself (a proxy refuses a flag given twice with two values)."""
    replaced = {flag for flag in steps_flags(proxy, steps) if flag.startswith("--")}
    return [args[0], *without_flags(args[1:], replaced), *steps_flags(proxy, steps)]


def command(proxy, flags=(), deck=None, ranks=None, build=None, mpiexec=None, mpiexec_flags=()):
    """The full command line: under `mpiexec -n ranks` (mpiexec: the default launcher when None), or the
    proxy alone when `ranks` is None."""
    line = proxy_line(proxy, flags, deck, build)
    if ranks is None:
        return line
    return launch.mpiexec(mpiexec or launch.default_mpiexec(), ranks, line, mpiexec_flags)


def parser():
    p = command_line.Parser("proxy_command", __doc__.split("\n\n")[0], parents=[command_line.common_options()])
    p.add_argument("proxy", choices=PROXIES)
    p.add_argument("--input", help="the deck (a TOML file)")
    p.add_argument("--ranks", type=int, help="ranks under mpiexec (default: the proxy alone, no launcher)")
    p.add_argument("--null", action="store_true", help="each word ended by a NUL instead of one quoted line")
    return p


def main(argv):
    split = argv.index("--") if "--" in argv else len(argv)
    options, proxy_flags = parser().parse_args(argv[:split]), argv[split + 1:]
    if options.ranks is not None and options.ranks < 1:
        command_line.refuse("proxy_command", f"--ranks must be at least 1 (got {options.ranks})")
    words = command(options.proxy, proxy_flags, options.input, options.ranks, options.build, options.mpiexec,
                    options.mpiexec_flags)
    if options.null:
        sys.stdout.write("".join(word + "\0" for word in words))
    else:
        print(shlex.join(words))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
