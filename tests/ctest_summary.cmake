# The last lines of a ctest run: how many tests passed, failed and were
# skipped, and why they were skipped (each skipping program wrote a line
# to SKIP_LOG: hpclab on exit 77, the hpc.h probe, the Slurm test).
#   cmake -DSKIP_LOG=<file> -DTEST_LOG=<LastTest.log> -P ctest_summary.cmake
# While ctest runs (and still when it runs this), its log is a temporary
# file: LastTest.log.tmp for CMake 3, LastTest.log.tmp<random> for CMake 4
# (the H100 machine's 4.4). A run that was killed leaves its own behind:
# the newest is this run's.
file(GLOB _running "${TEST_LOG}.tmp*")
set(_newest "")
set(_newest_time 0)
foreach(_log IN LISTS _running)
  file(TIMESTAMP "${_log}" _time "%s")
  if(_time GREATER_EQUAL _newest_time)
    set(_newest "${_log}")
    set(_newest_time "${_time}")
  endif()
endforeach()
if(_newest)
  set(TEST_LOG "${_newest}")
elseif(NOT EXISTS "${TEST_LOG}")
  return()
endif()
file(STRINGS "${TEST_LOG}" _ran REGEX "^[0-9]+/[0-9]+ Test: ")
# A skipped test too says "Test Passed."; one passed by its output
# (PASS_REGULAR_EXPRESSION) says "Test Pass Reason:" instead.
file(STRINGS "${TEST_LOG}" _passed REGEX "^(Test Passed\\.|Test Pass Reason:)$")
list(LENGTH _ran _total)
list(LENGTH _passed _passed_or_skipped)
math(EXPR _failed "${_total} - ${_passed_or_skipped}")
set(_skipped 0)
set(_why "")
if(EXISTS "${SKIP_LOG}")
  file(STRINGS "${SKIP_LOG}" _reasons)
  list(LENGTH _reasons _skipped)
  list(REMOVE_DUPLICATES _reasons)
  file(STRINGS "${SKIP_LOG}" _all)
  foreach(_r IN LISTS _reasons)
    set(_n 0)
    foreach(_a IN LISTS _all)
      if(_a STREQUAL _r)
        math(EXPR _n "${_n} + 1")
      endif()
    endforeach()
    string(APPEND _why "\n  ${_n} skipped: ${_r}")
  endforeach()
endif()
math(EXPR _pass "${_passed_or_skipped} - ${_skipped}")
message("hpclab tests: ${_total} ran: ${_pass} passed, ${_failed} failed, ${_skipped} skipped${_why}")
if(_skipped GREATER 0)
  message("  (a skipped test runs, and must pass, where its reason is gone: on a GPU, with bubblewrap, with a cgroup)")
endif()
