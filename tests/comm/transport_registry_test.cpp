// SPDX-License-Identifier: BSD-3-Clause
// The registries and fits() (comm/combination.hpp), read from the registries themselves: every strategy
// fits every transport that needs nothing of its cut, a transport that needs one message per link fits
// exactly the strategies that cut so, a transport this MPI is too old for and an in-place transport with
// staged buffers fit none, a strategy that paces link by link fits exactly the transports that can move
// one link at a time, and each refusal names the transports that fit. No strategy is named, so a
// strategy added in one file passes unchanged (comm_transport_registry_with_toy_test links the toy).
#include <amp/comm/combination.hpp>
#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/transport_registry.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using amp::comm::combination_refusal;
using amp::comm::CutNeeded;
using amp::comm::DataAccess;
using amp::comm::MessageCut;
using amp::comm::MpiBuffers;
using amp::comm::Pacing;
using amp::comm::StrategyRegistration;
using amp::comm::TransportRegistration;

const MpiBuffers kReached = MpiBuffers::in_memory_space("test");
const MpiBuffers kStaged = MpiBuffers::staged_through_host("test");

bool new_enough(const TransportRegistration& t) { return t.mpi_version <= MPI_VERSION; }

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// Whether the transport can pace the strategy's messages as it asks (one link at a time, or by batch).
bool paces(const StrategyRegistration& s, const TransportRegistration& t) {
  return s.produces.pacing == Pacing::kByBatch || t.moves_link_by_link;
}

// The strategies whose messages a transport that needs one per link can move.
std::string cut_per_link(const TransportRegistration& t) {
  std::vector<std::string> names;
  for (const StrategyRegistration& s : amp::comm::registered_strategies())
    if (s.produces.cut == MessageCut::kPerLink && paces(s, t)) names.push_back(s.name);
  return joined(names);
}

TEST(TransportRegistry, ListsTheSixTransportsInOrder) {
  EXPECT_EQ(amp::comm::transport_names(),
            (std::vector<std::string>{"isend", "persistent", "partitioned", "rma", "neighbor", "datatype"}));
  EXPECT_EQ(amp::comm::transport_list(), "isend, persistent, partitioned, rma, neighbor, datatype");
}

TEST(TransportRegistry, TransportsThatNeedNothingOfTheCutFitEveryStrategy) {
  int checked = 0;
  for (const StrategyRegistration& s : amp::comm::registered_strategies())
    for (const TransportRegistration& t : amp::comm::registered_transports()) {
      if (t.needs != CutNeeded::kAny || !new_enough(t) || !paces(s, t)) continue;
      EXPECT_EQ(combination_refusal(s.name, t.name, kReached), "") << s.name << "/" << t.name;
      ++checked;
    }
  EXPECT_GE(checked, 3);  // isend, persistent, rma and datatype at least
}

TEST(TransportRegistry, OneMessagePerLinkFitsExactlyTheStrategiesThatCutSo) {
  int refused = 0;
  for (const TransportRegistration& t : amp::comm::registered_transports()) {
    if (t.needs != CutNeeded::kPerLink || !new_enough(t)) continue;
    for (const StrategyRegistration& s : amp::comm::registered_strategies()) {
      if (!paces(s, t)) continue;  // the next test's
      if (s.produces.cut == MessageCut::kPerLink) {
        EXPECT_EQ(combination_refusal(s.name, t.name, kReached), "") << s.name << "/" << t.name;
        continue;
      }
      ++refused;
      EXPECT_EQ(combination_refusal(s.name, t.name, kReached),
                "transport '" + t.name + "' does not fit strategy '" + s.name + "' (" + t.name + " fits " +
                    cut_per_link(t) + "; " + s.name + " fits " + amp::comm::transports_fitting(s, kReached) + ")");
      EXPECT_EQ(amp::comm::transports_fitting(s, kReached).find(t.name), std::string::npos);
    }
  }
  EXPECT_GE(refused, 1);  // neighbour collectives refuse a cut per piece
}

// A strategy that exchanges with one neighbour at a time fits exactly the transports that can move one
// link's messages on their own (isend, persistent and datatype do; the batch-wide ones refuse it).
TEST(TransportRegistry, LinkByLinkPacingFitsExactlyTheTransportsThatCan) {
  int paced = 0, refused = 0;
  for (const StrategyRegistration& s : amp::comm::registered_strategies()) {
    if (s.produces.pacing != Pacing::kLinkByLink) continue;
    ++paced;
    for (const TransportRegistration& t : amp::comm::registered_transports()) {
      if (!new_enough(t)) continue;
      const bool cut = t.needs == CutNeeded::kAny || s.produces.cut == MessageCut::kPerLink;
      if (t.moves_link_by_link && cut) {
        EXPECT_EQ(combination_refusal(s.name, t.name, kReached), "") << s.name << "/" << t.name;
        continue;
      }
      ++refused;
      std::vector<std::string> moved;
      for (const StrategyRegistration& x : amp::comm::registered_strategies())
        if ((t.needs == CutNeeded::kAny || x.produces.cut == MessageCut::kPerLink) && paces(x, t))
          moved.push_back(x.name);
      EXPECT_EQ(combination_refusal(s.name, t.name, kReached),
                "transport '" + t.name + "' does not fit strategy '" + s.name + "' (" + t.name + " fits " +
                    joined(moved) + "; " + s.name + " fits " + amp::comm::transports_fitting(s, kReached) + ")");
    }
  }
  if (paced == 0) GTEST_SKIP() << "no strategy paces link by link in this build";
  EXPECT_GE(refused, 1);  // neighbour collectives move a whole batch in one call
  for (const char* can : {"isend", "persistent", "datatype"})
    EXPECT_TRUE(amp::comm::find_transport(can)->moves_link_by_link) << can;
  for (const char* cannot : {"partitioned", "rma", "neighbor"})
    EXPECT_FALSE(amp::comm::find_transport(cannot)->moves_link_by_link) << cannot;
}

TEST(TransportRegistry, ATransportNewerThanThisMpiFitsNothing) {
  for (const TransportRegistration& t : amp::comm::registered_transports()) {
    if (new_enough(t)) continue;
    for (const StrategyRegistration& s : amp::comm::registered_strategies())
      EXPECT_EQ(combination_refusal(s.name, t.name, kReached)
                    .rfind("transport '" + t.name + "' needs MPI " + std::to_string(t.mpi_version) +
                               ".0, this MPI is " + std::to_string(MPI_VERSION) + ".",
                           0),
                0u)
          << s.name << "/" << t.name;
  }
}

TEST(TransportRegistry, StagedBuffersRefuseInPlaceTransportsOnly) {
  int refused = 0;
  for (const StrategyRegistration& s : amp::comm::registered_strategies())
    for (const TransportRegistration& t : amp::comm::registered_transports()) {
      const std::string unstaged = combination_refusal(s.name, t.name, kReached);
      const std::string staged = combination_refusal(s.name, t.name, kStaged);
      if (t.data_access != DataAccess::kInPlace || !unstaged.empty()) {
        EXPECT_EQ(staged.empty(), unstaged.empty()) << s.name << "/" << t.name;
        continue;
      }
      ++refused;
      EXPECT_EQ(staged, "transport '" + t.name + "' hands MPI the variables' storage in place, and MPI's buffers are " +
                            kStaged.description() + " (with " + s.name + " use " +
                            amp::comm::transports_fitting(s, kStaged) + ")");
    }
  EXPECT_GE(refused, 1);  // datatype
}

TEST(TransportRegistry, UnknownNamesAreLeftToTheCallerToName) {
  EXPECT_EQ(amp::comm::find_transport("carrier-pigeon"), nullptr);
  EXPECT_EQ(amp::comm::find_strategy("smoke-signals"), nullptr);
  EXPECT_FALSE(amp::comm::is_strategy("smoke-signals"));
  EXPECT_EQ(combination_refusal("smoke-signals", "isend", kReached), "");
  EXPECT_EQ(combination_refusal(amp::comm::strategy_names().front(), "carrier-pigeon", kReached), "");
}

}  // namespace

// The checked pair a run builds its strategies from (checked once at start-up, built without a second
// check): the same answer as fits(), by name, for every registered pair; unknown names refused; an
// unchecked (default) combination never built.
TEST(CheckedCombination, AgreesWithFitsAndIsTheOnlyWayToBuild) {
  for (const StrategyRegistration& s : amp::comm::registered_strategies())
    for (const TransportRegistration& t : amp::comm::registered_transports())
      for (const MpiBuffers& buffers : {kReached, kStaged}) {
        const bool fit = amp::comm::fits(s, t, buffers);
        try {
          const amp::comm::Combination c = amp::comm::checked_combination(s.name, t.name, buffers);
          EXPECT_TRUE(fit) << s.name << "/" << t.name;
          EXPECT_EQ(c.strategy()->name, s.name);
          EXPECT_EQ(c.transport()->name, t.name);
        } catch (const std::invalid_argument& refused) {
          EXPECT_FALSE(fit) << s.name << "/" << t.name;
          EXPECT_EQ(std::string(refused.what()), combination_refusal(s.name, t.name, buffers));
        }
      }
  EXPECT_THROW(amp::comm::checked_combination("no-such-strategy", "isend", kReached), std::invalid_argument);
  EXPECT_THROW(
      amp::comm::checked_combination(amp::comm::registered_strategies().front().name, "no-such-transport", kReached),
      std::invalid_argument);
  const amp::comm::ExchangeContext context(MPI_COMM_NULL, kReached, true);
  EXPECT_THROW(amp::comm::make_strategy(amp::comm::Combination{}, amp::comm::ExchangePlan{}, context),
               std::logic_error);
}
