#pragma once
// The one way mtsim writes a file: only regular files (or stdout for a documented "-"), never
// one of the run's inputs, through a temporary file created exclusively in the target's folder
// (no symbolic link followed), renamed into place; a command's several outputs are written all
// or nothing. Errors are FileErrors naming the file and the reason.

#include <string>
#include <vector>

#include "model/core/text_file.h"

namespace mt {

/// What an output is checked against: the files the command reads (a path may name any of them;
/// compared as files, so another spelling or a hard link of an input is an input too), and
/// whether "-" means stdout.
struct OutputRules {
  std::vector<std::string> inputs;  ///< the command's input files (missing ones are skipped)
  bool stdout_dash = false;         ///< "-" writes to stdout instead of a file named "-"
};

/// Checks, before any work is done, that `path` can be written as output `what` ("results JSON
/// (--json)"): not empty; when it exists, a regular file (a symbolic link, FIFO, device or folder
/// is refused, never replaced) that is none of `rules.inputs`; in an existing folder mtsim may
/// write in. Creates nothing; throws FileError.
void check_output(const std::string& path, const std::string& what, const OutputRules& rules = {});

/// The outputs of one command, written together.
class OutputFiles {
 public:
  explicit OutputFiles(OutputRules rules = {}) : rules_(std::move(rules)) {}

  /// Adds output `path` named `what` ("results JSON"), given by `option` ("--json"):
  /// check_output() at once, and refused when an earlier output names the same file ("--json and
  /// --csv name the same file out.json").
  void add(const std::string& path, const std::string& what, const std::string& option);
  /// The text output `path` (added before) gets at commit(); an output without text is left
  /// alone.
  void set_text(const std::string& path, std::string text);
  /// True when one of the outputs is stdout ("-"): the command's own text then goes to stderr.
  bool uses_stdout() const;

  /// Writes every output that has text: each into a new temporary file in its folder (created
  /// exclusively, never through a link), then, once all are written, renamed over its target
  /// (re-checked to be absent or a regular file); when a rename fails the files already replaced
  /// are put back, so no output is written unless all are. Stdout outputs come last. Throws
  /// FileError.
  void commit();

 private:
  struct Output {
    std::string path;
    std::string what;
    std::string option;
    std::string identity;  // folder resolved + "/" + name: two spellings of one file match
    std::string text;
    bool has_text = false;
  };
  OutputRules rules_;
  std::vector<Output> outputs_;
};

/// One output written as OutputFiles does: check_output (no input rules) then commit.
void write_text_atomically(const std::string& path, const std::string& text);

/// Opens `path` for appending (created when missing, mode 0666 less the umask) without following
/// a symbolic link and only when it is a regular file; returns the descriptor (close it).
/// `what` names the file in the FileError.
int open_for_append(const std::string& path, const std::string& what);

}  // namespace mt
