#pragma once
// The error of every config loader (scenario, sweep, workload, --set overrides).

#include "model/core/error.h"

namespace mt {

/// Bad config input. what() reads "file:line:col: key.path: what is wrong".
class ScenarioError : public Error {
 public:
  using Error::Error;
};

}  // namespace mt
