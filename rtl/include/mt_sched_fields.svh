// The packed table entry's field widths and offsets (model/sched/SCHEDULE_TABLE.md), as
// localparams of a parameter list that names Nodes, Ports, Chunks, Flows, Steps, Counters and
// MaxCount: `MT_SCHED_FIELDS expands to them, comma-separated, ending with EntryBits (follow it
// with a comma when more parameters come). rtl/nic_sched.sv and the formal harnesses use it;
// model/sched/schedule_table.cpp (TableFormat::make) computes the same layout for the C++ side,
// and every testbench and co-simulation run decodes the RTL's grants with it.

`ifndef MT_SCHED_FIELDS_SVH
`define MT_SCHED_FIELDS_SVH

`define MT_SCHED_FIELDS \
  localparam int unsigned PortBits       = (Ports > 1) ? $clog2(Ports) : 1, \
  localparam int unsigned PeerBits       = (Nodes > 1) ? $clog2(Nodes) : 1, \
  localparam int unsigned ChunkBits      = (Chunks > 1) ? $clog2(Chunks) : 1, \
  localparam int unsigned FlowBits       = (Flows > 1) ? $clog2(Flows) : 1, \
  localparam int unsigned StepBits       = (Steps > 1) ? $clog2(Steps) : 1, \
  localparam int unsigned CounterBits    = (Counters > 1) ? $clog2(Counters) : 1, \
  localparam int unsigned CountBits      = (MaxCount > 0) ? $clog2(MaxCount + 1) : 1, \
  localparam int unsigned PortLsb        = 1, \
  localparam int unsigned PeerLsb        = PortLsb + PortBits, \
  localparam int unsigned ChunkLsb       = PeerLsb + PeerBits, \
  localparam int unsigned FlowLsb        = ChunkLsb + ChunkBits, \
  localparam int unsigned StepLsb        = FlowLsb + FlowBits, \
  localparam int unsigned WaitCounterLsb = StepLsb + StepBits, \
  localparam int unsigned WaitCountLsb   = WaitCounterLsb + CounterBits, \
  localparam int unsigned DstCounterLsb  = WaitCountLsb + CountBits, \
  localparam int unsigned EntryBits      = DstCounterLsb + CounterBits

`endif
