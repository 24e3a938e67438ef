#pragma once
// The one base of every error the model reports to a user. Front ends catch mt::Error and print
// its message; anything else reaching them is a bug in mtsim, never a user's input. Where the
// error is (file, line, column, key path, `--set` override, schedule node and entry) travels as
// structured fields next to the message, so no caller parses it back out of the text.

#include <stdexcept>
#include <string>
#include <utility>

namespace mt {

/// Where an error is. Every field is optional: "" or -1 when unknown or not applicable.
struct ErrorLocation {
  std::string file;           ///< input file the error is in
  int line = -1;              ///< 1-based line in `file`
  int column = -1;            ///< 1-based column in `file`
  std::string key_path;       ///< config key path, e.g. "collective.sizes[0]"
  std::string override_key;   ///< key path of the `--set key=value` override the error is about
  std::string override_text;  ///< that override's whole text, "key=value"
  /// The option the override stands for when the user did not type it as `--set` (mtsim train's
  /// "--algorithm ring" is collective.algorithms=[ring]); where() names it instead.
  std::string override_option;
  int node = -1;     ///< schedule: the endpoint (NIC) concerned
  int entry = -1;    ///< schedule table: the entry index in `node`'s table
  int message = -1;  ///< schedule: the message (operation id) concerned
  /// The error is about the key itself (none of the keys allowed there), not about its value: a
  /// caller that placed the value elsewhere (a sweep's axis) points at the key instead.
  bool key_unknown = false;

  /// The place as users read it: "--set key=value" (or the option it stands for) for an
  /// override, else "file:line:col"
  /// ("file" without a line; "" when there is no file either).
  std::string where() const;
};

/// An error a user can act on: bad input (file, key, option) or a check that failed. what() is
/// the complete message, naming the input (file:line:col: key) or the component; location()
/// holds the same place as fields.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, ErrorLocation location = {})
      : std::runtime_error(message), location_(std::move(location)) {}
  const ErrorLocation& location() const { return location_; }

 private:
  ErrorLocation location_;
};

}  // namespace mt
