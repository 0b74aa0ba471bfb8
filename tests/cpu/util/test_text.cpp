// The small text helpers of util/text.h that the others' tests do not cover.
#include "util/text.h"

#include <doctest/doctest.h>

using namespace hpclab;

TEST_CASE("text: shortened keeps a text that fits, and cuts a longer one after a whole word")
{
    CHECK(shortened("tiled, 32 x 32", 60) == "tiled, 32 x 32");
    CHECK(shortened("one thread per output, blocks of 256, reads its inputs twice", 30) == "one thread per output, blocks…");
    CHECK(shortened("supercalifragilistic", 8) == "superca…");  // no space to cut at: cut in the word
    CHECK(shortened("abc def", 7) == "abc def");
}
