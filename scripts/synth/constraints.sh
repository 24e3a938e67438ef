# Block-level timing constraints shared by synth.sh and pnr.sh (sourced; bash).
# block_constraints prints the OpenSTA commands from the caller's clock_ns, uncertainty_ns,
# io_ns, driving_cell, load_pf and static_inputs (ports held while the block runs).
block_constraints() {
  echo "create_clock -name clk -period $clock_ns [get_ports clk_i]"
  echo "set_clock_uncertainty $uncertainty_ns [get_clocks clk]"
  echo "set inputs [delete_from_list [all_inputs] [get_ports clk_i]]"
  echo "set_input_delay $io_ns -clock clk \$inputs"
  echo "set_output_delay $io_ns -clock clk [all_outputs]"
  echo "set_driving_cell -lib_cell $driving_cell \$inputs"
  echo "set_load $load_pf [all_outputs]"
  local p
  for p in $static_inputs; do echo "set_false_path -from [get_ports $p]"; done
}
