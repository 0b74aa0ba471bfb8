// What `hpclab grade <submissions>` was given, made into the class folder it
// grades: a folder per student as it is (class_folder.h); an LMS's download,
// unzipped or not, laid out as one (lms_download.h) in the output folder's
// submissions/; a ZIP unpacked safely into its download/ first (zip_unpack.h).
// What the download said of each student (late marks, times) is kept in
// download.json there, for the lateness of every later run and merge.
#pragma once

#include "intake/lms_download.h"
#include "intake/zip_unpack.h"

#include <filesystem>
#include <optional>
#include <string>

namespace hpclab {

struct ClassSource {
    std::filesystem::path class_root;     // the folder to grade
    std::optional<Unpacked> unpacked;     // when given a ZIP
    std::optional<LmsDownload> download;  // when given an LMS's download
};

// Throws std::runtime_error when `given` is neither a folder nor a ZIP, or
// the ZIP cannot be unpacked (over the limits, not a ZIP); or when what it
// would replace in `out` is not hpclab's.
ClassSource prepare_class_source(const std::filesystem::path& given, const std::filesystem::path& out,
                                 const Catalog& catalog);

// Whether preparing `given` writes into the output folder (a ZIP, an LMS's layout).
bool source_writes_output(const std::filesystem::path& given);

// The download's students as the grading in `out` kept them (none without).
std::map<std::string, LmsStudent> kept_lms_students(const std::filesystem::path& out);

// What became of the download's entries, for the terminal (empty when the
// source was a class folder as it is).
std::string class_source_summary(const ClassSource& source);

}  // namespace hpclab
