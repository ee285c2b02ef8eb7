// SPDX-License-Identifier: BSD-3-Clause
// datatype - no pack buffers: each message's pieces are described in place by a derived datatype
// (piece_datatype.hpp) and sent from, or received into, the variables' storage. A message over several
// variables (BSPMA's one per link) is an MPI_Type_create_struct of the variables' storage addresses,
// sent from MPI_BOTTOM; since proxies swap arrays, those structs are kept per set of addresses, and its
// receives start only when the group sends (once every variable's storage is known).
#include <amp/comm/transports/piece_datatype.hpp>
#include <amp/comm/transports/request_transport.hpp>
#include <amp/comm/transport_registry.hpp>

namespace amp::comm {

namespace {

class DatatypeTransport final : public RequestTransport {
 public:
  using RequestTransport::RequestTransport;

  ~DatatypeTransport() override {
    cancel_in_flight();
    if (mpi_finalized()) return;
    for (auto* table : {&sends_, &recvs_})
      for (auto& batch : *table)
        for (Described& d : batch) {
          MPI_Type_free(&d.one_variable.type);
          for (auto& entry : d.by_addresses) MPI_Type_free(&entry.second);
        }
  }

  bool receives_start_with_sends() const override { return state().group_size() > 1; }

  void set_up() override {
    sends_.resize(state().num_batches());
    recvs_.resize(state().num_batches());
    for (int b = 0; b < state().num_batches(); ++b) {
      for (const Message& m : state().sends(b))
        sends_[b].push_back({pieces_datatype(state().plan().links[m.link].send, m.piece_begin, m.piece_end), {}});
      for (const Message& m : state().recvs(b))
        recvs_[b].push_back({pieces_datatype(state().plan().links[m.link].recv, m.piece_begin, m.piece_end), {}});
    }
  }

 protected:
  void start(int batch, Direction d, std::vector<MPI_Request>& requests, int link) override {
    const std::vector<Message>& messages = state().messages(batch, d);
    std::vector<Described>& described = (d == Direction::kSend ? sends_ : recvs_)[batch];
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (link != kAllLinks && messages[i].link != link) continue;
      auto [buffer, type] = in_place(messages[i], described[i]);
      post(d, buffer, 1, type, state().link(messages[i].link).peer, messages[i].tag, requests);
    }
  }

 private:
  struct Described {
    PiecesDatatype one_variable;  // the message's pieces in one variable's storage
    // Several variables: absolute structs per set of storage addresses, in the order they were made (so
    // they are freed in an order that does not depend on where the storage happens to lie).
    std::vector<std::pair<std::vector<double*>, MPI_Datatype>> by_addresses;
  };
  static constexpr std::size_t kAddressSetsKept = 4;

  // The buffer and type a message goes with, now that the variables are where they are.
  std::pair<void*, MPI_Datatype> in_place(const Message& m, Described& d) {
    if (m.var_count == 1) return {state().storage(m.var).data() + d.one_variable.first, d.one_variable.type};
    std::vector<double*> addresses(m.var_count);
    for (int i = 0; i < m.var_count; ++i) addresses[i] = state().storage(m.var + i).data() + d.one_variable.first;
    for (const auto& [known, type] : d.by_addresses)
      if (known == addresses) return {MPI_BOTTOM, type};
    if (d.by_addresses.size() == kAddressSetsKept) {  // storage moved for good: start over
      for (auto& entry : d.by_addresses) MPI_Type_free(&entry.second);
      d.by_addresses.clear();
    }
    std::vector<MPI_Aint> displacements(m.var_count);
    for (int i = 0; i < m.var_count; ++i) MPI_Get_address(addresses[i], &displacements[i]);
    std::vector<int> ones(m.var_count, 1);
    std::vector<MPI_Datatype> types(m.var_count, d.one_variable.type);
    MPI_Datatype whole;
    MPI_Type_create_struct(m.var_count, ones.data(), displacements.data(), types.data(), &whole);
    MPI_Type_commit(&whole);
    d.by_addresses.emplace_back(std::move(addresses), whole);
    return {MPI_BOTTOM, whole};
  }

  std::vector<std::vector<Described>> sends_, recvs_;  // [batch][message]
};

}  // namespace

std::unique_ptr<Transport> make_datatype_transport(ExchangeState& state) {
  return std::make_unique<DatatypeTransport>(state);
}

namespace {
const bool registered =
    register_transport({"datatype", "no pack buffers: derived datatypes describe each message's pieces in place",
                        make_datatype_transport, DataAccess::kInPlace,
                        /*listed_at=*/5, CutNeeded::kAny,
                        /*mpi_version=*/1, "derived datatypes (MPI_Type_create_struct)",
                        /*moves_link_by_link=*/true, TraceTraits{/*replayable=*/true, nullptr}});
}  // namespace

}  // namespace amp::comm
