# Each test named in tests/test-costs.txt gets its seconds there as its COST:
# ctest starts the highest COST first when it has no timings of its own yet
# (a fresh clone), and the longest tests started last were the run's tail.
# Read twice: when CMake configures (HPCLAB_COSTS_MADE_HERE: the tests that
# tests/CMakeLists.txt adds, where a name it did not add is passed over), and
# when ctest runs, for the tests made then (doctest's, the broken and hostile
# sets'), where ctest passes over a name not made.
file(STRINGS "${HPCLAB_TEST_COSTS}" _cost_lines REGEX "^[0-9]")
foreach(_line IN LISTS _cost_lines)
  if(NOT _line MATCHES "^([0-9.]+)\t(.+)$")
    continue()
  endif()
  set(_seconds "${CMAKE_MATCH_1}")
  set(_name "${CMAKE_MATCH_2}")
  if(HPCLAB_COSTS_MADE_HERE)
    if(TEST "${_name}")
      set_tests_properties("${_name}" PROPERTIES COST ${_seconds})
    endif()
  else()
    set_tests_properties("${_name}" PROPERTIES COST ${_seconds})
  endif()
endforeach()
