#include "model/core/output_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace mt {

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& what, int error) {
  throw FileError(path + ": " + what + ": " + std::strerror(error));
}

std::string folder_part(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_part(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "a FIFO", "a character device", ...: what a non-regular file is.
std::string file_kind(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// The folder of `path` resolved (symbolic links and "..") + "/" + its name: one string per file.
std::string identity_of(const std::string& path) {
  char* resolved = ::realpath(folder_part(path).c_str(), nullptr);
  if (resolved == nullptr) return path;
  std::string out = resolved;
  std::free(resolved);
  return (out == "/" ? "" : out) + "/" + name_part(path);
}

// A name for a temporary file beside `path`, new at every call.
std::string temporary_name(const std::string& path, const char* tag) {
  static unsigned counter = 0;
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  const unsigned long long salt = static_cast<unsigned long long>(now) ^
                                  (static_cast<unsigned long long>(::getpid()) << 20) ^
                                  (static_cast<unsigned long long>(++counter) << 40);
  char suffix[24];
  std::snprintf(suffix, sizeof suffix, "%012llx", salt & 0xffffffffffffull);
  const std::string folder = folder_part(path);
  return (path.find('/') == std::string::npos ? "" : folder + "/") + "." + name_part(path) + "." +
         suffix + tag;
}

// Creates a new file beside `path` (O_EXCL: never an existing file or link); returns its
// descriptor and sets `name`.
int create_temporary(const std::string& path, std::string& name) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = temporary_name(path, ".tmp");
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) refuse(path, "cannot create a temporary file beside it", errno);
  }
  refuse(path, "cannot create a temporary file beside it", EEXIST);
}

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) refuse(path, "cannot write the file", n < 0 ? errno : EIO);
    done += static_cast<std::size_t>(n);
  }
}

// Refuses a target that is there and not a regular file (checked again just before the rename).
void check_target(const std::string& path, const std::string& action) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    refuse(path, action, errno);
  }
  if (S_ISDIR(st.st_mode)) refuse(path, action, EISDIR);
  if (!S_ISREG(st.st_mode))
    throw FileError(path + ": " + action + ": it is " + file_kind(st.st_mode) +
                    ", and mtsim writes only regular files (it never replaces or follows one)");
}

}  // namespace

void check_output(const std::string& path, const std::string& what, const OutputRules& rules) {
  const std::string action = "cannot write the " + what;
  if (path.empty()) throw FileError(action + ": the path is empty");
  if (path == "-" && rules.stdout_dash) return;
  check_target(path, action);
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (::access(path.c_str(), W_OK) != 0) refuse(path, action, errno);
    for (const std::string& input : rules.inputs) {
      struct stat in {};
      if (::stat(input.c_str(), &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
        throw FileError(path + ": " + action + ": it is " +
                        (input == path ? "an input" : "the input " + input) +
                        " of this run, which the output would replace");
    }
  }
  // The temporary file is created in the same folder.
  const std::string folder = folder_part(path);
  if (::stat(folder.c_str(), &st) != 0) refuse(path, action + " (folder " + folder + ")", errno);
  if (!S_ISDIR(st.st_mode)) refuse(path, action + " (folder " + folder + ")", ENOTDIR);
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    refuse(path, action + " (folder " + folder + ")", errno);
}

void OutputFiles::add(const std::string& path, const std::string& what, const std::string& option) {
  check_output(path, what, rules_);
  const std::string identity = path == "-" && rules_.stdout_dash ? "-" : identity_of(path);
  for (const Output& o : outputs_)
    if (o.identity == identity)
      throw FileError(o.option + " and " + option + " name the same " +
                      (identity == "-" ? std::string("stdout (-)") : "file " + path));
  outputs_.push_back({path, what, option, identity, "", false});
}

void OutputFiles::set_text(const std::string& path, std::string text) {
  for (Output& o : outputs_) {
    if (o.path != path) continue;
    o.text = std::move(text);
    o.has_text = true;
    return;
  }
  throw FileError(path + ": not an output of this command (a bug in mtsim)");
}

bool OutputFiles::uses_stdout() const {
  for (const Output& o : outputs_)
    if (o.identity == "-") return true;
  return false;
}

void OutputFiles::commit() {
  struct Staged {
    const Output* output;
    std::string temporary;
    std::string backup;    // a hard link to the file it replaces, until every rename is done
    bool existed = false;  // the target was there (without a backup it cannot be put back)
  };
  std::vector<Staged> staged;
  const auto discard = [&staged]() {
    for (const Staged& s : staged) {
      if (!s.temporary.empty()) ::unlink(s.temporary.c_str());
      if (!s.backup.empty()) ::unlink(s.backup.c_str());
    }
  };
  try {
    // 1. Every output into its own new file beside the target.
    for (const Output& o : outputs_) {
      if (!o.has_text || o.identity == "-") continue;
      staged.push_back({&o, "", "", false});
      Staged& s = staged.back();
      const int fd = create_temporary(o.path, s.temporary);
      try {
        struct stat old {};
        // A file replaced keeps its permissions.
        if (::lstat(o.path.c_str(), &old) == 0 && S_ISREG(old.st_mode))
          (void)::fchmod(fd, old.st_mode & 07777);
        write_all(fd, o.text, o.path);
      } catch (...) {
        ::close(fd);
        throw;
      }
      if (::close(fd) != 0) refuse(o.path, "cannot write the file", errno);
    }
    // 2. Targets checked again, and the ones that exist kept aside until all are in place.
    for (Staged& s : staged) {
      check_target(s.output->path, "cannot write the " + s.output->what);
      if (::access(s.output->path.c_str(), F_OK) != 0) continue;
      s.existed = true;
      for (int attempt = 0; attempt < 100 && s.backup.empty(); ++attempt) {
        const std::string name = temporary_name(s.output->path, ".old");
        if (::link(s.output->path.c_str(), name.c_str()) == 0) s.backup = name;
        if (errno != EEXIST) break;  // no hard links here: the file cannot be put back
      }
    }
  } catch (...) {
    discard();
    throw;
  }
  // 3. Renamed into place; a failure puts back what was replaced.
  for (std::size_t i = 0; i < staged.size(); ++i) {
    Staged& s = staged[i];
    if (std::rename(s.temporary.c_str(), s.output->path.c_str()) == 0) {
      s.temporary.clear();
      continue;
    }
    const int error = errno;
    for (std::size_t j = 0; j < i; ++j) {
      if (!staged[j].backup.empty()) {
        if (std::rename(staged[j].backup.c_str(), staged[j].output->path.c_str()) == 0)
          staged[j].backup.clear();
      } else if (!staged[j].existed) {
        ::unlink(staged[j].output->path.c_str());
      }
    }
    discard();
    refuse(s.output->path, "cannot move the file into place (no output was written)", error);
  }
  discard();  // the backups
  for (const Output& o : outputs_)
    if (o.has_text && o.identity == "-") std::cout << o.text << std::flush;
}

void write_text_atomically(const std::string& path, const std::string& text) {
  OutputFiles out;
  out.add(path, "file", path);
  out.set_text(path, text);
  out.commit();
}

int open_for_append(const std::string& path, const std::string& what) {
  const int fd = ::open(path.c_str(),
                        O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
  if (fd < 0 && errno == ELOOP)
    throw FileError(path + ": cannot write the " + what +
                    ": it is a symbolic link, and mtsim writes only regular files");
  if (fd < 0) refuse(path, "cannot write the " + what, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const mode_t mode = st.st_mode;
    ::close(fd);
    throw FileError(path + ": cannot write the " + what + ": it is " + file_kind(mode) +
                    ", and mtsim writes only regular files");
  }
  (void)::fcntl(fd, F_SETFL, O_APPEND);  // blocking again
  return fd;
}

}  // namespace mt
