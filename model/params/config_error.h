#pragma once
// The error of every config loader (scenario, sweep, workload, --set overrides).

#include "model/core/error.h"

namespace mt {

/// Bad config input. what() reads "file:line:col: key.path: what is wrong"; location() has the
/// file, line, column and key path (and the override's key when a `--set` caused it).
class ScenarioError : public Error {
 public:
  using Error::Error;
};

}  // namespace mt
