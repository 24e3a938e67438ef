#include "model/core/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace mt {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw FileError(path + ": " + what + ": " + std::strerror(error));
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& what,
                           std::uint64_t max_bytes) {
  const std::string action = "cannot read the " + what;
  // Non-blocking, so that a FIFO without a writer is refused below instead of waited on.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail(path, "cannot open the " + what, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    fail(path, action, error);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    if (S_ISDIR(st.st_mode)) fail(path, action, EISDIR);
    throw FileError(path + ": " + action + ": not a regular file");
  }
  const auto too_large = [&]() {
    ::close(fd);
    throw FileError(path + ": " + action + ": larger than " + std::to_string(max_bytes >> 20) +
                    " MiB");
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) too_large();
  (void)::fcntl(fd, F_SETFL, 0);  // a regular file: blocking reads again
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      fail(path, action, error);
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > max_bytes) too_large();  // grown while read
  }
  ::close(fd);
  return text;
}

}  // namespace mt
