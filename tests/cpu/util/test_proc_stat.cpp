// util/proc_stat.h: a process's name, state and parent from /proc, a name
// with spaces and parentheses included.
#include "util/proc_stat.h"

#include <doctest/doctest.h>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>

using namespace hpclab;

TEST_CASE("proc_stat: this process's parent, a child's odd name, no such process")
{
    const auto self = proc_stat(getpid());
    REQUIRE(self);
    CHECK(self->parent == getppid());
    CHECK(self->state == 'R');  // reading its own stat

    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        prctl(PR_SET_NAME, "a) b (c", 0, 0, 0);
        (void)!write(ready[1], "x", 1);
        pause();
        _exit(0);
    }
    char x = 0;
    REQUIRE(read(ready[0], &x, 1) == 1);
    const auto named = proc_stat(child);
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    close(ready[0]);
    close(ready[1]);
    REQUIRE(named);
    CHECK(named->name == "a) b (c");
    CHECK(named->parent == getpid());

    CHECK_FALSE(proc_stat(INT_MAX));
}
