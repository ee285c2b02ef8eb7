// The transport registry: names, which strategies each fits, the one-line refusals that name the
// transports that fit, and which transports' calls DUMPI can record.
#include <amp/comm/strategy_registry.hpp>
#include <amp/comm/transport_registry.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

using amp::comm::transport_problem;

TEST(TransportRegistry, ListsTheSixTransportsInOrder) {
  EXPECT_EQ(amp::comm::transport_names(),
            (std::vector<std::string>{"isend", "persistent", "partitioned", "rma", "neighbor", "datatype"}));
  EXPECT_EQ(amp::comm::transport_list(), "isend, persistent, partitioned, rma, neighbor, datatype");
}

TEST(TransportRegistry, EveryValidCombinationHasNoProblem) {
  for (const std::string& strategy : amp::comm::strategy_names())
    for (const char* transport : {"isend", "persistent", "rma", "datatype"})
      EXPECT_EQ(transport_problem(transport, strategy), "") << strategy << "/" << transport;
  EXPECT_EQ(transport_problem("neighbor", "bspma"), "");
  EXPECT_EQ(transport_problem("neighbor", "svaf"), "");
}

TEST(TransportRegistry, NeighbourCollectivesRefuseOneMessagePerPiece) {
  const std::string fits = MPI_VERSION >= 4 ? "isend, persistent, partitioned, rma, datatype"
                                            : "isend, persistent, rma, datatype";
  EXPECT_EQ(transport_problem("neighbor", "svcp"),
            "transport 'neighbor' does not fit strategy 'svcp' (neighbor fits bspma, svaf; svcp fits " + fits + ")");
  EXPECT_EQ(amp::comm::transports_fitting("svcp"), fits);
}

TEST(TransportRegistry, PartitionedNeedsAnMpi4Library) {
  for (const std::string& strategy : amp::comm::strategy_names()) {
    if (MPI_VERSION >= 4) {
      EXPECT_EQ(transport_problem("partitioned", strategy), "");
    } else {
      EXPECT_NE(transport_problem("partitioned", strategy).find("transport 'partitioned' needs MPI 4.0, this MPI is 3."),
                std::string::npos);
    }
  }
}

TEST(TransportRegistry, UnknownNamesAreRefusedWithTheChoices) {
  EXPECT_EQ(transport_problem("carrier-pigeon", "bspma"),
            "unknown transport 'carrier-pigeon' (use isend, persistent, partitioned, rma, neighbor, datatype)");
  EXPECT_EQ(transport_problem("isend", "smoke-signals"),
            "unknown communication strategy 'smoke-signals' (use bspma, svaf, svcp)");
}

// rma: its passive-target synchronisation (MPI_Win_lock_all, MPI_Win_flush, MPI_Win_sync) is MPI-3.
TEST(TransportRegistry, PartitionedNeighbourAndRmaHaveNoDumpiRecord) {
  for (const std::string& transport : amp::comm::transport_names())
    EXPECT_EQ(amp::comm::transport_replayable(transport),
              transport != "partitioned" && transport != "neighbor" && transport != "rma")
        << transport;
}
