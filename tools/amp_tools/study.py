#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs a declared sweep (a study file, TOML) of AMP proxy runs, or writes a Slurm script for it.

Every combination of proxy x deck x flags x strategy x transport x ranks x repetition is one run,
whose results JSON and log go into runs/<name>-<stamp>/. Calling it again with the same study file
resumes that folder: runs whose results exist are skipped, nothing is overwritten (a failed run's
log is kept under a new name). The report (tools/report.py) is drawn at the end. `./amp run` is the
study inputs/studies/default.toml.

A study of more than 1000 runs, syntheses and simulations (study_plan.py) is refused unless --yes is given.

Usage: python3 -m amp_tools.study STUDY.toml --root REPO --build BUILD --mpiexec MPIEXEC [--cores N] [--ranks N]
       [--slurm] [--new] [--plan] [--yes]
"""
import argparse
import os
import re
import sys

from amp_tools import command_line
from amp_tools import compare_runs
from amp_tools import predict_at_scale
from amp_tools import study_plan
from amp_tools import study_simulation
from amp_tools import study_slurm
from amp_tools.output_places import ThroughLink
from amp_tools.study_file import Study, StudyError
from amp_tools.study_folder import FolderBusy, keep_aside, open_folder
from amp_tools.study_launch import TRACE_FAILED, Stopped, signal_name, stop_on_signals
from amp_tools.study_runs import NOT_WRITTEN, finished, run_locally, write_manifest
from amp_tools.whole_file import NotWritten, write_whole


def positive_count(text):
    if not re.fullmatch(r"[1-9][0-9]{0,9}", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive whole number")
    return int(text)


def main():
    parser = command_line.Parser("study", __doc__.split("\n\n")[0],  # a usage error: one line, exit 2
                                 parents=[command_line.common_options()])
    parser.add_argument("study")
    parser.add_argument("--root", required=True, help="repository root (relative decks, runs/)")
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    parser.add_argument("--ranks", type=positive_count, help="one rank count instead of the study file's 'ranks'")
    parser.add_argument("--slurm", action="store_true",
                        help="write runs/<name>-<stamp>/study.sbatch instead of running")
    parser.add_argument("--new", action="store_true", help="start a new folder even if one of this study exists")
    parser.add_argument("--plan", action="store_true",
                        help="print every run, synthesis and simulation the study would make; run nothing")
    parser.add_argument("--yes", action="store_true",
                        help=f"make a study of more than {study_plan.PLAN_LIMIT} runs, syntheses and simulations")
    opts = parser.parse_args()
    if opts.plan and opts.slurm:  # --plan runs and writes nothing; --slurm writes a script
        parser.error("--plan prints the plan and writes nothing, --slurm writes a script: give one of them")
    root, opts.build = os.path.abspath(opts.root), os.path.abspath(opts.build)
    stop_on_signals()
    try:
        return study_main(opts, root)
    except Stopped as stopped:
        print(f"study: stopped by {signal_name(stopped.signum)}; call again to resume (finished runs are skipped)",
              file=sys.stderr)
        return 128 + stopped.signum
    except (FolderBusy, ThroughLink) as e:
        print(f"study: error: {e}", file=sys.stderr)
        return 2
    except NotWritten as e:
        print(f"study: error: {e}", file=sys.stderr)
        return NOT_WRITTEN
    except OSError as e:  # a run's log or trace statistics on a full disk: the file is named, no traceback
        what = f"'{e.filename}'" if e.filename else "a file of the study's"
        print(f"study: error: cannot write {what}: {e.strerror}", file=sys.stderr)
        return NOT_WRITTEN


def failure_line(failures):
    """The study's closing line for what failed, each kind named ({"runs": 0, "simulations": 2}: "study: 2
    simulations failed; ..."), or None when nothing did."""
    said = ", ".join(f"{n} {kind}" for kind, n in failures.items() if n)
    return f"study: {said} failed; call again to retry them (finished runs are skipped)" if said else None


def study_main(opts, root):
    try:
        study = Study(opts.study, root, opts.cores, opts.ranks)
        notes = study.check_combinations(opts.build)
        study_plan.check_size(study, opts.yes)  # counted, not listed: a billion runs would never be listed
        runs = study.runs(opts.build)
        if not opts.slurm and not study.oversubscribe and max(study.ranks) > opts.cores:
            problem = (f"{max(study.ranks)} ranks exceed the {opts.cores} cores here: studies run one rank per core "
                       "(oversubscribed ranks measure the scheduler); set oversubscribe = true to allow it")
            if opts.ranks:  # the command line's, not the file's line
                raise StudyError(f"--ranks {opts.ranks}: {problem}")
            study.fail("ranks", problem)
        if opts.slurm:  # before any folder is made
            study_slurm.check_paths(runs_folder=os.path.join(root, "runs"), build_folder=opts.build)
    except (StudyError, study_plan.TooBig, study_slurm.UnsafePath) as e:
        print(f"study: error: {e}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"study: {note}")
    if opts.plan:
        study_plan.print_plan(study, runs)
        return 0
    if not opts.slurm and max(study.ranks) > opts.cores:
        print(f"study: note: {max(study.ranks)} ranks on {opts.cores} cores are oversubscribed: a rank waiting in MPI "
              "busy-polls the core its peer needs, so the per-variable strategies' many waits are inflated; compare "
              "strategies with one rank per core")
    folder, resumed = open_folder(study, root, opts.new)
    write_manifest(folder, runs)
    print(f"study: {study.name}: {'resuming' if resumed else 'new folder'} {os.path.relpath(folder, root)}/")
    if opts.slurm:
        script, path = study_slurm.slurm_script(study, runs, folder, opts), os.path.join(folder, "study.sbatch")
        if os.path.exists(path) and open(path).read() != script:
            keep_aside(path)
        write_whole(path, script)
        print(f"study: wrote {os.path.relpath(path, root)} ({len(runs)} runs); submit it with sbatch, then "
              f"`./amp report {os.path.relpath(folder, root)}`")
        if study.simulation:
            print("study: [simulate] is in the script only as a parallel simulator's replays of the traced runs "
                  "(sim_ranks: srun job steps): after the jobs, `./amp study` on this file (without --slurm, where "
                  "SimGrid is installed) skips the finished runs and simulations, synthesizes and simulates")
        return 0
    opts.root = root
    failed, trace_failed = run_locally(study, runs, folder, opts)
    failures = {"runs": failed}  # what failed, by kind: the closing line names each
    if study.simulation:
        failures["calibrations"] = study_simulation.calibrate(study, opts)
        synthesized = study_simulation.synthesis_runs(study, runs)
        failures["syntheses"] = len(study_simulation.run_syntheses(study.simulation, synthesized, folder, opts))
        failures["simulations"] = study_simulation.simulate_all(study.simulation, runs + synthesized, folder, opts)
    tables, checksums_agree = [], True
    if study.table:
        finished_runs = [os.path.join(folder, r["id"] + ".json") for r in runs
                         if r["repetition"] == 1 and finished(os.path.join(folder, r["id"]))]
        if finished_runs:
            tables, checksums_agree = compare_runs.table(finished_runs)
            print("\n".join(tables))
    if study.prediction:
        lines, problem = predict_at_scale.predict_study(study.prediction, runs, folder, opts)
        print("\n".join([f"study: {problem}"] if problem else lines))
        tables += lines
        failures["predictions"] = int(bool(problem))
    if tables:
        write_whole(os.path.join(folder, "table.txt"), "\n".join(tables) + "\n")
    drawn = 0
    if any(os.path.exists(os.path.join(folder, r["id"] + ".json")) for r in runs):
        try:
            from amp_tools import report  # matplotlib: only needed for the figures
            drawn = report.main([folder])
        except ModuleNotFoundError as e:
            if e.name != "matplotlib":
                raise
            print("study: warning: no figures drawn: the Python module matplotlib is missing (pip install "
                  "matplotlib; Debian: apt-get install python3-matplotlib)", file=sys.stderr)
    if any(failures.values()):
        print(failure_line(failures), file=sys.stderr)
        return 1
    if not checksums_agree:
        print("study: the runs' checksums differ (table.txt)", file=sys.stderr)
        return 1
    if drawn == NOT_WRITTEN:  # the report said which file (a full disk); the runs are kept
        return NOT_WRITTEN
    if trace_failed:
        print(f"study: {len(trace_failed)} runs' traces failed (their results are kept): {', '.join(trace_failed)}",
              file=sys.stderr)
        return TRACE_FAILED
    return 0


if __name__ == "__main__":
    sys.exit(main())
