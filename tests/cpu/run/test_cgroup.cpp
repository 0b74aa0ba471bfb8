// Where hpclab makes its run scopes, on a fake cgroup2 tree: the nearest
// cgroup at or above its own whose children may have memory and pids.
#include "process/cgroup.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace hpclab;
namespace fs = std::filesystem;

namespace {

struct FakeTree {
    fs::path root = fs::temp_directory_path() / ("hpclab-cgroup-" + std::to_string(getpid()));
    FakeTree()
    {
        fs::remove_all(root);
        fs::create_directories(root / "process_api" / "me");
        std::ofstream(root / "cgroup.controllers") << "cpuset cpu io memory hugetlb pids\n";
        std::ofstream(root / "cgroup.subtree_control") << "cpuset cpu io memory hugetlb pids\n";
        std::ofstream(root / "process_api" / "cgroup.subtree_control") << "memory\n";
        std::ofstream(root / "process_api" / "me" / "cgroup.subtree_control") << "";
    }
    ~FakeTree() { fs::remove_all(root); }
};

}  // namespace

TEST_CASE("cgroup: the scopes go under the nearest ancestor whose children may have memory and pids")
{
    const FakeTree t;
    const CgroupBase base = find_cgroup_base(t.root, "/process_api/me");
    REQUIRE(base.dir);
    CHECK(base.dir->parent_path() == t.root);  // process_api gives memory only: the root it is
    std::ifstream control(*base.dir / "cgroup.subtree_control");
    std::string text((std::istreambuf_iterator<char>(control)), {});
    CHECK(text.find("+memory +pids") != std::string::npos);
}

TEST_CASE("cgroup: a run's scope carries its limits, and says which one the run met")
{
    const FakeTree t;
    const fs::path base = t.root / "hpclab-test";
    fs::create_directories(base);
    RunCgroup scope(base, {.memory_bytes = 1ull << 30, .pids = 64});
    REQUIRE(scope.ok());
    const fs::path dir = scope.procs_file().parent_path();
    std::ifstream mem(dir / "memory.max");
    std::uint64_t bytes = 0;
    mem >> bytes;
    CHECK(bytes == (1ull << 30));
    CHECK(scope.limit_met().empty());
    std::ofstream(dir / "memory.events") << "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n";
    CHECK(scope.limit_met().find("1 GiB of host memory") != std::string::npos);
    std::ofstream(dir / "memory.events") << "oom_kill 0\n";
    std::ofstream(dir / "pids.events") << "max 7\n";
    CHECK(scope.limit_met().find("64 processes") != std::string::npos);
}

TEST_CASE("cgroup: no cgroup v2 mounted, no scopes, and a reason")
{
    const fs::path empty = fs::temp_directory_path() / ("hpclab-nocg-" + std::to_string(getpid()));
    fs::create_directories(empty);
    const CgroupBase base = find_cgroup_base(empty, "/x");
    CHECK_FALSE(base.dir);
    CHECK(base.why_not.find("no cgroup v2") != std::string::npos);
    fs::remove_all(empty);
}
