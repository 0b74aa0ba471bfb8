# The libraries hpclab is built with, found with find_package. A missing one
# stops the configure step with the command that installs it.
set(_hpclab_missing "")
set(_hpclab_install "")

macro(hpclab_require package debian_package)
  find_package(${package} QUIET ${ARGN})
  if(NOT ${package}_FOUND)
    list(APPEND _hpclab_missing ${package})
    list(APPEND _hpclab_install ${debian_package})
  endif()
endmacro()

hpclab_require(fmt libfmt-dev)
hpclab_require(nlohmann_json nlohmann-json3-dev)
hpclab_require(CLI11 libcli11-dev)
hpclab_require(doctest doctest-dev)

if(_hpclab_missing)
  list(JOIN _hpclab_missing ", " _missing)
  list(JOIN _hpclab_install " " _install)
  message(FATAL_ERROR
    "hpclab needs these libraries, which were not found: ${_missing}\n"
    "On Debian or Ubuntu, install them with:\n"
    "    sudo apt-get update && sudo apt-get install -y ${_install}\n"
    "(or run ./setup, which installs everything the course needs), then configure again.")
endif()
