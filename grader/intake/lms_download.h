// An LMS's bulk download, as it comes (unzipped: zip_unpack.h), laid out as
// the class folder hpclab grades (class_folder.h): a folder per student, named
// by the student's id in the LMS, holding that student's files. Canvas's flat
// folder, Moodle's folder per student and Gradescope's export are told apart
// by their names (lms_names.h, gradescope_metadata.h). Of several uploads of
// one file the newest is kept; the LMS's late mark and submission time are
// kept for the lateness (lateness.h); every entry of the download is placed
// in a student's folder, read (Gradescope's metadata), or left out with why.
#pragma once

#include "course/lab_catalog.h"
#include "intake/class_folder.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hpclab {

enum class LmsLayout { canvas, moodle, gradescope };
const char* lms_name(LmsLayout layout);

// What the download says of one student besides the files.
struct LmsStudent {
    bool late_mark = false;                     // Canvas's LATE
    std::optional<std::int64_t> submitted_at;   // Gradescope's :created_at: (UTC seconds)
    std::string submitted_text;                 // as the LMS wrote it
};

struct LmsDownload {
    LmsLayout layout = LmsLayout::canvas;
    std::filesystem::path root;                 // the folder the LMS's layout starts at
    std::map<std::string, LmsStudent> students;  // by id: every student with a file placed or a mark
    std::vector<Ignored> left_out;              // paths relative to `root`, sorted
    std::size_t placed = 0;                     // files copied into the students' folders
    std::set<std::string> folders;              // the students given a folder
    std::size_t read = 0;                       // the LMS's own files read (Gradescope's metadata)
};

// The layout of `folder`, when it is one of an LMS's downloads; and the
// folder it starts at (Gradescope's export folder may be one level down).
struct DetectedLayout {
    LmsLayout layout;
    std::filesystem::path root;
};
std::optional<DetectedLayout> detect_lms_layout(const std::filesystem::path& folder);

// Copies every student's files of the download into `class_root/<id>/`
// (created, empty). Never follows a link, never opens what is not a file.
LmsDownload arrange_lms_download(const DetectedLayout& detected, const std::filesystem::path& class_root,
                                 const Catalog& catalog);

// The students' marks and times, as kept beside a grading (download.json).
nlohmann::json lms_students_json(const LmsDownload& d);
std::map<std::string, LmsStudent> lms_students_from_json(const nlohmann::json& j);

}  // namespace hpclab
