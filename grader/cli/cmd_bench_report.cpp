// hpclab bench --report: a results file written by `hpclab bench --json`,
// rendered again without a GPU: as the terminal's table, as markdown, or
// into the generated section of a document (docs/performance.md), or as
// plots (--plot <folder>: an SVG per lab task, docs/figures/bench/).
#include "commands.h"

#include "bench/metrics.h"
#include "bench/plot.h"
#include "bench/render.h"
#include "util/text_file.h"

#include <fmt/format.h>

namespace hpclab::cli {

int cmd_bench_report(const BenchArgs& args)
{
    // The measuring options make no sense for a file already measured.
    if (!args.labs.empty() || !args.task.empty() || !args.variants.empty() || !args.sizes.empty() || args.reps ||
        args.quick || !args.variants_dir.empty() || args.build_only || !args.csv.empty() || !args.json.empty())
        throw UsageError("--report renders a results file: give it alone, or with --markdown or --update <document>");
    BenchResults results = read_results_file(args.report);
    // The figures again from the rows: a file written by hand, or by an
    // older hpclab, renders as one the bench writes now.
    compute_metrics(results.rows, results.header.gpu);
    if (!args.plot.empty()) {
        if (!args.update.empty() || args.markdown) throw UsageError("--plot draws the pictures alone: leave out --update and --markdown");
        std::error_code ec;
        std::filesystem::create_directories(args.plot, ec);
        if (ec) throw UsageError(fmt::format("--plot {}: cannot be made: {}", args.plot, ec.message()));
        for (const auto& [name, svg] : render_plots(results)) {
            write_text_file(std::filesystem::path(args.plot) / name, svg);
            fmt::print("{}\n", (std::filesystem::path(args.plot) / name).string());
        }
        return kPass;
    }
    if (args.update.empty()) {
        fmt::print("{}", args.markdown ? render_markdown(results) : render_table(results));
        return kPass;
    }
    const auto doc = read_text_file(args.update);
    if (!doc) throw UsageError(fmt::format("--update {}: cannot be read", args.update));
    // A walkthrough's section names its lab: only that lab's rows.
    const std::string updated =
        replace_generated_section(*doc, render_markdown(results_of_lab(results, section_lab(*doc))), args.update);
    if (updated == *doc) {
        fmt::print("{} is up to date with {}\n", args.update, args.report);
        return kPass;
    }
    write_text_file(args.update, updated);
    fmt::print("Rewrote the generated section of {} from {}\n", args.update, args.report);
    return kPass;
}

}  // namespace hpclab::cli
