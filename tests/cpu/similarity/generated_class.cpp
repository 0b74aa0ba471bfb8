#include "generated_class.h"

#include "similarity/tokens.h"
#include "test_support.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace hpclab::test {

namespace fs = std::filesystem;

std::string renamed(const std::string& source, const std::string& skeleton)
{
    std::set<std::string> given;
    for (const Token& t : cuda_tokens(skeleton)) given.insert(t.raw);
    std::map<std::string, std::string> to;
    for (const Token& t : cuda_tokens(source))
        if (t.text == "I" && !given.count(t.raw) && !to.count(t.raw)) to[t.raw] = fmt::format("my_var{}", to.size());
    std::string out = source;
    for (const auto& [from, name] : to) out = std::regex_replace(out, std::regex("\\b" + from + "\\b"), name);
    return out;
}

namespace {

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const std::string& l : lines) out += l + "\n";
    return out;
}

// A statement that may move: one line, ending in ';', no control flow,
// barrier, launch or call whose order could matter.
bool movable(const std::string& line)
{
    static const std::regex simple(R"(^\s+[^/*#].*;\s*$)");
    static const std::regex fixed(R"(\b(return|for|if|while|__syncthreads|cudaCheckError|break|continue)\b|<<<|\}|\{)");
    return std::regex_match(line, simple) && !std::regex_search(line, fixed);
}

// The name a statement sets: the word before its first '=' (or +=, ...).
std::string set_name(const std::string& line)
{
    static const std::regex assign(R"((\w+)\s*(\[[^\]]*\])?\s*[-+*/|&^]?=[^=])");
    std::smatch m;
    return std::regex_search(line, m, assign) ? m[1].str() : "";
}

bool mentions(const std::string& line, const std::string& name)
{
    return !name.empty() && std::regex_search(line, std::regex("\\b" + name + "\\b"));
}

}  // namespace

std::string reordered(const std::string& source)
{
    std::vector<std::string> lines = lines_of(source);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        const std::string &a = lines[i], &b = lines[i + 1];
        const auto indent = [](const std::string& l) { return l.find_first_not_of(" \t"); };
        if (!movable(a) || !movable(b) || indent(a) != indent(b)) continue;
        if (set_name(a).empty() || set_name(b).empty() || mentions(b, set_name(a)) || mentions(a, set_name(b))) continue;
        std::swap(lines[i], lines[i + 1]);
        ++i;
    }
    return joined(lines);
}

std::string recommented(const std::string& source)
{
    static const std::regex block(R"(/\*[\s\S]*?\*/)"), line_comment(R"(//[^\n]*)");
    const std::string bare = std::regex_replace(std::regex_replace(source, block, ""), line_comment, "");
    std::vector<std::string> out;
    int n = 0;
    for (std::string line : lines_of(bare)) {
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        line = std::regex_replace(line, std::regex("    "), "\t");
        if (line.find('{') != std::string::npos) out.push_back(line + fmt::format(" // part {}", ++n));
        else out.push_back(line);
    }
    return "/* my solution, written by me */\n" + joined(out);
}

namespace {

// The lab's files written independently of each other, by name.
std::map<std::string, std::string> independent_files(const LabInfo& lab)
{
    std::map<std::string, std::string> out;
    const auto add = [&](const std::string& name, const fs::path& p) {
        if (const auto text = read_text_file(p)) out[name] = *text;
    };
    add("solution", lab.solution_source());
    for (const auto& student : fs::directory_iterator(course_root() / "examples/class/submissions")) {
        const std::string id = student.path().filename().string();
        add(id, student.path() / lab.student_file);
        add(id, student.path() / "labs" / lab.id / lab.student_file);
    }
    const fs::path hostile = course_root() / "tests/hostile" / lab.id, bench = course_root() / "bench" / lab.id;
    if (fs::is_directory(hostile))
        for (const auto& e : fs::directory_iterator(hostile))
            if (e.path().filename().string().rfind("honest_", 0) == 0) add(e.path().stem().string(), e.path());
    // cudamemcpy.cu copies bytes: no version of the lab, and alike in every lab.
    if (fs::is_directory(bench))
        for (const auto& e : fs::directory_iterator(bench))
            if (e.path().extension() == ".cu" && e.path().stem() != "cudamemcpy")
                add("bench_" + e.path().stem().string(), e.path());
    return out;
}

}  // namespace

GeneratedLab generated_lab(const LabInfo& lab)
{
    GeneratedLab g {lab.id, read_text_file(lab.student_source()).value_or(""),
                    read_text_file(lab.solution_source()).value_or(""), {}};
    for (const auto& [name, source] : independent_files(lab)) {
        const std::string r = renamed(source, g.skeleton);
        g.files.push_back({name, name, source});
        g.files.push_back({name + "~renamed", name, r});
        g.files.push_back({name + "~reordered", name, reordered(source)});
        g.files.push_back({name + "~recommented", name, recommented(source)});
        g.files.push_back({name + "~all_three", name, recommented(reordered(r))});
    }
    return g;
}

}  // namespace hpclab::test
