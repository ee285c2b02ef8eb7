# SPDX-License-Identifier: BSD-3-Clause
# The proxies' fault tests (amp-ghost, amp-sage, amp-nobel, amp-micro): results and CSV files, traces,
# start-up refusals, machine_load, and a fuzz of command lines and decks. Each is a Python driver
# in this folder; exit 77 means skipped (no tmpfs could be mounted), with one line saying why.
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# amp_add_fault_test(NAME name SCRIPT script.py [PROCESSORS n] [TIMEOUT s] ARGS args...)
function(amp_add_fault_test)
  cmake_parse_arguments(ARG "" "NAME;SCRIPT;PROCESSORS;TIMEOUT" "ARGS" ${ARGN})
  if(NOT ARG_PROCESSORS)
    set(ARG_PROCESSORS 2)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 60)
  endif()
  add_test(NAME faults.${ARG_NAME}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/${ARG_SCRIPT} --mpiexec ${MPIEXEC_EXECUTABLE}
                   --bin $<TARGET_FILE_DIR:amp-ghost> ${ARG_ARGS})
  set_tests_properties(faults.${ARG_NAME} PROPERTIES TIMEOUT ${ARG_TIMEOUT} PROCESSORS ${ARG_PROCESSORS}
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${AMP_TEST_ENVIRONMENT}" LABELS faults)
endfunction()

# Row 1: two runs given one --results name at once: one writes it, the other is refused at start-up.
amp_add_fault_test(NAME results_one_name_two_runs_one_refused SCRIPT test_output_files.py ARGS concurrent)
# Row 2: the disk fills during the run: exit 4, summary printed, no .partial left.
amp_add_fault_test(NAME results_disk_fills_during_run_exits_4 SCRIPT test_output_files.py ARGS full-at-end)
# Rows 2, 13, 14: a full disk refuses --results (real, plan-only, synthesis) and --csv at start-up.
amp_add_fault_test(NAME outputs_full_disk_refused_at_start SCRIPT test_output_files.py ARGS full-at-start)
# Row 14: amp-micro --csv on a disk that fills during the run: exit 4.
amp_add_fault_test(NAME micro_csv_disk_fills_during_run_exits_4 SCRIPT test_output_files.py ARGS micro-csv-at-end)
# Row 13: a NAME.partial of the user's is never touched.
amp_add_fault_test(NAME results_users_partial_file_untouched SCRIPT test_output_files.py ARGS users-partial)
# Row 5: a trace larger than its filesystem: exit 5 (real run and synthesis).
amp_add_fault_test(NAME trace_full_disk_exits_5 SCRIPT test_trace_full.py)
# Rows 6, 8, 16, 17, 24 (synthesis), 26 and the empty/alone flags: one line, exit 2, nothing written.
# ~60 s under Open MPI (2 s a launch)
amp_add_fault_test(NAME startup_refusals_one_line_nothing_written SCRIPT test_refusals.py TIMEOUT 300)
# --ranks past 2^31 and 2^63 said "at most" as given; --compute_seconds -0 and 1e-320 accepted.
amp_add_fault_test(NAME virtual_rank_numbers_as_given SCRIPT test_virtual_rank_numbers.py PROCESSORS 1)
# a run or synthesis stopped by SIGINT/SIGTERM removes its .partial or staging
# folder and dies by the signal; a synthesis needs a new DIR.
amp_add_fault_test(NAME stopped_runs_leave_nothing_and_die_by_the_signal SCRIPT test_stopped_runs.py TIMEOUT 120)
# machine_load in every proxy's results.
amp_add_fault_test(NAME results_record_machine_load SCRIPT test_machine_load.py)
# Mutated command lines and decks against every proxy (fixed seed): a clean run or one error line, exit 2.
amp_add_fault_test(NAME fuzz_every_outcome_clean_or_one_line SCRIPT test_fuzz_proxies.py TIMEOUT 150)  # an 80 s budget
# Row 13: a file of the results' name that appears during the run is never replaced: exit 4.
amp_add_fault_test(NAME results_name_taken_during_run_left_alone_exits_4 SCRIPT test_output_files.py ARGS name-appears)
# The flags every proxy shares (src/amp/miniapps/common/run_config.hpp): one bad value of each is refused by
# amp-ghost, amp-sage and amp-nobel with exit 2 and the same one line, on every rank.
foreach(flag num_vars num_tsteps strategy transport error_tol seed progress inject_fault)
  amp_add_fault_test(NAME shared_flag_${flag}_refused_alike_in_every_proxy SCRIPT test_shared_flags.py
                     ARGS refusal ${flag})
endforeach()
# --comm_method is --strategy by its older name, with one warning; the results name it `strategy` alone;
# --scaling keeps each proxy's default.
amp_add_fault_test(NAME comm_method_is_strategy_alias_in_every_proxy SCRIPT test_shared_flags.py ARGS aliases)
