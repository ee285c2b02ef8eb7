// SPDX-License-Identifier: BSD-3-Clause
// Tag layout: size checks, exchange data and migration data never share a tag, every epoch's data has
// a bank of its own until the banks run out, and no tag passes MPI_TAG_UB (MPI's minimum, MPICH's,
// Open MPI's).
#include <amp/comm/impl/message_tags.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace {

using amp::comm::MessageClass;
using amp::comm::TagLayout;

class TagLayoutForTagUb : public ::testing::TestWithParam<int> {};

TEST_P(TagLayoutForTagUb, KindsAndEpochsNeverShareATag) {
  const TagLayout tags(GetParam());
  const int phases = 3;
  const long long ordinals = 40;
  const int epochs = std::min(tags.epochs_before_reuse(), 6);
  std::set<int> seen;
  int highest = 0;
  for (int phase = 0; phase < phases; ++phase) EXPECT_TRUE(seen.insert(tags.size_check_tag(phase)).second);
  for (MessageClass c : {MessageClass::kExchange, MessageClass::kMigration})
    for (int epoch = 0; epoch < epochs; ++epoch)
      for (int phase = 0; phase < phases; ++phase)
        for (long long ordinal = 0; ordinal < ordinals; ++ordinal) {
          const int tag = tags.data_tag(c, epoch, phase, phases, ordinal);
          EXPECT_GE(tag, TagLayout::kFirstDataTag);
          EXPECT_TRUE(seen.insert(tag).second) << "tag " << tag << " given twice";
          highest = std::max(highest, tag);
        }
  // The last tag of the last bank is within MPI_TAG_UB.
  const int last_epoch = tags.epochs_before_reuse() - 1;
  EXPECT_LE(tags.data_tag(MessageClass::kMigration, last_epoch, 0, 1, tags.bank_width() - 1), GetParam());
  EXPECT_LE(highest, GetParam());
}

INSTANTIATE_TEST_SUITE_P(TagUb, TagLayoutForTagUb, ::testing::Values(32767, (1 << 29) - 1, 2147483647));

TEST(TagLayout, BanksComeBackOnlyAfterEveryEpochHadOne) {
  const TagLayout mpich((1 << 29) - 1);
  EXPECT_EQ(mpich.bank_width(), 1 << 18);
  EXPECT_EQ(mpich.epochs_before_reuse(), 1023);
  EXPECT_EQ(mpich.data_tag(MessageClass::kExchange, 0, 1, 3, 2), TagLayout::kFirstDataTag + 2 * 3 + 1);
  EXPECT_EQ(mpich.data_tag(MessageClass::kExchange, 1023, 1, 3, 2),
            mpich.data_tag(MessageClass::kExchange, 0, 1, 3, 2));
  EXPECT_NE(mpich.data_tag(MessageClass::kExchange, 1022, 1, 3, 2),
            mpich.data_tag(MessageClass::kExchange, 0, 1, 3, 2));
  // MPI's minimum leaves one bank per class: every epoch shares it.
  EXPECT_EQ(TagLayout(32767).epochs_before_reuse(), 1);
}

TEST(TagLayout, RefusesWhatDoesNotFit) {
  const TagLayout tags(32767);
  EXPECT_THROW(tags.data_tag(MessageClass::kExchange, 0, 0, 3, tags.bank_width() / 3 + 1), std::runtime_error);
  EXPECT_THROW(tags.size_check_tag(TagLayout::kSizeCheckTags), std::runtime_error);
  EXPECT_THROW(TagLayout(1000), std::runtime_error);
}

}  // namespace
