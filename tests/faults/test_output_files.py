#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Results and CSV files: nothing lost, nothing overwritten, nothing silent. Runs the proxies as a user
would and checks exit code, the exact error line and the files left:
  concurrent   two amp-ghost runs given one --results name at once: one writes it, the other is
               refused at start-up (exit 2), neither result is silently lost;
  full-at-end  the filesystem fills during the run: exit 4, summary printed, no .partial left;
  full-at-start  a full filesystem: refused at start-up (exit 2), nothing created (a real run,
               --plan-only, --synthesize, amp-micro --csv);
  micro-csv-at-end  amp-micro pingpong --csv on a filesystem that fills during the run: exit 4;
  users-partial  a NAME.partial of the user's is refused and left as it was, and so is a symbolic link
               at NAME or NAME.partial (dangling or to a file), its target untouched;
  name-appears  a file of the results' name appears during the run: exit 4, that file untouched."""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_run as fr  # noqa: E402

GHOST_LONG = ["--nx", "64", "--ny", "64", "--nz", "64", "--num_vars", "16", "--num_tsteps", "150", "--progress", "0"]
GHOST_TINY = ["--nx", "4", "--ny", "4", "--nz", "4", "--num_vars", "1", "--num_tsteps", "1", "--progress", "0"]
TAKEN = ("amp-ghost: error: results file '{0}' is taken: '{0}.partial' exists (another run is writing it, or it is "
         "a file of yours); choose a new name (nothing is overwritten)")
EXISTS = "amp-ghost: error: results file '{0}' already exists; choose a new name (nothing is overwritten)"
NO_SPACE = "{proxy}: error: cannot write {what} '{path}': No space left on device"


def concurrent(a):
    with tempfile.TemporaryDirectory() as folder:
        line = fr.command(a, "amp-ghost", GHOST_LONG + ["--results", "same.json"], ranks=1)
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
        runs = [subprocess.Popen(line, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
        done = [(lambda o, e, r=r: (o, fr.without_exit_banners(e), r.returncode))(*r.communicate(timeout=120))
                for r in runs]
        codes = sorted(d[2] for d in done)
        if codes != [0, 2]:
            fr.fail(f"expected one run to exit 0 and the other 2, got {codes}: {done}")
        refused = next(d for d in done if d[2] == 2)
        lines = [x for x in (refused[0] + refused[1]).splitlines() if x.strip()]
        if lines not in ([TAKEN.format("same.json")], [EXISTS.format("same.json")]):
            fr.fail(f"the refused run printed {lines}")
        fr.expect_files(folder, ["same.json"], "after two runs with one name")
        with open(os.path.join(folder, "same.json")) as f:
            json.load(f)
        print(f"concurrent: one run wrote same.json, the other was refused: {lines[0]}")


def fill_once_reserved(process, partial, fs_folder, timeout=60):
    """Waits for `partial` (the run's reservation) to appear, then fills the filesystem."""
    deadline = time.time() + timeout
    while not os.path.exists(partial):
        if process.poll() is not None or time.time() > deadline:
            fr.fail(f"the run never reserved {partial} (exit {process.poll()})")
        time.sleep(0.005)
    fr.fill(fs_folder)


def full_at_end(a, proxy, arguments, ranks, path_flag, what, summary_marker):
    with fr.small_filesystem() as mount:
        path = os.path.join(mount, "out.file")
        line = fr.command(a, proxy, arguments + [path_flag, path], ranks=ranks)
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
        process = subprocess.Popen(line, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        fill_once_reserved(process, path + ".partial", mount)
        out, err = process.communicate(timeout=120)
        done = fr.finished(line, process.returncode, out, err)
        fr.expect_error_line(done, 4, NO_SPACE.format(proxy=proxy, what=what, path=path),
                             f"{proxy} {path_flag} on a disk that fills")
        if summary_marker not in out:
            fr.fail(f"the summary ({summary_marker!r}) was not printed: {out!r}")
        fr.expect_files(mount, ["filler"], "after the failed write")
        print(f"full-at-end: {proxy} {path_flag}: exit 4, one line, summary printed, no partial file")


def full_at_start(a):
    cases = [
        ("amp-ghost", GHOST_TINY, 2, "--results", "results file"),
        ("amp-ghost", GHOST_TINY + ["--plan-only", "--ranks", "8", "--rank", "3"], None, "--results", "results file"),
        ("amp-sage", ["--nx", "4", "--ny", "4", "--nz", "4", "--num_tsteps", "1", "--plan-only", "--ranks", "4",
                      "--rank", "1"], None, "--results", "results file"),
        ("amp-micro", ["pingpong", "--max-size", "8", "--iterations", "2"], 2, "--csv", "CSV file"),
    ]
    with fr.small_filesystem() as mount, tempfile.TemporaryDirectory() as elsewhere:
        fr.fill(mount)
        path = os.path.join(mount, "out.file")
        for proxy, arguments, ranks, flag, what in cases:
            done = fr.run(a, proxy, arguments + [flag, path], ranks=ranks)
            fr.expect_refusal(done, 2, NO_SPACE.format(proxy=proxy, what=what, path=path),
                              f"{proxy} {flag} on a full disk")
            fr.expect_files(mount, ["filler"], f"{proxy} refused on a full disk")
        traces = os.path.join(elsewhere, "traces")
        done = fr.run(a, "amp-ghost", GHOST_TINY + ["--synthesize", traces, "--ranks", "2", "--results", path],
                      ranks=None)
        fr.expect_refusal(done, 2, NO_SPACE.format(proxy="amp-ghost", what="results file", path=path),
                          "a synthesis with --results on a full disk")
        fr.expect_files(mount, ["filler"], "synthesis refused on a full disk")
        fr.expect_files(elsewhere, [], "synthesis refused on a full disk: its trace folder")
        print("full-at-start: real run, --plan-only, --synthesize and amp-micro --csv refused, nothing created")


def users_partial(a):
    with tempfile.TemporaryDirectory() as folder:
        mine = os.path.join(folder, "r.json.partial")
        with open(mine, "w") as f:
            f.write("my notes\n")
        for arguments, ranks in [(GHOST_TINY, 2), (GHOST_TINY + ["--plan-only", "--ranks", "2", "--rank", "0"], None)]:
            done = fr.run(a, "amp-ghost", arguments + ["--results", os.path.join(folder, "r.json")], ranks=ranks)
            fr.expect_refusal(done, 2, TAKEN.format(os.path.join(folder, "r.json")),
                              "a results name whose .partial is the user's")
        with open(mine) as f:
            if f.read() != "my notes\n":
                fr.fail("the user's r.json.partial was changed")
        fr.expect_files(folder, ["r.json.partial"], "after the refusals")
    with tempfile.TemporaryDirectory() as folder:  # a link at the name or at NAME.partial: never written through
        target = os.path.join(folder, "target.json")
        for link, dangling in (("r.json", True), ("r.json", False), ("r.json.partial", False)):
            if not dangling:
                with open(target, "w") as f:
                    f.write("my notes\n")
            os.symlink(target, os.path.join(folder, link))
            done = fr.run(a, "amp-ghost", GHOST_TINY + ["--results", os.path.join(folder, "r.json")], ranks=2)
            line = (TAKEN if link.endswith(".partial") else EXISTS).format(os.path.join(folder, "r.json"))
            fr.expect_refusal(done, 2, line, f"a link at {link} ({'dangling' if dangling else 'to a file'})")
            if os.path.exists(target) == dangling or (not dangling and open(target).read() != "my notes\n"):
                fr.fail(f"a link at {link}: its target was written")
            for name in os.listdir(folder):
                os.remove(os.path.join(folder, name))
        print("users-partial: refused, the user's file untouched; links at the name and its .partial refused, "
              "their targets untouched")


def name_appears(a):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "r.json")
        line = fr.command(a, "amp-ghost", GHOST_LONG + ["--results", path], ranks=2)
        env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
        process = subprocess.Popen(line, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while not os.path.exists(path + ".partial"):
            if process.poll() is not None or time.time() > deadline:
                fr.fail(f"the run never reserved {path}.partial (exit {process.poll()})")
            time.sleep(0.005)
        with open(path, "w") as f:
            f.write("mine\n")
        out, err = process.communicate(timeout=120)
        done = fr.finished(line, process.returncode, out, err)
        fr.expect_error_line(done, 4, f"amp-ghost: error: cannot write results file '{path}': a file of that name "
                             "appeared during the run (it was left as it is)", "a name taken during the run")
        with open(path) as f:
            if f.read() != "mine\n":
                fr.fail("the file that appeared during the run was changed")
        fr.expect_files(folder, ["r.json"], "after the run")
        print("name-appears: exit 4, the other file untouched, no partial file")


def main():
    p = fr.parser(__doc__)
    p.add_argument("case", choices=["concurrent", "full-at-end", "full-at-start", "micro-csv-at-end", "users-partial",
                                      "name-appears"])
    a = p.parse_args()
    if a.case == "concurrent":
        concurrent(a)
    elif a.case == "full-at-end":
        full_at_end(a, "amp-ghost", GHOST_LONG, 2, "--results", "results file", "checksum")
    elif a.case == "micro-csv-at-end":
        full_at_end(a, "amp-micro", ["pingpong", "--max-size", "64", "--iterations", "20000", "--repetitions", "5"], 2,
                    "--csv", "CSV file", "verification: passed")
    elif a.case == "full-at-start":
        full_at_start(a)
    elif a.case == "name-appears":
        name_appears(a)
    else:
        users_partial(a)


if __name__ == "__main__":
    main()
