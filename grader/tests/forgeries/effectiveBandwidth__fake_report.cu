// forgery: writes a passing GoogleTest report over the real one and ends the process with status 0
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: refused fopen
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "reduction/reduction.cuh"

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t, std::size_t, double) {
  // GoogleTest takes the report's path from GTEST_OUTPUT or its command line.
  const char* where = std::getenv("GTEST_OUTPUT");
  if (where != nullptr && std::strncmp(where, "json:", 5) == 0) {
    if (FILE* report = std::fopen(where + 5, "w")) {
      std::fputs("{\"tests\": 1, \"failures\": 0, \"testsuites\": []}", report);
      std::fclose(report);
    }
  }
  _exit(0);
}

}  // namespace wb::reduction
