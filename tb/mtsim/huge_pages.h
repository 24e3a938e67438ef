#pragma once
// Transparent huge pages for mtsim's heap (see restart_with_huge_pages).

#include "model/params/scenario_config.h"

namespace mt::cli {

/// At pod scale a run's state (hundreds of MiB to GiB: routers, links, NICs, per-message records)
/// is visited in no locality-friendly order, and with 4 KiB pages most of those visits also miss
/// the TLB. glibc's malloc backs its heap with transparent huge pages when the tunable
/// glibc.malloc.hugetlb=1 is set at start-up, which only the environment can do: so, once, mtsim
/// starts itself again with the tunable added to GLIBC_TUNABLES (same arguments, same process
/// id). Nothing happens when the tunable is already set (by the user, or by this restart), when
/// MT_HUGE_PAGES=0, or when the restart fails (the run goes on with small pages). The kernel still
/// decides: with /sys/kernel/mm/transparent_hugepage/enabled at `never` it changes nothing.
/// Streamed bulk data (the all-reduce's data buffers) opts out: see BulkAllocator.
void restart_with_huge_pages(char* argv[]);

/// Turns huge pages off again (prctl PR_SET_THP_DISABLE: for this process and the points it
/// forks) when the scenario runs on the message-granularity model, which visits most of its
/// memory (schedule, checks, per-message records) only a few times, in a pass: there the first
/// touch of a 2 MiB page can cost more than its TLB misses save (MultiTree on a 2048-node torus
/// at 1 MiB: 66.7 s with huge pages, 23.6 s of it system time, against 47-50 s; at 4096 nodes
/// 327 against 319 s; docs/granularity.md "Memory"). The packet-level model keeps them. Call
/// before the scenario's schedules are built.
void pages_for(Granularity granularity);

}  // namespace mt::cli
