"""The one builder of launcher command lines: `mpiexec -n N PROGRAM...` for the driver's tools, the
tests and the benchmarks, and the `srun` job step of a study's Slurm script."""
import shlex


def mpiexec(launcher, ranks, program, flags=()):
    """[launcher, *flags, "-n", ranks, *program]. `flags`: extra launcher flags, a list or a string split
    as a shell would (the tests' --mpiexec-flags, e.g. "--oversubscribe")."""
    extra = shlex.split(flags) if isinstance(flags, str) else list(flags)
    return [launcher, *extra, "-n", str(ranks), *program]


def srun(ranks, cpus_per_task, program):
    """An srun job step as shell words: `ranks` and `program` may be shell expansions ("$ranks", "$@")."""
    return f"srun --ntasks={ranks} --cpus-per-task={cpus_per_task} {program}"
