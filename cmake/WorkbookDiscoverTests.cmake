# Run by CTest (not by CMake at configure time) for every GoogleTest
# executable registered with wb_register_gtests: lists the executable's tests
# and adds one CTest test per GoogleTest test, each in its own process.
#
# Inputs, set by the generated include file that CTest loads first:
#   WB_EXE     the test executable
#   WB_LIST_EXE the executable whose listing is read (the same tests built
#              without student code, where WB_EXE links some)
#   WB_MODULES the kernel module folders the tests load (WB_MODULES)
#   WB_LINKS   the exercises whose objects WB_EXE links
#   WB_PYTHON, WB_VERDICT  the interpreter and wbcore/gtest_verdict.py
#   WB_PREFIX  prefix of every CTest name, e.g. "solutions.layout."
#   WB_LABELS  labels every test gets (section, implementation)
#   WB_KINDS   the kinds to register (host, gpu, perf)
#   WB_TIMEOUT_host / _gpu / _perf  per-kind timeouts in seconds
#   WB_COURSE  workbook.toml as CMake statements (WB_<section>_EXERCISES)
#   WB_SECTION the section whose exercises the tests may belong to
#   WB_EXERCISE every test of the executable belongs to this exercise (a host
#              exercise's tests, linked with that exercise's object alone)
#   WB_EXERCISE_BY_PARAMETER  true where a parameterised test's parameter
#              name starts with the exercise of the kernel it runs
#   WB_BATCH_GPU_TESTS, WB_BATCH_TIMEOUT, WB_BATCHES  the batch runs (below)
#
# This script is the one place that reads GoogleTest's names; everything
# else (the grader, ./workbook, the checks) reads the labels set here,
# through wbcore/ctest_listing.py.
#
# The kind of a test comes from its suite name: Host*, Gpu*, Perf* (after an
# optional "Instantiation/" prefix). Each kind adds its label and timeout;
# perf tests run alone (RUN_SERIAL).
#
# The exercise of a test becomes its label `exercise=<name>`. Where the
# executable holds one exercise's tests (WB_EXERCISE), every test gets it.
# In a section's kernel tests, each parameterised test runs one kernel, and
# its parameter name, which the test source's name generator builds from the
# kernel's exercise, is `<exercise>` or `<exercise>_<case>` (exercise names
# hold no '_'): the source declares the exercise where it declares the
# kernel, so a new test of a kernel is labelled without any list to keep up
# to date. A test with no parameter (a performance comparison of several
# kernels) is section-wide. A parameter naming no exercise of the section is
# an error: CTest then lists and runs nothing until it is fixed, rather than
# leaving a kernel's tests worth no points.
#
# A section-wide comparison also gets a label `compares=<name>` for each
# exercise whose student kernel it times, as the test source declares it
# beside the test (WB_PERF_COMPARES, tests/harness/include/wb/
# perf_compares.h; the executable prints the declarations when run with
# WB_LIST_COMPARISONS=1): `./workbook check NAME --perf` runs them. They
# carry no points of the exercise; a comparison without a declaration is an
# error, as above.
#
# Every test runs through the verdict wrapper: passed only when GoogleTest's
# report says so; a test GoogleTest reports as skipped (no GPU) exits 77,
# which CTest reports as skipped.
#
# Batches: the GPU tests of one exercise in a section's kernel tests also
# run together, in one process, first: a CTest test `<prefix><exercise>.batch`
# (label `batch`, which wbcore/ctest_listing.py leaves out of every listing)
# that each of them requires as a fixture, so any selection of them runs it
# before them. It keeps, in WB_BATCHES<exercise>/, the verdict of each test
# that passed there; a test reads it (--from-batch) while the
# executable, the modules the batch loaded and the seed are unchanged, and
# runs alone otherwise: every failure is run again in a process of its own,
# since a kernel that faults breaks the CUDA context for the tests after it.
# The batch itself always passes (a failed fixture would leave its tests not
# run) and stops itself after WB_BATCH_TIMEOUT seconds.

cmake_policy(VERSION 3.24)

include("${WB_COURSE}")

# Placeholders fail, so the missing tests are not silently absent; the
# grader reads their `placeholder` label.
if(NOT EXISTS "${WB_EXE}" OR NOT EXISTS "${WB_LIST_EXE}")
  add_test("${WB_PREFIX}NOT_BUILT" "${WB_EXE}")
  set_tests_properties("${WB_PREFIX}NOT_BUILT" PROPERTIES LABELS "${WB_LABELS};placeholder")
  return()
endif()

set(links "")
foreach(link IN LISTS WB_LINKS)
  list(APPEND links --links "${link}")
endforeach()
set(environment "")
if(WB_MODULES)
  set(environment "WB_MODULES=${WB_MODULES}")
endif()

execute_process(
  COMMAND "${WB_LIST_EXE}" --gtest_list_tests
  OUTPUT_VARIABLE listing
  ERROR_VARIABLE listing_error
  RESULT_VARIABLE listing_result
  TIMEOUT 60)
if(NOT listing_result EQUAL 0)
  # Surface the problem as a failing test rather than a silent empty suite.
  add_test("${WB_PREFIX}LIST_TESTS_FAILED" "${WB_LIST_EXE}" --gtest_list_tests)
  set_tests_properties("${WB_PREFIX}LIST_TESTS_FAILED" PROPERTIES
                      LABELS "${WB_LABELS};placeholder")
  return()
endif()

# The comparisons' declarations: "WB_COMPARES Suite.Test exercise...".
if("perf" IN_LIST WB_KINDS)
  # The variable for this one run (CTest's scripts have no `cmake -E env`).
  set(ENV{WB_LIST_COMPARISONS} 1)
  execute_process(
    COMMAND "${WB_LIST_EXE}" --gtest_list_tests
    OUTPUT_VARIABLE declared
    RESULT_VARIABLE declared_result
    TIMEOUT 60)
  unset(ENV{WB_LIST_COMPARISONS})
  if(NOT declared_result EQUAL 0)
    message(FATAL_ERROR "${WB_LIST_EXE}: listing the performance comparisons failed "
                        "(${declared_result})")
  endif()
  string(REPLACE "\n" ";" declared_lines "${declared}")
  foreach(line IN LISTS declared_lines)
    if(line MATCHES "^WB_COMPARES ([^ ]+) (.+)$")
      string(MAKE_C_IDENTIFIER "${CMAKE_MATCH_1}" declared_id)
      string(REPLACE " " ";" "compares_${declared_id}" "${CMAKE_MATCH_2}")
    endif()
  endforeach()
endif()

string(REPLACE "\n" ";" lines "${listing}")
set(suite "")
# Every executable's discovery runs in the same CTest scope: start empty.
set(batched_exercises "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #][^ ]*)\\.")
    set(suite "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^  ([^ ]+)")
    set(test "${CMAKE_MATCH_1}")
    set(full "${suite}.${test}")
    string(REGEX REPLACE "^[^/]*/" "" bare_suite "${suite}")
    if(bare_suite MATCHES "^Host")
      set(kind host)
    elseif(bare_suite MATCHES "^Gpu")
      set(kind gpu)
    elseif(bare_suite MATCHES "^Perf")
      set(kind perf)
    else()
      message(WARNING "${WB_EXE}: suite ${suite} is not named Host*, Gpu* or Perf*; "
                      "registered as a gpu test")
      set(kind gpu)
    endif()
    if(NOT kind IN_LIST WB_KINDS)
      continue()
    endif()
    set(exercise "${WB_EXERCISE}")
    if(WB_EXERCISE_BY_PARAMETER AND test MATCHES "/([^/_]+)[^/]*$")
      set(exercise "${CMAKE_MATCH_1}")
    endif()
    set(labels "${WB_LABELS};${kind}")
    if(NOT exercise STREQUAL "")
      if(NOT exercise IN_LIST WB_${WB_SECTION}_EXERCISES)
        message(FATAL_ERROR "${WB_LIST_EXE}: test ${full} names exercise '${exercise}', which "
                            "workbook.toml does not list in section '${WB_SECTION}'")
      endif()
      list(APPEND labels "exercise=${exercise}")
    elseif(kind STREQUAL "perf")
      string(MAKE_C_IDENTIFIER "${full}" declared_id)
      if(NOT DEFINED "compares_${declared_id}")
        message(FATAL_ERROR "${WB_LIST_EXE}: the comparison ${full} does not declare which "
                            "exercises it times: add WB_PERF_COMPARES(${suite}, ${test}, ...) "
                            "before it (tests/harness/include/wb/perf_compares.h)")
      endif()
      foreach(compared IN LISTS "compares_${declared_id}")
        if(NOT compared IN_LIST WB_${WB_SECTION}_EXERCISES)
          message(FATAL_ERROR "${WB_LIST_EXE}: the comparison ${full} declares exercise "
                              "'${compared}', which workbook.toml does not list in section "
                              "'${WB_SECTION}'")
        endif()
        list(APPEND labels "compares=${compared}")
      endforeach()
    endif()
    set(name "${WB_PREFIX}${full}")
    set(from_batch "")
    if(WB_BATCH_GPU_TESTS AND kind STREQUAL "gpu" AND WB_EXERCISE_BY_PARAMETER
       AND NOT exercise STREQUAL "")
      set(from_batch --from-batch "${WB_BATCHES}${exercise}")
      list(APPEND "batch_${exercise}" "${full}")
      list(APPEND batched_exercises "${exercise}")
    endif()
    add_test("${name}" "${WB_PYTHON}" -I -S "${WB_VERDICT}" --test "${full}" --name "${name}"
             ${links} ${from_batch}
             -- "${WB_EXE}")
    set(serial FALSE)
    if(kind STREQUAL "perf")
      set(serial TRUE)
    endif()
    set_tests_properties("${name}" PROPERTIES
      LABELS "${labels}"
      TIMEOUT "${WB_TIMEOUT_${kind}}"
      RUN_SERIAL ${serial}
      SKIP_RETURN_CODE 77
      ENVIRONMENT "${environment}")
    if(from_batch)
      set_tests_properties("${name}" PROPERTIES
        FIXTURES_REQUIRED "${WB_PREFIX}${exercise}.batch")
    endif()
  endif()
endforeach()

if(batched_exercises)
  list(REMOVE_DUPLICATES batched_exercises)
endif()
foreach(exercise IN LISTS batched_exercises)
  set(batch "${WB_PREFIX}${exercise}.batch")
  add_test("${batch}" "${WB_PYTHON}" -I -S "${WB_VERDICT}" --batch "${WB_BATCHES}${exercise}"
           --batch-timeout "${WB_BATCH_TIMEOUT}" --batch-tests ${batch_${exercise}}
           -- "${WB_EXE}")
  # Its own deadline kills the process; CTest's, far later, only if that hangs too.
  math(EXPR batch_limit "${WB_BATCH_TIMEOUT} + 120")
  set_tests_properties("${batch}" PROPERTIES
    LABELS "${WB_LABELS};batch;exercise=${exercise}"
    FIXTURES_SETUP "${batch}"
    TIMEOUT "${batch_limit}"
    ENVIRONMENT "${environment}")
  unset("batch_${exercise}")
endforeach()
