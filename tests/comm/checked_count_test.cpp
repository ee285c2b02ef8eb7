// SPDX-License-Identifier: BSD-3-Clause
// The int range check every transport passes its MPI counts through: INT_MAX goes, one more is a
// one-line error naming the transport and the count, never a wrapped int.
#include <amp/comm/transports/checked_count.hpp>

#include <gtest/gtest.h>

#include <climits>
#include <stdexcept>
#include <string>

namespace {

using amp::comm::checked_count;

TEST(CheckedCount, PassesEveryIntUnchanged) {
  EXPECT_EQ(checked_count(0, "isend", "a message's element count"), 0);
  EXPECT_EQ(checked_count(INT_MAX, "isend", "a message's element count"), INT_MAX);
  EXPECT_EQ(checked_count(INT_MIN, "datatype", "a piece's extent"), INT_MIN);
}

TEST(CheckedCount, RefusesACountAboveIntMaxNamingTransportAndCount) {
  const std::int64_t above = std::int64_t{INT_MAX} + 1;
  try {
    checked_count(above, "persistent", "a message's element count");
    FAIL() << "no exception for " << above;
  } catch (const std::length_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "persistent transport: a message's element count 2147483648 does not fit an MPI int (at most "
              "2147483647)");
  }
}

TEST(CheckedCount, RefusesEveryCountFarAboveIntMax) {
  for (const std::int64_t count : {std::int64_t{3} << 31, std::int64_t{1} << 40, std::int64_t{INT64_MAX}})
    EXPECT_THROW(checked_count(count, "rma", "a message's element count"), std::length_error) << count;
  EXPECT_THROW(checked_count(std::int64_t{INT_MIN} - 1, "datatype", "a piece's extent"), std::length_error);
}

}  // namespace
