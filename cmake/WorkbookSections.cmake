# Sections and their exercises.
#
# A section (layout, reduction, transpose) has one .cu file per exercise, with
# the same name in starter/<section>/ and solutions/<section>/. The list of
# exercises is taken from solutions/, the pristine reference, so a submission
# cannot add or drop one. Each file becomes an OBJECT library per
# implementation, so a test executable can be linked from the same test
# objects with the starter's, the solutions' or a mutant's kernels.

# Headers every implementation and test compiles against.
add_library(wb_contracts INTERFACE)
target_include_directories(wb_contracts INTERFACE "${CMAKE_SOURCE_DIR}/chapters")
target_link_libraries(wb_contracts INTERFACE CUDA::cudart)

# wb_add_exercise_object(<target> <source>)
# One exercise file compiled against the contracts.
function(wb_add_exercise_object target source)
  add_library(${target} OBJECT "${source}")
  target_link_libraries(${target} PUBLIC wb_contracts)
endfunction()

# wb_add_section(<section>)
# Declares the section's exercises and builds each implementation's objects:
# wb_solutions_<section>_<exercise> and wb_starter_<section>_<exercise>.
function(wb_add_section section)
  file(GLOB solution_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/solutions/${section}/*.cu")
  set(exercises "")
  foreach(file IN LISTS solution_files)
    get_filename_component(name "${file}" NAME_WE)
    list(APPEND exercises ${name})
  endforeach()
  list(SORT exercises)
  set_property(GLOBAL PROPERTY WB_SECTIONS_${section} "${exercises}")
  set_property(GLOBAL APPEND PROPERTY WB_SECTIONS ${section})

  foreach(name IN LISTS exercises)
    if(WB_BUILD_SOLUTIONS)
      wb_add_exercise_object(wb_solutions_${section}_${name}
                             "${CMAKE_SOURCE_DIR}/solutions/${section}/${name}.cu")
    endif()
    if(WB_BUILD_STARTER)
      set(source "${WB_STARTER_DIR}/${section}/${name}.cu")
      if(NOT EXISTS "${source}")
        message(WARNING "${source} is missing; using the pristine starter for ${section}/${name}.")
        set(source "${CMAKE_SOURCE_DIR}/starter/${section}/${name}.cu")
      endif()
      wb_add_exercise_object(wb_starter_${section}_${name} "${source}")
    endif()
  endforeach()
endfunction()

# wb_section_objects(<out-var> <impl> <section> [REPLACE <exercise> <target>])
# The object libraries of one implementation of a section, optionally with
# one exercise's object replaced by another target (a mutant).
function(wb_section_objects out impl section)
  cmake_parse_arguments(ARG "" "" "REPLACE" ${ARGN})
  get_property(exercises GLOBAL PROPERTY WB_SECTIONS_${section})
  set(objects "")
  foreach(name IN LISTS exercises)
    set(target wb_${impl}_${section}_${name})
    if(ARG_REPLACE)
      list(GET ARG_REPLACE 0 replaced)
      list(GET ARG_REPLACE 1 replacement)
      if(name STREQUAL replaced)
        set(target ${replacement})
      endif()
    endif()
    list(APPEND objects ${target})
  endforeach()
  set(${out} "${objects}" PARENT_SCOPE)
endfunction()

# wb_add_beyond(section): the library wb_beyond_<section> of the reference
# kernels beyond the book (solutions/<section>/beyond). Both the beyond tests
# and the benchmark need it, in either order; whichever asks first adds it.
function(wb_add_beyond section)
  if(NOT TARGET wb_beyond_${section})
    add_subdirectory("${CMAKE_SOURCE_DIR}/solutions/${section}/beyond"
                     "${CMAKE_BINARY_DIR}/solutions/${section}/beyond")
  endif()
endfunction()
