# SPDX-License-Identifier: BSD-3-Clause
# The faults of ./amp simulate, each a case of test_simulate_faults.py run on small real traces
# replayed by SimGrid (skipped, exit 77, without smpirun; the full disk also where no tmpfs can be mounted).
# Two simulations started at once on one fresh trace folder both succeed (the export is locked).
amp_add_fault_test(NAME simulate_concurrent_runs_share_one_export SCRIPT test_simulate_faults.py ARGS concurrent
                   TIMEOUT 120)
# SIGTERM or SIGINT during the export or the replay: exit 143 or 130, one line, no process or file left.
amp_add_fault_test(NAME simulate_signalled_ends_the_simulator SCRIPT test_simulate_faults.py ARGS signalled
                   TIMEOUT 120)
# SIGTERM while the simulation's JSON is half-written: no .partial-PID left.
amp_add_fault_test(NAME simulate_signal_while_writing_leaves_no_partial SCRIPT test_simulate_faults.py
                   ARGS interrupted_write PROCESSORS 1)
# The simulation's JSON on a full disk: exit 4, one line naming it and the cause, nothing partial.
amp_add_fault_test(NAME simulate_full_disk_exits_4 SCRIPT test_simulate_faults.py ARGS full_disk PROCESSORS 1)
# A traced run that shared its cores: one warning line and measured_trustworthy false.
amp_add_fault_test(NAME simulate_warns_of_a_shared_traced_run SCRIPT test_simulate_faults.py ARGS machine_load)
# Two network files of one base name never replace each other's results.
amp_add_fault_test(NAME simulate_same_network_name_two_results SCRIPT test_simulate_faults.py ARGS same_name
                   PROCESSORS 1)
# Two --calibrate runs to one new file: one writes it, the other is refused in one line (at once:
# one calibration at a time measures this machine; two at once once took over 300 s of ranks waiting for a core).
amp_add_fault_test(NAME simulate_calibrations_at_once_one_writes SCRIPT test_simulate_faults.py ARGS calibrate_race
                   TIMEOUT 300 PROCESSORS 2)
# A calibration while another holds the machine's calibration lock: refused at once, one line, nothing written.
amp_add_fault_test(NAME simulate_calibration_while_another_measures SCRIPT test_simulate_faults.py
                   ARGS calibrate_locked PROCESSORS 1)
# A ping-pong a busy machine spoiled (8 bytes slower than 4 MiB: no bandwidth follows): exit 3, nothing written.
amp_add_fault_test(NAME simulate_calibration_spoiled_pingpong_refused SCRIPT test_simulate_faults.py
                   ARGS calibrate_unusable TIMEOUT 240 PROCESSORS 2)
# a trace replaced in its folder (3 steps, then 8) gets a new export: the 8-step prediction.
amp_add_fault_test(NAME simulate_replaced_trace_gets_a_new_export SCRIPT test_simulate_faults.py ARGS stale_export
                   PROCESSORS 1)
# a junk export.json, or JSON without its ranks, is made again, never trusted.
amp_add_fault_test(NAME simulate_bad_export_cache_made_again SCRIPT test_simulate_faults.py ARGS bad_export_cache
                   PROCESSORS 1)
# SIGHUP during the export or the replay: exit 129, one line, no process or file left.
amp_add_fault_test(NAME simulate_hangup_ends_the_simulator SCRIPT test_simulate_faults.py ARGS hangup)
# a TMPDIR holding a space (smpirun splits unquoted paths) still simulates.
amp_add_fault_test(NAME simulate_tmpdir_with_a_space SCRIPT test_simulate_faults.py ARGS spaced_tmpdir PROCESSORS 1)
# measured beside predicted only on a calibration of the trace's host; more ranks than
# cores warned of; an absurd machine's error printed short.
amp_add_fault_test(NAME simulate_measured_only_on_the_recorded_machine SCRIPT test_simulate_faults.py
                   ARGS measured_comparison)
# SIGTERM or Ctrl-C to a study while it simulates: the signal is passed to simulate, which ends
# its simulator; exit 143 or 130, one line, no simulator process and no TMPDIR/amp-simulate-* folder left.
amp_add_fault_test(NAME study_stopped_during_simulation_cleans_up SCRIPT test_study_stops_simulation.py TIMEOUT 120)
