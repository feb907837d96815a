# GoogleTest from the system (Debian/Ubuntu libgtest-dev); never downloaded.
find_package(GTest CONFIG QUIET)
if(NOT GTest_FOUND)
  find_package(GTest QUIET)
endif()
if(NOT TARGET GTest::gtest AND EXISTS /usr/src/googletest/CMakeLists.txt)
  # Some distributions ship only the sources; build them as part of the tree.
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  add_subdirectory(/usr/src/googletest "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL)
  add_library(GTest::gtest ALIAS gtest)
  add_library(GTest::gtest_main ALIAS gtest_main)
endif()
if(NOT TARGET GTest::gtest)
  message(FATAL_ERROR
    "GoogleTest was not found. Install it with `sudo apt-get install libgtest-dev` "
    "or configure with -DWB_BUILD_TESTS=OFF to build the kernels only.")
endif()
include(GoogleTest)

# Seconds a test may run before CTest stops it, by kind. A kernel that never
# returns is reported as a timeout and the rest of the suite goes on.
set(WB_TIMEOUT_host 60 CACHE STRING "Timeout of a host test, in seconds")
set(WB_TIMEOUT_gpu 120 CACHE STRING "Timeout of a GPU correctness test, in seconds")
set(WB_TIMEOUT_perf 300 CACHE STRING "Timeout of a GPU performance test, in seconds")

# wb_register_gtests(<executable> PREFIX <text> LABELS <labels...>)
# Registers every test of a GoogleTest executable with CTest, one CTest test
# per gtest test (each in its own process, so a crash or a hang fails only
# that test). Suites are named by kind: Host*, Gpu*, Perf*; each kind gets its
# label and timeout. A test that calls GTEST_SKIP is reported as skipped.
function(wb_register_gtests executable)
  cmake_parse_arguments(ARG "" "PREFIX" "LABELS;KINDS" ${ARGN})
  if(NOT ARG_KINDS)
    set(ARG_KINDS host gpu perf)
  endif()
  foreach(kind IN LISTS ARG_KINDS)
    # Timings must not share the GPU with other tests.
    set(serial FALSE)
    if(kind STREQUAL "perf")
      set(serial TRUE)
    endif()
    if(kind STREQUAL "host")
      set(filter "Host*:*/Host*")
    elseif(kind STREQUAL "gpu")
      set(filter "Gpu*:*/Gpu*")
    elseif(kind STREQUAL "perf")
      set(filter "Perf*:*/Perf*")
    else()
      message(FATAL_ERROR "unknown test kind ${kind}")
    endif()
    gtest_discover_tests(${executable}
      TEST_PREFIX "${ARG_PREFIX}"
      TEST_FILTER "${filter}"
      NO_PRETTY_VALUES
      DISCOVERY_MODE PRE_TEST
      DISCOVERY_TIMEOUT 60
      PROPERTIES
        LABELS "${ARG_LABELS};${kind}"
        TIMEOUT ${WB_TIMEOUT_${kind}}
        RUN_SERIAL ${serial}
        SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
  endforeach()
endfunction()
