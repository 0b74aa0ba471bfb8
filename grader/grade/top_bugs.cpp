#include "grade/top_bugs.h"

#include "util/escape.h"
#include "util/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

namespace hpclab {

namespace {

// `text` with each run of digits (and a hexadecimal number whole) made "#".
std::string numbers_hidden(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const bool hex = text.substr(i, 2) == "0x" && i + 2 < text.size() && std::isxdigit(static_cast<unsigned char>(text[i + 2]));
        if (!hex && !std::isdigit(static_cast<unsigned char>(text[i]))) {
            out += text[i++];
            continue;
        }
        i += hex ? 2 : 0;
        while (i < text.size() && std::isxdigit(static_cast<unsigned char>(text[i])) &&
               (hex || std::isdigit(static_cast<unsigned char>(text[i]))))
            ++i;
        out += '#';
    }
    return out;
}

// The first two non-empty lines of a message, each trimmed (a sanitizer
// indents its site), joined as util's first_lines joins them.
std::string first_two_lines(const std::string& text)
{
    std::vector<std::string> lines = split(text, '\n');
    if (lines.size() > 2) lines.resize(2);
    std::string out;
    for (const std::string& line : lines) out += (out.empty() ? "" : " / ") + trimmed(line);
    return out;
}

bool fails(const BookCell& c) { return c.state == BookCell::State::graded && c.result && c.result->verdict != Verdict::pass; }

}  // namespace

std::string evidence_signature(const TaskResult& result)
{
    // A slow file's measured cause tells one slowness from another (the speed's message is the same for all).
    return fmt::format("{}: {}{}", verdict_name(result.verdict), numbers_hidden(first_two_lines(result.message)),
                       result.profile.empty() ? "" : " / the profiler: " + numbers_hidden(result.profile));
}

std::vector<BugGroup> top_bugs(const Gradebook& book, std::size_t per_task)
{
    std::vector<BugGroup> out;
    for (std::size_t i = 0; i < book.columns.size(); ++i) {
        std::map<std::string, BugGroup> groups;
        for (const BookRow& r : book.rows) {
            const BookCell& c = r.cells.at(i);
            if (!fails(c)) continue;
            std::string signature = evidence_signature(*c.result);
            BugGroup& g = groups[signature];
            if (g.students.empty()) g = {book.columns[i].name(), std::move(signature), {}, c.result};
            g.students.push_back(r.student);
        }
        std::vector<BugGroup> shared;
        for (auto& [signature, g] : groups)
            if (g.students.size() >= 2) shared.push_back(std::move(g));
        std::stable_sort(shared.begin(), shared.end(),
                         [](const BugGroup& a, const BugGroup& b) { return a.students.size() > b.students.size(); });
        if (shared.size() > per_task) shared.resize(per_task);
        for (BugGroup& g : shared) out.push_back(std::move(g));
    }
    return out;
}

std::string top_bugs_markdown(const Gradebook& book)
{
    constexpr std::size_t kExcerpt = 240;  // characters of the example's message
    std::string out = "\n## Top bugs\n\nThe failing files of each task that share their evidence (the verdict and the "
                      "first lines of its message, numbers aside), the largest groups first: the mistakes to go over "
                      "with the class. One student's message stands for each group.\n\n";
    const std::vector<BugGroup> groups = top_bugs(book);
    if (groups.empty()) return out + "No two failing files of a task share their evidence.\n";
    out += "| task | students | verdict | for example | who |\n|---|---|---|---|---|\n";
    for (const BugGroup& g : groups) {
        std::string example = first_two_lines(g.example->message);
        if (example.size() > kExcerpt) {
            std::size_t cut = kExcerpt;  // not inside a UTF-8 character
            while (cut > 0 && (static_cast<unsigned char>(example[cut]) & 0xC0) == 0x80) --cut;
            example = example.substr(0, cut) + "...";
        }
        std::string who;
        for (std::size_t k = 0; k < g.students.size() && k < 8; ++k) who += (k ? ", " : "") + for_markdown(g.students[k]);
        if (g.students.size() > 8) who += fmt::format(" and {} more", g.students.size() - 8);
        out += fmt::format("| {} | {} | {} | {} ({}) | {} |\n", g.column, g.students.size(), verdict_name(g.example->verdict),
                           for_markdown(example), for_markdown(g.students.front()), who);
    }
    return out;
}

}  // namespace hpclab
