#include "mini_course.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace hpclab::test {

namespace {

std::string lab_json(const std::string& id, int order, int hints)
{
    nlohmann::json j = {{"id", id},
                        {"order", order},
                        {"title", "The " + id + " lab"},
                        {"teaches", "how tests work"},
                        {"course_program", id + ".cu"},
                        {"student_file", id + ".cu"},
                        {"header", id + ".h"},
                        {"pointers", "none"},
                        {"params", nlohmann::json::object()},
                        {"hints", nlohmann::json::array()},
                        {"tasks",
                         {{{"id", "only"},
                           {"entry", id},
                           {"title", "the only task"},
                           {"tolerance", {{"kind", "exact"}}},
                           {"sizes", {{{"why", "the one size"}}}},
                           {"demo", nlohmann::json::object()}}}}};
    for (int k = 1; k <= hints; ++k) j["hints"].push_back(MiniCourse::hint(id, k));
    return j.dump(2);
}

}  // namespace

std::string MiniCourse::hint(const std::string& lab, int k)
{
    if (lab == "alpha" && k == 1)
        return "The first hint of alpha is long on purpose: it must be wrapped at about one hundred columns "
               "so that it reads well in a terminal, with words kept whole and every line indented by two "
               "spaces under its heading.";
    return fmt::format("Hint number {} of {}, plain.", k, lab);
}

std::string MiniCourse::skeleton(const std::string& lab) { return "// " + lab + ": TODO 1, TODO 2\n"; }

MiniCourse::MiniCourse()
{
    const std::pair<const char*, int> labs[] = {{"alpha", 3}, {"beta", 2}, {"gamma", 1}};
    int order = 1;
    for (const auto& [id, hints] : labs) {
        const std::string lab = id;
        dir_.write("labs/" + lab + "/lab.json", lab_json(lab, order++, hints));
        dir_.write("labs/" + lab + "/" + lab + ".cu", skeleton(lab));
    }
}

std::string MiniCourse::read(const std::string& relative) const
{
    std::ifstream in(file(relative), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

ProcessResult MiniCourse::hpclab(std::vector<std::string> args, const std::string& input, double limit_s) const
{
    const auto stdin_file = scratch_.write("stdin.txt", input);
    ProcessSpec spec;
    // sh gives hpclab the file as its standard input (run_process has none).
    spec.argv = {"/bin/sh", "-c", "exec \"$0\" \"$@\" < \"$HPCLAB_TEST_STDIN\"", HPCLAB_EXE};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.wall_limit_s = limit_s;
    spec.set_env = {{"HPCLAB_ROOT", root().string()},
                    {"CUDA_VISIBLE_DEVICES", ""},
                    {"HPCLAB_TEST_STDIN", stdin_file.string()}};
    return run_process(spec);
}

ProcessResult MiniCourse::shell(const std::string& script, double limit_s) const
{
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    spec.cwd = root();
    spec.wall_limit_s = limit_s;
    spec.set_env = {{"HPCLAB_ROOT", root().string()}, {"CUDA_VISIBLE_DEVICES", ""}, {"HPCLAB", HPCLAB_EXE}};
    return run_process(spec);
}

void MiniCourse::init_git() const
{
    const ProcessResult r = shell("git init -q && git add -A && "
                                  "git -c user.email=t@t -c user.name=t commit -qm skeletons");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
}

std::size_t count(const std::string& text, const std::string& part)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
    return n;
}

}  // namespace hpclab::test
