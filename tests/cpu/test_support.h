// Helpers shared by the CPU tests.
#pragma once

#include "course/call_buffers.h"
#include "course/lab_catalog.h"
#include "course/params.h"
#include "process/process.h"
#include "course/task_spec.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab::test {

inline std::filesystem::path course_root() { return HPCLAB_TEST_ROOT; }
inline std::filesystem::path test_data() { return HPCLAB_TEST_DATA; }
// The docs' pages: the README and docs/*.md, by name.
inline std::vector<std::filesystem::path> doc_pages()
{
    std::vector<std::filesystem::path> out = {course_root() / "README.md"};
    for (const auto& e : std::filesystem::directory_iterator(course_root() / "docs"))
        if (e.path().extension() == ".md") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// The course's real catalog, read once.
inline const Catalog& catalog()
{
    static const Catalog c = Catalog::load(course_root());
    return c;
}

// A lab of the course's catalog (REQUIREd to exist).
inline const LabInfo& lab_of(std::string_view lab)
{
    const LabInfo* info = catalog().find(lab);
    REQUIRE(info != nullptr);
    return *info;
}

// A task of a lab, as its lab.json describes it (REQUIREd to exist).
inline const TaskInfo& task_of(std::string_view lab, std::string_view task)
{
    const TaskInfo* info = lab_of(lab).find_task(task);
    REQUIRE(info != nullptr);
    return *info;
}

// A task's registered spec (REQUIREd to exist).
inline const TaskSpec& spec_of(std::string_view lab, std::string_view task)
{
    const TaskSpec* spec = find_task_spec(lab, task);
    REQUIRE(spec != nullptr);
    return *spec;
}

// The reference of every element of `output`, in index order; its scale too
// where `scale` is given (pre-filled with NaN, as compare_outputs does, so
// that a reference that sets no scale leaves NaN there).
inline std::vector<double> reference_all(const TaskSpec& spec, const Params& params, const CallBuffers& call,
                                         std::string_view output, std::vector<double>* scale = nullptr)
{
    const std::uint64_t count = call.entry(output).decl.count;
    std::vector<std::uint64_t> idx(count);
    std::iota(idx.begin(), idx.end(), 0);
    std::vector<double> expected(count, 0.0);
    std::vector<double> own_scale;
    std::vector<double>& sc = scale ? *scale : own_scale;
    sc.assign(count, std::numeric_limits<double>::quiet_NaN());
    spec.reference(params, call, output, idx, expected, sc);
    return expected;
}

// Copies `values` into buffer `name`, which must hold exactly that many
// elements of type T. With a braced list, name T: fill<float>(b, "p", {1, 2}).
template <class T> void fill(CallBuffers& call, std::string_view name, const std::vector<T>& values)
{
    const auto span = call.get<T>(name);
    REQUIRE(span.size() == values.size());
    std::copy(values.begin(), values.end(), span.begin());
}

inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// Runs the hpclab binary with these arguments, with no GPU visible (so that
// the result is the same on every machine) unless `hide_gpu` is false;
// `env`: variables set for that run besides.
inline ProcessResult run_hpclab(std::vector<std::string> args, bool hide_gpu = true, double limit_s = 120,
                                const std::vector<std::pair<std::string, std::string>>& env = {})
{
    ProcessSpec spec;
    spec.argv = {HPCLAB_EXE};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.wall_limit_s = limit_s;
    spec.set_env.push_back({"HPCLAB_ROOT", course_root().string()});
    // What hpclab writes for its user (records, progress) goes to a folder
    // of the tests, never into the checkout.
    spec.set_env.push_back({"HPCLAB_STATE", (std::filesystem::temp_directory_path() / "hpclab-cpu-tests-state").string()});
    if (hide_gpu) spec.set_env.push_back({"CUDA_VISIBLE_DEVICES", ""});
    for (const auto& [name, value] : env) spec.set_env.push_back({name, value});
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
