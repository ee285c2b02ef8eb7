// SPDX-License-Identifier: BSD-3-Clause
// The per-process tracing session behind the MPI_* wrappers: its on/paused/recording state, output
// file and its timed flushes, handle numbering, footer counts, and the fault handlers that still
// finish the file.
// One instance per process, because PMPI interposition itself is process-wide.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include <amp/trace/format/dumpi_format.hpp>
#include <amp/trace/writer/byte_sink.hpp>
#include <amp/trace/writer/handle_numbering.hpp>
#include <amp/trace/writer/request_numbering.hpp>
#include <amp/trace/writer/trace_clock.hpp>
#include <amp/trace/writer/trace_naming.hpp>
#include <amp/trace/writer/trace_settings.hpp>
#include <amp/trace/writer/trace_tail.hpp>
#include <amp/trace/writer/unrecorded_calls.hpp>

namespace amp::trace {

enum class TraceState : std::uint8_t { kOff = 0, kPaused, kRecording, kFinished };

struct CallTimes {
  Timestamp wall_start, wall_stop, cpu_start, cpu_stop;
};

class Tracer {
 public:
  static Tracer& instance();

  // Static so that the untraced path of every wrapper is one load and one compare.
  static TraceState state() { return state_.load(std::memory_order_relaxed); }
  static bool recording() { return state() == TraceState::kRecording; }
  // Calls that create or free MPI objects (communicators, datatypes, windows, persistent requests)
  // are recorded even while paused, so that a trace of a region still defines every object its
  // calls use and replays.
  static bool records_object_lifecycle() { return active(); }
  static bool active() {
    TraceState s = state();
    return s == TraceState::kRecording || s == TraceState::kPaused;
  }
  bool cpu_times() const { return settings_.cpu_times; }
  bool statuses() const { return settings_.statuses; }

  // Called right after PMPI_Init/PMPI_Init_thread. Collective. On a file error every rank prints one
  // line and the process exits with status 1. A synthesis starts each virtual rank with the names its
  // rank 0 chose and the lines it adds to the .meta; everything of the previous rank is forgotten.
  void start(const TraceSettings& settings, Timestamp init_wall_start, bool thread_multiple,
             const TraceNames* agreed_names = nullptr, const std::string& extra_meta_lines = "");
  // The names of the trace being written (valid after start()).
  const TraceNames& names() const { return names_; }
  // After PMPI_Finalize: writes the tail and closes the file.
  void finish();
  // Whether a trace this process wrote (any virtual rank of a synthesis too) lost bytes: a write or
  // the close failed. Stays set once set.
  bool write_failed() const { return write_failed_; }
  void mark_write_failed() { write_failed_ = true; }
  // The program throws this trace away (a run refused at start-up) and removes its files itself:
  // MPI_Finalize then adds nothing to the .meta.
  void discard() { discarded_ = true; }
  bool discarded() const { return discarded_; }
  // exit() without MPI_Finalize, a fatal signal, MPI_Abort: drops an incomplete record, writes the
  // tail. Async-signal-safe; only the first caller does the work.
  void finish_after_fault();

  void pause();
  void resume();

  // Serialises recording when the program runs MPI_THREAD_MULTIPLE; a no-op lock otherwise.
  std::unique_lock<std::mutex> guard() {
    return thread_multiple_ ? std::unique_lock<std::mutex>(mutex_) : std::unique_lock<std::mutex>();
  }
  // With guard() held: function id, mask, thread id, times.
  void write_prefix(std::uint16_t function, const CallTimes& times);
  // With guard() held: the record is complete.
  void end_record(std::uint16_t function);
  void count_ignored(std::uint16_t function);
  // Records MPI_Pcontrol(level) as a Function_enter annotation.
  void record_pcontrol(int level, const CallTimes& times);

  ByteSink& out() { return *out_; }
  HandleNumbering& handles() { return *handles_; }
  RequestNumbering& requests() { return requests_; }
  // With guard() held: calls with no DUMPI record and the handles they made.
  UnrecordedCalls& unrecorded() { return unrecorded_; }
  // Rank 0's .meta file (empty on the other ranks).
  const std::string& meta_path() const { return meta_path_; }

 private:
  Tracer() = default;
  void forget_previous_run();
  void fail_start(const std::string& own_error, bool any_failed, int rank);
  // With guard() held, after a record's last byte: marks it complete, and writes the buffer to the
  // file when the flush interval has passed since the last flush (judged by the record's own stop
  // time, so the check reads no clock).
  void complete_record();
  void install_fault_handlers();
  TraceTail tail_contents() const;

  inline static std::atomic<TraceState> state_{TraceState::kOff};
  std::atomic<bool> finishing_{false};
  bool write_failed_ = false;
  bool discarded_ = false;
  TraceSettings settings_;
  bool thread_multiple_ = false;
  std::mutex mutex_;
  std::uint8_t mask_ = 0;
  std::int64_t wall_offset_ = 0;
  std::int64_t cpu_offset_ = 0;
  std::int64_t record_stop_ns_ = 0;  // wall stop time of the record being written
  std::int64_t next_flush_ns_ = 0;   // 0: MPI_Init's record flushes the file's lead-in at once
  TraceHeader header_;
  TraceNames names_;
  std::string bin_path_;
  std::unique_ptr<ByteSink> out_;
  std::unique_ptr<HandleNumbering> handles_;
  RequestNumbering requests_;
  UnrecordedCalls unrecorded_;
  std::string meta_path_;
  std::uint32_t call_counts_[kFooterSlots] = {};
  std::uint32_t ignored_counts_[kFooterSlots] = {};
  static constexpr std::size_t kMaxPcontrolLabels = 16;
  AddressLabel pcontrol_labels_[kMaxPcontrolLabels];
  std::size_t pcontrol_label_count_ = 0;
};

// Process-wide thread number written in every record (0 = first thread that called MPI).
std::uint16_t current_thread_number();

}  // namespace amp::trace
