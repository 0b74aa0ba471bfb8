// hpclab's command line: each command's options, parsed by CLI11 into its
// arguments, and the one function the command then calls (commands.h).
#pragma once

#include "context.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace hpclab::cli {

// A command as parsed: its CLI11 subcommand and what to call when it was
// the one given (the call returns the exit status).
struct ParsedCommand {
    CLI::App* command = nullptr;
    std::function<int()> call;
};

// Every command, its options added to `app`. The calls read the options'
// values once `app` has parsed the command line; `argv` is kept for bench's
// results header.
std::vector<ParsedCommand> define_commands(CLI::App& app, Context& ctx, int argc, char** argv);

}  // namespace hpclab::cli
