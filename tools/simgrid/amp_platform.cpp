// SPDX-License-Identifier: BSD-3-Clause
// SimGrid platform as code (smpirun -platform libamp_simgrid_platform.so): the machine of one AMP
// network file, read from the JSON that $AMP_SIMGRID_MACHINE names (tools/amp_tools/networks.py writes it).
// SimGrid's cluster zones (TORUS, FAT_TREE, DRAGONFLY) route between leaves; each leaf is a node: a star
// zone holding one host of ranks_per_node cores, its NIC (a split-duplex link: injection and ejection
// apart, shared by the node's ranks) to the node's gateway, and a loopback for ranks within the node.
// The XML <cluster> cannot say this: its limiter link is one shared link for both directions.
#include <simgrid/s4u.hpp>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

namespace {

struct Machine {
  std::string topology;
  std::vector<unsigned long> dimensions;  // torus
  unsigned levels = 0;                    // fat tree
  std::vector<unsigned> down, up, parallel;
  unsigned groups = 0, routers = 0, nodes_per_router = 0;  // dragonfly: one chassis of `routers`
  unsigned global_links = 1;
  double link_bandwidth = 0, link_latency = 0, nic_bandwidth = 0, nic_latency = 0;
  double loopback_bandwidth = 0, loopback_latency = 0, host_speed = 0;
  int cores = 1;
};

Machine read_machine() {
  const char* path = std::getenv("AMP_SIMGRID_MACHINE");
  if (path == nullptr) throw std::runtime_error("amp_simgrid_platform: AMP_SIMGRID_MACHINE is not set");
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("amp_simgrid_platform: cannot read ") + path);
  const auto j = nlohmann::json::parse(in);
  Machine m;
  m.topology = j.at("topology").get<std::string>();
  m.link_bandwidth = j.at("link_bandwidth").get<double>();
  m.link_latency = j.at("link_latency").get<double>();
  m.nic_bandwidth = j.at("nic_bandwidth").get<double>();
  m.nic_latency = j.at("nic_latency").get<double>();
  m.loopback_bandwidth = j.at("loopback_bandwidth").get<double>();
  m.loopback_latency = j.at("loopback_latency").get<double>();
  m.host_speed = j.at("host_speed").get<double>();
  m.cores = j.at("cores").get<int>();
  if (m.topology == "torus") {
    m.dimensions = j.at("dimensions").get<std::vector<unsigned long>>();
  } else if (m.topology == "fattree") {
    m.levels = j.at("levels").get<unsigned>();
    m.down = j.at("down").get<std::vector<unsigned>>();
    m.up = j.at("up").get<std::vector<unsigned>>();
    m.parallel = j.at("parallel").get<std::vector<unsigned>>();
  } else if (m.topology == "dragonfly") {
    m.groups = j.at("groups").get<unsigned>();
    m.routers = j.at("routers").get<unsigned>();
    m.nodes_per_router = j.at("nodes_per_router").get<unsigned>();
    m.global_links = j.at("global_links").get<unsigned>();
  } else {
    throw std::runtime_error("amp_simgrid_platform: unknown topology " + m.topology);
  }
  return m;
}

// Leaf `id`: host n<id> behind its NIC, gateway router r<id>. Its links belong to the cluster zone, not to
// the node's: SimGrid 3.32 checks every new link's name against every zone's links, one zone after the
// other, and with thousands of nodes that each own links the check is what building the platform costs
// (a 9,600-node dragonfly: 90 s, 96 % of it in that search).
std::pair<NetPoint*, NetPoint*> make_node(const Machine& m, sg4::NetZone* cluster, unsigned long id) {
  const std::string n = std::to_string(id);
  sg4::SplitDuplexLink* nic = cluster->create_split_duplex_link("nic" + n, m.nic_bandwidth);
  nic->set_latency(m.nic_latency)->seal();
  // The gateway reaches the NIC over nothing that costs: a link no flow can fill.
  sg4::Link* wire = cluster->create_link("wire" + n, 1e18)->set_latency(0)->seal();
  sg4::Link* loopback = cluster->create_link("loopback" + n, m.loopback_bandwidth)
                            ->set_latency(m.loopback_latency)
                            ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                            ->seal();
  auto* node = sg4::create_star_zone("node" + n);
  node->set_parent(cluster);
  const sg4::Host* host = node->create_host("n" + n, m.host_speed)->set_core_count(m.cores)->seal();
  NetPoint* gateway = node->create_router("r" + n);
  node->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {{nic, sg4::LinkInRoute::Direction::UP}}, true);
  node->add_route(gateway, nullptr, nullptr, nullptr, {sg4::LinkInRoute(wire)}, true);
  node->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(loopback)}, false);
  node->seal();
  return {node->get_netpoint(), gateway};
}

}  // namespace

extern "C" void load_platform(const sg4::Engine& /*engine*/);
void load_platform(const sg4::Engine& /*engine*/) {
  const Machine m = read_machine();
  auto* root = sg4::create_full_zone("amp");
  const sg4::ClusterCallbacks callbacks([&m](sg4::NetZone* zone, const std::vector<unsigned long>& /*coord*/,
                                             unsigned long id) { return make_node(m, zone, id); });
  const auto policy = sg4::Link::SharingPolicy::SPLITDUPLEX;
  sg4::NetZone* cluster = nullptr;
  if (m.topology == "torus") {
    cluster =
        sg4::create_torus_zone("cluster", root, m.dimensions, callbacks, m.link_bandwidth, m.link_latency, policy);
  } else if (m.topology == "fattree") {
    cluster = sg4::create_fatTree_zone("cluster", root, sg4::FatTreeParams(m.levels, m.down, m.up, m.parallel),
                                       callbacks, m.link_bandwidth, m.link_latency, policy);
  } else {
    cluster = sg4::create_dragonfly_zone(
        "cluster", root, sg4::DragonflyParams({m.groups, m.global_links}, {1, 1}, {m.routers, 1}, m.nodes_per_router),
        callbacks, m.link_bandwidth, m.link_latency, policy);
  }
  cluster->seal();
  root->seal();
}
