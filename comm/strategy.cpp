// Strategy mechanics shared by every strategy: compiling pieces to index lists, packing, posting
// MPI_Isend/MPI_Irecv on MPI_COMM_WORLD (what DUMPI replayers accept), waiting, counting.
#include "strategy.hpp"

#include "stopwatch.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace amp::comm {

namespace {

kernels::IndexList<> to_device(const std::vector<std::int64_t>& host, const char* label) {
  Kokkos::View<std::int64_t*> device(std::string(label), host.size());
  auto mirror = Kokkos::create_mirror_view(device);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(device, mirror);
  return device;
}

void describe(const std::vector<Piece>& pieces, std::vector<std::int64_t>& begin, std::vector<std::int64_t>& first,
              std::vector<char>& contiguous, std::vector<std::int64_t>& elements) {
  begin.assign(1, 0);
  for (const Piece& piece : pieces) {
    piece.append_elements(elements);
    begin.push_back(begin.back() + piece.size());
    first.push_back(piece.first());
    contiguous.push_back(piece.contiguous() ? 1 : 0);
  }
}

}  // namespace

Strategy::Strategy(ExchangePlan plan) : plan_(std::move(plan)), tags_(TagLayout::for_world()) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  plan_.validate(rank, ranks);

  storage_.assign(plan_.num_vars, nullptr);
  phase_links_.assign(plan_.num_phases, {});
  for (const Link& in : plan_.links) {
    LinkData out;
    out.peer = in.peer;
    out.phase = in.phase;
    std::vector<std::int64_t> send_elements, recv_elements;
    describe(in.send, out.send_piece_begin, out.send_piece_first, out.send_piece_contiguous, send_elements);
    describe(in.recv, out.recv_piece_begin, out.recv_piece_first, out.recv_piece_contiguous, recv_elements);
    out.send_index = to_device(send_elements, "amp::send_index");
    out.recv_index = to_device(recv_elements, "amp::recv_index");
    out.send_buffer = Kokkos::View<double*>("amp::send_buffer", out.send_size() * plan_.num_vars);
    out.recv_buffer = Kokkos::View<double*>("amp::recv_buffer", out.recv_size() * plan_.num_vars);
    phase_links_[in.phase].push_back(static_cast<int>(links_.size()));
    links_.push_back(std::move(out));
  }
  check_peers_agree();
}

void Strategy::check_peers_agree() {
  // Each link sends a signature of its send pieces (count, elements, hash of the sizes); the peer
  // compares it with the same signature of its receive pieces.
  auto signature = [](const std::vector<std::int64_t>& begin) {
    std::array<std::int64_t, 3> s{static_cast<std::int64_t>(begin.size()) - 1, begin.back(), 0};
    std::uint64_t hash = 1469598103934665603ull;
    for (std::size_t p = 0; p + 1 < begin.size(); ++p)
      hash = (hash ^ static_cast<std::uint64_t>(begin[p + 1] - begin[p])) * 1099511628211ull;
    s[2] = static_cast<std::int64_t>(hash);
    return s;
  };
  std::vector<std::array<std::int64_t, 3>> outgoing(links_.size()), incoming(links_.size());
  std::vector<MPI_Request> requests(2 * links_.size());
  for (std::size_t l = 0; l < links_.size(); ++l) {
    const LinkData& ld = links_[l];
    outgoing[l] = signature(ld.send_piece_begin);
    const int tag = tags_.size_check_tag(ld.phase);
    MPI_Irecv(incoming[l].data(), 3, MPI_INT64_T, ld.peer, tag, MPI_COMM_WORLD, &requests[2 * l]);
    MPI_Isend(outgoing[l].data(), 3, MPI_INT64_T, ld.peer, tag, MPI_COMM_WORLD, &requests[2 * l + 1]);
    setup_traffic_.count_message(sizeof(outgoing[l]));
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  for (std::size_t l = 0; l < links_.size(); ++l) {
    const LinkData& ld = links_[l];
    if (incoming[l] != signature(ld.recv_piece_begin)) {
      throw std::runtime_error("exchange plan: pieces sent by rank " + std::to_string(ld.peer) + " in phase " +
                               std::to_string(ld.phase) + " do not match the pieces this rank receives");
    }
  }
}

int Strategy::tag_for(int phase, int ordinal) const {
  return tags_.data_tag(plan_.message_class, plan_.tag_epoch, phase, plan_.num_phases, ordinal);
}

void Strategy::pack(int l, int v, bool skip_contiguous) {
  ScopedTimer timer(times_.pack);
  LinkData& ld = links_[l];
  double* slot = ld.send_buffer.data() + v * ld.send_size();
  const int pieces = static_cast<int>(ld.send_piece_contiguous.size());
  for (int p = 0; p < pieces;) {
    if (skip_contiguous && ld.send_piece_contiguous[p]) { ++p; continue; }
    int q = p + 1;  // gather the maximal run of pieces that need packing in one kernel
    while (q < pieces && !(skip_contiguous && ld.send_piece_contiguous[q])) ++q;
    const std::int64_t begin = ld.send_piece_begin[p], end = ld.send_piece_begin[q];
    kernels::gather(storage_[v], ld.send_index, begin, end, slot + begin);
    p = q;
  }
  Kokkos::fence();
}

void Strategy::unpack(int l, int v, bool skip_contiguous) {
  ScopedTimer timer(times_.unpack);
  LinkData& ld = links_[l];
  const double* slot = ld.recv_buffer.data() + v * ld.recv_size();
  const int pieces = static_cast<int>(ld.recv_piece_contiguous.size());
  for (int p = 0; p < pieces;) {
    if (skip_contiguous && ld.recv_piece_contiguous[p]) { ++p; continue; }
    int q = p + 1;
    while (q < pieces && !(skip_contiguous && ld.recv_piece_contiguous[q])) ++q;
    const std::int64_t begin = ld.recv_piece_begin[p], end = ld.recv_piece_begin[q];
    kernels::scatter(slot + begin, ld.recv_index, begin, end, storage_[v]);
    p = q;
  }
  Kokkos::fence();
}

std::int64_t Strategy::message_elements(const Message& m, bool send) const {
  const LinkData& ld = links_[m.link];
  const auto& begin = send ? ld.send_piece_begin : ld.recv_piece_begin;
  return m.var_count * (begin[m.piece_end] - begin[m.piece_begin]);
}

double* Strategy::send_address(const Message& m) {
  LinkData& ld = links_[m.link];
  if (m.send_direct) return storage_[m.var] + ld.send_piece_first[m.piece_begin];
  return ld.send_buffer.data() + m.var * ld.send_size() + ld.send_piece_begin[m.piece_begin];
}

double* Strategy::recv_address(const Message& m) {
  LinkData& ld = links_[m.link];
  if (m.recv_direct) return storage_[m.var] + ld.recv_piece_first[m.piece_begin];
  return ld.recv_buffer.data() + m.var * ld.recv_size() + ld.recv_piece_begin[m.piece_begin];
}

void Strategy::post_send(const Message& m, std::vector<MPI_Request>& requests) {
  const std::int64_t elements = message_elements(m, true);
  double* address = send_address(m);
  ScopedTimer timer(times_.post);
  requests.emplace_back();
  MPI_Isend(address, static_cast<int>(elements), MPI_DOUBLE, links_[m.link].peer, m.tag, MPI_COMM_WORLD,
            &requests.back());
  traffic_.count_message(static_cast<std::uint64_t>(elements) * sizeof(double));
}

void Strategy::post_recv(const Message& m, std::vector<MPI_Request>& requests) {
  const std::int64_t elements = message_elements(m, false);
  double* address = recv_address(m);
  ScopedTimer timer(times_.post);
  requests.emplace_back();
  MPI_Irecv(address, static_cast<int>(elements), MPI_DOUBLE, links_[m.link].peer, m.tag, MPI_COMM_WORLD,
            &requests.back());
}

void Strategy::wait_all(std::vector<MPI_Request>& requests) {
  if (requests.empty()) return;
  ScopedTimer timer(times_.wait);
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  requests.clear();
}

void Strategy::finish() {
  for (int v = 0; v < plan_.num_vars; ++v)
    if (in_flight(v)) need_ghosts(v);
}

}  // namespace amp::comm
