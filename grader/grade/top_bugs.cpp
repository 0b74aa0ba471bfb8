#include "grade/top_bugs.h"

#include "util/escape.h"

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

// The first `n` lines of `text`, each trimmed.
std::string first_lines(std::string_view text, int n)
{
    std::string out;
    for (int k = 0; k < n && !text.empty(); ++k) {
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
        if (!out.empty()) out += " / ";
        out += line;
        text = end == std::string_view::npos ? std::string_view {} : text.substr(end + 1);
    }
    return out;
}

bool fails(const BookCell& c) { return c.state == BookCell::State::graded && c.result && c.result->verdict != Verdict::pass; }

}  // namespace

std::string evidence_signature(const TaskResult& result)
{
    return fmt::format("{}: {}", verdict_name(result.verdict), numbers_hidden(first_lines(result.message, 2)));
}

std::vector<BugGroup> top_bugs(const Gradebook& book, std::size_t per_task)
{
    std::vector<BugGroup> out;
    for (std::size_t i = 0; i < book.columns.size(); ++i) {
        std::map<std::string, BugGroup> groups;
        for (const BookRow& r : book.rows) {
            const BookCell& c = r.cells.at(i);
            if (!fails(c)) continue;
            BugGroup& g = groups[evidence_signature(*c.result)];
            if (g.students.empty()) g = {book.columns[i].name(), evidence_signature(*c.result), {}, c.result};
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
        std::string example = first_lines(g.example->message, 2);
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
