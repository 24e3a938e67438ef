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

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& what,
                           std::uint64_t max_bytes) {
  const std::string action = "cannot read the " + what;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
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
    if (text.size() > max_bytes) {
      ::close(fd);
      throw FileError(path + ": " + action + ": larger than " + std::to_string(max_bytes >> 20) +
                      " MiB");
    }
  }
  ::close(fd);
  return text;
}

void check_writable(const std::string& path, const std::string& what) {
  const std::string action = "cannot write the " + what;
  if (path.empty()) throw FileError("cannot write the " + what + ": the path is empty");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(path, action, EISDIR);
    if (::access(path.c_str(), W_OK) != 0) fail(path, action, errno);
  } else if (errno != ENOENT) {
    fail(path, action, errno);
  }
  // The temporary file of write_text_atomically is created in the same folder.
  const std::string folder = folder_of(path);
  if (::stat(folder.c_str(), &st) != 0) fail(path, action + " (folder " + folder + ")", errno);
  if (!S_ISDIR(st.st_mode)) fail(path, action + " (folder " + folder + ")", ENOTDIR);
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    fail(path, action + " (folder " + folder + ")", errno);
}

void write_text_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(tmp, "cannot write the file", errno);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      ::close(fd);
      std::remove(tmp.c_str());
      fail(tmp, "cannot write the file", error);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int error = errno;
    std::remove(tmp.c_str());
    fail(tmp, "cannot write the file", error);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(tmp.c_str());
    fail(path, "cannot move the file into place", error);
  }
}

}  // namespace mt
