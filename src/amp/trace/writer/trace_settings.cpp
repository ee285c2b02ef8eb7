// SPDX-License-Identifier: BSD-3-Clause
// Parsing of the AMP_TRACE_* environment variables (and the directory a program gave) into
// TraceSettings, with messages that name the variable and the accepted values.
#include <amp/trace/writer/trace_settings.hpp>

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace amp::trace {

namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

bool env_flag(const char* name, bool fallback) {
  std::string value = env_or_empty(name);
  if (value.empty()) return fallback;
  if (value == "1" || value == "yes" || value == "on" || value == "true") return true;
  if (value == "0" || value == "no" || value == "off" || value == "false") return false;
  throw std::runtime_error(std::string(name) + "='" + value + "' is not a switch; use 1 or 0");
}

// Seconds as a decimal number from 0 to one day, in nanoseconds; fallback when unset or empty.
std::int64_t env_seconds_as_ns(const char* name, std::int64_t fallback) {
  std::string value = env_or_empty(name);
  if (value.empty()) return fallback;
  char* end = nullptr;
  double seconds = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || *end != '\0' || !std::isfinite(seconds) || seconds < 0 || seconds > 86400)
    throw std::runtime_error(std::string(name) + "='" + value +
                             "' must be a number of seconds between 0 and 86400 (e.g. 1 or 0.5)");
  return static_cast<std::int64_t>(std::llround(seconds * 1e9));
}

// What amp_dumpi_trace_into gave (empty directory: nothing).
std::string& given_directory() {
  static std::string directory;
  return directory;
}
std::string& given_source() {
  static std::string source;
  return source;
}

}  // namespace

void TraceSettings::set_directory(const std::string& directory, const std::string& source) {
  given_directory() = directory;
  given_source() = source;
}

std::string TraceSettings::asked_directory() {
  return given_directory().empty() ? env_or_empty("AMP_TRACE_DIR") : given_directory();
}

TraceSettings TraceSettings::from_environment() {
  TraceSettings settings;
  settings.directory = asked_directory();
  if (settings.directory.empty()) return settings;
  if (!given_directory().empty() && !given_source().empty()) settings.directory_source = given_source();
  settings.prefix = env_or_empty("AMP_TRACE_PREFIX");
  if (settings.prefix.find('/') != std::string::npos)
    throw std::runtime_error("AMP_TRACE_PREFIX='" + settings.prefix + "' must be a file name, not a path");
  std::string buffer = env_or_empty("AMP_TRACE_BUFFER_BYTES");
  if (!buffer.empty()) {
    char* end = nullptr;
    unsigned long long bytes = std::strtoull(buffer.c_str(), &end, 10);
    if (end == buffer.c_str()) bytes = 0;
    if (end != nullptr && (*end == 'k' || *end == 'K'))
      bytes <<= 10, ++end;
    else if (end != nullptr && (*end == 'm' || *end == 'M'))
      bytes <<= 20, ++end;
    if (end == nullptr || *end != '\0' || bytes < (64u << 10) || bytes > (1ull << 32))
      throw std::runtime_error("AMP_TRACE_BUFFER_BYTES='" + buffer +
                               "' must be a byte count between 64K and 4096M (e.g. 4M)");
    settings.buffer_bytes = static_cast<std::size_t>(bytes);
  }
  settings.cpu_times = env_flag("AMP_TRACE_CPU_TIMES", false);
  settings.statuses = env_flag("AMP_TRACE_STATUSES", true);
  settings.start_paused = env_flag("AMP_TRACE_START_PAUSED", false);
  settings.flush_interval_ns = env_seconds_as_ns("AMP_TRACE_FLUSH_SECONDS", settings.flush_interval_ns);
  return settings;
}

}  // namespace amp::trace
