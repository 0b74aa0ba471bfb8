// A course of three small labs in a temporary folder, for the tests of the
// student's commands (hint, list, reset, watch): they write progress and
// backups, which must never land in the real course.
#pragma once

#include "process/process.h"
#include "test_support.h"

#include <filesystem>
#include <string>
#include <vector>

namespace hpclab::test {

class MiniCourse {
public:
    // alpha (3 hints, the first longer than a line), beta (2), gamma (1), in
    // that order; each with a skeleton labs/<id>/<id>.cu. Not a git checkout
    // until init_git().
    MiniCourse();

    const std::filesystem::path& root() const { return dir_.path(); }
    std::filesystem::path file(const std::string& relative) const { return root() / relative; }
    std::string read(const std::string& relative) const;
    void write(const std::string& relative, const std::string& content) const { dir_.write(relative, content); }

    // hpclab with this course as HPCLAB_ROOT, no GPU visible, `input` as its standard input.
    ProcessResult hpclab(std::vector<std::string> args, const std::string& input = "", double limit_s = 120) const;
    // A shell command line (sh -c) run in the course folder with $HPCLAB for hpclab.
    ProcessResult shell(const std::string& script, double limit_s = 120) const;

    // Makes the course a git checkout with everything committed.
    void init_git() const;

    static std::string hint(const std::string& lab, int k);  // the text of hint k (from 1)
    static std::string skeleton(const std::string& lab);

private:
    TempDir dir_;
    TempDir scratch_;  // standard input files, outside the course
};

// The number of times `part` occurs in `text`.
std::size_t count(const std::string& text, const std::string& part);

}  // namespace hpclab::test
