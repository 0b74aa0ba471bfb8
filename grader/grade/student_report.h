// What a student gets back: feedback.md (each task: its verdict, the
// message, where, the likely bug, the speedup against what was needed, the
// points) and the same as Gradescope's autograder results.json (a test per
// task, its score and output), for courses that hand feedback back there.
#pragma once

#include "grade/gradebook.h"

#include <nlohmann/json.hpp>

#include <string>

namespace hpclab {

std::string feedback_markdown(const Gradebook& book, const BookRow& row);
nlohmann::json gradescope_results(const Gradebook& book, const BookRow& row);

}  // namespace hpclab
