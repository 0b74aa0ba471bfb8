# The grader's budgets, enforced (cmake -P); the limits and why each exists
# are in tests/budgets/budgets.cmake (one place), read by tests/CMakeLists.txt.
#   cmake -DGRADER=<grader/> -DLABS=<labs/> -DCLI_LINES=n -DFUNCTION_LINES=n -DFOLDER_MODULES=n
#         -DKIND_ASKED=n -DLABS_NAMED=n -DBACK_INCLUDES=n -DRUN_HOOKS=n -DSEAM=<folder> -P check_budgets.cmake
# It prints what it measured (the closing notes quote it), and fails, naming
# each, on every budget passed:
# - CLI_LINES: the lines of grader/cli/, every file;
# - FUNCTION_LINES: a function's lines, its head to its closing brace, for
#   every definition written as this code base writes them: the head from
#   column 0, the body's braces alone on their lines at column 0 (a member
#   defined inside its class is not seen: they are a few lines each here);
# - FOLDER_MODULES: a folder's modules (its files by name less extension);
# - KIND_ASKED: the lines outside SEAM/ that ask a lab's kind (the
#   functions the harness calls, or a program the student writes): its
#   traits (kind_traits()), a kind by name (LabKind::), or owns_main(), in
#   code (a comment may name them).
# - LABS_NAMED, LABS (a folder of labs, each a folder): a lab's id as a string in code
#   outside SEAM/ ("reduction", "reduction.naive", "reduction/..."): a new
#   lab adds data, not grader code, so no lab is named there (lab.json keys
#   read in SEAM/ may share a lab's name: the program lab's "program").
# - BACK_INCLUDES: two modules of one folder (a module: its .h and .cpp)
#   that include each other's header: the shared types belong in a header
#   of their own, below both.
# - RUN_HOOKS: the run request's callbacks (grader/run/run_request.h: its
#   std::function and future members, in code): what a run calls back or
#   waits for while it runs.
# With -DEXPECT=<regex> (the test of the check itself) it passes only when a
# budget is passed and a message matches.
cmake_minimum_required(VERSION 3.25)
foreach(var GRADER LABS CLI_LINES FUNCTION_LINES FOLDER_MODULES KIND_ASKED LABS_NAMED BACK_INCLUDES RUN_HOOKS SEAM)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_budgets.cmake: give -D${var}=...")
  endif()
endforeach()

# A file's lines as a CMake list: ';' and the brackets (which a list treats
# as its own) written as other text first.
function(read_lines file out)
  file(READ "${file}" text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "[" "<open>" text "${text}")
  string(REPLACE "]" "<close>" text "${text}")
  string(REGEX REPLACE "\n$" "" text "${text}")  # the last line's end ends no line
  string(REPLACE "\n" ";" lines "${text}")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

get_filename_component(GRADER "${GRADER}" ABSOLUTE)
get_filename_component(LABS "${LABS}" ABSOLUTE)
set(_errors "")
set(_measured "")

# The CLI's lines.
file(GLOB _cli "${GRADER}/cli/*")
set(_cli_lines 0)
foreach(file IN LISTS _cli)
  read_lines("${file}" lines)
  list(LENGTH lines n)
  math(EXPR _cli_lines "${_cli_lines} + ${n}")
endforeach()
list(APPEND _measured "grader/cli/: ${_cli_lines} lines (budget ${CLI_LINES})")
if(_cli_lines GREATER CLI_LINES)
  list(APPEND _errors "grader/cli/ has ${_cli_lines} lines, over its ${CLI_LINES}: the commands parse, call and print: move what they decide into the folder that owns it")
endif()

# Modules per folder.
file(GLOB _folders LIST_DIRECTORIES true RELATIVE "${GRADER}" "${GRADER}/*")
set(_widest "")
set(_widest_n 0)
foreach(folder IN LISTS _folders)
  if(NOT IS_DIRECTORY "${GRADER}/${folder}")
    continue()
  endif()
  file(GLOB _files RELATIVE "${GRADER}/${folder}" "${GRADER}/${folder}/*.*")
  set(_modules "")
  foreach(f IN LISTS _files)
    string(REGEX REPLACE "\\.[^.]+$" "" m "${f}")
    list(APPEND _modules "${m}")
  endforeach()
  list(REMOVE_DUPLICATES _modules)
  list(LENGTH _modules n)
  if(n GREATER _widest_n)
    set(_widest_n ${n})
    set(_widest "${folder}")
  endif()
  if(n GREATER FOLDER_MODULES)
    list(APPEND _errors "grader/${folder}/ has ${n} modules, over its ${FOLDER_MODULES}: split the folder by job")
  endif()
endforeach()
list(APPEND _measured "the most modules in a folder: grader/${_widest}/ ${_widest_n} (budget ${FOLDER_MODULES})")

# Function lengths, and the lab kind asked outside the seam.
file(GLOB_RECURSE _sources RELATIVE "${GRADER}" "${GRADER}/*.cpp" "${GRADER}/*.h" "${GRADER}/*.cu")
list(SORT _sources)
set(_longest "")
set(_kind_asked 0)
set(_kind_asked_at "")
file(GLOB _labs LIST_DIRECTORIES true RELATIVE "${LABS}" "${LABS}/*")
set(_lab_ids "")
foreach(lab IN LISTS _labs)
  if(IS_DIRECTORY "${LABS}/${lab}" AND lab MATCHES "^[a-z0-9_]+$")
    list(APPEND _lab_ids "${lab}")
  endif()
endforeach()
list(JOIN _lab_ids "|" _lab_alternatives)
set(_lab_named_at "")
set(_edges "")
foreach(file IN LISTS _sources)
  read_lines("${GRADER}/${file}" lines)
  list(LENGTH lines count)
  set(head -1)
  set(open -1)
  set(i 0)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "//.*" "" code "${line}")  # a comment may name it
    if(code MATCHES "(owns_main|kind_traits)\\(\\)|LabKind::" AND NOT file MATCHES "^${SEAM}/")
      math(EXPR _kind_asked "${_kind_asked} + 1")
      math(EXPR at "${i} + 1")
      list(APPEND _kind_asked_at "grader/${file}:${at}")
    endif()
    if(line MATCHES "^#include \"([a-z_]+)/([a-z_0-9]+)\\.h\"")
      set(to_folder "${CMAKE_MATCH_1}")
      set(to_module "${CMAKE_MATCH_2}")
      get_filename_component(from_folder "${file}" DIRECTORY)
      get_filename_component(from_module "${file}" NAME_WE)
      if(to_folder STREQUAL from_folder AND NOT to_module STREQUAL from_module)
        list(APPEND _edges "${from_folder}/${from_module}>${to_module}")
      endif()
    endif()
    if(_lab_alternatives AND NOT file MATCHES "^${SEAM}/" AND code MATCHES "\"(${_lab_alternatives})[\"./]")
      math(EXPR at "${i} + 1")
      list(APPEND _lab_named_at "grader/${file}:${at} (${CMAKE_MATCH_1})")
    endif()
    if(open LESS 0)
      if(line MATCHES "^[A-Za-z_~]" AND NOT line MATCHES "^(namespace|struct|class|enum|union|extern|template|using|typedef|static_assert)\\b")
        set(head ${i})  # a head at column 0; ended by "{" below, or forgotten by the next line at 0
      elseif(line STREQUAL "{" AND head GREATER_EQUAL 0)
        set(open ${head})
      elseif(NOT line MATCHES "^[ \t]" OR line STREQUAL "")
        set(head -1)
      endif()
    elseif(line STREQUAL "}")
      math(EXPR n "${i} - ${open} + 1")
      list(GET lines ${open} name)
      string(REGEX REPLACE "\\(.*" "" name "${name}")
      string(REGEX REPLACE "^.*[ *&]" "" name "${name}")
      math(EXPR at "${open} + 1")
      list(APPEND _longest "${n} grader/${file}:${at} ${name}")
      if(n GREATER FUNCTION_LINES)
        list(APPEND _errors "grader/${file}:${at}: ${name} has ${n} lines, over its ${FUNCTION_LINES}: split it into steps that read top to bottom")
      endif()
      set(open -1)
      set(head -1)
    endif()
    math(EXPR i "${i} + 1")
  endforeach()
endforeach()
list(SORT _longest COMPARE NATURAL ORDER DESCENDING)
list(LENGTH _longest _functions)
list(SUBLIST _longest 0 3 _top)
string(REPLACE ";" ", " _top "${_top}")
list(APPEND _measured "functions seen: ${_functions}, the longest (lines, where, name): ${_top} (budget ${FUNCTION_LINES})")
string(REPLACE ";" ", " _at "${_kind_asked_at}")
list(APPEND _measured "the lab kind asked outside grader/${SEAM}/: ${_kind_asked} (budget ${KIND_ASKED}): ${_at}")
if(_kind_asked GREATER KIND_ASKED)
  list(APPEND _errors "the lab kind is asked ${_kind_asked} times outside grader/${SEAM}/, over its ${KIND_ASKED} (${_at}): give the seam in grader/${SEAM}/ the question, or the data, instead")
endif()

set(_back "")
foreach(edge IN LISTS _edges)
  string(REGEX MATCH "^([^/]+)/([^>]+)>(.+)$" _ "${edge}")
  set(back "${CMAKE_MATCH_1}/${CMAKE_MATCH_3}>${CMAKE_MATCH_2}")
  if(back IN_LIST _edges AND CMAKE_MATCH_2 STRLESS CMAKE_MATCH_3)
    list(APPEND _back "grader/${CMAKE_MATCH_1}/: ${CMAKE_MATCH_2} and ${CMAKE_MATCH_3}")
  endif()
endforeach()
list(REMOVE_DUPLICATES _back)
list(LENGTH _back _back_n)
string(REPLACE ";" ", " _at "${_back}")
list(APPEND _measured "modules of one folder that include each other: ${_back_n} (budget ${BACK_INCLUDES}) ${_at}")
if(_back_n GREATER BACK_INCLUDES)
  list(APPEND _errors "${_back_n} pairs of modules include each other (${_at}): move the types both use into a header of their own")
endif()

set(_hooks "")
if(EXISTS "${GRADER}/run/run_request.h")
  read_lines("${GRADER}/run/run_request.h" lines)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "//.*" "" code "${line}")
    if(code MATCHES "std::(function|shared_future|future)<.*[ >]([a-z_]+)<semicolon>")
      list(APPEND _hooks "${CMAKE_MATCH_2}")
    endif()
  endforeach()
endif()
list(LENGTH _hooks _hooks_n)
string(REPLACE ";" ", " _at "${_hooks}")
list(APPEND _measured "the run request's callbacks: ${_hooks_n} (budget ${RUN_HOOKS}): ${_at}")
if(_hooks_n GREATER RUN_HOOKS)
  list(APPEND _errors "the run request has ${_hooks_n} callbacks, over its ${RUN_HOOKS} (${_at}): say a moment of the run through RunHooks::at")
endif()

list(LENGTH _lab_ids _lab_count)
list(LENGTH _lab_named_at _lab_named)
string(REPLACE ";" ", " _at "${_lab_named_at}")
list(APPEND _measured "labs named in code outside grader/${SEAM}/: ${_lab_named} lines, of ${_lab_count} labs (budget ${LABS_NAMED}) ${_at}")
if(_lab_named GREATER LABS_NAMED)
  list(APPEND _errors "a lab is named in grader code ${_lab_named} times, over its ${LABS_NAMED} (${_at}): a new lab adds data, not grader code: say it in the lab's lab.json")
endif()

foreach(m IN LISTS _measured)
  message(STATUS "${m}")
endforeach()
string(REPLACE ";" "\n  " _shown "${_errors}")
if(DEFINED EXPECT)
  if(NOT _errors)
    message(FATAL_ERROR "the budgets held, but this test expects them passed: ${EXPECT}")
  elseif(NOT _shown MATCHES "${EXPECT}")
    message(FATAL_ERROR "the budgets were passed, but no message matches ${EXPECT}:\n  ${_shown}")
  endif()
  message(STATUS "passed, as expected:\n  ${_shown}")
elseif(_errors)
  message(FATAL_ERROR "the grader is over its budgets (tests/budgets/budgets.cmake says why each exists):\n  ${_shown}")
endif()
