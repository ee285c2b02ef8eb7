# SPDX-License-Identifier: BSD-3-Clause
"""A study as a Slurm batch script (`./amp study --slurm`): one srun job step per run, finished runs skipped,
then a parallel simulator's replays of the traced runs (`[simulate] sim_ranks`), each an `srun -n N` job step.

Every path in the script is quoted for what reads it: bash (shlex.quote), and sbatch, which reads an
#SBATCH line with rules of its own (sbatch_word). A path holding a control character (a newline would end a
comment or a directive and start a command) is refused before any folder is made (check_paths).
"""
import os
import re
import shlex

import amp_tools
from amp_tools import launch
from amp_tools import simulators
from amp_tools import study_simulation
from amp_tools.control_characters import first_control_character
from amp_tools.study_launch import TRACE_FAILED


class UnsafePath(Exception):
    """A path the script would hold has a control character: a usage error (exit 2)."""


def check_paths(**paths):
    """Raises UnsafePath naming the first of `paths` (what=path) that holds a control character."""
    for what, path in paths.items():
        control = first_control_character(path)
        if control:
            raise UnsafePath(f"the {what.replace('_', ' ')} {path!r} holds the control character {control}: a Slurm "
                             f"script cannot name it safely; use a folder without one")


def sbatch_word(text):
    """`text` as one argument of an #SBATCH line, which sbatch splits itself (src/sbatch/opt.c,
    _get_argument): in double quotes, with '\\', '"', "'" and '#' (an unescaped '#' starts a comment even
    inside quotes in older sbatch) escaped by a backslash. Control characters are refused before."""
    return '"' + re.sub(r"""([\\"'#])""", r"\\\1", text) + '"'


def output_pattern(path):
    """A file name for #SBATCH --output, where '%' starts a replacement (%j: the job id): '%' doubled."""
    return path.replace("%", "%%")


def slurm_script(study, runs, folder, opts):
    """An sbatch script: one srun job step per run, finished runs skipped, modules left to the user."""
    q = shlex.quote
    s = study.slurm
    ranks = max(r["ranks"] for r in runs)
    cpus = s.get("cpus_per_task", 1)  # validated: a positive integer; time, partition, account: plain words
    output = output_pattern(os.path.join(folder, "slurm-")) + "%j.out"
    lines = ["#!/bin/bash",
             # study.name: checked against a strict pattern (letters, digits, '.', '_', '-'), as the folder's name
             f"# AMP study '{study.name}': {len(runs)} runs, one srun job step each. Submit with: "
             f"sbatch {q(os.path.join(folder, 'study.sbatch'))}",
             "# Runs whose results JSON exists and verified are skipped, so the script can be submitted again; "
             "afterwards",
             f"# `./amp report {q(folder)}` draws the figures.",
             f"#SBATCH --job-name=amp-{study.name}",
             f"#SBATCH --ntasks={ranks}",
             f"#SBATCH --cpus-per-task={cpus}",
             f"#SBATCH --time={s.get('time', '01:00:00')}",
             f"#SBATCH --output={sbatch_word(output)}"]
    for key, option in (("nodes", "nodes"), ("ntasks_per_node", "ntasks-per-node"), ("partition", "partition"),
                        ("account", "account")):
        if key in s:
            lines.append(f"#SBATCH --{option}={s[key]}")
    lines += ["set -u", "",
              "# Modules: load the MPI and Kokkos this build was made with (the study's [slurm] modules)."]
    modules = s.get("modules", [])
    lines += [f"module load {q(m)}" for m in modules] or ["# module load gcc openmpi   # <- your site's modules here"]
    job_step = launch.srun('"$ranks"', cpus, '"$@" --results "$id.json"')
    lines += ["", f"cd {q(folder)}",
              f"export OMP_NUM_THREADS=${{OMP_NUM_THREADS:-{cpus}}} OMP_PROC_BIND=${{OMP_PROC_BIND:-false}}",
              "failed=0 trace_failed=0",
              "# verified ID: ID.json exists and says the answer verified (a run that failed verification runs again).",
              "verified() {",
              f"  [[ -e $1.json ]] && PYTHONPATH={q(amp_tools.PACKAGE_PARENT)} python3 -m amp_tools.results --verified "
              "\"$1.json\" 2>/dev/null",
              "}",
              "# aside FILE: an earlier attempt's FILE becomes FILE.attempt-N (nothing is overwritten).",
              "aside() {",
              "  local n=1",
              "  [[ -e $1 ]] || return 0",
              "  while [[ -e $1.attempt-$n ]]; do n=$((n + 1)); done",
              "  mv \"$1\" \"$1.attempt-$n\"",
              "}",
              "# run ID RANKS PROGRAM ARGS...: one job step; skipped when verified; exit 5 keeps the results, trace "
              "failed.",
              "run() {",
              "  local id=$1 ranks=$2 status=0; shift 2",
              "  if verified \"$id\"; then echo \"amp: $id: finished before, skipped\"; return; fi",
              "  aside \"$id.log\"; aside \"$id.json\"",
              f"  {job_step} >\"$id.log\" 2>&1 || status=$?",
              "  case $status in",
              "    0) echo \"amp: $id done\" ;;",
              f"    {TRACE_FAILED}) echo \"amp: $id done, but its trace could not be written (results kept), see "
              "$id.log\"; trace_failed=$((trace_failed + 1)) ;;",
              "    *) echo \"amp: $id failed (exit $status), see $id.log\"; failed=$((failed + 1)) ;;",
              "  esac",
              "}", ""]
    amp_trace = os.path.join(opts.build, "bin", "amp-trace")
    for r in runs:
        args = shlex.join(r["args"])
        if study.traced(r):
            args += f" --trace {q(r['id'] + '.trace')}"
        lines.append(f"run {q(r['id'])} {r['ranks']} {args}")
        if study.traced(r):
            lines.append(f"[[ -d {q(r['id'] + '.trace')} && ! -e {q(r['id'] + '.trace-stats.json')} ]] && "
                         f"{q(amp_trace)} stats --json {q(r['id'] + '.trace')} > {q(r['id'] + '.trace-stats.json')}")
    lines += parallel_simulations(study, runs, folder, opts)
    lines += ["", "echo \"amp: $failed runs failed, $trace_failed traces failed\"",
              f"if (( failed > 0 )); then exit 1; elif (( trace_failed > 0 )); then exit {TRACE_FAILED}; fi", ""]
    return "\n".join(lines)


def parallel_simulations(study, runs, folder, opts):
    """The script's lines that replay each traced run in the study's parallel simulators on every network
    variant that holds it: `python3 -m amp_tools.simulate ... --sim-ranks N --mpiexec srun`, whose replay is
    the job step `srun -n N`; a simulation that exists is kept, one that fails counts as a failed run."""
    plan = study.simulation
    parallel = [s for s in plan.simulators if simulators.simulator(s).PARALLEL] if plan else []
    traced = [r for r in runs if study.traced(r)]
    if not parallel or not traced:
        return []
    q = shlex.quote
    lines = ["", f"# {', '.join(parallel)}: each traced run on {plan.sim_ranks} simulator ranks, an srun job step "
                 "(./amp study without --slurm afterwards synthesizes and simulates the rest)"]
    for r in traced:
        trace = os.path.join(folder, r["id"] + ".trace")
        for path, network in plan.variants:
            for simulator in parallel:
                if study_simulation.not_simulated(plan, network, simulator, r["ranks"], memory=0):
                    continue
                out = q(os.path.join(r["id"] + ".trace", f"simulation-{network.label}-{simulator}.json"))
                command = ["python3", "-m", "amp_tools.simulate", trace, "--network", path,
                           *study_simulation.set_options(network.overrides), "--simulator", simulator,
                           "--sim-ranks", str(plan.simulator_ranks(simulator)), "--mpiexec", "srun",
                           "--timeout", str(plan.timeout_seconds), "--build", opts.build]
                lines.append(f"[[ -d {q(r['id'] + '.trace')} && ! -e {out} ]] && {{ "
                             f"PYTHONPATH={q(amp_tools.PACKAGE_PARENT)} {shlex.join(command)} || "
                             f"failed=$((failed + 1)); }}")
    return lines
