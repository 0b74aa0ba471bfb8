// hpclab: run, build and check the CUDA labs. The commands' options are in
// command_line.cpp, what each does in its cmd_*.cpp.
#include "command_line.h"
#include "commands.h"

#include "bench/row.h"
#include "hpclab_build_config.h"

#include <fmt/format.h>

using namespace hpclab;
using namespace hpclab::cli;

int main(int argc, char** argv)
{
    std::optional<Context> ctx;
    try {
        ctx.emplace(course_root());
    } catch (const std::exception& e) {
        fmt::print(stderr, "hpclab: cannot read the labs: {}\n", e.what());
        return kGraderError;
    }
    CLI::App app {"hpclab: the labs of the CUDA Programming course.\n"
                  "Edit labs/<lab>/<lab>.cu, then run it with: hpclab run <lab>"};
    app.require_subcommand(1);
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
        fmt::print(stderr, "hpclab: {}\nRun 'hpclab --help' for the commands.\n", e.what());
        return kUsage;
    }
    try {
        for (const ParsedCommand& c : commands)
            if (c.command->parsed()) return c.call();
    } catch (const UsageError& e) {
        fmt::print(stderr, "hpclab: {}\n", e.what());
        return kUsage;
    } catch (const BenchInputError& e) {
        fmt::print(stderr, "hpclab: {}\n", e.what());
        return kUsage;
    } catch (const std::exception& e) {
        fmt::print(stderr, "hpclab: internal error: {}\n", e.what());
        return kGraderError;
    }
    return kUsage;
}
