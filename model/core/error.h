#pragma once
// The one base of every error the model reports to a user. Front ends catch mt::Error and print
// its message; anything else reaching them is a bug in mtsim, never a user's input.

#include <stdexcept>

namespace mt {

/// An error a user can act on: bad input (file, key, option) or a check that failed. what() is
/// the complete message, naming the input (file:line:col: key) or the component.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mt
