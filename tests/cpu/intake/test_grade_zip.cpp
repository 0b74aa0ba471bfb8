// An LMS's ZIP unpacked as a hostile archive may be: nothing lands outside
// the folder, no link is written, sizes are capped from the archive's own
// directory before anything is inflated (and a size that lies fails), and
// every entry is accounted for.
#include "intake/zip_unpack.h"
#include "test_support.h"
#include "zip_maker.h"

#include <doctest/doctest.h>

#include <sys/stat.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::make_zip;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

const ZipEntry& entry(const Unpacked& u, const std::string& name)
{
    for (const ZipEntry& e : u.entries)
        if (e.name == name) return e;
    FAIL("no entry " << name);
    throw std::logic_error("unreachable");
}

std::size_t files_under(const fs::path& dir)
{
    std::size_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir)) n += e.is_regular_file();
    return n;
}

}  // namespace

TEST_CASE("grade zip: escaping names, links and devices are listed with their reason, and the rest is unpacked")
{
    const TempDir d;
    const fs::path zip = d.path() / "download.zip";
    make_zip(zip, {{"ok/vecadd3.cu", "int main() {}\n"},
                   {"../escape.cu", "outside"},
                   {"a/../../escape2.cu", "outside"},
                   {"Qabs.cu", "absolute"},
                   {"win\\vecadd3.cu", "backslash"},
                   {"link.cu", "/etc/passwd"},
                   {"fifo", ""},
                   {"ok/vecadd3.cu", "a second copy"}});
    test::rename_in_place(zip, "Qabs.cu", "/abs.cu");
    test::set_unix_mode(zip, "link.cu", S_IFLNK | 0777);
    test::set_unix_mode(zip, "fifo", S_IFIFO | 0644);
    const fs::path into = d.path() / "out" / "download";
    const Unpacked u = unpack_zip(zip, into);

    REQUIRE(u.entries.size() == 8);
    CHECK(entry(u, "ok/vecadd3.cu").written == "ok/vecadd3.cu");
    CHECK(test::file_bytes(into / "ok/vecadd3.cu") == "int main() {}\n");
    CHECK(contains(entry(u, "../escape.cu").why, "outside the folder"));
    CHECK(contains(entry(u, "a/../../escape2.cu").why, "outside the folder"));
    CHECK(contains(entry(u, "/abs.cu").why, "absolute"));
    CHECK(contains(entry(u, "win\\vecadd3.cu").why, "backslash"));
    CHECK(contains(entry(u, "link.cu").why, "symbolic link"));
    CHECK(contains(entry(u, "fifo").why, "FIFO"));
    CHECK(contains(u.entries.back().why, "second entry of the same name"));
    CHECK(u.files_written() == 1);
    // Nothing anywhere but the one file, inside the folder.
    CHECK(files_under(d.path()) == 2);  // the archive and ok/vecadd3.cu
    for (const ZipEntry& e : u.entries) CHECK((e.written.empty() != e.why.empty()));
}

TEST_CASE("grade zip: an entry over the cap is listed, and entries adding up past the total refuse the archive before a byte is written")
{
    const TempDir d;
    const fs::path zip = d.path() / "big.zip";
    make_zip(zip, {{"small.cu", std::string(500, 'a')}, {"large.cu", std::string(2000, 'b')}});
    const Unpacked u = unpack_zip(zip, d.path() / "one", ZipLimits {.entry_bytes = 1000, .total_bytes = 10000});
    CHECK(entry(u, "small.cu").written == "small.cu");
    CHECK(contains(entry(u, "large.cu").why, "too large"));
    CHECK_FALSE(fs::exists(d.path() / "one" / "large.cu"));

    make_zip(zip, {{"a.cu", std::string(900, 'a')}, {"b.cu", std::string(900, 'b')}, {"c.cu", std::string(900, 'c')}});
    try {
        unpack_zip(zip, d.path() / "two", ZipLimits {.entry_bytes = 1000, .total_bytes = 2000});
        FAIL("an archive past the total was unpacked");
    } catch (const std::runtime_error& e) {
        CHECK(contains(e.what(), "more than"));
    }
    CHECK_FALSE(fs::exists(d.path() / "two" / "a.cu"));
}

TEST_CASE("grade zip: an entry that inflates to more than its declared size is not written")
{
    const TempDir d;
    const fs::path zip = d.path() / "bomb.zip";
    make_zip(zip, {{"bomb.cu", std::string(100000, 'x')}, {"fine.cu", "ok"}});
    test::set_declared_size(zip, "bomb.cu", 100);
    const Unpacked u = unpack_zip(zip, d.path() / "out");
    CHECK(contains(entry(u, "bomb.cu").why, "cannot be unpacked"));
    CHECK_FALSE(fs::exists(d.path() / "out" / "bomb.cu"));
    CHECK(entry(u, "fine.cu").written == "fine.cu");
}

TEST_CASE("grade zip: a file that is not a ZIP is refused by name, and unsafe names are told apart")
{
    const TempDir d;
    const fs::path text = d.write("notes.zip", "not a zip at all");
    CHECK_FALSE(looks_like_zip(text));
    CHECK_THROWS_WITH_AS(unpack_zip(text, d.path() / "out"), doctest::Contains("not a ZIP"), std::runtime_error);
    CHECK(unsafe_entry_name("labs/vecadd3/vecadd3.cu").empty());
    CHECK(unsafe_entry_name("Ada Lovelace_1_assignsubmission_file/vecadd3 (1).cu").empty());
    CHECK_FALSE(unsafe_entry_name("a//b").empty());
    CHECK_FALSE(unsafe_entry_name("a/./b").empty());
    CHECK_FALSE(unsafe_entry_name(std::string("a\nb")).empty());
}
