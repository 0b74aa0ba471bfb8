#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>

int main(int argc, char** argv)
{
    // The hpclab programs these tests start skip on purpose (no GPU here):
    // those are not skipped tests, so they leave ctest's list of reasons alone.
    unsetenv("HPCLAB_SKIP_LOG");
    return doctest::Context(argc, argv).run();
}
