// The record of one check, as JSON: enough to replay it (seed, sizes, flags,
// the source's hash) and to trust it later (GPU name and UUID, driver,
// nvcc, every raw time, what CUPTI saw, every finding and verdict).
#pragma once

#include "check/check.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace hpclab {

nlohmann::json grade_record(const LabCheck& check, const Toolchain& tc);

// A record (grade_record's text) kept in `records`, made if missing: named by
// its lab, its local time and its content (two checks in one second, of one
// lab or two files, never overwrite each other), written whole (no reader
// sees half a record). Its path, or why it could not be kept (a state
// folder that cannot be written: the check's verdict stands).
struct KeptRecord {
    std::filesystem::path path;
    std::string error;
};
KeptRecord keep_grade_record(const std::string& record, const std::filesystem::path& records, const std::string& lab);

}  // namespace hpclab
