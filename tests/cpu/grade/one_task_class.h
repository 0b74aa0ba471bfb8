// A graded class of one vecadd3 file per student (s00, s01, ...), each with
// the result of its task "add" given, and its gradebook: what report.md's
// sections over a class's results read, with no GPU.
#pragma once

#include "grade/gradebook.h"
#include "intake/class_folder.h"
#include "test_support.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace hpclab::test {

struct OneTaskClass {
    TempDir dir;
    ClassFolder cls;
    std::vector<LabResult> results;
    Gradebook book;

    explicit OneTaskClass(const std::vector<TaskResult>& add)
    {
        for (std::size_t i = 0; i < add.size(); ++i) dir.write(fmt::format("class/s{:02}/vecadd3.cu", i), "// mine\n");
        cls = discover_class(dir.path() / "class", catalog());
        for (std::size_t i = 0; i < add.size(); ++i) {
            const Submission& sub = cls.students.at(i).submissions.at(0);
            LabResult r {.student = cls.students.at(i).id, .lab = "vecadd3", .content_hash = sub.content_hash};
            r.tasks.push_back(add[i]);
            r.tasks.back().task = "add";
            r.overall = add[i].verdict;
            results.push_back(r);
        }
        GradingConfig config;
        book = make_gradebook(cls, results, catalog(), config);
    }
    std::size_t column() const
    {
        for (std::size_t i = 0; i < book.columns.size(); ++i)
            if (book.columns[i].name() == "vecadd3.add") return i;
        throw std::logic_error("no column vecadd3.add");
    }
};

}  // namespace hpclab::test
