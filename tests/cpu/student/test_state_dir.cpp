// Where hpclab writes for its user: the course's .hpclab, or $HPCLAB_STATE.
#include "student/state_dir.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

TEST_CASE("state folder: .hpclab in the course, unless HPCLAB_STATE names another")
{
    const char* before = std::getenv("HPCLAB_STATE");
    const std::string saved = before ? before : "";
    ::unsetenv("HPCLAB_STATE");
    CHECK(hpclab::state_dir("/course") == std::filesystem::path("/course/.hpclab"));
    ::setenv("HPCLAB_STATE", "/elsewhere/state", 1);
    CHECK(hpclab::state_dir("/course") == std::filesystem::path("/elsewhere/state"));
    ::setenv("HPCLAB_STATE", "", 1);  // empty: as if unset
    CHECK(hpclab::state_dir("/course") == std::filesystem::path("/course/.hpclab"));
    if (before) ::setenv("HPCLAB_STATE", saved.c_str(), 1);
    else ::unsetenv("HPCLAB_STATE");
}
