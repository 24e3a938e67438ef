// Issue 52 (class 3): the one output writer. Regular files only, never an input, temporary files
// created exclusively beside the target, several outputs all or nothing; reading refuses what is
// not a regular file without waiting on it.

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "model/core/output_files.h"
#include "tests/support/cli_runner.h"

namespace {

namespace fs = std::filesystem;

// An empty scratch folder of this test process (removed when it ends).
std::string folder(const std::string& name) {
  return mt::test::scratch_dir(name);
}

std::string content(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

void put(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// What the write of `path` throws, or "".
template <typename Write>
std::string error_of(Write write) {
  try {
    write();
  } catch (const mt::FileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("outputs that are not regular files are refused, never replaced or followed") {
  const std::string dir = folder("kinds");
  put(dir + "/target", "keep");
  fs::create_symlink(dir + "/target", dir + "/link.json");
  REQUIRE(::mkfifo((dir + "/fifo.json").c_str(), 0644) == 0);
  CHECK(error_of([&] { mt::write_text_atomically(dir + "/link.json", "new"); }) ==
        dir +
            "/link.json: cannot write the file: it is a symbolic link, and mtsim writes only "
            "regular files (it never replaces or follows one)");
  CHECK(fs::is_symlink(dir + "/link.json"));
  CHECK(content(dir + "/target") == "keep");
  CHECK(error_of([&] { mt::check_output(dir + "/fifo.json", "results JSON"); }) ==
        dir +
            "/fifo.json: cannot write the results JSON: it is a FIFO, and mtsim writes only "
            "regular files (it never replaces or follows one)");
  CHECK(fs::is_fifo(dir + "/fifo.json"));
  CHECK(error_of([&] { mt::check_output("/dev/null", "trace"); }) ==
        "/dev/null: cannot write the trace: it is a character device, and mtsim writes only "
        "regular files (it never replaces or follows one)");
  // A reader of a FIFO refuses it at once (it used to wait for a writer).
  CHECK(error_of([&] { (void)mt::read_text_file(dir + "/fifo.json", "schedule file", 100); }) ==
        dir + "/fifo.json: cannot read the schedule file: not a regular file");
}

TEST_CASE("an output that is one of the inputs is refused, however it is spelled") {
  const std::string dir = folder("inputs");
  put(dir + "/s.yaml", "scenario");
  fs::create_hard_link(dir + "/s.yaml", dir + "/same.yaml");
  mt::OutputRules rules;
  rules.inputs = {dir + "/s.yaml"};
  CHECK(error_of([&] { mt::check_output(dir + "/../inputs/s.yaml", "results JSON", rules); }) ==
        dir + "/../inputs/s.yaml: cannot write the results JSON: it is the input " + dir +
            "/s.yaml of this run, which the output would replace");
  CHECK(error_of([&] { mt::check_output(dir + "/same.yaml", "results JSON", rules); }) != "");
  CHECK(content(dir + "/s.yaml") == "scenario");
  // Two spellings of one output.
  mt::OutputFiles out(rules);
  out.add(dir + "/a.json", "results JSON", "--json");
  CHECK(error_of([&] { out.add(dir + "/./a.json", "results CSV", "--csv"); }) ==
        "--json and --csv name the same file " + dir + "/./a.json");
}

TEST_CASE("temporary files are new files beside the target: a planted PATH.tmp link is ignored") {
  const std::string dir = folder("tmp");
  put(dir + "/victim", "keep");
  fs::create_symlink(dir + "/victim", dir + "/out.json.tmp");
  mt::write_text_atomically(dir + "/out.json", "results\n");
  CHECK(content(dir + "/out.json") == "results\n");
  CHECK(content(dir + "/victim") == "keep");
  // Nothing else is left in the folder: the target, the victim and the planted link.
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 3);
  // A file replaced keeps its permissions.
  ::chmod((dir + "/out.json").c_str(), 0600);
  mt::write_text_atomically(dir + "/out.json", "again\n");
  struct stat st {};
  REQUIRE(::stat((dir + "/out.json").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(content(dir + "/out.json") == "again\n");
}

TEST_CASE("a command's outputs are written all or nothing") {
  const std::string dir = folder("all");
  put(dir + "/a.json", "old a");
  mt::OutputFiles out;
  out.add(dir + "/a.json", "results JSON", "--json");
  out.add(dir + "/b.csv", "results CSV", "--csv");
  out.add(dir + "/c.json", "trace", "--trace");
  out.set_text(dir + "/a.json", "new a");
  out.set_text(dir + "/b.csv", "new b");
  out.set_text(dir + "/c.json", "new c");
  // The trace's path became a folder while the run simulated: nothing is written.
  fs::create_directories(dir + "/c.json");
  CHECK(error_of([&] { out.commit(); }) ==
        dir + "/c.json: cannot write the trace: " + std::string(std::strerror(EISDIR)));
  CHECK(content(dir + "/a.json") == "old a");
  CHECK_FALSE(fs::exists(dir + "/b.csv"));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);
  fs::remove(dir + "/c.json");
  out.commit();
  CHECK(content(dir + "/a.json") == "new a");
  CHECK(content(dir + "/b.csv") == "new b");
  CHECK(content(dir + "/c.json") == "new c");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 3);
}

TEST_CASE("appending refuses links and special files") {
  const std::string dir = folder("append");
  put(dir + "/target", "keep");
  fs::create_symlink(dir + "/target", dir + "/records.jsonl");
  CHECK(error_of([&] { ::close(mt::open_for_append(dir + "/records.jsonl", "sweep records")); }) ==
        dir +
            "/records.jsonl: cannot write the sweep records: it is a symbolic link, and mtsim "
            "writes only regular files");
  const int fd = mt::open_for_append(dir + "/new.jsonl", "sweep records");
  CHECK(::write(fd, "x\n", 2) == 2);
  ::close(fd);
  CHECK(content(dir + "/new.jsonl") == "x\n");
}
