// SPDX-License-Identifier: BSD-3-Clause
// The trace side learns what a transport's traces are good for from the transport's own registration:
// the toy transport (toy_transport.cpp), known nowhere else, is named with its own reason where a synthesis
// is refused, beside the real transports' traits read the same way.
#include <amp/comm/transport_registry.hpp>
#include <amp/miniapps/common/synthesis.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace {

const amp::comm::TransportRegistration& registered(const char* name) {
  const amp::comm::TransportRegistration* found = amp::comm::find_transport(name);
  if (found == nullptr) throw std::logic_error(std::string("transport '") + name + "' is not registered");
  return *found;
}

TEST(ToyTransportTraits, TheSynthesisRefusalQuotesTheToysOwnRegistration) {
  EXPECT_EQ(amp::synthesis_problem(registered("toy")),
            "transport 'toy' cannot be synthesized: a test's toy, never synthesized "
            "(synthesize with isend, persistent, datatype)");
  EXPECT_FALSE(registered("toy").tracing.replayable);
}

TEST(ToyTransportTraits, TheRealTransportsSayTheirsTheSameWay) {
  EXPECT_EQ(amp::synthesis_problem(registered("isend")), "");
  EXPECT_TRUE(registered("isend").tracing.replayable);
  EXPECT_FALSE(registered("neighbor").tracing.replayable);
  EXPECT_EQ(amp::synthesis_problem(registered("neighbor")),
            "transport 'neighbor' cannot be synthesized: its calls have no DUMPI record "
            "(synthesize with isend, persistent, datatype)");
}

}  // namespace
