#pragma once
// Hierarchical 2D ring all-reduce on 2D tori and meshes.

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// `ring2d` on an X x Y torus or mesh (node id = x + X*y). The data is split in two halves of
/// X*Y chunks each:
///  - half A (chunks 0..XY-1, flows 0/1): reduce-scatter along every row ring (+x direction),
///    then along every column ring (+y), then all-gather along columns, then along rows;
///  - half B (chunks XY..2XY-1, flows 2/3): the same with columns first and both rings run in the
///    opposite direction (-y, -x).
/// With X == Y the halves always use different dimensions and directions, so a torus has no
/// contention. In a row phase every message carries Y chunks (one op per chunk, same step and
/// link), in a column phase one chunk: total 2(X-1) + 2(Y-1) steps. On a mesh the ring's
/// closing message is routed back along the line. Throws AlgorithmError for a topology that is
/// not a 2D torus/mesh.
Schedule build_ring2d(const Topology& topology, const Ring2dParams& params,
                      const BuildContext& context);

}  // namespace mt
