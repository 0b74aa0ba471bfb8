// Git's blob ids computed without git: SHA-1's published test vectors
// (FIPS 180-2's, one and two blocks, a million bytes) and the ids git
// gives known contents.
#include "util/git_blob.h"

#include <doctest/doctest.h>

#include <string>

using namespace hpclab;

TEST_CASE("git blob: SHA-1 of the standard's test messages")
{
    CHECK(sha1_hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    CHECK(sha1_hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d");
    // 56 bytes: the length no longer fits the first block.
    CHECK(sha1_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    CHECK(sha1_hex(std::string(1000000, 'a')) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST_CASE("git blob: the ids git hash-object gives, bytes as they are")
{
    CHECK(git_blob_id("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
    CHECK(git_blob_id("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a");
    CHECK(git_blob_id(std::string("a\0b", 3)) != git_blob_id("ab"));
}
