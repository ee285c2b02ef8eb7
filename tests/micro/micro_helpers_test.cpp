// SPDX-License-Identifier: BSD-3-Clause
// Serial tests of amp-micro's helpers: the size sweep and its volume limit, hot-spot target choice,
// payload patterns and the result table's CSV and verification summary.
#include <amp/miniapps/micro/hotspot_target_picker.hpp>
#include <amp/miniapps/micro/payload.hpp>
#include <amp/miniapps/micro/result_table.hpp>
#include <amp/miniapps/micro/size_sweep.hpp>

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

namespace amp::micro {
namespace {

TEST(SizeSweep, VisitsPowersOfTwoAndShrinksIterationsAboveVolume) {
  RunSettings settings;
  settings.min_size = 1024;
  settings.max_size = 8192;
  settings.iterations = 10;
  settings.volume = 16384;
  const auto points = size_sweep(settings);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].bytes, 1024u);
  EXPECT_EQ(points[3].bytes, 8192u);
  EXPECT_EQ(points[0].iterations, 10);  // 16 would fit, capped at 10
  EXPECT_EQ(points[2].iterations, 4);   // 4096 B: 4 fit in 16 KiB
  EXPECT_EQ(points[3].iterations, 2);
  EXPECT_EQ(iterations_within_volume(1 << 20, 10, 1024), 1);  // never fewer than one
}

TEST(HotspotTargetPicker, NeverPicksItselfAndWeightsTheVictim) {
  const int ranks = 4, victim = 2, weight = 8;
  const HotspotTargetPicker picker(/*rank=*/0, ranks, victim, weight);
  EXPECT_DOUBLE_EQ(picker.probability_of(0), 0.0);
  EXPECT_DOUBLE_EQ(picker.probability_of(victim), 8.0 / 10.0);
  EXPECT_DOUBLE_EQ(picker.probability_of(1), 1.0 / 10.0);
  std::mt19937_64 random(7);
  std::vector<int> hits(ranks, 0);
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) ++hits[static_cast<std::size_t>(picker.pick(random()))];
  EXPECT_EQ(hits[0], 0);
  EXPECT_NEAR(hits[victim] / double(draws), 0.8, 0.01);
  EXPECT_NEAR(hits[1] / double(draws), 0.1, 0.01);
  EXPECT_NEAR(hits[3] / double(draws), 0.1, 0.01);
}

TEST(HotspotTargetPicker, VictimItselfPicksUniformlyAndALoneRankPicksItself) {
  const HotspotTargetPicker victim_picker(/*rank=*/1, 3, /*victim=*/1, 8);
  EXPECT_DOUBLE_EQ(victim_picker.probability_of(0), 0.5);
  EXPECT_DOUBLE_EQ(victim_picker.probability_of(2), 0.5);
  const HotspotTargetPicker alone(0, 1, 0, 4);
  EXPECT_EQ(alone.pick(12345), 0);
}

TEST(Payload, PatternDetectsShiftsWrongSenderAndClearedBytes) {
  std::vector<unsigned char> data(64);
  fill_pattern(data.data(), data.size(), 3);
  EXPECT_TRUE(holds_pattern(data.data(), data.size(), 3));
  EXPECT_FALSE(holds_pattern(data.data(), data.size(), 2));
  EXPECT_FALSE(holds_pattern(data.data() + 1, data.size() - 1, 3));
  data[63] = 0;
  EXPECT_FALSE(holds_pattern(data.data(), data.size(), 3));
}

TEST(ResultTable, CsvQuotesTextAndVerifiedNeedsEveryRow) {
  ResultTable table({"mode", "bytes", "verified"});
  table.add_row({"a,b", 8, true});
  EXPECT_TRUE(table.all_verified());
  table.add_row({"plain", 16, false});
  EXPECT_FALSE(table.all_verified());
  EXPECT_THROW(table.add_row({"short"}), std::logic_error);
  EXPECT_EQ(table.csv_text(), "mode,bytes,verified\n\"a,b\",8,true\nplain,16,false\n");
  EXPECT_EQ(table.rows_json()[1]["bytes"], 16);
}

}  // namespace
}  // namespace amp::micro
