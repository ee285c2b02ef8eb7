// SPDX-License-Identifier: BSD-3-Clause
// locate_trace: the rules that turn a user's path into a run's files (the .meta's numprocs and
// fileprefix first, as dumpistats and SST-macro do; otherwise the -NNNN.bin files on disk).
#include <amp/trace/reader/trace_set.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>

#include <amp/trace/reader/trace_error.hpp>

namespace amp::trace {

namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The .meta's numprocs: a positive decimal of at most kMaxRanks (each rank is one file to open).
int rank_count(const std::string& meta_path, const std::string& numprocs) {
  constexpr long long kMaxRanks = 1000000;
  long long count = 0;
  const char* end = numprocs.data() + numprocs.size();
  const auto [stop, error] = std::from_chars(numprocs.data(), end, count);
  const bool too_large = error == std::errc::result_out_of_range && numprocs[0] != '-';
  if (stop != end || numprocs.empty() || (error != std::errc() && !too_large) || count < 0 ||
      (count == 0 && !too_large))
    throw TraceFormatError(meta_path + ": numprocs='" + numprocs + "' is not a positive rank count");
  if (too_large || count > kMaxRanks)
    throw TraceFormatError(meta_path + ": numprocs=" + numprocs + " is more ranks than amp-trace reads (at most " +
                           std::to_string(kMaxRanks) + ")");
  return static_cast<int>(count);
}

TraceSet from_meta(const std::string& meta_path) {
  TraceSet set;
  set.description = meta_path;
  set.meta_path = meta_path;
  set.meta = read_meta_file(meta_path);
  auto numprocs = set.meta.find("numprocs");
  auto prefix = set.meta.find("fileprefix");
  if (numprocs == set.meta.end() || prefix == set.meta.end())
    throw TraceFormatError(meta_path + ": not a DUMPI .meta file (needs numprocs= and fileprefix= lines)");
  const int count = rank_count(meta_path, numprocs->second);
  fs::path directory = fs::path(meta_path).parent_path();
  for (int rank = 0; rank < count; ++rank) {
    char name[32];
    std::snprintf(name, sizeof(name), "-%04d.bin", rank);
    fs::path bin = directory / (prefix->second + name);
    if (!fs::exists(bin))
      throw TraceFormatError(meta_path + ": numprocs=" + std::to_string(count) + " but " + bin.string() +
                             " is missing");
    set.ranks.push_back(rank);
    set.bin_paths.push_back(bin.string());
  }
  return set;
}

}  // namespace

std::map<std::string, std::string> read_meta_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceFormatError(path + ": cannot open for reading");
  std::map<std::string, std::string> meta;
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq != std::string::npos) meta[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return meta;
}

int rank_from_bin_name(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  if (!ends_with(name, ".bin")) return -1;
  std::string stem = name.substr(0, name.size() - 4);
  auto dash = stem.rfind('-');
  if (dash == std::string::npos || dash + 1 == stem.size()) return -1;
  std::string digits = stem.substr(dash + 1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return -1;
  return digits.size() > 9 ? -1 : std::stoi(digits);
}

TraceSet locate_trace(const std::string& input) {
  std::error_code ignored;
  if (ends_with(input, ".meta")) return from_meta(input);
  if (ends_with(input, ".bin")) {
    if (!fs::is_regular_file(input, ignored)) throw TraceFormatError(input + ": no such file");
    TraceSet set;
    set.description = input;
    set.ranks.push_back(std::max(0, rank_from_bin_name(input)));
    set.bin_paths.push_back(input);
    return set;
  }
  if (fs::is_directory(input, ignored)) {
    std::vector<std::string> metas;
    for (const auto& entry : fs::directory_iterator(input, ignored))
      if (entry.path().extension() == ".meta") metas.push_back(entry.path().string());
    if (metas.size() == 1) return from_meta(metas.front());
    if (metas.empty()) throw TraceFormatError(input + ": directory holds no DUMPI .meta file");
    std::sort(metas.begin(), metas.end());
    throw TraceFormatError(input + ": directory holds " + std::to_string(metas.size()) +
                           " traced runs; name one of them, e.g. " + metas.front());
  }
  if (fs::exists(input + ".meta", ignored)) return from_meta(input + ".meta");
  // A prefix without .meta: take the -NNNN.bin files that exist.
  fs::path prefix(input);
  fs::path directory = prefix.has_parent_path() ? prefix.parent_path() : fs::path(".");
  std::string stem = prefix.filename().string() + "-";
  TraceSet set;
  set.description = input;
  std::vector<std::pair<int, std::string>> found;
  if (fs::is_directory(directory, ignored)) {
    for (const auto& entry : fs::directory_iterator(directory, ignored)) {
      std::string name = entry.path().filename().string();
      int rank = rank_from_bin_name(name);
      if (rank >= 0 && name.compare(0, stem.size(), stem) == 0 && name.size() == stem.size() + 8)
        found.emplace_back(rank, entry.path().string());
    }
  }
  if (found.empty())
    throw TraceFormatError(input +
                           ": no DUMPI trace found (expected a .meta, a .bin, a prefix of <prefix>-NNNN.bin "
                           "files, or a directory)");
  std::sort(found.begin(), found.end());
  for (auto& [rank, path] : found) {
    set.ranks.push_back(rank);
    set.bin_paths.push_back(path);
  }
  return set;
}

std::string unrecorded_calls(const TraceSet& set) {
  constexpr std::string_view prefix = "amp_unrecorded_";
  std::string calls;
  for (const auto& [key, value] : set.meta) {
    if (key.rfind(prefix, 0) != 0 || key == "amp_unrecorded_total" || value == "0") continue;
    calls += (calls.empty() ? "" : ", ") + key.substr(prefix.size()) + " x" + value;
  }
  return calls;
}

}  // namespace amp::trace
