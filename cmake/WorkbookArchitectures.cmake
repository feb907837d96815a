# Chooses CMAKE_CUDA_ARCHITECTURES before CUDA is enabled (nvbench's habit):
#  1. whatever the user set (-DCMAKE_CUDA_ARCHITECTURES=90, or the
#     CUDAARCHS environment variable) is kept;
#  2. otherwise the compute capabilities nvidia-smi reports (9.0 -> 90), so
#     the build targets exactly the cards it will run on. Written out, not
#     `native`: nvcc resolves `native` by starting the CUDA driver, which the
#     compile limits (an address-space limit, the sandbox) do not let it do,
#     and it then falls back to sm_75 with a warning (the modules ran as
#     JIT-compiled compute_75 PTX and the method checks read sm_75 SASS);
#  3. otherwise WB_FALLBACK_CUDA_ARCHITECTURES (default 75: Turing SASS plus
#     compute_75 PTX, which any newer GPU can JIT-compile), so a machine
#     without a GPU still compiles every kernel.
# It must run before project(): enable_language(CUDA) fixes the value.

set(WB_FALLBACK_CUDA_ARCHITECTURES "75" CACHE STRING
    "CUDA architectures to build when none is set and no GPU is visible")

if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  set(WB_ARCH_REASON "set by the user")
else()
  find_program(WB_NVIDIA_SMI nvidia-smi)
  set(_wb_gpu_caps "")
  if(WB_NVIDIA_SMI)
    execute_process(
      COMMAND "${WB_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
      OUTPUT_VARIABLE _wb_gpu_caps
      RESULT_VARIABLE _wb_smi_result
      ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE
      TIMEOUT 30)
    if(NOT _wb_smi_result EQUAL 0)
      set(_wb_gpu_caps "")
    endif()
  endif()
  if(_wb_gpu_caps MATCHES "^[0-9]+\\.[0-9]+")
    # One entry per distinct capability, "9.0" -> "90".
    string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _wb_cap_list "${_wb_gpu_caps}")
    set(_wb_archs "")
    foreach(_wb_cap IN LISTS _wb_cap_list)
      string(REPLACE "." "" _wb_arch "${_wb_cap}")
      list(APPEND _wb_archs "${_wb_arch}")
    endforeach()
    list(REMOVE_DUPLICATES _wb_archs)
    set(CMAKE_CUDA_ARCHITECTURES "${_wb_archs}" CACHE STRING "CUDA architectures to build")
    list(REMOVE_DUPLICATES _wb_cap_list)
    list(JOIN _wb_cap_list ", " _wb_caps_said)
    set(WB_ARCH_REASON "nvidia-smi reports compute capability ${_wb_caps_said}")
    string(REGEX MATCH "^[0-9]+\\.[0-9]+" _wb_first_cap "${_wb_gpu_caps}")
    if(_wb_first_cap VERSION_LESS 7.5)
      message(WARNING
        "This GPU has compute capability ${_wb_first_cap}; the workbook needs 7.5 or newer "
        "and CUDA 13 cannot build for it. The GPU tests will report themselves as skipped.")
      set(CMAKE_CUDA_ARCHITECTURES ${WB_FALLBACK_CUDA_ARCHITECTURES} CACHE STRING
          "CUDA architectures to build" FORCE)
      set(WB_ARCH_REASON "fallback: the visible GPU is older than 7.5")
    endif()
  else()
    set(CMAKE_CUDA_ARCHITECTURES ${WB_FALLBACK_CUDA_ARCHITECTURES} CACHE STRING
        "CUDA architectures to build")
    set(WB_ARCH_REASON "fallback: no GPU visible to nvidia-smi")
  endif()
endif()
