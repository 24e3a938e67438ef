#pragma once
// Reading whole text files with errors that name the file and give the operating system's reason
// ("Is a directory", "Permission denied"), never a stream library's internals. Writing:
// model/core/output_files.h.

#include <cstdint>
#include <string>

#include "model/core/error.h"

namespace mt {

/// A file that cannot be read or written; what() is "PATH: what failed: OS reason".
class FileError : public Error {
 public:
  using Error::Error;
};

/// Reads the whole file at `path`. `what` names it in messages ("scenario file"); a file larger
/// than `max_bytes`, a folder or anything but a regular file is a FileError.
std::string read_text_file(const std::string& path, const std::string& what,
                           std::uint64_t max_bytes);

}  // namespace mt
