// Shared entry point of every test binary. SystemC elaborates once per process, so sc_main runs
// the Catch2 session and catch_discover_tests runs each TEST_CASE in its own process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>
#include <systemc>

int sc_main(int argc, char* argv[]) {
  return Catch::Session().run(argc, argv);
}

// SystemC's own main() prints its banner on stderr before it calls sc_main, so sc_main cannot
// turn it off; this main sets the switch first, then runs the kernel's usual entry.
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
