# Method checks: one CTest test per kernel exercise that workbook.toml gives
# method facts (WB_<section>_METHOD_EXERCISES), per implementation, which
# reads the exercise's compiled module and checks that its kernels use the
# exercise's technique (tests/checks/method_check.py). They need no GPU, so
# they run in CI; without cuobjdump and nvdisasm they exit 77, which CTest
# reports as skipped, with the line that installs them. Labels: the
# section, the implementation, `method` and `exercise=<name>`, which the
# grader counts as the exercise's method check (grader/points.toml).

# wb_add_method_checks(<impl>): the tests of one implementation (starter or
# solutions), on its modules (build/modules/<impl>/).
function(wb_add_method_checks impl)
  wb_module_folder(modules ${impl})
  # The folder the sources were compiled from, shown as starter/ or
  # solutions/ in the messages (a grader slot's copy of a submission too).
  if(impl STREQUAL "starter")
    set(sources "${WB_STARTER_DIR}")
  else()
    set(sources "${CMAKE_SOURCE_DIR}/${impl}")
  endif()
  foreach(section IN LISTS WB_SECTIONS)
    foreach(name IN LISTS WB_${section}_METHOD_EXERCISES)
      set(test "${impl}.${section}.method.${name}")
      add_test(NAME "${test}"
               COMMAND Python3::Interpreter "${CMAKE_SOURCE_DIR}/tests/checks/method_check.py"
                       --module "${modules}/${section}/${name}.fatbin"
                       --exercise "${section}/${name}" --source-dir "${sources}=${impl}")
      set_tests_properties("${test}" PROPERTIES
                           LABELS "${section};${impl};method;exercise=${name}"
                           SKIP_RETURN_CODE 77 TIMEOUT 120)
    endforeach()
  endforeach()
endfunction()

# The reading of machine code the method checks rely on, tested on saved
# nvdisasm listings (tests/checks/data/sass/), without the disassemblers:
# kernels, lines, classes, the fact vocabulary (every kernel exercise of
# workbook.toml has facts that parse), the messages and the install line.
add_test(NAME workbook.method_checks_read_machine_code
         COMMAND Python3::Interpreter "${CMAKE_SOURCE_DIR}/tests/checks/sass_test.py")
set_tests_properties(workbook.method_checks_read_machine_code PROPERTIES
                     LABELS "host" TIMEOUT 60)
