// What the names in an LMS's bulk download say: whose file it is, whether
// the LMS marked it late, and which upload of a file it is. Each rule is
// the LMS's own (docs/instructors.md, "Grading an LMS's download", says
// where each comes from).
#pragma once

#include <optional>
#include <string>

namespace hpclab {

// Canvas's "Download Submissions": one flat folder of
//   <name>[_LATE]_<user id>_<attachment id>_<file>     an uploaded file
//   <name>[_LATE]_<user id>_text.html | _link.html      a text entry, a URL
// <name> is the student's sortable name, lower case, letters and digits
// only; an anonymous assignment has "anon_<id>" in place of the user id
// and no name.
struct CanvasName {
    std::string student;        // the user id ("12345", or "anon_x7Yq")
    bool late = false;          // Canvas's LATE mark
    std::string attachment_id;  // empty for a text entry or a URL
    std::string file;           // the file's name as the student uploaded it
};
std::optional<CanvasName> parse_canvas_name(const std::string& name);

// Moodle's "Download all submissions": a folder per student and plugin,
//   <Full Name>_<participant id>_assignsubmission_<plugin>[_]/...
// or, with "Download submissions in folders" off, flat files
//   <Full Name>_<participant id>_assignsubmission_<plugin>_<file>
struct MoodleName {
    std::string student;  // the participant id
    std::string plugin;   // "file", "onlinetext", ...
    std::string file;     // the flat form's file; empty for a folder
};
std::optional<MoodleName> parse_moodle_folder(const std::string& name);
std::optional<MoodleName> parse_moodle_file(const std::string& name);

// A file uploaded again under the same name is renamed by Canvas's file
// store as "<stem>-<n><ext>": ("vecadd3-2.cu") -> {"vecadd3.cu", 2}; a
// name without such a suffix is upload 0 of itself.
struct Upload {
    std::string file;
    int number = 0;
};
Upload upload_of(const std::string& file);

}  // namespace hpclab
