// hpclab: run, build and check the CUDA labs. The commands' options are in
// command_line.cpp, what each does in its cmd_*.cpp.
#include "command_line.h"
#include "commands.h"

#include "bench/row.h"
#include "course/course_config.h"
#include "hpclab_build_config.h"
#include "run/run_recipe.h"
#include "util/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include <sys/prctl.h>

using namespace hpclab;
using namespace hpclab::cli;

namespace {

// CLI11's message in a student's words: "--n: 'abc' is not a number", and
// a command that looks like a typo of one gets the nearest.
std::string readable(const CLI::ParseError& e, const CLI::App& app, int argc, char** argv)
{
    const std::string what = e.what();
    if (dynamic_cast<const CLI::ConversionError*>(&e) && what.rfind("Could not convert: ", 0) == 0) {
        const std::string rest = what.substr(19);  // "--n = abc"
        const auto eq = rest.find(" = ");
        if (eq != std::string::npos)
            return fmt::format("{}: '{}' is not a number", rest.substr(0, eq), rest.substr(eq + 3));
    }
    std::vector<std::string> names;
    for (const CLI::App* c : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(c->get_name());
    if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end())
        return fmt::format("unknown command '{}'.{}", argv[1], did_you_mean(argv[1], names));
    return what;
}

}  // namespace

// Under ctest ($HPCLAB_SKIP_LOG, set by the tests' environment), why this
// command judged nothing: a line each, which ctest's last lines sum up
// (tests/ctest_summary.cmake).
void note_skip(Context& ctx, const std::string& command)
{
    const char* log = std::getenv("HPCLAB_SKIP_LOG");
    if (!log || !*log) return;
    const std::string why = !ctx.toolchain().available() ? "no CUDA compiler: " + ctx.toolchain().unavailable
                            : !ctx.gpu().present          ? "no GPU here: " + ctx.gpu().why_not
                            : !ctx.skip_reason().empty()  ? "hpclab " + command + " " + ctx.skip_reason()
                                                          : "hpclab " + command + " could not judge here";
    if (FILE* f = std::fopen(log, "a")) {
        std::fprintf(f, "%s\n", why.c_str());
        std::fclose(f);
    }
}

int main(int argc, char** argv)
{
    // No other process of this user may read hpclab's memory or open its
    // descriptors through /proc: a student's program would find there every
    // run's exchange file, the speed baseline's included.
    prctl(PR_SET_DUMPABLE, 0);
    // Before any thread starts: none of them, nor the programs they start,
    // may share a CPU with the timed calls (run/run_recipe.h).
    leave_timing_cpus();
    std::optional<Context> ctx;
    try {
        ctx.emplace(course_root());
    } catch (const CourseConfigError& e) {
        // A threshold nobody can trust is worse than none: nothing runs until it is fixed.
        fmt::print(stderr, "hpclab: the course config: {}\n", e.what());
        return kUsage;
    } catch (const std::exception& e) {
        fmt::print(stderr, "hpclab: cannot read the labs: {}\n", e.what());
        return kGraderError;
    }
    CLI::App app {"hpclab: the labs of the CUDA Programming course.\n"
                  "Edit labs/<lab>/<lab>.cu, then run it with: hpclab run <lab>"};
    app.require_subcommand(1);
    app.footer("Instructors: hpclab grade grades a class; hpclab calibrate measures the speed thresholds on this\n"
               "GPU into the course config (course-config.json in the course folder), which check and grade read.\n"
               "See docs/instructors.md.");
    app.set_help_all_flag("--help-all", "Help for every command");
    app.set_version_flag("--version", fmt::format("hpclab {} (nvcc {}, architectures {})", HPCLAB_VERSION,
                                                  ctx->toolchain().nvcc_version.empty() ? "none" : ctx->toolchain().nvcc_version,
                                                  ctx->toolchain().architectures.empty() ? "none" : ctx->toolchain().architectures));
    const std::vector<ParsedCommand> commands = define_commands(app, *ctx, argc, argv);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "hpclab: {}\nRun 'hpclab --help' for the commands.\n", readable(e, app, argc, argv));
        return kUsage;
    }
    // What the command printed before it failed comes first, in a log too
    // (stdout is buffered there, stderr is not).
    const auto fail = [](const std::string& line, int status) {
        std::fflush(stdout);
        fmt::print(stderr, "hpclab: {}\n", line);
        return status;
    };
    try {
        for (const ParsedCommand& c : commands)
            if (c.command->parsed()) {
                const int status = c.call();
                if (status == kSkipped) note_skip(*ctx, c.command->get_name());
                return status;
            }
    } catch (const UsageError& e) {
        return fail(e.what(), kUsage);
    } catch (const SetupError& e) {
        return fail(std::string("set-up problem: ") + e.what(), kGraderError);
    } catch (const BenchInputError& e) {
        return fail(e.what(), kUsage);
    } catch (const std::exception& e) {
        return fail(std::string("internal error: ") + e.what(), kGraderError);
    }
    return kUsage;
}
