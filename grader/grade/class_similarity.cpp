#include "grade/class_similarity.h"

#include "util/text_file.h"

namespace hpclab {

std::vector<LabSimilarity> class_similarity(const ClassFolder& cls, const Catalog& catalog)
{
    std::vector<LabSimilarity> out;
    for (const LabInfo& lab : catalog.labs()) {
        std::vector<HandedIn> files;
        for (const Student& s : cls.students)
            for (const Submission& sub : s.submissions)
                if (sub.lab->id == lab.id && !sub.unchanged_skeleton)
                    if (auto text = read_text_file(sub.file)) files.push_back({s.id, std::move(*text)});
        if (files.empty()) continue;
        out.push_back(compare_lab(lab.id, {lab.look_from, lab.no_look}, read_text_file(lab.student_source()).value_or(""),
                                  read_text_file(lab.solution_source()).value_or(""), files));
    }
    return out;
}

}  // namespace hpclab
