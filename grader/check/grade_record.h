// The record of one check, as JSON: enough to replay it (seed, sizes, flags,
// the source's hash) and to trust it later (GPU name and UUID, driver,
// nvcc, every raw time, what CUPTI saw, every finding and verdict).
#pragma once

#include "check/check.h"

#include <nlohmann/json.hpp>

namespace hpclab {

nlohmann::json grade_record(const LabCheck& check, const Toolchain& tc);

}  // namespace hpclab
