# Run by CTest: lists the kernels of a runner (wb_run --list) and adds, per
# kernel, a `profile` test (Nsight Compute, when the bank model or the
# coalescing model grades the kernel) and a `sanitize` test (compute-sanitizer). Both exit 77 when their
# tool cannot run here, which CTest reports as skipped.
# Inputs: WB_RUNNER, WB_IMPL, WB_MODULES (the implementation's module folder),
# WB_PYTHON, WB_CHECKS.
cmake_policy(VERSION 3.24)

if(NOT EXISTS "${WB_RUNNER}")
  return()
endif()
execute_process(COMMAND "${WB_RUNNER}" --list OUTPUT_VARIABLE listing RESULT_VARIABLE rc
                TIMEOUT 60)
if(NOT rc EQUAL 0)
  add_test("${WB_IMPL}.runner.LIST_FAILED" "${WB_RUNNER}" --list)
  return()
endif()
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^([a-z]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+) ([^ ]+)$")
    continue()
  endif()
  set(section "${CMAKE_MATCH_1}")
  set(id "${CMAKE_MATCH_2}")
  set(name "${CMAKE_MATCH_4}")
  set(load "${CMAKE_MATCH_5}")
  set(store "${CMAKE_MATCH_6}")
  set(sectors "${CMAKE_MATCH_7}")
  if(NOT load STREQUAL "-" OR NOT store STREQUAL "-" OR NOT sectors STREQUAL "-")
    set(expect "")
    if(NOT load STREQUAL "-")
      list(APPEND expect --load ${load})
    endif()
    if(NOT store STREQUAL "-")
      list(APPEND expect --store ${store})
    endif()
    if(NOT sectors STREQUAL "-")
      list(APPEND expect --store-sectors ${sectors})
    endif()
    set(test "${WB_IMPL}.${section}.profile.${id}")
    add_test("${test}" "${WB_PYTHON}" "${WB_CHECKS}/profile_check.py" --runner "${WB_RUNNER}"
             --kernel "${section}/${id}" --name "${name}" ${expect})
    set_tests_properties("${test}" PROPERTIES LABELS "${section};${WB_IMPL};profile"
                         SKIP_RETURN_CODE 77 RUN_SERIAL TRUE TIMEOUT 240
                         ENVIRONMENT "WB_MODULES=${WB_MODULES}")
  endif()
  set(test "${WB_IMPL}.${section}.sanitize.${id}")
  add_test("${test}" "${WB_PYTHON}" "${WB_CHECKS}/sanitize_check.py" --runner "${WB_RUNNER}"
           --kernel "${section}/${id}")
  set_tests_properties("${test}" PROPERTIES LABELS "${section};${WB_IMPL};sanitize"
                       SKIP_RETURN_CODE 77 TIMEOUT 360 ENVIRONMENT "WB_MODULES=${WB_MODULES}")
endforeach()
