# qflow helpers shared by synth.sh and pnr.sh (sourced; bash).
# qflow_project PROJ TOP NETLIST LIBERTY: a fresh qflow project folder PROJ whose synthesis step
# takes the mapped gate-level NETLIST as it is (no second synthesis): qflow's yosys pass writes it
# as BLIF, then qflow's own post-processing and fanout buffering (blifFanout, iterated until no
# gate changes) run. `qflow -T osu018 synthesize TOP` (in PROJ) leaves the buffered netlist in
# PROJ/synthesis/TOP.rtlnopwr.v; `... place route backanno TOP` lays it out.
qflow_project() {
  local proj=$1 top=$2 netlist=$3 liberty=$4
  rm -rf "$proj"
  mkdir -p "$proj/source" "$proj/synthesis" "$proj/layout" "$proj/log"
  cp "$netlist" "$proj/source/$top.v"
  cat > "$proj/source/netlist.ys" <<YS
read_liberty -lib $liberty
read_verilog $proj/source/$top.v
hierarchy -check -top $top
write_blif -buf BUFX2 A Y ${top}_mapped.blif
YS
  cat > "$proj/project_vars.sh" <<VARS
#!/bin/tcsh -f
set yosys_options = "-s $proj/source/netlist.ys"
set nobuffers
VARS
}
