// Shared entry point of every test binary. SystemC elaborates once per process, so sc_main runs
// the Catch2 session and catch_discover_tests runs each TEST_CASE in its own process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
