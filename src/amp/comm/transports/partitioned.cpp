// SPDX-License-Identifier: BSD-3-Clause
// partitioned - MPI 4.0 partitioned communication, SVAF's idea done by the library. The messages of
// one link (and piece range) that differ only in their group of variables form one partitioned
// request, one partition per group: one partition per variable under SVAF, one per piece and variable
// under SVCP (a request per piece), one per link under BSPMA. MPI_Pready marks a partition as its
// group is sent; MPI_Parrived tells when a group's partition is in. Everything goes through the
// packed slots, laid out by link so that a link's partitions lie back to back (SVCP's pieces of
// successive variables are spaced by the link's slot: a resized type).
//
// Phases after the first forward what the same round received (edges and corners), one group at a
// time; MPICH 4.0 moves a request's data only once all its partitions are ready, so a request spanning
// groups there would wait for a group that waits for it. Their requests have one group each.
//
// A request carries one round (one step) of every group. The sender starts a new round once the last
// one is complete (before a slot is packed again); the receiver starts it once every partition of the
// last round has been unpacked, deferring a start that comes earlier (a variable already computed for
// the next step while later variables of this one are still to be unpacked).
#include <amp/comm/transport_registry.hpp>

#include <mpi.h>  // MPI_VERSION, before it is asked

#if MPI_VERSION >= 4

#include <amp/comm/transports/checked_count.hpp>

#include <amp/comm/stopwatch.hpp>
#include <amp/comm/impl/transport.hpp>

#include <stdexcept>

namespace amp::comm {

namespace {

class PartitionedTransport final : public Transport {
 public:
  using Transport::Transport;

  ~PartitionedTransport() override {
    if (mpi_finalized()) return;
    for (auto* channels : {&send_channels_, &recv_channels_})
      for (Channel& c : *channels) {
        if (c.active) MPI_Wait(&c.request, MPI_STATUS_IGNORE);
        MPI_Request_free(&c.request);
        if (c.derived_type) MPI_Type_free(&c.partition_type);
      }
  }

  AreaLayout area_layout() const override { return AreaLayout::kByLink; }

  void set_up() override {
    build_channels(Direction::kSend, send_channels_, send_batch_channels_);
    build_channels(Direction::kReceive, recv_channels_, recv_batch_channels_);
  }

  void reclaim_send_slot(int link, int var) override {
    const int group = state().group_of(var);
    for (Channel& c : send_channels_)
      if (c.link == link && group >= c.first_group && group < c.first_group + c.partitions && c.active &&
          c.done == c.partitions)
        finish_round(c);
  }

  void start_receives(int group, int phase) override {
    ScopedTimer timer(state().times().post);
    for (int i : recv_batch_channels_[state().batch(group, phase)]) {
      Channel& c = recv_channels_[i];
      if (!c.active) {
        MPI_Start(&c.request);
        c.active = true;
        c.starts = 1;
      } else if (c.starts < c.partitions) {
        ++c.starts;  // another group of the round in progress
      } else {
        ++c.deferred_starts;  // the next round: once this one is unpacked
      }
    }
  }

  void send(int group, int phase) override {
    ScopedTimer timer(state().times().post);
    for (int i : send_batch_channels_[state().batch(group, phase)]) {
      Channel& c = send_channels_[i];
      if (c.active && c.done == c.partitions) finish_round(c);
      if (!c.active) {
        MPI_Start(&c.request);
        c.active = true;
      }
      MPI_Pready(group - c.first_group, c.request);
      ++c.done;
    }
  }

  void complete_receives(int group, int phase) override {
    ScopedTimer timer(state().times().wait);
    for (int i : recv_batch_channels_[state().batch(group, phase)]) {
      Channel& c = recv_channels_[i];
      if (!c.active) throw std::logic_error("partitioned transport: ghosts awaited before their round started");
      int arrived = 0;
      while (!arrived) MPI_Parrived(c.request, group - c.first_group, &arrived);
      if (++c.done == c.partitions) finish_round(c);
    }
  }

  void release_receives(int group, int phase) override {
    for (int i : recv_batch_channels_[state().batch(group, phase)]) {
      Channel& c = recv_channels_[i];
      if (c.active || c.deferred_starts == 0) continue;
      MPI_Start(&c.request);
      c.active = true;
      c.starts = c.deferred_starts;
      c.deferred_starts = 0;
    }
  }

  void complete_sends(int) override {
    ScopedTimer timer(state().times().wait);
    for (Channel& c : send_channels_)
      if (c.active && c.done == c.partitions) finish_round(c);
  }

 private:
  // One partitioned request: the messages of one link and piece range, one partition per group
  // (groups [first_group, first_group + partitions)).
  struct Channel {
    int link = 0;
    int first_group = 0;
    int partitions = 0;
    MPI_Datatype partition_type = MPI_DATATYPE_NULL;
    bool derived_type = false;  // partition_type is ours to free
    MPI_Request request = MPI_REQUEST_NULL;
    bool active = false;      // started and not yet completed
    int done = 0;             // partitions readied (send) or unpacked (receive) this round
    int starts = 0;           // groups that started this round (receive)
    int deferred_starts = 0;  // groups that started the next round (receive)
  };

  void finish_round(Channel& c) {
    MPI_Wait(&c.request, MPI_STATUS_IGNORE);
    c.active = false;
    c.done = 0;
  }

  void build_channels(Direction d, std::vector<Channel>& channels, std::vector<std::vector<int>>& by_batch) {
    by_batch.assign(state().num_batches(), {});
    const int groups = state().num_groups();
    auto messages = [&](int group, int phase) -> const std::vector<Message>& {
      return state().messages(state().batch(group, phase), d);
    };
    for (int phase = 0; phase < state().num_phases(); ++phase) {
      const bool forwarding = phase > 0;  // one request per group (see the top of this file)
      const int partitions = forwarding ? 1 : groups;
      for (int first_group = 0; first_group < (forwarding ? groups : 1); ++first_group) {
        const std::vector<Message>& first = messages(first_group, phase);
        for (std::size_t i = 0; i < first.size(); ++i) {
          for (int g = first_group; g < first_group + partitions; ++g)
            by_batch[state().batch(g, phase)].push_back(static_cast<int>(channels.size()));
          // The partition stride: where the next group's message starts, relative to this one's.
          const std::int64_t stride =
              partitions > 1 ? state().address(messages(first_group + 1, phase)[i], d) - state().address(first[i], d)
                             : 0;
          channels.push_back(make_channel(d, first[i], first_group, partitions, stride));
        }
      }
    }
  }

  Channel make_channel(Direction d, const Message& m, int first_group, int partitions, std::int64_t stride) {
    Channel c;
    c.link = m.link;
    c.first_group = first_group;
    c.partitions = partitions;
    const int elements = checked_count(state().elements(m, d), "partitioned", "a partition's element count");
    int count = 1;                                // of c.partition_type per partition
    if (elements == stride || partitions == 1) {  // partitions lie back to back: plain doubles
      count = elements;
      c.partition_type = MPI_DOUBLE;
    } else {  // one group's message, spaced by `stride` elements
      MPI_Datatype contiguous;
      MPI_Type_contiguous(elements, MPI_DOUBLE, &contiguous);
      MPI_Type_create_resized(contiguous, 0, static_cast<MPI_Aint>(stride * sizeof(double)), &c.partition_type);
      MPI_Type_free(&contiguous);
      MPI_Type_commit(&c.partition_type);
      c.derived_type = true;
    }
    const int peer = state().link(m.link).peer;
    if (d == Direction::kSend)
      MPI_Psend_init(state().address(m, d), partitions, count, c.partition_type, peer, m.tag, state().comm(),
                     MPI_INFO_NULL, &c.request);
    else
      MPI_Precv_init(state().address(m, d), partitions, count, c.partition_type, peer, m.tag, state().comm(),
                     MPI_INFO_NULL, &c.request);
    return c;
  }

  std::vector<Channel> send_channels_, recv_channels_;
  std::vector<std::vector<int>> send_batch_channels_, recv_batch_channels_;  // [batch] -> channels
};

}  // namespace

std::unique_ptr<Transport> make_partitioned_transport(ExchangeState& state) {
  return std::make_unique<PartitionedTransport>(state);
}

}  // namespace amp::comm

#else  // an MPI before 4.0: the registry refuses the transport before it gets here

#include <stdexcept>

namespace amp::comm {
std::unique_ptr<Transport> make_partitioned_transport(ExchangeState&) {
  throw std::logic_error("partitioned transport: this MPI has no partitioned communication (MPI 4.0)");
}

}  // namespace amp::comm

#endif

// Registered with either MPI: before 4.0 the registry refuses it by its MPI version.
namespace amp::comm {
namespace {
const bool registered = register_transport(
    {"partitioned", "MPI 4.0 partitioned requests, one partition per group of variables", make_partitioned_transport,
     DataAccess::kBuffers,
     /*listed_at=*/2, CutNeeded::kAny,
     /*mpi_version=*/4, "partitioned communication (MPI_Psend_init/MPI_Pready)",
     /*moves_link_by_link=*/false, TraceTraits{/*replayable=*/false, "its calls have no DUMPI record"}});
}  // namespace
}  // namespace amp::comm
