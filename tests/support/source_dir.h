#pragma once
// Where the tests find the project's files (scenarios/, tests/data/).

#include <string>

namespace mt::test {

/// The source tree, as CMake passes it (MT_SOURCE_DIR).
inline const std::string kSource = MT_SOURCE_DIR;

}  // namespace mt::test
