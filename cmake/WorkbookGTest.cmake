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

# Seconds a test may run before CTest stops it, by kind. A kernel that never
# returns is reported as a timeout and the rest of the suite goes on.
set(WB_TIMEOUT_host 60 CACHE STRING "Timeout of a host test, in seconds")
set(WB_TIMEOUT_gpu 60 CACHE STRING "Timeout of a GPU correctness test, in seconds")
set(WB_TIMEOUT_perf 300 CACHE STRING "Timeout of a GPU performance test, in seconds")
# An exercise's GPU correctness tests first run together in one process (a
# CUDA context costs about half a second a process); each test then takes
# the verdict of that run where it passed there, and runs alone otherwise
# (cmake/WorkbookDiscoverTests.cmake).
option(WB_BATCH_GPU_TESTS
       "Run an exercise's GPU tests, and a section's profiles and sanitizers, in one process first"
       ON)
set(WB_BATCH_TIMEOUT 30 CACHE STRING "Seconds an exercise's batch of GPU tests may run")
if(NOT WB_BATCH_TIMEOUT MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "WB_BATCH_TIMEOUT=${WB_BATCH_TIMEOUT}: give a whole number of seconds, "
                      "at least 1 (e.g. -DWB_BATCH_TIMEOUT=30)")
endif()

# The interpreter the verdict wrapper runs under, resolved past launchers
# such as pyenv's shims (which cost about 70 ms a start), and started with
# -I -S: the wrapper needs the standard library only, and it runs once per
# test.
execute_process(COMMAND "${Python3_EXECUTABLE}" -c "import sys; print(sys.executable)"
                OUTPUT_VARIABLE WB_VERDICT_PYTHON OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE _wb_python_result)
if(NOT _wb_python_result EQUAL 0 OR NOT EXISTS "${WB_VERDICT_PYTHON}")
  set(WB_VERDICT_PYTHON "${Python3_EXECUTABLE}")
endif()

# wb_register_gtests(<executable> PREFIX <text> LABELS <labels...> [KINDS <kinds...>]
#                    [MODULES <folders>] [LIST_EXECUTABLE <executable>]
#                    [LINKS <section/exercise...>]
#                    [SECTION <section> [EXERCISE <exercise> | EXERCISE_BY_PARAMETER]])
# Registers every test of a GoogleTest executable with CTest, one CTest test
# per gtest test (each in its own process, so a crash or a hang fails only
# that test). The list is read when CTest runs
# (cmake/WorkbookDiscoverTests.cmake), so a machine without a GPU can list
# and skip GPU tests; it is read from LIST_EXECUTABLE when given (a build of
# the same tests without the student's code). Every test runs through
# wbcore/gtest_verdict.py, which passes it only when GoogleTest's own report,
# written where the wrapper chose, names it as passed. MODULES sets
# WB_MODULES, the folders of the kernel modules the tests load; LINKS names
# the exercises whose objects are linked into the executable (the grader's
# record of what the test ran). Suites are named by kind: Host*, Gpu*, Perf*.
# SECTION with EXERCISE labels every test `exercise=<exercise>`; with
# EXERCISE_BY_PARAMETER each parameterised test gets the exercise its
# parameter name starts with (cmake/WorkbookDiscoverTests.cmake says why);
# without either the tests are section-wide.
function(wb_register_gtests executable)
  cmake_parse_arguments(ARG "EXERCISE_BY_PARAMETER" "PREFIX;MODULES;LIST_EXECUTABLE;SECTION;EXERCISE"
                        "LABELS;KINDS;LINKS" ${ARGN})
  if((ARG_EXERCISE OR ARG_EXERCISE_BY_PARAMETER) AND NOT ARG_SECTION)
    message(FATAL_ERROR "wb_register_gtests(${executable}): EXERCISE and EXERCISE_BY_PARAMETER "
                        "need the SECTION whose exercises they name")
  endif()
  if(ARG_EXERCISE AND NOT ARG_EXERCISE IN_LIST WB_${ARG_SECTION}_EXERCISES)
    message(FATAL_ERROR "wb_register_gtests(${executable}): workbook.toml lists no exercise "
                        "${ARG_SECTION}/${ARG_EXERCISE}")
  endif()
  if(NOT ARG_KINDS)
    set(ARG_KINDS host gpu perf)
  endif()
  if(NOT ARG_LIST_EXECUTABLE)
    set(ARG_LIST_EXECUTABLE ${executable})
  endif()
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${executable}_${ARG_PREFIX}discover.cmake")
  file(GENERATE OUTPUT "${include_file}" CONTENT
"set(WB_EXE [==[$<TARGET_FILE:${executable}>]==])
set(WB_LIST_EXE [==[$<TARGET_FILE:${ARG_LIST_EXECUTABLE}>]==])
set(WB_PREFIX [==[${ARG_PREFIX}]==])
set(WB_LABELS [==[${ARG_LABELS}]==])
set(WB_KINDS [==[${ARG_KINDS}]==])
set(WB_MODULES [==[${ARG_MODULES}]==])
set(WB_LINKS [==[${ARG_LINKS}]==])
set(WB_PYTHON [==[${WB_VERDICT_PYTHON}]==])
set(WB_VERDICT [==[${CMAKE_SOURCE_DIR}/wbcore/gtest_verdict.py]==])
set(WB_TIMEOUT_host ${WB_TIMEOUT_host})
set(WB_TIMEOUT_gpu ${WB_TIMEOUT_gpu})
set(WB_TIMEOUT_perf ${WB_TIMEOUT_perf})
set(WB_BATCH_GPU_TESTS ${WB_BATCH_GPU_TESTS})
set(WB_BATCH_TIMEOUT ${WB_BATCH_TIMEOUT})
set(WB_BATCHES [==[${CMAKE_BINARY_DIR}/Testing/batches/${ARG_PREFIX}]==])
set(WB_COURSE [==[${WB_COURSE_CMAKE}]==])
set(WB_SECTION [==[${ARG_SECTION}]==])
set(WB_EXERCISE [==[${ARG_EXERCISE}]==])
set(WB_EXERCISE_BY_PARAMETER ${ARG_EXERCISE_BY_PARAMETER})
include([==[${CMAKE_SOURCE_DIR}/cmake/WorkbookDiscoverTests.cmake]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
