#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The flags every proxy shares (src/amp/miniapps/common/run_config.hpp), as a user meets them in amp-ghost,
amp-sage and amp-nobel alike. `refusal FLAG`: one bad value of that flag is refused by every proxy
with exit 2 and the same one line (amp-ghost adds miniGhost's strategy codes to the choices).
`aliases`: --comm_method is --strategy by its older name (same run, same checksum, one warning), the results
JSON names it `strategy` alone (schema_version 2), and --scaling keeps each proxy's default
(ghost weak, sage strong)."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

PROXIES = ["amp-ghost", "amp-sage", "amp-nobel"]
STRATEGY_ALSO = {"amp-ghost": ", or miniGhost's 10, 11"}  # a proxy's own additions to the strategy choices
# The smallest run each proxy verifies, for the alias checks.
TINY = {
    "amp-ghost": ["--nx", "4", "--ny", "4", "--nz", "4", "--num_vars", "2", "--num_tsteps", "2"],
    "amp-sage": ["--nx", "4", "--ny", "4", "--nz", "4", "--num_vars", "2", "--num_tsteps", "2"],
    "amp-nobel": ["--nbx", "2", "--nby", "2", "--nbz", "2", "--block", "4", "--max_level", "1", "--num_tsteps", "2"],
}
DEFAULT_SCALING = {"amp-ghost": "weak", "amp-sage": "strong"}


def registry(a, proxy):
    """The strategies and transports as the proxy lists them (--list-combinations --json)."""
    done = fr.run(a, proxy, ["--list-combinations", "--json"], ranks=None)
    if done.returncode != 0:
        fr.fail(f"{proxy} --list-combinations --json: exit {done.returncode}: {done.stderr.strip()}")
    listing = json.loads(done.stdout)
    return [s["name"] for s in listing["strategies"]], [t["name"] for t in listing["transports"]]


def refusals(a, proxy):
    """flag -> (its bad value, the message after '<proxy>: error: ')."""
    strategies, transports = registry(a, proxy)
    return {
        "num_vars": (["--num_vars", "0"], "num_vars must be at least 1 (got 0)"),
        "num_tsteps": (["--num_tsteps", "0"], "num_tsteps must be at least 1 (got 0)"),
        "strategy": (["--strategy", "nosuch"],
                     f"unknown strategy 'nosuch' (use {', '.join(strategies)}{STRATEGY_ALSO.get(proxy, '')})"),
        "transport": (["--transport", "nosuch"], f"unknown transport 'nosuch' (use {', '.join(transports)})"),
        "error_tol": (["--error_tol", "16"], "error_tol must be 1..15 (got 16)"),
        "seed": (["--seed", "-1"], "--seed: '-1' is negative"),
        "progress": (["--progress", "-1"], "progress must be >= 0 seconds"),
        "inject_fault": (["--inject_fault", "nan"], "--inject_fault: 'nan' is not a finite number"),
    }


def check_refusal(a, flag):
    for proxy in PROXIES:
        cases = refusals(a, proxy)
        if flag not in cases:
            fr.fail(f"no bad value known for --{flag} (known: {', '.join(cases)})")
        arguments, message = cases[flag]
        fr.expect_refusal(fr.run(a, proxy, arguments, ranks=2), 2, f"{proxy}: error: {message}",
                          f"{proxy} {' '.join(arguments)}")
    print(f"test_shared_flags: --{flag}: the same one line from {', '.join(PROXIES)}")


def results_of(a, proxy, arguments, folder, name, warnings=None):
    path = os.path.join(folder, f"{proxy}-{name}.json")
    done = fr.run(a, proxy, TINY[proxy] + ["--progress", "0", "--results", path] + arguments, ranks=2)
    if done.returncode != 0:
        fr.fail(f"{proxy} {' '.join(arguments)}: exit {done.returncode}: {fr.lines_of(done)[-3:]}")
    if warnings is not None:
        warnings.extend(line for line in done.stderr.splitlines() if ": warning: " in line)
    with open(path) as f:
        return json.load(f)


def check_aliases(a):
    with tempfile.TemporaryDirectory() as folder:
        for proxy in PROXIES:
            new_warnings, old_warnings = [], []
            new = results_of(a, proxy, ["--strategy", "SVAF"], folder, "strategy", new_warnings)
            old = results_of(a, proxy, ["--comm_method", "svaf"], folder, "comm_method", old_warnings)
            warned = f"{proxy}: warning: --comm_method is deprecated; use --strategy (in a deck: strategy = ...)"
            if new_warnings or old_warnings != [warned]:  # once, from rank 0 of the 2
                fr.fail(f"{proxy}: expected no warning for --strategy and one for --comm_method, got "
                        f"{new_warnings} and {old_warnings}")
            for results, flag in ((new, "--strategy"), (old, "--comm_method")):
                config = results["config"]
                if results["schema_version"] != 2 or config.get("strategy") != "svaf" or "comm_method" in config:
                    fr.fail(f"{proxy} {flag} svaf: schema_version {results['schema_version']}, config "
                            f"{ {k: v for k, v in config.items() if k in ('strategy', 'comm_method')} }, "
                            "expected version 2 with strategy 'svaf' alone")
            if new["checksum"] != old["checksum"]:
                fr.fail(f"{proxy}: --strategy svaf and --comm_method svaf differ: {new['checksum']} != "
                        f"{old['checksum']}")
            if proxy in DEFAULT_SCALING and new["config"].get("scaling") != DEFAULT_SCALING[proxy]:
                fr.fail(f"{proxy}: default scaling {new['config'].get('scaling')!r}, expected "
                        f"{DEFAULT_SCALING[proxy]!r}")
    print("test_shared_flags: --comm_method is --strategy in every proxy; scaling defaults kept")


def main():
    p = fr.parser(__doc__)
    p.add_argument("check", choices=["refusal", "aliases"])
    p.add_argument("flag", nargs="?", help="with refusal: the shared flag, without its dashes")
    a = p.parse_args()
    if a.check == "refusal":
        check_refusal(a, a.flag)
    else:
        check_aliases(a)


if __name__ == "__main__":
    main()
