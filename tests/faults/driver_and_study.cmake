# SPDX-License-Identifier: BSD-3-Clause
# The driver's, the study's and the report's faults (tests/faults/test_driver_and_study.py, one case each):
# ./amp, tools/amp_tools/study.py and tools/amp_tools/report.py run as processes on real runs and files.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
find_program(AMP_DEBIAN_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT AMP_DEBIAN_PYTHON)
  set(AMP_DEBIAN_PYTHON ${Python3_EXECUTABLE})
endif()
foreach(case failed_runs_run_again bad_values_one_line slurm_values_checked_and_quoted axes_checked_before_any_run
             report_skips_empty_trace_stats driver_usage_errors_exit_2 trace_failure_kept_apart machine_load_warning
             report_marks_noise killed_run_resumes concurrent_study_refused stopped_synthesis_set_aside
             simulate_settings_checked_first study_on_full_disk report_leaves_out_malformed_results
             report_on_full_disk)
  add_test(NAME faults_${case}
           COMMAND ${AMP_DEBIAN_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/test_driver_and_study.py ${case}
                   --root ${PROJECT_SOURCE_DIR} --build ${PROJECT_BINARY_DIR} --mpiexec ${MPIEXEC_EXECUTABLE}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/${case})
  set_tests_properties(faults_${case} PROPERTIES TIMEOUT 120 ENVIRONMENT "${AMP_TEST_ENVIRONMENT}" PROCESSORS 2
                       SKIP_RETURN_CODE 77 LABELS faults)
endforeach()
