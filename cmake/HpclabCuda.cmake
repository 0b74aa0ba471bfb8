# The CUDA side of the build.
#
# HPCLAB_CUDA = AUTO (default): use nvcc when it is installed, else build the
#                CPU parts only (hpclab, the specs, the CPU tests) and say so;
#               ON: nvcc is required; OFF: never look for it (the cpu preset).
# HPCLAB_CUDA_ARCHITECTURES / CMAKE_CUDA_ARCHITECTURES: the GPU architectures
# to compile for. When not given: the local GPU's (asked of nvidia-smi), or,
# on a machine without a GPU, the newest architecture of a default list that
# this nvcc supports: nothing can run here, so one architecture is enough to
# check that every program compiles (give a list, e.g. -DCMAKE_CUDA_ARCHITECTURES=
# "75;80;90", for programs meant for other GPUs). Never `native`, which fails
# where there is no GPU.
set(HPCLAB_CUDA "AUTO" CACHE STRING "Build the GPU parts: AUTO, ON or OFF")
set_property(CACHE HPCLAB_CUDA PROPERTY STRINGS AUTO ON OFF)
option(HPCLAB_REQUIRE_LOCAL_GPU "Fail unless the architecture comes from a local GPU (the gpu preset)" OFF)

set(HPCLAB_NVCC "")
set(HPCLAB_CUDA_DISABLED_REASON "")
set(HPCLAB_DEFAULT_CUDA_ARCHITECTURES 70 75 80 86 89 90 100 120)

# The compute capabilities of this machine's GPUs ("90"), or nothing.
function(hpclab_local_gpu_architectures out)
  set(archs "")
  find_program(HPCLAB_NVIDIA_SMI nvidia-smi)
  if(HPCLAB_NVIDIA_SMI)
    execute_process(COMMAND "${HPCLAB_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE caps RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      string(REPLACE "\n" ";" caps "${caps}")
      foreach(cap IN LISTS caps)
        string(STRIP "${cap}" cap)
        if(cap MATCHES "^([0-9]+)\\.([0-9]+)$")
          list(APPEND archs "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
        endif()
      endforeach()
      list(REMOVE_DUPLICATES archs)
    endif()
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

# The default list, kept to what this nvcc can compile for.
function(hpclab_default_architectures nvcc out)
  execute_process(COMMAND "${nvcc}" --list-gpu-arch OUTPUT_VARIABLE listed RESULT_VARIABLE rc ERROR_QUIET)
  set(archs "")
  foreach(a IN LISTS HPCLAB_DEFAULT_CUDA_ARCHITECTURES)
    if(NOT rc EQUAL 0 OR listed MATCHES "compute_${a}[^0-9a-z]")
      list(APPEND archs ${a})
    endif()
  endforeach()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

if(NOT HPCLAB_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS "/usr/local/cuda/bin/nvcc")
    set(CMAKE_CUDA_COMPILER "/usr/local/cuda/bin/nvcc")  # installed, but not on PATH
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES OR CMAKE_CUDA_ARCHITECTURES STREQUAL "")
      hpclab_local_gpu_architectures(_local)
      if(_local)
        set(CMAKE_CUDA_ARCHITECTURES "${_local}" CACHE STRING "GPU architectures" FORCE)
        set(HPCLAB_ARCH_ORIGIN "this machine's GPU" CACHE INTERNAL "")
      else()
        if(HPCLAB_REQUIRE_LOCAL_GPU)
          message(FATAL_ERROR "The gpu preset builds for this machine's GPU, and nvidia-smi found none. "
                              "Use the default preset, or give -DCMAKE_CUDA_ARCHITECTURES=<cc, e.g. 90>.")
        endif()
        hpclab_default_architectures("${CMAKE_CUDA_COMPILER}" _default)
        list(POP_BACK _default _newest)
        set(CMAKE_CUDA_ARCHITECTURES "${_newest}" CACHE STRING "GPU architectures" FORCE)
        set(HPCLAB_ARCH_ORIGIN "no GPU here: the newest architecture nvcc supports, to check that programs compile"
            CACHE INTERNAL "")
      endif()
    elseif(NOT DEFINED HPCLAB_ARCH_ORIGIN)
      set(HPCLAB_ARCH_ORIGIN "given" CACHE INTERNAL "")
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    set(CMAKE_CUDA_STANDARD 17)  # what the labs are written in (and what hpclab compiles them with)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(HPCLAB_NVCC "${CMAKE_CUDA_COMPILER}")
    list(JOIN CMAKE_CUDA_ARCHITECTURES ";" HPCLAB_CUDA_ARCHITECTURES)
    message(STATUS "hpclab: CUDA ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${HPCLAB_CUDA_ARCHITECTURES} (${HPCLAB_ARCH_ORIGIN})")
  elseif(HPCLAB_CUDA STREQUAL "ON")
    message(FATAL_ERROR
      "HPCLAB_CUDA is ON but no CUDA compiler (nvcc) was found.\n"
      "Install the CUDA Toolkit (https://developer.nvidia.com/cuda-downloads; on Debian/Ubuntu also: "
      "sudo apt-get install -y nvidia-cuda-toolkit), put nvcc on PATH, and configure again; "
      "or use the cpu preset.")
  else()
    set(HPCLAB_CUDA_DISABLED_REASON "no nvcc was found when it was configured")
    message(WARNING "hpclab: no CUDA compiler (nvcc) found. Building the CPU parts only: the labs cannot be built "
                    "or run, and the GPU tests will report themselves skipped. Install the CUDA Toolkit and "
                    "configure again to build them.")
  endif()
else()
  set(HPCLAB_CUDA_DISABLED_REASON "it was configured with HPCLAB_CUDA=OFF, the cpu preset")
  message(STATUS "hpclab: CPU-only build (HPCLAB_CUDA=OFF)")
endif()
