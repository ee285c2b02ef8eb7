# SPDX-License-Identifier: BSD-3-Clause
# The fault tests of amp-trace and the tracing library: write errors on standard output
# and files, usage errors, full disks under repair, ignored signals, bad AMP_TRACE_* settings,
# taken prefixes; each a case of test_trace_tools.py, run as a user would.
# Row 3: every printing subcommand with stdout on /dev/full: exit 4, one line.
amp_add_fault_test(NAME trace_tools_stdout_write_error_exits_4 SCRIPT test_trace_tools.py ARGS stdout_full)
# Row 4: stats --matrix-csv never overwrites (exit 2) and leaves nothing on a full disk (exit 4).
amp_add_fault_test(NAME trace_tools_matrix_csv_new_file_whole_or_nothing SCRIPT test_trace_tools.py ARGS matrix_csv)
# Row 9: every bad command line: one `amp-trace: error:` line, exit 2; --help exit 0.
amp_add_fault_test(NAME trace_tools_usage_errors_one_line_exit_2 SCRIPT test_trace_tools.py ARGS usage)
# Row 27: repair on a full disk: the original untouched, nothing left, a retry works.
amp_add_fault_test(NAME trace_tools_repair_full_disk_original_untouched SCRIPT test_trace_tools.py
                   ARGS repair_full_disk)
# Row 29: an ignored SIGTERM stays ignored and the trace is whole; a trace cut short does not validate.
amp_add_fault_test(NAME trace_tools_ignored_sigterm_stays_ignored SCRIPT test_trace_tools.py ARGS ignored_sigterm
                   PROCESSORS 1)
# Row 23: check's default mode never hides what --in-flight-only shows; every size change is counted.
amp_add_fault_test(NAME trace_tools_check_counts_every_size_change SCRIPT test_trace_tools.py
                   ARGS size_changes --ring-trace $<TARGET_FILE:trace_replay_ring_trace>)
# Row 10: a malformed AMP_TRACE_* value: one line per rank naming it, exit 2, nothing written.
amp_add_fault_test(NAME trace_tools_bad_settings_exit_2 SCRIPT test_trace_tools.py ARGS bad_settings)
# Row 28: a fixed AMP_TRACE_PREFIX whose rank-1 file exists: a fresh name; an unseen taken name: exit 2, nothing left.
amp_add_fault_test(NAME trace_tools_prefix_taken_never_overwritten SCRIPT test_trace_tools.py ARGS prefix_taken)
# Row 25: amp-trace otf2 into a path under a file: "is not a directory".
amp_add_fault_test(NAME trace_tools_otf2_output_under_a_file SCRIPT test_trace_tools.py ARGS otf2_not_a_folder
                   PROCESSORS 1)
# repair without a .meta: the host, user and start time of the file's own header, where its tail still holds one.
amp_add_fault_test(NAME trace_tools_repair_keeps_own_header SCRIPT test_trace_tools.py ARGS repair_header
                   PROCESSORS 1)
# simgrid and otf2 on a full disk: exit 4 naming the real cause, nothing left, a retry works.
amp_add_fault_test(NAME trace_tools_exports_full_disk_exit_4 SCRIPT test_trace_tools.py ARGS exports_full_disk
                   PROCESSORS 1)
# SIGTERM or SIGINT during simgrid or otf2 removes the staging folder and ends the process by it.
amp_add_fault_test(NAME trace_tools_exports_signalled_leave_nothing SCRIPT test_trace_tools.py
                   ARGS exports_signalled --ring-trace $<TARGET_FILE:trace_replay_ring_trace> PROCESSORS 1)
# a slow --host-speed keeps every nanosecond of compute, and SimGrid predicts the same time.
amp_add_fault_test(NAME trace_tools_simgrid_slow_host_keeps_compute SCRIPT test_trace_tools.py
                   ARGS host_speed --ring-trace $<TARGET_FILE:trace_replay_ring_trace> PROCESSORS 1)
# a .meta's rank count past the limit says so; a dangling trace link names --trace or AMP_TRACE_DIR.
amp_add_fault_test(NAME trace_tools_rank_limit_and_trace_link_wording SCRIPT test_trace_tools.py ARGS wording
                   PROCESSORS 1)
