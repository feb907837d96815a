# The repository's Python packages (wbcore, student, grader, bench;
# pyproject.toml) are imported from the repository's root. A script run by
# path sees only its own folder, so whatever runs one here hands it the root
# through PYTHONPATH: the compile launcher (WB_COMPILE_LIMITS) and every test.

# For `cmake -E env` (a build step, which ninja runs from the build folder).
set(WB_PYTHONPATH "PYTHONPATH=${CMAKE_SOURCE_DIR}")
# For a test: the root goes before whatever PYTHONPATH the caller set.
set(WB_PYTHONPATH_MODIFICATION "PYTHONPATH=path_list_prepend:${CMAKE_SOURCE_DIR}")

# wb_tests_import_from_root(): every test added so far in the current
# directory gets the root on PYTHONPATH. Called last in each directory that
# adds tests (CMake 3.25 sets test properties only where the test was added).
function(wb_tests_import_from_root)
  get_property(tests DIRECTORY PROPERTY TESTS)
  if(tests)
    set_property(TEST ${tests} APPEND PROPERTY ENVIRONMENT_MODIFICATION
                 "${WB_PYTHONPATH_MODIFICATION}")
  endif()
endfunction()
