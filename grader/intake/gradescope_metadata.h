// Gradescope's "Export Submissions" ZIP: a folder (assignment_<id>_export/)
// of one folder per submission (submission_<id>/, the files as uploaded)
// and submission_metadata.yml, which names each one's submitters (name,
// sid, email) and its time (:created_at:). Only that part of the YAML is
// read, in the shape Gradescope writes it; the rest is left alone.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct GradescopeSubmitter {
    std::string name, sid, email;
};

struct GradescopeSubmission {
    std::vector<GradescopeSubmitter> submitters;
    std::optional<std::int64_t> created_at;  // UTC seconds
    std::string created_at_text;             // as written
};

// By folder name ("submission_123"): the metadata's top-level keys.
std::map<std::string, GradescopeSubmission> parse_gradescope_metadata(const std::string& yaml);

constexpr const char* kGradescopeMetadata = "submission_metadata.yml";

}  // namespace hpclab
