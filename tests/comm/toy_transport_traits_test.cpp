// SPDX-License-Identifier: BSD-3-Clause
// The trace side learns what a transport's traces are good for from the transport's own registration:
// the toy transport (toy_transport.cpp), known nowhere else, is named with its own reason where a synthesis
// is refused, beside the real transports' traits read the same way.
#include <amp/miniapps/common/synthesis.hpp>
#include <amp/miniapps/common/transport_tracing.hpp>

#include <gtest/gtest.h>

namespace {

TEST(ToyTransportTraits, TheSynthesisRefusalQuotesTheToysOwnRegistration) {
  EXPECT_EQ(amp::synthesis_problem("toy"),
            "transport 'toy' cannot be synthesized: a test's toy, never synthesized "
            "(synthesize with isend, persistent, datatype)");
  EXPECT_FALSE(amp::transport_tracing("toy").replayable);
}

TEST(ToyTransportTraits, TheRealTransportsSayTheirsTheSameWay) {
  EXPECT_EQ(amp::synthesis_problem("isend"), "");
  EXPECT_TRUE(amp::transport_tracing("isend").replayable);
  EXPECT_FALSE(amp::transport_tracing("neighbor").replayable);
  EXPECT_EQ(amp::synthesis_problem("neighbor"),
            "transport 'neighbor' cannot be synthesized: its calls have no DUMPI record "
            "(synthesize with isend, persistent, datatype)");
  EXPECT_EQ(amp::synthesis_problem("no-such-transport"),
            "transport 'no-such-transport' cannot be synthesized: its MPI calls are not described to the trace "
            "side (synthesize with isend, persistent, datatype)");
}

}  // namespace
