#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Stands in for mpiexec in the study fault test: runs the real launcher ($AMP_REAL_MPIEXEC), and when
# the run succeeded exits 5, as a proxy does whose answer is good but whose trace could not be written.
"$AMP_REAL_MPIEXEC" "$@" || exit $?
exit 5
