# Writes OUTPUT, a C++ file that defines hpclab::build_commit(): the commit
# hpclab is built from, as `git describe --always --dirty --abbrev=12
# --exclude=*` names it (12 hex digits, "-dirty" when tracked files differ
# from it; tags left out so that it is always a commit's hash). Outside a git
# checkout (a copy of the tree sent to a GPU machine), the environment's
# HPCLAB_BUILD_COMMIT, given by whoever made the copy as that command names
# it there; else "". Run at every build (grader/CMakeLists.txt); the file is
# rewritten only when the name changes, so nothing else is rebuilt.
#   cmake -DSOURCE_DIR=<course> -DOUTPUT=<file.cpp> -P HpclabGitCommit.cmake
set(_commit "")
find_program(_git git)
if(_git)
  execute_process(
    COMMAND "${_git}" -c safe.directory=* -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12 --exclude=*
    OUTPUT_VARIABLE _out RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_rc EQUAL 0 AND _out MATCHES "^[0-9a-f]+(-dirty)?$")
    set(_commit "${_out}")
  endif()
endif()
if(_commit STREQUAL "" AND "$ENV{HPCLAB_BUILD_COMMIT}" MATCHES "^[0-9a-f]+(-dirty)?$")
  set(_commit "$ENV{HPCLAB_BUILD_COMMIT}")
endif()
set(_text "// Generated at build time by cmake/HpclabGitCommit.cmake: do not edit.
#include \"bench/build_commit.h\"

std::string_view hpclab::build_commit() { return \"${_commit}\"; }
")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" _old)
  if(_old STREQUAL _text)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${_text}")
