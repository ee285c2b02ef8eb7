// SPDX-License-Identifier: BSD-3-Clause
// Size sweep of the micro-benchmarks (IMB-style: fewer iterations for large messages).
#include <amp/miniapps/micro/size_sweep.hpp>

#include <algorithm>

namespace amp::micro {

int iterations_within_volume(std::uint64_t bytes, int iterations, std::uint64_t volume) {
  const std::uint64_t fitting = bytes == 0 ? volume : volume / bytes;
  return static_cast<int>(std::clamp<std::uint64_t>(fitting, 1, static_cast<std::uint64_t>(iterations)));
}

std::vector<SweepPoint> size_sweep(const RunSettings& settings) {
  std::vector<SweepPoint> points;
  for (std::uint64_t bytes = settings.min_size; bytes <= settings.max_size; bytes *= 2) {
    points.push_back({bytes, iterations_within_volume(bytes, settings.iterations, settings.volume),
                      static_cast<int>(points.size())});
  }
  return points;
}

}  // namespace amp::micro
