// A fault inside a NIC's SystemC process reaches simulate()'s caller as thrown (guard_process and
// System::run's rethrow), and a NIC woken at its own cycle without end is a livelock naming it.
// The faults come from a hardware scheduler (the SchedulerFactory) wrapped to misbehave; its
// calls run in the NIC's process. (A router's: tests/noc/test_router.cpp.)
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "model/sched/hardware_scheduler.h"
#include "model/sim/system.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

enum class Fault { kThrowInNextReady, kWakeNow };

// The C++ model scheduler with one fault.
class FaultyScheduler : public Scheduler {
 public:
  FaultyScheduler(std::unique_ptr<Scheduler> inner, Fault fault)
      : inner_(std::move(inner)), fault_(fault) {}
  void on_arrival(int message, int counter, std::uint64_t now) override {
    inner_->on_arrival(message, counter, now);
  }
  int next_ready(int port, std::uint64_t now) override {
    if (fault_ == Fault::kThrowInNextReady && now > 0)
      throw Error("scheduler fault in the NIC's decision");
    return inner_->next_ready(port, now);
  }
  void pop(int port) override { inner_->pop(port); }
  std::size_t size() const override { return inner_->size(); }
  std::size_t issued() const override { return inner_->issued(); }
  bool is_issued(int index) const override { return inner_->is_issued(index); }
  bool cycle_level() const override { return inner_->cycle_level(); }
  void on_doorbell(int counter, std::uint64_t now) override { inner_->on_doorbell(counter, now); }
  void set_port_ready(int port, bool ready, std::uint64_t now) override {
    inner_->set_port_ready(port, ready, now);
  }
  // kWakeNow breaks the contract (an event strictly after now): the NIC runs again at once.
  std::uint64_t next_event_cycle(std::uint64_t now) override {
    return fault_ == Fault::kWakeNow ? now : inner_->next_event_cycle(now);
  }

 private:
  std::unique_ptr<Scheduler> inner_;
  Fault fault_;
};

// A ring all-reduce on 4 nodes of a ring, hardware issue, every scheduler with `fault`.
RunResult run_with(Fault fault) {
  ScenarioConfig s = test::base_scenario();
  s.topology = test::topology_config("ring:4", 10);
  s.nic.issue = IssueChoice::kHardware;
  const Topology topology(s.topology);
  const Schedule schedule = test::ring_allreduce(test::identity_order(4));
  const SchedulerFactory factory = [fault](int, const std::vector<TableEntry>& table,
                                           const SchedulerModelConfig& config,
                                           const TableFormat&) -> std::unique_ptr<Scheduler> {
    return std::make_unique<FaultyScheduler>(make_model_scheduler(table, config), fault);
  };
  return simulate(s, topology, schedule, 4096, factory);
}

TEST_CASE("an mt::Error thrown in a NIC's process reaches simulate()'s caller as thrown",
          "[sim][fault]") {
  REQUIRE_THROWS_MATCHES(run_with(Fault::kThrowInNextReady), Error,
                         Catch::Message("scheduler fault in the NIC's decision"));
}

TEST_CASE("a NIC woken at its own cycle without end stops the run as a livelock naming it",
          "[sim][fault]") {
  REQUIRE_THROWS_WITH(run_with(Fault::kWakeNow),
                      Catch::StartsWith("livelock: nic_") &&
                          Catch::Contains(" was woken 1000000 times at cycle 0 without simulated "
                                          "time advancing (a bug of the model)"));
}

}  // namespace
}  // namespace mt
