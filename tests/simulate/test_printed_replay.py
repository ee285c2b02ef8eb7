#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The replay line `amp-trace simgrid` prints runs as printed: a synthesized amp-ghost SVAF
trace of RANKS ranks (16^3 cells, 4 variables, 2 steps: it starts with MPI_Comm_split's allgather, which
SimGrid 3.32's default allgather did not finish in 5 minutes at 1024 ranks) is exported, and the printed line,
with only PLATFORM.xml and HOSTS replaced by a plain cluster of RANKS hosts and its hostfile, must replay it
within LIMIT seconds. The line's --cfg settings must be export.json's `smpirun_cfg` (where ./amp simulate
takes them from), and docs/TRACE_TOOLS.md must name each.

Usage: test_printed_replay.py BUILD ROOT WORKDIR RANKS LIMIT
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

PLATFORM = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="n" suffix="" radical="0-{last}" speed="{speed}" bw="10GBps" lat="1us"/>
</platform>
"""


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        fail(f"{' '.join(command)}: exit {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}")
    return done.stdout


def printed_line(stdout):
    """(the replay line as printed, the host speed it asks for)."""
    lines = stdout.splitlines()
    intro = next((i for i, line in enumerate(lines) if line.startswith("replay it with this line")), None)
    if intro is None or intro + 1 >= len(lines):
        fail(f"amp-trace simgrid printed no replay line: {stdout!r}")
    speed = re.search(r"hosts run at (\S+f) ", lines[intro])
    if not speed:
        fail(f"the replay line's introduction names no host speed: {lines[intro]!r}")
    return lines[intro + 1], speed.group(1)


def main():
    if shutil.which("smpirun") is None:
        print("SKIP: smpirun (SimGrid) is not installed")
        sys.exit(77)
    build, root, workdir, ranks, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
    base = os.path.join(workdir, f"printed-replay-{ranks}")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    trace, export = os.path.join(base, "trace"), os.path.join(base, "ti")
    run([os.path.join(build, "bin", "amp-ghost"), "--synthesize", trace, "--ranks", str(ranks), "--strategy", "svaf",
         "--nx", "16", "--ny", "16", "--nz", "16", "--num_vars", "4", "--num_tsteps", "2", "--compute_seconds", "1e-5",
         "--progress", "0"], env=dict(os.environ, OMP_NUM_THREADS="1"))
    line, speed = printed_line(run([os.path.join(build, "bin", "amp-trace"), "simgrid", trace, export]))
    with open(os.path.join(export, "export.json")) as f:
        settings = json.load(f)["smpirun_cfg"]
    printed = re.findall(r"--cfg=\S+", line)
    if printed != settings or "--cfg=smpi/allgather:rdb" not in settings:
        fail(f"the printed line's settings {printed} are not export.json's smpirun_cfg {settings}")
    with open(os.path.join(root, "docs", "TRACE_TOOLS.md")) as f:
        doc = f.read()
    missing = [s for s in settings if f"`{s}`" not in doc]
    if missing:
        fail(f"docs/TRACE_TOOLS.md does not name {missing}")
    platform, hosts = os.path.join(base, "platform.xml"), os.path.join(base, "hosts.txt")
    with open(platform, "w") as f:
        f.write(PLATFORM.format(last=ranks - 1, speed=speed))
    with open(hosts, "w") as f:
        f.write("".join(f"n{r}\n" for r in range(ranks)))
    command = line.replace("PLATFORM.xml", platform).replace("HOSTS", hosts)
    started = time.monotonic()
    replay = subprocess.Popen(["bash", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=True)  # its own group: smpirun and its replay end with it
    try:
        _, stderr = replay.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(replay.pid, signal.SIGKILL)
        replay.communicate()
        fail(f"the printed line did not finish in {limit:g} s at {ranks} ranks: {line}")
    seconds = time.monotonic() - started
    predicted = re.search(r"Simulation time ([0-9.eE+-]+)", stderr)
    if replay.returncode != 0 or not predicted:
        fail(f"the printed line exited {replay.returncode}: {stderr.strip()[-500:]}")
    print(f"the printed line replayed {ranks} ranks in {seconds:.1f} s (limit {limit:g} s): predicted "
          f"{float(predicted.group(1)):.6g} s")


if __name__ == "__main__":
    main()
