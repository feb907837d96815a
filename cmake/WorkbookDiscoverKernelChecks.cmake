# Run by CTest: lists the kernels of a runner (wb_run --list, a JSON array)
# and adds, per kernel, a `profile` test (Nsight Compute, when the bank model
# or the coalescing model grades the kernel) and a `sanitize` test
# (compute-sanitizer); a kernel the constant-cache model grades also gets a
# `profile` test. Both exit 77 when their tool cannot run here, which
# CTest reports as skipped. Each test is labelled with its section, its
# implementation, its kind and `exercise=<name>`, the exercise whose module
# the runner loads for the kernel: the runner says which, and the tools
# select an exercise's tests by that label, never by the test's name.
# Inputs: WB_RUNNER, WB_IMPL, WB_MODULES (the implementation's module folder),
# WB_REFERENCE_MODULES (the reference build's, whose work the checks compare),
# WB_SOURCES (the folder its sources were compiled from, shown as WB_IMPL/
# in the checks' messages), WB_PYTHON, WB_CHECKS, WB_PYTHONPATH_MODIFICATION
# (the checks import wbcore: cmake/WorkbookPython.cmake), WB_COURSE
# (workbook.toml as CMake statements), WB_BATCH_GPU_TESTS, WB_BATCHES,
# WB_REFERENCE_BATCHES and WB_SANITIZE_BATCHES.
#
# Batches: with WB_BATCH_GPU_TESTS, a section whose kernels have profile or
# method-counter tests also gets `<impl>.<section>.profile.batch` (label
# `batch`, left out of every listing), a fixture run before them that
# profiles all those kernels in one Nsight Compute process (the kernels
# whose shuffles are counted, on the source page, in one more; the
# reference kernels in a third, whose values stay in
# WB_REFERENCE_BATCHES<section>/ for later runs while the runner and the
# reference modules are unchanged) and keeps each right kernel's values in
# WB_BATCHES<section>/; each test reads its kernel's values there while the
# runner and the modules are unchanged (tests/checks/profile_check.py), and
# measures alone otherwise. Likewise `<impl>.<section>.sanitize.batch` runs
# the section's kernels under memcheck, synccheck and initcheck, one process
# each, for the sanitize tests (tests/checks/sanitize_check.py). Both always
# pass.
cmake_policy(VERSION 3.24)

include("${WB_COURSE}")

if(NOT EXISTS "${WB_RUNNER}")
  return()
endif()
execute_process(COMMAND "${WB_RUNNER}" --list OUTPUT_VARIABLE listing RESULT_VARIABLE rc
                TIMEOUT 60)
if(rc EQUAL 0)
  string(JSON kernel_count ERROR_VARIABLE json_error LENGTH "${listing}")
endif()
if(NOT rc EQUAL 0 OR json_error)
  # A placeholder that fails, so the missing tests are not silently absent;
  # the grader reads the `placeholder` and `runner` labels.
  add_test("${WB_IMPL}.runner.LIST_FAILED" "${WB_RUNNER}" --list)
  set_tests_properties("${WB_IMPL}.runner.LIST_FAILED" PROPERTIES
                       LABELS "${WB_IMPL};runner;placeholder")
  return()
endif()

# A field of kernel `index`: the number as text, or "" when it is null (the
# kernel is not graded on that quantity).
function(wb_kernel_field out index field)
  string(JSON type TYPE "${listing}" ${index} ${field})
  if(type STREQUAL "NULL")
    set(${out} "" PARENT_SCOPE)
  else()
    string(JSON value GET "${listing}" ${index} ${field})
    set(${out} "${value}" PARENT_SCOPE)
  endif()
endfunction()

# Sets `out` to the arguments that make `test` read its kernel's values from
# its section's profile batch, and notes the test as one that requires it
# (both empty without WB_BATCH_GPU_TESTS).
function(wb_profile_batch out test)
  set(${out} "" PARENT_SCOPE)
  if(WB_BATCH_GPU_TESTS)
    set(${out} --from-batch "${WB_BATCHES}${section}" PARENT_SCOPE)
    set(batch_tests_${section} ${batch_tests_${section}} "${test}" PARENT_SCOPE)
  endif()
endfunction()

if(kernel_count EQUAL 0)
  return()
endif()
set(batched_sections "")
set(sanitized_sections "")
math(EXPR last "${kernel_count} - 1")
foreach(index RANGE ${last})
  foreach(field IN ITEMS section id exercise name)
    string(JSON ${field} GET "${listing}" ${index} ${field})
  endforeach()
  if(NOT exercise IN_LIST WB_${section}_EXERCISES)
    message(FATAL_ERROR "${WB_RUNNER} --list: kernel ${section}/${id} names exercise "
                        "'${exercise}', which workbook.toml does not list in section ${section}")
  endif()
  wb_kernel_field(load ${index} sharedLoadWays)
  wb_kernel_field(store ${index} sharedStoreWays)
  wb_kernel_field(sectors ${index} globalStoreSectors)
  wb_kernel_field(passes ${index} constantPasses)
  wb_kernel_field(requests ${index} constantRequests)
  wb_kernel_field(min_active ${index} minActiveThreadsPerInstruction)
  wb_kernel_field(min_efficiency ${index} minGlobalLoadEfficiency)
  wb_kernel_field(min_shuffles ${index} minShufflesPerWarp)
  wb_kernel_field(max_shuffles ${index} maxShufflesPerWarp)
  set(labels "${section};${WB_IMPL};exercise=${exercise}")
  if(NOT load STREQUAL "" OR NOT store STREQUAL "" OR NOT sectors STREQUAL ""
     OR NOT passes STREQUAL "")
    set(expect "")
    if(NOT passes STREQUAL "")
      list(APPEND expect --constant-passes ${passes} --constant-requests ${requests})
    endif()
    if(NOT load STREQUAL "")
      list(APPEND expect --load ${load})
    endif()
    if(NOT store STREQUAL "")
      list(APPEND expect --store ${store})
    endif()
    if(NOT sectors STREQUAL "")
      list(APPEND expect --store-sectors ${sectors})
    endif()
    set(test "${WB_IMPL}.${section}.profile.${id}")
    wb_profile_batch(from_batch "${test}")
    add_test("${test}" "${WB_PYTHON}" "${WB_CHECKS}/profile_check.py" --runner "${WB_RUNNER}"
             --kernel "${section}/${id}" --name "${name}" ${expect}
             --reference-modules "${WB_REFERENCE_MODULES}"
             --source-dir "${WB_SOURCES}=${WB_IMPL}" ${from_batch})
    set_tests_properties("${test}" PROPERTIES LABELS "${labels};profile"
                         SKIP_RETURN_CODE 77 RUN_SERIAL TRUE TIMEOUT 240
                         ENVIRONMENT "WB_MODULES=${WB_MODULES}"
                         ENVIRONMENT_MODIFICATION "${WB_PYTHONPATH_MODIFICATION}")
  endif()
  # The technique's counters under Nsight Compute: a method check (points
  # of kind method) that measures, so it runs alone like a profile test.
  if(NOT min_active STREQUAL "" OR NOT min_efficiency STREQUAL "" OR NOT min_shuffles STREQUAL "")
    set(expect "")
    if(NOT min_active STREQUAL "")
      list(APPEND expect --min-active-threads ${min_active})
    endif()
    if(NOT min_efficiency STREQUAL "")
      list(APPEND expect --min-global-load-efficiency ${min_efficiency})
    endif()
    if(NOT min_shuffles STREQUAL "")
      list(APPEND expect --min-shuffles-per-warp ${min_shuffles})
    endif()
    if(NOT max_shuffles STREQUAL "")
      list(APPEND expect --max-shuffles-per-warp ${max_shuffles})
    endif()
    set(test "${WB_IMPL}.${section}.method_counters.${id}")
    wb_profile_batch(from_batch "${test}")
    add_test("${test}" "${WB_PYTHON}" "${WB_CHECKS}/profile_check.py" --runner "${WB_RUNNER}"
             --kernel "${section}/${id}" --name "${name}" ${expect}
             --reference-modules "${WB_REFERENCE_MODULES}"
             --reference-batch "${WB_REFERENCE_BATCHES}${section}" ${from_batch})
    set_tests_properties("${test}" PROPERTIES LABELS "${labels};method;profile"
                         SKIP_RETURN_CODE 77 RUN_SERIAL TRUE TIMEOUT 240
                         ENVIRONMENT "WB_MODULES=${WB_MODULES}"
                         ENVIRONMENT_MODIFICATION "${WB_PYTHONPATH_MODIFICATION}")
  endif()
  set(test "${WB_IMPL}.${section}.sanitize.${id}")
  set(from_batch "")
  if(WB_BATCH_GPU_TESTS)
    set(from_batch --from-batch "${WB_SANITIZE_BATCHES}${section}")
    list(APPEND sanitize_batch_tests_${section} "${test}")
  endif()
  add_test("${test}" "${WB_PYTHON}" "${WB_CHECKS}/sanitize_check.py" --runner "${WB_RUNNER}"
           --kernel "${section}/${id}" --source-dir "${WB_SOURCES}=${WB_IMPL}" ${from_batch})
  set_tests_properties("${test}" PROPERTIES LABELS "${labels};sanitize"
                       SKIP_RETURN_CODE 77 TIMEOUT 360
                       ENVIRONMENT "WB_MODULES=${WB_MODULES};WB_TEST_NAME=${test}"
                       ENVIRONMENT_MODIFICATION "${WB_PYTHONPATH_MODIFICATION}")
  if(batch_tests_${section})
    list(APPEND batched_sections ${section})
  endif()
  if(sanitize_batch_tests_${section})
    list(APPEND sanitized_sections ${section})
  endif()
endforeach()

if(batched_sections)
  list(REMOVE_DUPLICATES batched_sections)
endif()
foreach(section IN LISTS batched_sections)
  set(batch "${WB_IMPL}.${section}.profile.batch")
  add_test("${batch}" "${WB_PYTHON}" "${WB_CHECKS}/profile_check.py" --runner "${WB_RUNNER}"
           --batch "${WB_BATCHES}${section}" --section "${section}"
           --reference-modules "${WB_REFERENCE_MODULES}"
           --reference-batch "${WB_REFERENCE_BATCHES}${section}")
  set_tests_properties("${batch}" PROPERTIES LABELS "${section};${WB_IMPL};batch;profile"
                       RUN_SERIAL TRUE TIMEOUT 420 FIXTURES_SETUP "${batch}"
                       ENVIRONMENT "WB_MODULES=${WB_MODULES}"
                       ENVIRONMENT_MODIFICATION "${WB_PYTHONPATH_MODIFICATION}")
  set_tests_properties(${batch_tests_${section}} PROPERTIES FIXTURES_REQUIRED "${batch}")
  # CTest includes every implementation's file in one scope: the next one
  # must not find this one's tests.
  unset(batch_tests_${section})
endforeach()

if(sanitized_sections)
  list(REMOVE_DUPLICATES sanitized_sections)
endif()
foreach(section IN LISTS sanitized_sections)
  set(batch "${WB_IMPL}.${section}.sanitize.batch")
  add_test("${batch}" "${WB_PYTHON}" "${WB_CHECKS}/sanitize_check.py" --runner "${WB_RUNNER}"
           --batch "${WB_SANITIZE_BATCHES}${section}" --section "${section}")
  set_tests_properties("${batch}" PROPERTIES LABELS "${section};${WB_IMPL};batch;sanitize"
                       TIMEOUT 420 FIXTURES_SETUP "${batch}"
                       ENVIRONMENT "WB_MODULES=${WB_MODULES}"
                       ENVIRONMENT_MODIFICATION "${WB_PYTHONPATH_MODIFICATION}")
  set_tests_properties(${sanitize_batch_tests_${section}} PROPERTIES FIXTURES_REQUIRED "${batch}")
  unset(sanitize_batch_tests_${section})
endforeach()
