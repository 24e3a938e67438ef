// The NIC's issue control alone (no System, no kernel run): which issue queues request, which
// free port starts which operation in which order, the step barrier's hold, and the cycles at
// which the ports next need the NIC. A scripted Scheduler stands for the host or the hardware
// scheduler; the transmit DMA is the real one (tests/support/tx_bench.h).
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <utility>
#include <vector>

#include "model/nic/issue_control.h"
#include "tests/support/tx_bench.h"

namespace mt {
namespace {

using test::message_of;
using test::TxBench;

// Per issue queue a list of ready program indices; records requests and pops.
struct ScriptedScheduler : Scheduler {
  std::map<int, std::deque<int>> ready;   // queue -> ready program indices, in order
  std::map<int, bool> requested;          // queue -> last level presented
  std::vector<std::pair<int, int>> pops;  // (queue, index) popped, in order
  int open_step = -1;                     // last open step presented (-1: none)
  void on_arrival(int, int, std::uint64_t) override {}
  int next_ready(int port, std::uint64_t) override {
    const auto it = ready.find(port);
    return it == ready.end() || it->second.empty() ? -1 : it->second.front();
  }
  void pop(int port) override {
    pops.emplace_back(port, ready.at(port).front());
    ready.at(port).pop_front();
  }
  std::size_t size() const override { return 8; }
  std::size_t issued() const override { return pops.size(); }
  bool is_issued(int) const override { return false; }
  std::uint64_t next_event_cycle(std::uint64_t) override { return kNoEvent; }
  bool cycle_level() const override { return true; }
  void set_port_ready(int port, bool level, std::uint64_t) override { requested[port] = level; }
  void set_open_step(int step, std::uint64_t) override { open_step = step; }
};

TxDmaParams two_ports() {
  TxDmaParams p;
  p.ports = 2;
  p.tx_credits_per_vc = 1000;
  return p;
}

// Port 0 sends 600 bytes from cycle 10: packets of 17, 17 and 7 flits at 10, 27 and 44, its
// serialisation over at 51.
void busy_port0(TxBench& b) {
  b.dma.start(0, message_of(600, 3, 10));
  REQUIRE(b.dma.send(0, 10));
  REQUIRE(b.dma.send(0, 27));
  REQUIRE(b.dma.send(0, 44));
}

TEST_CASE("a free port requests, a busy one from its lead before it frees", "[nic][issue]") {
  TxBench b(two_ports());
  busy_port0(b);
  ScriptedScheduler s;
  StepBarrier barrier(false, {});
  IssueControl at_once({2, false, 0}, s, b.dma, barrier, {});
  at_once.present_requests(44);
  CHECK_FALSE(s.requested.at(0));
  CHECK(s.requested.at(1));
  IssueControl lead7({2, false, 7}, s, b.dma, barrier, {});
  lead7.present_requests(44);  // 44 + 7 = 51: the port frees by then
  CHECK(s.requested.at(0));
  IssueControl lead6({2, false, 6}, s, b.dma, barrier, {});
  lead6.present_requests(44);
  CHECK_FALSE(s.requested.at(0));
}

TEST_CASE("free ports start their queues' operations in program order, popped first",
          "[nic][issue]") {
  TxBench b(two_ports());
  ScriptedScheduler s;
  s.ready[0] = {5};
  s.ready[1] = {2};
  StepBarrier barrier(false, {});
  IssueControl control({2, false, 0}, s, b.dma, barrier, {});
  std::vector<std::pair<int, int>> starts;  // (port, index)
  control.issue(0, [&](int port, int index) {
    CHECK(s.pops.back() == std::make_pair(port, index));  // popped before it starts
    starts.emplace_back(port, index);
    b.dma.start(port, message_of(256, 1, 0));
  });
  CHECK(starts == std::vector<std::pair<int, int>>{{1, 2}, {0, 5}});
}

TEST_CASE("ports not bound to a direction serve one queue in port order", "[nic][issue]") {
  TxDmaParams three = two_ports();
  three.ports = 3;
  TxBench b(three);
  b.dma.start(0, message_of(256, 1, 0));  // port 0 busy
  ScriptedScheduler s;
  s.ready[0] = {3, 4, 6};
  StepBarrier barrier(false, {});
  IssueControl control({3, true, 0}, s, b.dma, barrier, {});
  control.present_requests(0);
  CHECK(s.requested.size() == 1);  // the one queue
  CHECK(s.requested.at(0));
  std::vector<std::pair<int, int>> starts;
  control.issue(0, [&](int port, int index) {
    starts.emplace_back(port, index);
    b.dma.start(port, message_of(256, 1, 0));
  });
  CHECK(starts == std::vector<std::pair<int, int>>{{1, 3}, {2, 4}});
  CHECK(s.ready.at(0) == std::deque<int>{6});
}

TEST_CASE("under the step barrier a new step waits until every port is free", "[nic][issue]") {
  // Program entries 0 and 1 of step 0, entry 2 of step 1. Entry 0 has started on port 0 and
  // holds it until 51; entry 1 may still start on port 1, entry 2 may not.
  TxBench b(two_ports());
  busy_port0(b);
  StepBarrier barrier(true, {0, 0, 1});
  barrier.started(0);
  ScriptedScheduler s;
  s.ready[1] = {1};
  IssueControl control({2, false, 0}, s, b.dma, barrier, {0, 0, 1});
  control.present_requests(44);
  CHECK(s.requested.at(1));  // step 0 still has an entry to start
  std::vector<std::pair<int, int>> starts;
  const auto start = [&](int port, int index) {
    starts.emplace_back(port, index);
    barrier.started(index == 2 ? 1 : 0);
    b.dma.start(port, message_of(256, 1, 44));
  };
  control.issue(44, start);
  CHECK(starts == std::vector<std::pair<int, int>>{{1, 1}});
  // Step 0 has all started. Port 1 sends its 17-flit packet until 61, port 0 is free from 51:
  // until both are free no queue requests and entry 2 (step 1) does not start.
  REQUIRE(b.dma.send(1, 44));
  s.ready[0] = {2};
  control.present_requests(50);
  CHECK_FALSE(s.requested.at(0));
  CHECK_FALSE(s.requested.at(1));
  control.issue(51, start);  // port 0 free, port 1 busy until 61: the barrier holds entry 2
  CHECK(starts.size() == 1);
  control.issue(61, start);
  CHECK(starts.back() == std::make_pair(0, 2));
}

TEST_CASE("under the step barrier the scheduler is told the step it may grant", "[nic][issue]") {
  // As above: step 0 (entries 0 and 1) then step 1 (entry 2). The open step is the step the
  // barrier lets start: step 0 while it has entries left and once every one has started but a
  // port is busy (a decision made from requests presented before must not grant step 1), step 1
  // once every port is free; no limit without a barrier.
  TxBench b(two_ports());
  StepBarrier barrier(true, {0, 0, 1});
  ScriptedScheduler s;
  IssueControl control({2, false, 0}, s, b.dma, barrier, {0, 0, 1});
  control.present_requests(0);
  CHECK(s.open_step == 0);
  busy_port0(b);  // entry 0 on port 0 until 51
  barrier.started(0);
  control.present_requests(44);
  CHECK(s.open_step == 0);
  barrier.started(0);  // entry 1: step 0 has all started, port 0 busy
  control.present_requests(44);
  CHECK(s.open_step == 0);
  control.present_requests(51);  // every port free: step 1 opens
  CHECK(s.open_step == 1);

  StepBarrier off(false, {0, 0, 1});
  ScriptedScheduler t;
  IssueControl free_control({2, false, 0}, t, b.dma, off, {});
  free_control.present_requests(0);
  CHECK(t.open_step == kAnyStep);
}

TEST_CASE("the ports next need the NIC at their busy end, or the lead before it", "[nic][issue]") {
  TxBench b(two_ports());
  busy_port0(b);
  ScriptedScheduler s;
  StepBarrier barrier(false, {});
  CHECK(IssueControl({2, false, 0}, s, b.dma, barrier, {}).next_port_event(44) == 51);
  CHECK(IssueControl({2, false, 2}, s, b.dma, barrier, {}).next_port_event(44) == 49);
  CHECK(IssueControl({2, false, 7}, s, b.dma, barrier, {}).next_port_event(44) == 51);
  CHECK(IssueControl({2, false, 2}, s, b.dma, barrier, {}).next_port_event(51) ==
        IssueControl::kNever);
}

}  // namespace
}  // namespace mt
