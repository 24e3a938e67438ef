# Block-level timing constraints shared by synth.sh and pnr.sh (sourced; bash).
# block_constraints prints the OpenSTA commands from the caller's clock_ns, uncertainty_ns,
# io_ns, driving_cell, load_pf and static_inputs (ports held while the block runs). Recovery and
# removal checks are on: an asynchronous reset input that is not a static input is timed as a
# synchronously released one (its rise against the flops' recovery and removal times, path group
# reset in scripts/synth/report.py).
block_constraints() {
  echo "sta::set_recovery_removal_checks_enabled 1"
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

# sta_reports prints the OpenSTA reports both scripts read (scripts/synth/report.py): the worst
# path of each group (register to register, input to register, register to output, input to
# output; their I/O delays differ, so each limits the period differently), then the worst slack;
# after the line MT_HOLD_CHECKS the hold checks (shortest paths into registers, from registers
# and from inputs, against hold time + uncertainty; an ideal clock: no clock tree skew); after the
# lines "MT_ENDPOINTS <group>" every endpoint's worst path of that group, one line each (the
# report's slowest blocks).
sta_reports() {
  local from to group
  for from in "[all_registers]" "[all_inputs]"; do
    for to in "[all_registers]" "[all_outputs]"; do
      echo "report_checks -path_delay max -from $from -to $to -digits 3 -fields {capacitance slew fanout}"
    done
  done
  echo "report_worst_slack -digits 3"
  echo 'puts "MT_HOLD_CHECKS"'
  for from in "[all_registers]" "[all_inputs]"; do
    echo "report_checks -path_delay min -from $from -to [all_registers] -digits 3"
  done
  for group in reg2reg in2reg reg2out; do
    case $group in
      reg2reg) from="[all_registers]"; to="[all_registers]" ;;
      in2reg) from="[all_inputs]"; to="[all_registers]" ;;
      reg2out) from="[all_registers]"; to="[all_outputs]" ;;
    esac
    echo "puts \"MT_ENDPOINTS $group\""
    echo "report_checks -path_delay max -from $from -to $to -group_count 1000000 -endpoint_count 1 -format end -digits 3"
  done
}
