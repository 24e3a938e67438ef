#!/usr/bin/env bash
# The parameter rule an RTL elaboration broke, from a Yosys log: one line ("DecisionLatency must be
# at least 2 (the RTL's check DecisionLatencyAtLeast2_S; rtl/README.md, Parameters)"), or nothing
# when the log shows no such failure. The RTL checks each rule with MT_STATIC_ASSERT(Name_S, ...),
# which under Yosys instantiates the missing module Name_S when the rule fails.
#   scripts/synth/param_rule.sh YOSYS.log
rule=$(grep -oE 'Module .\\[A-Za-z0-9]+_S. referenced' "$1" 2>/dev/null | grep -oE '[A-Za-z0-9]+_S' |
       head -1)
# A count of 0 can stop a submodule's elaboration (a cast to zero width) before the top's check.
if [ -z "$rule" ] && grep -q "Static cast with zero or negative size" "$1" 2>/dev/null; then
  rule=CountsPositive_S
fi
[ -n "$rule" ] || exit 0
case $rule in
  CountsPositive_S) why="every count parameter must be at least 1" ;;
  DecisionLatencyAtLeast2_S) why="DecisionLatency must be at least 2" ;;
  IndexBitsCoverEntries_S)
    why="IndexBits must be at most 31 with 2^IndexBits >= Depth + 1 + Ports x (Window + 1)" ;;
  *) why="a parameter rule of the RTL" ;;
esac
echo "$why (the RTL's check $rule; rtl/README.md, Parameters)"
