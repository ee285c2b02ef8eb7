# SPDX-License-Identifier: BSD-3-Clause
"""Launcher command lines (amp_tools.launch, their one builder): mpiexec with its flags and rank count
before the program, and the srun job step of a study's Slurm script."""
from amp_tools import launch


def test_mpiexec_puts_flags_and_ranks_before_the_program():
    assert launch.mpiexec("mpiexec.mpich", 4, ["amp-ghost", "--nx", "8"]) == [
        "mpiexec.mpich", "-n", "4", "amp-ghost", "--nx", "8"]


def test_mpiexec_flags_split_as_a_shell_would():
    assert launch.mpiexec("mpiexec", "2", ["p"], "--oversubscribe --mca btl 'self,vader'") == [
        "mpiexec", "--oversubscribe", "--mca", "btl", "self,vader", "-n", "2", "p"]
    assert launch.mpiexec("mpiexec", 2, ["p"], ["--bind-to", "none"]) == [
        "mpiexec", "--bind-to", "none", "-n", "2", "p"]
    assert launch.mpiexec("mpiexec", 2, ["p"], "") == ["mpiexec", "-n", "2", "p"]


def test_srun_job_step_keeps_shell_expansions():
    assert launch.srun('"$ranks"', 4, '"$@"') == 'srun --ntasks="$ranks" --cpus-per-task=4 "$@"'
