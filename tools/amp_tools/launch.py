# SPDX-License-Identifier: BSD-3-Clause
"""The one builder of launcher command lines: `mpiexec -n N PROGRAM...` for the driver's tools, the
tests and the benchmarks, and the `srun` job step of a study's Slurm script; and the build folder and
launcher a program uses when it is not told (as the driver picks them: AMP_MPI, default mpich)."""
import os
import shlex
import shutil

import amp_tools


def mpi_flavour():
    """The MPI the driver builds with: AMP_MPI (mpich or openmpi), mpich when unset."""
    return os.environ.get("AMP_MPI") or "mpich"


def default_build():
    """The driver's build folder: <repository>/build, or build-openmpi/ under AMP_MPI=openmpi."""
    return os.path.join(amp_tools.REPOSITORY, "build-openmpi" if mpi_flavour() == "openmpi" else "build")


def default_mpiexec():
    """The flavour's own launcher (mpiexec.mpich: plain `mpiexec` follows Debian's alternatives link,
    which may name another MPI than the build's), or plain `mpiexec` where that is not installed."""
    own = f"mpiexec.{mpi_flavour()}"
    return own if shutil.which(own) else "mpiexec"


def mpiexec(launcher, ranks, program, flags=()):
    """[launcher, *flags, "-n", ranks, *program]. `flags`: extra launcher flags, a list or a string split
    as a shell would (the tests' --mpiexec-flags, e.g. "--oversubscribe")."""
    extra = shlex.split(flags) if isinstance(flags, str) else list(flags)
    return [launcher, *extra, "-n", str(ranks), *program]


def srun(ranks, cpus_per_task, program):
    """An srun job step as shell words: `ranks` and `program` may be shell expansions ("$ranks", "$@")."""
    return f"srun --ntasks={ranks} --cpus-per-task={cpus_per_task} {program}"
