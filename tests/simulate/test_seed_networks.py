#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The seeds' machines as network files (inputs/networks/{xt5-seastar,xt6-seastar,xe6-gemini,cascade-dragonfly,
trinity-haswell,trinity-knl}.toml): each loads (tools/networks.py), and every line that gives a value
says where the value comes from, a seed paper (`000` to `004` with a table, figure or section)
or `assumption:` with its reason. A value without a source, or a source that names no table, figure
or section, fails the test with the file and line. The keys whose defaults change results (the message
costs, the packet size, the loopback) must be given in each file, so that each has its source line.

Usage: test_seed_networks.py ROOT
"""
import os
import re
import sys

SEED_NETWORKS = ("xt5-seastar", "xt6-seastar", "xe6-gemini", "cascade-dragonfly", "trinity-haswell", "trinity-knl")
# A source: a seed paper and where in it, or an assumption and why (at least a few words).
# Keys a file must give itself: their defaults (0 s per message, SST-macro's 4 KiB packets, a 40 GB/s loopback)
# change predictions and would have no source line.
EXPLICIT = ("message_overhead", "nic_message_overhead", "packet_size", "loopback_bandwidth", "loopback_latency",
            "router_latency")
SOURCE = re.compile(r"#\s*(?:(?:000|001|002|003|004) (?:Table|Fig\.|Figure|section)\s*\S+|assumption: \S+ \S+ \S+)")


def unsourced_lines(path):
    """(line number, text) of each value line of the file without a source comment."""
    bad = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if "=" in text.split("#", 1)[0] and not SOURCE.search(text):
                bad.append((number, text))
    return bad


def defaulted_keys(path):
    """The EXPLICIT keys the file leaves to their defaults."""
    with open(path) as f:
        given = {line.split("=", 1)[0].strip() for line in f if "=" in line.split("#", 1)[0]}
    return [key for key in EXPLICIT if key not in given]


def main(root):
    from amp_tools import networks
    from amp_tools import simulators
    failures = []
    for name in SEED_NETWORKS:
        path = os.path.join(root, "inputs", "networks", f"{name}.toml")
        try:
            network = networks.load(path)
        except networks.NetworkError as e:
            failures.append(f"{path}: does not load: {e}")
            continue
        failures += [f"{path} line {n}: no source comment (a seed's table, figure or section, or "
                     f"'assumption: why'): {text}" for n, text in unsourced_lines(path)]
        failures += [f"{path}: {key} is left to its default, which changes results: give it with its source"
                     for key in defaulted_keys(path)]
        if not any(simulators.refusal(network, s) is None for s in simulators.NAMES):
            failures.append(f"{path}: no simulator can run it")
    for line in failures:
        print(line)
    if failures:
        return 1
    print(f"ok: {len(SEED_NETWORKS)} seed network files load, every value sourced")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
