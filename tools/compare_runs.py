#!/usr/bin/env python3
"""Prints AMP results files side by side: time per step, messages and bytes per step per rank,
the compute / pack / MPI-wait / collective split, verification and checksum agreement.

Usage: tools/compare_runs.py RESULTS.json [RESULTS.json ...]
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def row(label, values, fmt="{:>14}"):
    return f"{label:<30}" + "".join(fmt.format(v) for v in values)


def main(paths):
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    runs = [load(p) for p in paths]
    names = [r["config"].get("comm_method", "?") for r in runs]
    t = [r["timing"] for r in runs]
    steps = [r["config"].get("num_tsteps", 1) for r in runs]
    per_step = lambda key: [f"{x[key]['avg'] / s * 1e3:.2f}" for x, s in zip(t, steps)]
    lines = [
        row("", names),
        row("time per step (ms)", [f"{x['per_step_seconds'] * 1e3:.2f}" for x in t]),
        row("  compute (ms/step, avg rank)", per_step("compute")),
        row("  pack (ms/step)", per_step("pack")),
        row("  unpack (ms/step)", per_step("unpack")),
        row("  MPI post+wait (ms/step)", per_step("mpi")),
        row("    of which wait (ms/step)", per_step("mpi_wait")),
        row("  collectives (ms/step)", per_step("collective")),
        row("messages / step / rank", [f"{r['messages']['per_step_per_rank']['avg']:.1f}" for r in runs]),
        row("bytes / step / rank", [f"{r['bytes']['per_step_per_rank']['avg']:.3g}" for r in runs]),
        row("avg message size (B)", [f"{r['bytes']['total'] / max(1, r['messages']['total']):.0f}" for r in runs]),
        row("verification", ["passed" if r["verification"]["passed"] else "FAILED" for r in runs]),
        row("checksum", [r["checksum"] for r in runs], fmt="{:>18}"),
    ]
    print("\n".join(lines))
    base = runs[0]["timing"]["per_step_seconds"]
    print(row("time vs " + names[0], [f"{r['timing']['per_step_seconds'] / base:.2f}x" for r in runs]))
    same = len({r["checksum"] for r in runs}) == 1
    print(f"checksums {'identical' if same else 'DIFFER'} across {len(runs)} runs")
    return 0 if same and all(r["verification"]["passed"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
