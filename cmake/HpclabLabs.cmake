# The labs are the folders labs/<id>/ that hold a lab.json: adding a lab is
# adding its folders (labs/<id>, solutions/<id>) and docs/<id>.md, with no
# list to edit here. Each lab brings spec.cpp (compiled into hpclab) and
# bind.cpp (linked into the lab's program), except a lab of the kind
# "program" (lab.json "kind"): its student writes the whole program, so it
# has neither (HPCLAB_LABS has every lab, HPCLAB_FUNCTION_LABS those with both).
file(GLOB _lab_jsons CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/labs/*/lab.json")
set(HPCLAB_LABS "")
set(HPCLAB_FUNCTION_LABS "")
foreach(json IN LISTS _lab_jsons)
  get_filename_component(dir "${json}" DIRECTORY)
  get_filename_component(id "${dir}" NAME)
  file(READ "${json}" _lab_json_text)
  list(APPEND HPCLAB_LABS ${id})
  # The tests read lab.json at configure time (which sizes are big).
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${json}")
  if(_lab_json_text MATCHES "\"kind\"[ ]*:[ ]*\"program\"")
    continue()
  endif()
  list(APPEND HPCLAB_FUNCTION_LABS ${id})
  foreach(required spec.cpp bind.cpp)
    if(NOT EXISTS "${dir}/${required}")
      message(FATAL_ERROR "Lab ${id} has a lab.json but no ${required} in ${dir}")
    endif()
  endforeach()
endforeach()
list(SORT HPCLAB_LABS)
list(SORT HPCLAB_FUNCTION_LABS)
list(LENGTH HPCLAB_LABS _count)
message(STATUS "hpclab: ${_count} labs: ${HPCLAB_LABS}")
