#include "tb/mtsim/huge_pages.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace mt::cli {

void restart_with_huge_pages(char* argv[]) {
  const char* off = std::getenv("MT_HUGE_PAGES");
  if (off != nullptr && std::strcmp(off, "0") == 0) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::string value = tunables != nullptr ? tunables : "";
  if (value.find("glibc.malloc.hugetlb") != std::string::npos) return;
  value += value.empty() ? "" : ":";
  value += "glibc.malloc.hugetlb=1";
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // Only reached when the restart failed: go on as we are.
  if (tunables != nullptr) {
    ::setenv("GLIBC_TUNABLES", tunables, 1);
  } else {
    ::unsetenv("GLIBC_TUNABLES");
  }
}

void pages_for(Granularity granularity) {
  // Advice only: where the kernel refuses, the run goes on as it is, only slower.
  if (granularity == Granularity::kMessage) ::prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
}

}  // namespace mt::cli
