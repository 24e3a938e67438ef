# Coverage variant of the Verilated builds (scripts/coverage.sh): -DMT_RTL_COVERAGE=ON adds
# Verilator line and toggle coverage, and nic_sched_tb --coverage FILE writes the counts.
# Included from rtl/CMakeLists.txt after MT_RTL_VERILATOR_ARGS is set.
option(MT_RTL_COVERAGE "Verilate nic_sched with line and toggle coverage" OFF)
if(MT_RTL_COVERAGE)
  list(APPEND MT_RTL_VERILATOR_ARGS --coverage-line --coverage-toggle)
  add_compile_definitions(MT_RTL_COVERAGE=1)
else()
  add_compile_definitions(MT_RTL_COVERAGE=0)
endif()
