// Energy per all-reduce: the events counted where they happen in small runs, exact by formula
// (link bits with heads and credits, router buffer and allocation events, NIC memory traffic and
// adds, scheduler cycles), and their price with the scenario's figures.
// Every TEST_CASE elaborates SystemC once (one simulate() call).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "model/sim/energy.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

using test::base_scenario;
using test::empty_schedule;
using test::make_op;

// 1 KiB: four packets of 256 payload bytes; under packet flow control 17 flits each (16-byte
// head), under message flow control 17 for the first and 16 for the others.
constexpr std::uint64_t kBytes = 1024;
constexpr std::uint64_t kFlitBits = 16 * 8;

// One message of `kind` from node 0 to node 2 of an 8-node ring (two hops: routers 0, 1, 2).
RunResult ring_message(OpKind kind, FlowControlChoice flow, ReduceGranularity reduction) {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:8", 50);
  s.collective.verify_data = false;  // one message is not an all-reduce
  s.nic.flow_control = flow;
  s.nic.reduction = reduction;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(topology.nodes(), 1);
  schedule.add(make_op(0, 2, 0, kind));
  return simulate(s, topology, schedule, kBytes);
}

// The idle bits of an 8-node ring's 16 directed links over `run` when the two links of the
// route were busy `busy` cycles each (16 bytes per cycle each).
double ring_idle_bits(const RunResult& run, std::uint64_t busy) {
  return static_cast<double>(16 * run.completion_cycles - 2 * busy) * 16 * 8;
}

}  // namespace

TEST_CASE("one message under packet flow control: every count and its price by formula",
          "[sim][energy]") {
  const RunResult r =
      ring_message(OpKind::kBroadcast, FlowControlChoice::kPacket, ReduceGranularity::kPacket);
  INFO(r.error);
  REQUIRE(r.error.empty());
  const EnergyCounts& c = r.energy_counts;
  const std::uint64_t flits = 4 * 17;  // per hop, heads included
  CHECK(c.link_bits == 2 * flits * kFlitBits);
  // Each router's network input credits its flits back over its link: 4 VCs, 2 + 1 bits each.
  CHECK(credit_bits_per_flit(4) == 3);
  CHECK(c.link_credit_bits == 2 * flits * 3);
  CHECK(c.link_idle_bits == ring_idle_bits(r, flits));
  // Router 0 buffers the packets injected, routers 1 and 2 those arriving by link.
  CHECK(c.router_buffer_writes == 3 * flits);
  CHECK(c.router_buffer_reads == 3 * flits);
  CHECK(c.router_heads == 3 * 4);
  CHECK(c.routers == 8);
  CHECK(c.router_cycles == 8 * r.completion_cycles);
  // The DMA reads the chunk, the receiver writes it (a broadcast: no reduction).
  CHECK(c.nic_buffer_writes == flits);
  CHECK(c.nic_buffer_reads == flits);
  CHECK(c.memory_read_bits == 8 * kBytes);
  CHECK(c.memory_write_bits == 8 * kBytes);
  CHECK(c.adds == 0);
  CHECK(c.schedulers == 0);  // software issue: the host's energy is not the NIC's
  CHECK(c.run_ns == Approx(static_cast<double>(r.completion_cycles)));

  // The board preset's prices (docs/energy.md).
  const EnergyBreakdown& e = r.energy;
  CHECK(r.energy_preset == EnergyPreset::kBoard);
  CHECK(e.link_data_pj == Approx(2.0 * flits * kFlitBits * 5.5));
  CHECK(e.link_credit_pj == Approx(2.0 * flits * 3 * 5.5));
  CHECK(e.link_idle_pj == Approx(ring_idle_bits(r, flits) * 5.5 * 1.0));
  CHECK(e.router_buffer_pj == Approx(3.0 * flits * (1.26 + 1.04)));
  CHECK(e.router_crossbar_pj == Approx(3.0 * flits * 0.54));
  CHECK(e.router_allocation_pj == Approx(3.0 * flits * 0.054 + 12 * 0.054));
  CHECK(e.router_clock_pj == Approx(8.0 * r.completion_cycles * 0.30));
  CHECK(e.router_leakage_pj == Approx(8 * 21.6 * r.completion_ns));  // mW x ns = pJ
  CHECK(e.nic_memory_pj == Approx(2.0 * 8 * kBytes * 3.9));
  CHECK(e.nic_buffer_pj == Approx(flits * (1.26 + 1.04)));
  CHECK(e.nic_reduction_pj == 0);
  CHECK(e.scheduler_pj() == 0);
  const double total = e.link_data_pj + e.link_credit_pj + e.link_idle_pj + e.router_buffer_pj +
                       e.router_crossbar_pj + e.router_allocation_pj + e.router_clock_pj +
                       e.router_leakage_pj + e.nic_memory_pj + e.nic_buffer_pj;
  CHECK(e.total_pj() == Approx(total));
  CHECK(e.static_pj() == Approx(e.link_idle_pj + e.router_clock_pj + e.router_leakage_pj));
  // Per byte reduced: over the 8 nodes' 1 KiB each.
  CHECK(energy_pj_per_byte(e.total_pj(), r.nodes, r.bytes) == Approx(total / (8.0 * kBytes)));
}

TEST_CASE("one message under message flow control: one head per hop and fewer head flits",
          "[sim][energy]") {
  const RunResult r =
      ring_message(OpKind::kBroadcast, FlowControlChoice::kMessage, ReduceGranularity::kPacket);
  INFO(r.error);
  REQUIRE(r.error.empty());
  const EnergyCounts& c = r.energy_counts;
  const std::uint64_t flits = 17 + 3 * 16;  // one head flit for the message
  CHECK(c.link_bits == 2 * flits * kFlitBits);
  CHECK(c.link_credit_bits == 2 * flits * 3);
  CHECK(c.router_buffer_writes == 3 * flits);
  CHECK(c.router_buffer_reads == 3 * flits);
  CHECK(c.router_heads == 3);  // one VC allocation per router for the whole message
  CHECK(c.link_idle_bits == ring_idle_bits(r, flits));
  CHECK(r.energy.router_allocation_pj == Approx(3.0 * flits * 0.054 + 3 * 0.054));
}

TEST_CASE("a reduce per packet reads the operand once as each packet passes", "[sim][energy]") {
  // Per packet (cut-through): the DMA reads 1 KiB, the receiver reads its operand and writes the
  // sum as each packet passes: 256 fp32 adds.
  const RunResult r =
      ring_message(OpKind::kReduce, FlowControlChoice::kPacket, ReduceGranularity::kPacket);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.energy_counts.memory_read_bits == 8 * (kBytes + kBytes));
  CHECK(r.energy_counts.memory_write_bits == 8 * kBytes);
  CHECK(r.energy_counts.adds == kBytes / 4);
  CHECK(r.energy.nic_reduction_pj == Approx(256 * 0.38));
  CHECK(r.energy.nic_memory_pj == Approx(8.0 * 3 * kBytes * 3.9));
}

TEST_CASE("a whole-message reduce writes the landed packets, then reads both operands",
          "[sim][energy]") {
  const RunResult r =
      ring_message(OpKind::kReduce, FlowControlChoice::kPacket, ReduceGranularity::kMessage);
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.energy_counts.memory_read_bits == 8 * (kBytes + 2 * kBytes));
  CHECK(r.energy_counts.memory_write_bits == 8 * (kBytes + kBytes));
  CHECK(r.energy_counts.adds == kBytes / 4);
}

TEST_CASE("on a switch the NIC links carry credits both ways and int32 adds have their own price",
          "[sim][energy]") {
  // A 4-node switch: node 0 -> switch -> node 1, both hops topology links. The switch credits
  // its input over the NIC's link (4 VCs: 3 bits a flit); the receiving NIC credits its port
  // (nic.receive_vcs 1: 1 bit a flit) over the switch's link.
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("switch:nodes=4", 50);
  s.collective.verify_data = false;
  s.collective.dtype = Dtype::kInt32;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(topology.nodes(), 1);
  schedule.add(make_op(0, 1, 0, OpKind::kReduce));
  const RunResult r = simulate(s, topology, schedule, kBytes);
  INFO(r.error);
  REQUIRE(r.error.empty());
  const std::uint64_t flits = 4 * 17;
  CHECK(r.energy_counts.link_bits == 2 * flits * kFlitBits);
  CHECK(r.energy_counts.link_credit_bits == flits * 3 + flits * 1);
  CHECK(r.energy_counts.routers == 1);
  CHECK(r.energy_counts.router_buffer_writes == flits);
  CHECK(r.energy_counts.dtype == Dtype::kInt32);
  CHECK(r.energy.nic_reduction_pj == Approx(256 * 0.1));
}

namespace {

// A ring all-reduce of 4 KiB on a 4-node ring under hardware issue, message flow control.
RunResult hardware_ring_allreduce(EnergyPreset preset, double scheduler_clock_ghz) {
  ScenarioConfig s = base_scenario();
  s.topology = test::topology_config("ring:4", 50);
  s.nic.issue = IssueChoice::kHardware;
  s.nic.flow_control = FlowControlChoice::kMessage;
  s.nic.scheduler_clock_ghz = scheduler_clock_ghz;
  s.energy.preset = preset;
  const Topology topology(s.topology);
  return simulate(s, topology, test::ring_allreduce(test::identity_order(4)), 4096);
}

}  // namespace

TEST_CASE("hardware issue: every NIC scheduler is priced by its cycles with work and without",
          "[sim][energy]") {
  const RunResult r = hardware_ring_allreduce(EnergyPreset::kOnPackage, 0);
  INFO(r.error);
  REQUIRE(r.error.empty());
  REQUIRE(r.data_verified);
  const EnergyCounts& c = r.energy_counts;
  CHECK(c.schedulers == 4);
  CHECK(c.scheduler_active_cycles > 0);
  CHECK(c.scheduler_active_cycles + c.scheduler_idle_cycles == 4 * r.completion_cycles);
  const EnergyParams p = energy_preset(EnergyPreset::kOnPackage);
  CHECK(p.link_pj_per_bit == 0.56);
  CHECK(p.link_idle_fraction == 0.15);
  CHECK(r.energy.link_idle_pj == Approx(c.link_idle_bits * 0.56 * 0.15));
  CHECK(r.energy.scheduler_active_pj ==
        Approx(static_cast<double>(c.scheduler_active_cycles) * p.scheduler_active_pj_per_cycle));
  CHECK(r.energy.scheduler_idle_pj ==
        Approx(static_cast<double>(c.scheduler_idle_cycles) * p.scheduler_idle_pj_per_cycle));
  CHECK(r.energy.scheduler_leakage_pj == Approx(4 * p.scheduler_leakage_mw * r.completion_ns));
  // Ring all-reduce: 2(N-1) = 6 messages per node of 1 KiB, 3 of them reduced (one per packet).
  CHECK(c.adds == 4 * 3 * 256);
  CHECK(c.memory_read_bits == 4 * 8 * (6 + 3) * 1024);
  CHECK(c.memory_write_bits == 4 * 8 * 6 * 1024);
}

TEST_CASE("a scheduler on half the network's clock is priced by its own clock's edges",
          "[sim][energy]") {
  const double network_ghz = base_scenario().clock_ghz;
  const RunResult r = hardware_ring_allreduce(EnergyPreset::kBoard, network_ghz / 2);
  INFO(r.error);
  REQUIRE(r.error.empty());
  REQUIRE(r.data_verified);
  // Its cycle k starts at network cycle 2k: ceil(completion / 2) edges in the run, per node.
  const EnergyCounts& c = r.energy_counts;
  CHECK(c.scheduler_active_cycles > 0);
  CHECK(c.scheduler_active_cycles + c.scheduler_idle_cycles == 4 * ((r.completion_cycles + 1) / 2));
}

TEST_CASE("price_energy: every line is its count times its figure", "[energy]") {
  EnergyCounts c;
  c.link_bits = 1000;
  c.link_credit_bits = 30;
  c.link_idle_bits = 500;
  c.router_buffer_writes = 7;
  c.router_buffer_reads = 5;
  c.router_heads = 2;
  c.routers = 3;
  c.router_cycles = 300;
  c.nic_buffer_writes = 11;
  c.nic_buffer_reads = 13;
  c.memory_read_bits = 64;
  c.memory_write_bits = 32;
  c.adds = 40;
  c.schedulers = 2;
  c.scheduler_active_cycles = 50;
  c.scheduler_idle_cycles = 150;
  c.run_ns = 100;
  EnergyConfig config;
  config.preset = EnergyPreset::kOnPackage;
  config.given[0] = 2.0;  // link_pj_per_bit
  const EnergyParams p = energy_params(config);
  CHECK(p.link_pj_per_bit == 2.0);
  CHECK(p.link_idle_fraction == 0.15);  // the preset's
  const EnergyBreakdown e = price_energy(c, p);
  CHECK(e.link_data_pj == Approx(2000));
  CHECK(e.link_credit_pj == Approx(60));
  CHECK(e.link_idle_pj == Approx(500 * 2.0 * 0.15));
  CHECK(e.router_buffer_pj == Approx(7 * 1.26 + 5 * 1.04));
  CHECK(e.router_crossbar_pj == Approx(5 * 0.54));
  CHECK(e.router_allocation_pj == Approx(5 * 0.054 + 2 * 0.054));
  CHECK(e.router_clock_pj == Approx(300 * 0.30));
  CHECK(e.router_leakage_pj == Approx(3 * 21.6 * 100));
  CHECK(e.nic_memory_pj == Approx(96 * 3.9));
  CHECK(e.nic_buffer_pj == Approx(11 * 1.26 + 13 * 1.04));
  CHECK(e.nic_reduction_pj == Approx(40 * 0.38));
  CHECK(e.scheduler_active_pj == Approx(50 * p.scheduler_active_pj_per_cycle));
  CHECK(e.scheduler_idle_pj == Approx(150 * p.scheduler_idle_pj_per_cycle));
  CHECK(e.scheduler_leakage_pj == Approx(2 * p.scheduler_leakage_mw * 100));
  CHECK(energy_pj_per_byte(e.total_pj(), 4, 0) == 0);
}

}  // namespace mt
