# Compiles one benchmark variant (bench/<lab>/<variant>.cu) as hpclab
# compiles a lab (grader/core/toolchain.cpp: the same nvcc flags), then,
# unless the variant calls a library (LINK_ONLY_OBJECT), links it with the
# lab's binding and the harness: that proves it defines every entry point
# of labs/<lab>/<lab>.h. Run by CTest as
#   cmake -DNVCC=... -DHOST=... -DARCHS=<a;b;...> -DCOMMON=... -DLAB_DIR=...
#         -DSOURCE=... -DOUT=<file without suffix> [-DOBJECT_ONLY=ON]
#         [-DHARNESS=... -DBIND=... -DCUPTI_DIR=...] -P compile_variant.cmake
cmake_minimum_required(VERSION 3.25)

# The architecture flags of nvcc_arch_flags() in grader/core/toolchain.cpp:
# real code for each architecture, PTX for the newest plain one.
string(REPLACE "," ";" ARCHS "${ARCHS}")  # passed with commas: a ; would split the argument
set(arch_flags "")
list(LENGTH ARCHS n_archs)
if(n_archs EQUAL 1 AND ARCHS MATCHES "^(all|all-major|native)$")
  set(arch_flags "-arch=${ARCHS}")
else()
  set(newest -1)
  foreach(a IN LISTS ARCHS)
    string(REGEX MATCH "^[0-9]+" num "${a}")
    set(kind "")
    if(a MATCHES "-(.+)$")
      set(kind "${CMAKE_MATCH_1}")
    endif()
    if(kind STREQUAL "virtual")
      list(APPEND arch_flags "-gencode=arch=compute_${num},code=compute_${num}")
    else()
      list(APPEND arch_flags "-gencode=arch=compute_${num},code=sm_${num}")
    endif()
    if(kind STREQUAL "" AND num GREATER newest)
      set(newest ${num})
    endif()
  endforeach()
  if(newest GREATER -1)
    list(APPEND arch_flags "-gencode=arch=compute_${newest},code=compute_${newest}")
  endif()
endif()

execute_process(
  COMMAND "${NVCC}" -std=c++17 -O3 -lineinfo -ccbin "${HOST}" "-I${COMMON}" "-I${LAB_DIR}" ${arch_flags}
          -c "${SOURCE}" -o "${OUT}.o"
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} does not compile (nvcc exit status ${rc})")
endif()
if(OBJECT_ONLY)
  message(STATUS "${SOURCE}: compiled (it calls a library: not linked)")
  return()
endif()

set(cupti "")
if(CUPTI_DIR)
  set(cupti "-L${CUPTI_DIR}" -lcupti)
endif()
execute_process(
  COMMAND "${NVCC}" -ccbin "${HOST}" ${arch_flags} "${OUT}.o" "${HARNESS}" "${BIND}" -cudart=static
          -o "${OUT}" ${cupti}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiles but does not link with the lab's binding (nvcc exit status ${rc}): "
                      "does it define every entry point of the lab's header?")
endif()
message(STATUS "${SOURCE}: compiled and linked")
