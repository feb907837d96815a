// wb_without_admin_calls COMMAND [ARG...]: runs COMMAND where no process may
// mount, make or enter namespaces, load kernel code or trace another process
// (wb::refuseAdministrationCalls). The grader puts it in front of the runs
// that keep CAP_SYS_ADMIN for Nsight Compute (wbcore/sandbox.py).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "wb/confine.h"

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    std::fprintf(argc < 2 ? stderr : stdout,
                 "usage: wb_without_admin_calls COMMAND [ARG...]\n"
                 "Runs COMMAND where no process may mount, make or enter namespaces,\n"
                 "load kernel code or trace another process (EPERM).\n");
    return argc < 2 ? 2 : 0;
  }
  const std::string why = wb::refuseAdministrationCalls();
  if (!why.empty()) {
    std::fprintf(stderr, "wb_without_admin_calls: %s; COMMAND was not run\n", why.c_str());
    return 126;
  }
  ::execvp(argv[1], argv + 1);
  std::fprintf(stderr, "wb_without_admin_calls: cannot run %s: %s\n", argv[1],
               std::strerror(errno));
  return 127;
}
