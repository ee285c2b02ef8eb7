// SPDX-License-Identifier: BSD-3-Clause
// What a strategy's messages are and what a transport needs of them: the vocabulary in which the two
// registries (strategy_registry.hpp, transport_registry.hpp) describe their entries, so that a pair is
// matched by capability (combination.hpp's fits()), never by name.
#pragma once

namespace amp::comm {

// How a strategy cuts a batch's data into messages.
enum class MessageCut {
  kPerLink,   // one message per link and batch: the link's slots of the batch's variables, packed back to back
  kPerPiece,  // one message per piece and variable; contiguous pieces straight from storage where allowed
};

// How a strategy paces a batch's messages.
enum class Pacing {
  kByBatch,     // a batch's messages are started together and completed together (impl/transport.hpp's verbs)
  kLinkByLink,  // one link at a time: its receives and sends started and completed before the next link's
                // start (Transport::exchange_link); only transports that register moves_link_by_link fit
};

// A group size meaning "all variables in one group".
constexpr int kAllVariables = 0;

// What a strategy produces (its registration says it).
struct StrategyCapabilities {
  MessageCut cut;
  int group_size;  // variables per batch (kAllVariables: all of them in one)
  Pacing pacing = Pacing::kByBatch;
};

// What a transport needs of the messages it moves (its registration says it).
enum class CutNeeded {
  kAny,      // moves any message on its own
  kPerLink,  // moves each link's part of a batch as one block (a neighbourhood collective's counts)
};

// How a transport reaches the data (its registration says it; an in-place one cannot be given staged buffers).
enum class DataAccess {
  kBuffersOrDirect,  // packed slots of the areas, or straight from storage for a direct message
  kBuffers,          // packed slots only: every piece is packed, no message is direct
  kInPlace,          // the pieces in storage, described to MPI: nothing is packed
};

}  // namespace amp::comm
