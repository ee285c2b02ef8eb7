// SPDX-License-Identifier: BSD-3-Clause
// Tracer: start-up (names, files, built-in handles), record prefixes and footer counts, flushes at
// least every AMP_TRACE_FLUSH_SECONDS, pausing, and the normal and fault-time endings that write the
// footer and index.
#include <amp/trace/writer/tracer.hpp>

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <amp/trace/writer/mpi_backend.hpp>
#include <amp/trace/writer/trace_naming.hpp>

namespace amp::trace {

Tracer& Tracer::instance() {
  static Tracer* tracer = new Tracer();  // never destroyed: handlers may run during exit
  return *tracer;
}

namespace {
std::atomic<std::uint16_t> next_thread_number{0};
// initial-exec: the library is linked or preloaded, never dlopen'ed, so static TLS is cheap and safe.
thread_local std::uint32_t thread_number_plus_one __attribute__((tls_model("initial-exec"))) = 0;
}  // namespace

std::uint16_t current_thread_number() {
  if (thread_number_plus_one == 0)
    thread_number_plus_one = 1u + next_thread_number.fetch_add(1, std::memory_order_relaxed);
  return static_cast<std::uint16_t>(thread_number_plus_one - 1);
}

namespace {

constexpr int kFaultSignals[] = {SIGTERM, SIGINT, SIGABRT};
struct sigaction previous_actions[sizeof(kFaultSignals) / sizeof(int)];

void finish_at_exit() { Tracer::instance().finish_after_fault(); }

void finish_on_signal(int signal_number) {
  Tracer::instance().finish_after_fault();
  // Hand the signal to whoever had it before (usually the default action: terminate).
  for (std::size_t i = 0; i < sizeof(kFaultSignals) / sizeof(int); ++i) {
    if (kFaultSignals[i] == signal_number) sigaction(signal_number, &previous_actions[i], nullptr);
  }
  raise(signal_number);
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "<unknown>";
  return name;
}

std::string user_name() {
  const char* logname = std::getenv("LOGNAME");
  return logname != nullptr ? logname : "<none>";
}

}  // namespace

void Tracer::install_fault_handlers() {
  std::atexit(finish_at_exit);
  for (std::size_t i = 0; i < sizeof(kFaultSignals) / sizeof(int); ++i) {
    // A signal the parent ignored (nohup, `trap '' TERM`) stays ignored: it would not end the run.
    if (sigaction(kFaultSignals[i], nullptr, &previous_actions[i]) != 0 || previous_actions[i].sa_handler == SIG_IGN)
      continue;
    struct sigaction action;
    std::memset(&action, 0, sizeof(action));
    action.sa_handler = finish_on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(kFaultSignals[i], &action, &previous_actions[i]);
  }
}

void Tracer::fail_start(const std::string& own_error, bool any_failed, int rank) {
  if (!own_error.empty()) {
    std::fprintf(stderr, "amp_dumpi: rank %d: %s\n", rank, own_error.c_str());
  } else if (any_failed) {
    std::fprintf(stderr, "amp_dumpi: rank %d: stopping because another rank could not create its trace file\n", rank);
  }
  std::fflush(stderr);
  backend::Finalize();
  std::_Exit(2);  // a usage error: the folder or names the user gave cannot take the trace
}

void Tracer::forget_previous_run() {
  finishing_.store(false);
  record_stop_ns_ = 0;
  next_flush_ns_ = 0;
  meta_path_.clear();
  requests_ = RequestNumbering();
  unrecorded_ = UnrecordedCalls();
  std::fill(std::begin(call_counts_), std::end(call_counts_), 0u);
  std::fill(std::begin(ignored_counts_), std::end(ignored_counts_), 0u);
  pcontrol_label_count_ = 0;
}

void Tracer::start(const TraceSettings& settings, Timestamp init_wall_start, bool thread_multiple,
                   const TraceNames* agreed_names, const std::string& extra_meta_lines) {
  const bool first_start = !out_;
  forget_previous_run();
  settings_ = settings;
  thread_multiple_ = thread_multiple;
  int rank = 0, size = 1;
  backend::Comm_rank(MPI_COMM_WORLD, &rank);
  backend::Comm_size(MPI_COMM_WORLD, &size);

  names_ = agreed_names != nullptr ? *agreed_names : agree_on_trace_names(settings.directory, settings.prefix, rank);
  const TraceNames& names = names_;
  header_.start_time_epoch = names.start_time_epoch;
  header_.hostname = host_name();
  header_.username = user_name();
  bin_path_ = names.bin_path(rank);

  std::string error = names.refusal;  // rank 0's: the folder already holds a traced run
  int fd = error.empty() ? ::open(bin_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
  bool meta_created = false;
  if (!error.empty()) {
    // rank 0 refused the folder: this run makes no file of its own there
  } else if (fd < 0 && errno == EEXIST) {
    error = "trace file '" + bin_path_ +
            "' already exists; the library never overwrites a file "
            "(remove it or set another AMP_TRACE_PREFIX)";
  } else if (fd < 0) {
    const std::string reason = creation_problem(names.directory, errno);
    error = "cannot create trace file '" + bin_path_ + "': " + reason + " (" + settings.directory_source +
            " must name a writable directory)";
  } else if (rank == 0) {
    meta_path_ = names.meta_path();
    int meta_error = write_meta_file(names, size, header_.hostname, header_.username, extra_meta_lines);
    if (meta_error != 0) error = "cannot create trace file '" + names.meta_path() + "': " + std::strerror(meta_error);
    meta_created = meta_error != EEXIST;  // EEXIST: a file of someone else's, never removed
  }
  int failed = error.empty() ? 0 : 1, any_failed = 0;
  backend::Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_failed != 0) {
    if (fd >= 0) {
      ::close(fd);
      ::unlink(bin_path_.c_str());
    }
    if (meta_created) ::unlink(meta_path_.c_str());
    fail_start(error, true, rank);
  }
  if (rank == 0 && !names.notice.empty()) std::fprintf(stderr, "%s\n", names.notice.c_str());

  mask_ = static_cast<std::uint8_t>(kMaskThread | kMaskWallTime | (settings.statuses ? kMaskStatusEnabled : 0) |
                                    (settings.cpu_times ? kMaskCpuTime : 0));
  wall_offset_ = init_wall_start.sec;
  cpu_offset_ = 0;
  out_ = std::make_unique<ByteSink>(fd, settings.buffer_bytes);
  out_->put64(kHeadMagic);
  out_->put_i32(static_cast<std::int32_t>(cpu_offset_));
  out_->put_i32(static_cast<std::int32_t>(wall_offset_));
  out_->commit();
  handles_ = std::make_unique<HandleNumbering>();
  if (first_start) install_fault_handlers();
  state_.store(settings.start_paused ? TraceState::kPaused : TraceState::kRecording);
}

void Tracer::write_prefix(std::uint16_t function, const CallTimes& times) {
  const bool cpu = (mask_ & kMaskCpuTime) != 0;
  unsigned char* at = out_->claim(cpu ? 29 : 17);
  at = ByteSink::store16(at, function);
  *at++ = mask_;
  at = ByteSink::store16(at, current_thread_number());
  if (cpu) {
    at = ByteSink::store16(at, static_cast<std::uint16_t>(times.cpu_start.sec - cpu_offset_));
    at = ByteSink::store32(at, times.cpu_start.nsec);
    at = ByteSink::store16(at, static_cast<std::uint16_t>(times.cpu_stop.sec - cpu_offset_));
    at = ByteSink::store32(at, times.cpu_stop.nsec);
  }
  at = ByteSink::store16(at, static_cast<std::uint16_t>(times.wall_start.sec - wall_offset_));
  at = ByteSink::store32(at, times.wall_start.nsec);
  at = ByteSink::store16(at, static_cast<std::uint16_t>(times.wall_stop.sec - wall_offset_));
  ByteSink::store32(at, times.wall_stop.nsec);
  record_stop_ns_ = times.wall_stop.sec * 1'000'000'000 + times.wall_stop.nsec;
}

void Tracer::complete_record() {
  out_->commit();
  if (record_stop_ns_ < next_flush_ns_) return;
  out_->flush();
  next_flush_ns_ = record_stop_ns_ + settings_.flush_interval_ns;
}

void Tracer::end_record(std::uint16_t function) {
  complete_record();
  if (function < kAllFunctions) {
    ++call_counts_[function];
    ++call_counts_[kAllFunctions];
  }
}

void Tracer::count_ignored(std::uint16_t function) {
  if (thread_multiple_) {
    __atomic_fetch_add(&ignored_counts_[function], 1u, __ATOMIC_RELAXED);
    __atomic_fetch_add(&ignored_counts_[kAllFunctions], 1u, __ATOMIC_RELAXED);
  } else {
    ++ignored_counts_[function];
    ++ignored_counts_[kAllFunctions];
  }
}

void Tracer::record_pcontrol(int level, const CallTimes& times) {
  const std::uint64_t address = kPcontrolAnnotationKey | static_cast<std::uint32_t>(level);
  bool labelled = false;
  for (std::size_t i = 0; i < pcontrol_label_count_; ++i) labelled |= pcontrol_labels_[i].address == address;
  if (!labelled && pcontrol_label_count_ < kMaxPcontrolLabels) {
    AddressLabel& label = pcontrol_labels_[pcontrol_label_count_++];
    label.address = address;
    std::snprintf(label.name, sizeof(label.name), "MPI_Pcontrol(%d)", level);
  }
  write_prefix(kFunctionEnter, times);
  out_->put64(address);
  complete_record();
}

void Tracer::pause() {
  TraceState expected = TraceState::kRecording;
  state_.compare_exchange_strong(expected, TraceState::kPaused);
}

void Tracer::resume() {
  TraceState expected = TraceState::kPaused;
  state_.compare_exchange_strong(expected, TraceState::kRecording);
}

TraceTail Tracer::tail_contents() const {
  TraceTail tail;
  tail.header = &header_;
  tail.call_counts = call_counts_;
  tail.ignored_counts = ignored_counts_;
  tail.datatype_sizes = handles_->datatype_sizes().data();
  tail.datatype_size_count = handles_->datatype_sizes().size();
  tail.addresses = pcontrol_labels_;
  tail.address_count = pcontrol_label_count_;
  return tail;
}

void Tracer::finish() {
  if (finishing_.exchange(true)) return;
  state_.store(TraceState::kFinished);
  write_trace_tail(*out_, tail_contents());
  if (!out_->close()) {
    write_failed_ = true;
    std::fprintf(stderr, "amp_dumpi: writing trace file '%s' failed: %s; the trace is incomplete\n", bin_path_.c_str(),
                 std::strerror(out_->error_number()));
  }
}

void Tracer::finish_after_fault() {
  if (!active()) return;
  if (finishing_.exchange(true)) return;
  state_.store(TraceState::kFinished);
  out_->discard_uncommitted();
  write_trace_tail(*out_, tail_contents());
  out_->close();
}

}  // namespace amp::trace
