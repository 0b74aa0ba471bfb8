// The size options (--n, --width, --height, ...): one per parameter that any
// lab has, shared by the commands that take sizes (run: one value each;
// bench: a comma-separated list each, a sweep).
#pragma once

#include "course/lab_catalog.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hpclab::cli {

class SizeOptions {
public:
    enum class Values { one, list };
    SizeOptions(CLI::App& command, const Catalog& catalog, Values values);

    // The options given, each with its values.
    std::map<std::string, std::vector<std::int64_t>> given() const;

private:
    std::map<std::string, std::vector<std::int64_t>> values_;
    std::map<std::string, CLI::Option*> options_;
};

}  // namespace hpclab::cli
