"""SST-macro's start-up, which AMP's SST-macro predictions leave out (docs/TRACING.md section 14).

Before a replayed rank's first traced call ends, SST-macro 16.0 spends simulated time that no MPI
program spends on its network and that SimGrid does not model:
- it launches the ranks one after another over the modelled network: the last rank starts 9 us after
  the first on torus-4x4x4 at 64 ranks, 20 us on dragonfly-1024 at 1024 ranks;
- its MPI_Init runs an allreduce over every rank (sumi-mpi/mpi_queue/mpi_queue.cc, MpiQueue::init: a
  check that every rank's completion-queue ids agree), tens of microseconds at 64 ranks.
SimGrid starts every rank at 0 and its MPI_Init is free; a measured run's time starts after MPI_Init.
So an SST-macro prediction is counted from the moment the last rank has left MPI_Init. The ranks leave it
spread out (by 9 us at 64 ranks on torus-4x4x4, 28 us at 1024 on dragonfly-1024), and a rank that left
early may have done work before the last one left, which SimGrid, starting all at once, does not see: the
prediction may be short by up to that spread (`sstmac_startup_spread_seconds`). `measure`
replays a trace of MPI_Init and MPI_Finalize alone, at the same ranks on the same machine (SST-macro's
start-up does not depend on what the trace does next), with SST-macro's timestamped debug lines, and
reads when each rank entered and left MPI_Init.

The start-up trace is written by AMP's own tracing library (libamp_dumpi's synthesis entry points,
trace/writer/amp_dumpi.h), in a process of its own: `python3 -m amp_tools.sstmac_startup LIBRARY DIR RANKS`.
"""
import ctypes
import os
import re
import subprocess
import sys

INIT_LINE = re.compile(r"T=\s*([0-9.eE+-]+) s:MPI Rank\s+(\d+)\s*: MPI_Init(\(\)| finished)")


class StartupError(Exception):
    pass


def write_trace(library, directory, ranks):
    """Writes the DUMPI trace of `ranks` ranks that call MPI_Init and MPI_Finalize alone into `directory`
    (made here) and returns its .meta path. Runs in the calling process: MPI_Init as a singleton."""
    lib = ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)
    if lib.PMPI_Init(None, None) != 0:
        raise StartupError("MPI_Init failed in the start-up trace's writer")
    os.makedirs(directory)
    argv = (ctypes.c_char_p * 2)(b"amp-sstmac-startup", None)
    for rank in range(ranks):
        if lib.amp_dumpi_synthesis_begin(rank, ranks, os.fsencode(directory), 1, argv, b"") != 0:
            raise StartupError("the tracing library refused the start-up trace's settings")
        lib.amp_dumpi_synthesis_end()
    lib.amp_dumpi_synthesis_meta_path.restype = ctypes.c_char_p
    meta = os.fsdecode(lib.amp_dumpi_synthesis_meta_path())
    lib.PMPI_Finalize()
    return meta


def read_init_times(stdout, ranks):
    """{rank: (entered, left)} MPI_Init's simulated seconds from SST-macro's `--debug=mpi,timestamp` lines
    ('T=    0.00002057 s:MPI Rank 5   : MPI_Init finished'); every rank must be there."""
    entered, left = {}, {}
    for line in stdout.splitlines():
        match = INIT_LINE.match(line)
        if match:
            (entered if match.group(3) == "()" else left)[int(match.group(2))] = float(match.group(1))
    missing = [r for r in range(ranks) if r not in entered or r not in left]
    if missing:
        raise StartupError(f"SST-macro's debug lines give no MPI_Init of rank {missing[0]} "
                           f"({len(missing)} of {ranks} ranks missing)")
    return {r: (entered[r], left[r]) for r in range(ranks)}


def measure(sstmac_command, library, ranks, workdir, run_simulator, timeout):
    """{rank: (entered, left)} of MPI_Init in SST-macro on this machine. `sstmac_command(meta)` gives the
    replay's command for a trace (the same machine and launch as the prediction's, without statistics);
    `run_simulator` is simulate.run_simulator."""
    directory = os.path.join(workdir, "startup-trace")
    tools = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # where the amp_tools package is
    path = os.pathsep.join(filter(None, [tools, os.environ.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-m", "amp_tools.sstmac_startup", library, directory, str(ranks)],
                          capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=path))
    if done.returncode != 0:
        raise StartupError("writing the start-up trace failed: "
                           + " | ".join((done.stderr or done.stdout).strip().splitlines()[-2:]))
    meta = done.stdout.strip()
    replay = os.path.join(workdir, "startup-replay")
    os.makedirs(replay)
    code, stdout, tail = run_simulator(sstmac_command(meta) + ["--debug=mpi,timestamp"], replay, timeout)
    if code != 0:
        raise StartupError(f"SST-macro's start-up replay exited {code}: {' | '.join(tail[-2:])}")
    return read_init_times(stdout, ranks)


def main():
    library, directory, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
    try:
        print(write_trace(library, directory, ranks))
    except (StartupError, OSError) as e:
        print(e, file=sys.stderr)  # measure() puts it in simulate's one error line
        sys.exit(1)


if __name__ == "__main__":
    main()
