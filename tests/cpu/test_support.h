// Helpers shared by the CPU tests.
#pragma once

#include "core/lab_catalog.h"
#include "core/process.h"

#include <filesystem>
#include <string>
#include <vector>

namespace hpclab::test {

inline std::filesystem::path course_root() { return HPCLAB_TEST_ROOT; }
inline std::filesystem::path test_data() { return HPCLAB_TEST_DATA; }

// The course's real catalog, read once.
inline const Catalog& catalog()
{
    static const Catalog c = Catalog::load(course_root());
    return c;
}

// Runs the hpclab binary with these arguments, with no GPU visible (so that
// the result is the same on every machine) unless `hide_gpu` is false.
inline ProcessResult run_hpclab(std::vector<std::string> args, bool hide_gpu = true, double limit_s = 120)
{
    ProcessSpec spec;
    spec.argv = {HPCLAB_EXE};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.wall_limit_s = limit_s;
    spec.set_env.push_back({"HPCLAB_ROOT", course_root().string()});
    if (hide_gpu) spec.set_env.push_back({"CUDA_VISIBLE_DEVICES", ""});
    return run_process(spec);
}

// A fresh, empty temporary folder, removed at the end of the test.
class TempDir {
public:
    TempDir();
    ~TempDir();
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path write(const std::string& name, const std::string& content) const;

private:
    std::filesystem::path path_;
};

}  // namespace hpclab::test
