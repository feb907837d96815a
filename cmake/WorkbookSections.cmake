# Sections and their exercises.
#
# A section (layout, reduction, transpose) has one .cu file per exercise, with
# the same name in starter/<section>/ and solutions/<section>/. The list of
# exercises is taken from solutions/, the pristine reference, so a submission
# cannot add or drop one. A kernel exercise is compiled into a device module
# per implementation, which one test executable per section loads at run
# time (WB_MODULES names the implementation's folder); a host exercise is
# compiled into an object linked into its own small test executable.

# Headers every implementation and test compiles against.
add_library(wb_contracts INTERFACE)
target_include_directories(wb_contracts INTERFACE "${CMAKE_SOURCE_DIR}/chapters")
target_link_libraries(wb_contracts INTERFACE CUDA::cudart)

# wb_compile_host_code_as_cxx(<source>...)
# The test, runner, harness and benchmark sources that hold no device code
# (no __global__ or __device__ function, __constant__ or __managed__
# variable, launch, thrust or CUB; thread indices and __shared__ can only
# appear inside device functions, and comments name them freely, so they
# are not looked for) are compiled by the C++
# compiler instead of nvcc: the same host code, built three to four times
# faster (nvcc parses every file for the device too), which was most of a
# student's first build. A source that gains device code is compiled by nvcc
# again: it is read at configure time, and a change to it configures again.
# Must be called in the directory that creates the target using the source
# (source properties are per directory). Exercise files are never passed.
function(wb_compile_host_code_as_cxx)
  foreach(source IN LISTS ARGN)
    get_filename_component(path "${source}" ABSOLUTE)
    if(NOT path MATCHES "\\.cu$")
      continue()
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${path}")
    file(READ "${path}" text)
    if(NOT text MATCHES
       "__global__|__device__|__constant__|__managed__|<<<|thrust::|cub::|beyond\\.cuh")
      set_source_files_properties("${source}" PROPERTIES LANGUAGE CXX)
    endif()
  endforeach()
endfunction()

# Limits on compiling one exercise file, about 20 times what a pristine one
# takes (a second of CPU time, 125 MB, files under 2 MB): a macro or
# template bomb is stopped within seconds with a message naming the limit,
# instead of holding a grading machine and its memory for an hour
# (cmake/compile_with_limits.py).
set(WB_COMPILE_MEMORY_MB 2560 CACHE STRING "Address space one exercise's compiler may use, in MB")
set(WB_COMPILE_CPU_SECONDS 20 CACHE STRING "CPU seconds one exercise's compiler may use")
set(WB_COMPILE_WALL_SECONDS 60 CACHE STRING "Seconds compiling one exercise may take")
set(WB_COMPILE_FILE_MB 256 CACHE STRING "Largest file one exercise's compiler may write, in MB")
# The launcher imports wbcore (cmake/WorkbookPython.cmake).
set(WB_COMPILE_LIMITS
    "${CMAKE_COMMAND}" -E env "${WB_PYTHONPATH}"
    "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/cmake/compile_with_limits.py"
    --memory-mb ${WB_COMPILE_MEMORY_MB} --cpu-seconds ${WB_COMPILE_CPU_SECONDS}
    --wall-seconds ${WB_COMPILE_WALL_SECONDS} --file-mb ${WB_COMPILE_FILE_MB})
# The grader's builds (the `grader` preset) also run each exercise compile in
# a sandbox (wbcore/sandbox.py, bubblewrap): the compiler sees the system's
# and the CUDA toolkit's folders, chapters/ and the one exercise file, and
# writes only its output's folder; a compile that read any other file is
# refused with nothing of its output shown. Off in a student's own build,
# which then needs no bubblewrap.
option(WB_SANDBOX_COMPILES "Compile each exercise file in a sandbox and refuse includes outside chapters/ and the compiler's headers (needs bubblewrap)" OFF)
# The include check alone, without the sandbox (grading with --unconfined).
option(WB_CHECK_INCLUDES "Refuse an exercise file that includes anything outside chapters/ and the compiler's headers" OFF)

# wb_compile_limits(<out> <section> <name> <source>): the launcher command
# line (ending with --) that compiles one exercise file under the limits,
# and in the sandbox when WB_SANDBOX_COMPILES is on.
function(wb_compile_limits out section name source)
  set(launcher ${WB_COMPILE_LIMITS} --name "${section}/${name}")
  if(WB_SANDBOX_COMPILES)
    list(APPEND launcher --sandbox --source "${source}" --allow "${CMAKE_SOURCE_DIR}/chapters")
  elseif(WB_CHECK_INCLUDES)
    list(APPEND launcher --check-includes --source "${source}"
         --allow "${CMAKE_SOURCE_DIR}/chapters")
  endif()
  set(${out} ${launcher} -- PARENT_SCOPE)
endfunction()

# nvcc's code-generation options for CMAKE_CUDA_ARCHITECTURES, for the
# modules (custom commands, which CMake's CUDA support does not see).
set(WB_MODULE_ARCH_FLAGS "")
# `native` is expanded to what CMake detected while enabling CUDA
# (CMAKE_CUDA_ARCHITECTURES_NATIVE, e.g. 90-real): nvcc's own -arch=native
# cannot see the GPU under the compile limits and silently builds sm_75.
set(_wb_module_archs "")
foreach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
  if(arch STREQUAL "native")
    if(NOT CMAKE_CUDA_ARCHITECTURES_NATIVE)
      message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES is 'native' but CMake found no GPU; "
              "set the architectures instead, e.g. -DCMAKE_CUDA_ARCHITECTURES=90")
    endif()
    list(APPEND _wb_module_archs ${CMAKE_CUDA_ARCHITECTURES_NATIVE})
  else()
    list(APPEND _wb_module_archs "${arch}")
  endif()
endforeach()
list(REMOVE_DUPLICATES _wb_module_archs)
foreach(arch IN LISTS _wb_module_archs)
  if(arch MATCHES "^(all|all-major)$")
    list(APPEND WB_MODULE_ARCH_FLAGS "-arch=${arch}")
  elseif(arch MATCHES "^([0-9]+[af]?)-real$")
    list(APPEND WB_MODULE_ARCH_FLAGS "--generate-code=arch=compute_${CMAKE_MATCH_1},code=sm_${CMAKE_MATCH_1}")
  elseif(arch MATCHES "^([0-9]+[af]?)-virtual$")
    list(APPEND WB_MODULE_ARCH_FLAGS "--generate-code=arch=compute_${CMAKE_MATCH_1},code=compute_${CMAKE_MATCH_1}")
  elseif(arch MATCHES "^([0-9]+[af]?)$")
    list(APPEND WB_MODULE_ARCH_FLAGS
         "--generate-code=arch=compute_${arch},code=[compute_${arch},sm_${arch}]")
  else()
    message(FATAL_ERROR "CMAKE_CUDA_ARCHITECTURES entry '${arch}' is not understood")
  endif()
endforeach()

# Where the modules of one implementation (starter, solutions, a mutant) live.
function(wb_module_folder out impl)
  set(${out} "${CMAKE_BINARY_DIR}/modules/${impl}" PARENT_SCOPE)
endfunction()

# wb_times_reference_kernels(<target>): a benchmark program (wb_bench,
# wb_transpose_sweep) in bin/ that loads the book's kernels from the
# reference solutions' modules (WB_SOLUTION_MODULES) and checks each before
# timing it with the tests' check routines (tests/<section>/*_check.h).
function(wb_times_reference_kernels target)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  wb_module_folder(solution_modules solutions)
  target_compile_definitions(${target} PRIVATE WB_SOLUTION_MODULES="${solution_modules}")
  add_dependencies(${target} wb_solutions_modules)
  target_include_directories(${target} PRIVATE "${CMAKE_SOURCE_DIR}/tests")
endfunction()

# wb_add_kernel_module(<target> <section> <name> <source> <impl>)
# A kernel exercise file compiled as device code only, into
# <modules>/<impl>/<section>/<name>.fatbin (chapters/common/exercise_kernel.h
# says why), under the compile limits. <target> builds it. WB_EXERCISE_MODULE
# is defined there alone: a contract defines its module-scope variables
# (`__constant__` arrays) only in the modules, where the kernels read them.
function(wb_add_kernel_module target section name source impl)
  wb_module_folder(folder ${impl})
  set(output "${folder}/${section}/${name}.fatbin")
  set(werror "")
  if(WB_WARNINGS_AS_ERRORS)
    set(werror -Werror all-warnings)
  endif()
  wb_compile_limits(launcher ${section} ${name} "${source}")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${folder}/${section}"
    COMMAND ${launcher} "${CMAKE_CUDA_COMPILER}" -fatbin -std=c++17 -lineinfo ${werror}
            -DWB_EXERCISE_MODULE "-I${CMAKE_SOURCE_DIR}/chapters" ${WB_MODULE_ARCH_FLAGS}
            -MD -MF "${output}.d" -o "${output}" "${source}"
    DEPENDS "${source}" "${CMAKE_SOURCE_DIR}/cmake/compile_with_limits.py"
    DEPFILE "${output}.d"
    COMMENT "Compiling ${section}/${name} (${impl}) into a device module"
    VERBATIM)
  add_custom_target(${target} DEPENDS "${output}")
  set_property(GLOBAL APPEND PROPERTY WB_MODULES_${impl} ${target})
endfunction()

# wb_add_host_exercise_object(<target> <source> [<section> <name>])
# A host exercise file compiled as plain C++ (no CUDA registration code, so
# its object holds exactly what the student wrote; see
# wbcore/object_check.py), under the same limits (and sandbox) as a kernel
# module: CMake's compile rule runs through the launcher. The exercise named
# in the launcher's messages is <section>/<name>, else the file's folder and
# name.
function(wb_add_host_exercise_object target source)
  if(ARGC GREATER 3)
    set(section "${ARGV2}")
    set(name "${ARGV3}")
  else()
    get_filename_component(name "${source}" NAME_WE)
    get_filename_component(folder "${source}" DIRECTORY)
    get_filename_component(section "${folder}" NAME)
  endif()
  add_library(${target} OBJECT "${source}")
  wb_compile_limits(launcher ${section} ${name} "${source}")
  set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER "${launcher}")
  set_source_files_properties("${source}" TARGET_DIRECTORY ${target} PROPERTIES LANGUAGE CXX)
  # The contract headers declare kernels, whose CUDA attributes g++ ignores.
  # Optimised whatever the build type: unoptimised code keeps its own copies
  # of library functions, which the object check would refuse.
  target_compile_options(${target} PRIVATE -x c++ -Wno-attributes -O3)
  target_link_libraries(${target} PUBLIC wb_contracts)
endfunction()

# wb_pass_course_sections(<target>)
# Gives <target>'s sources workbook.toml's sections, in its order, as
# WB_COURSE_SECTIONS="config,layout,...": the programs whose sections
# register themselves (wb/section_registry.h) list them in that order.
function(wb_pass_course_sections target)
  string(REPLACE ";" "," sections "${WB_SECTIONS}")
  target_compile_definitions(${target} PRIVATE WB_COURSE_SECTIONS="${sections}")
endfunction()

# wb_add_section(<section>)
# Builds each implementation of the section's exercises, as workbook.toml
# lists them (WB_<section>_EXERCISES): a kernel exercise becomes a device
# module (target wb_<impl>_<section>_<exercise>), a host exercise an object
# library of that name. The reference object of a host exercise is always
# built: the object check compares against it and the listing of its tests
# comes from it.
function(wb_add_section section)
  set(exercises ${WB_${section}_EXERCISES})
  set(host_exercises ${WB_${section}_HOST_EXERCISES})
  foreach(name IN LISTS exercises)
    if(NOT EXISTS "${CMAKE_SOURCE_DIR}/solutions/${section}/${name}.cu")
      message(FATAL_ERROR "workbook.toml lists ${section}/${name}, but solutions/${section}/${name}.cu does not exist")
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY WB_SECTIONS_${section} "${exercises}")
  set_property(GLOBAL PROPERTY WB_HOST_EXERCISES_${section} "${host_exercises}")
  set_property(GLOBAL APPEND PROPERTY WB_SECTIONS ${section})

  foreach(name IN LISTS exercises)
    set(reference "${CMAKE_SOURCE_DIR}/solutions/${section}/${name}.cu")
    if(name IN_LIST host_exercises)
      wb_add_host_exercise_object(wb_solutions_${section}_${name} "${reference}"
                                  ${section} ${name})
    elseif(WB_BUILD_SOLUTIONS)
      wb_add_kernel_module(wb_solutions_${section}_${name} ${section} ${name} "${reference}"
                           solutions)
    endif()
    if(WB_BUILD_STARTER)
      set(source "${WB_STARTER_DIR}/${section}/${name}.cu")
      if(NOT EXISTS "${source}")
        message(WARNING "${source} is missing; using the pristine starter for ${section}/${name}.")
        set(source "${CMAKE_SOURCE_DIR}/starter/${section}/${name}.cu")
      endif()
      if(name IN_LIST host_exercises)
        wb_add_host_exercise_object(wb_starter_${section}_${name} "${source}"
                                    ${section} ${name})
      else()
        wb_add_kernel_module(wb_starter_${section}_${name} ${section} ${name} "${source}" starter)
      endif()
    endif()
  endforeach()
endfunction()

# wb_modules_target(<impl>): the target wb_<impl>_modules that builds every
# module of an implementation (call after every section is added).
function(wb_modules_target impl)
  get_property(targets GLOBAL PROPERTY WB_MODULES_${impl})
  if(targets AND NOT TARGET wb_${impl}_modules)
    add_custom_target(wb_${impl}_modules ALL DEPENDS ${targets})
  endif()
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
