// hpclab bench --report: a results file written by `hpclab bench --json`,
// rendered again without a GPU: as the terminal's table, as markdown, into
// the generated parts of documents (--update: the table of
// docs/performance.md and each walkthrough, the figures quoted in their
// prose), or as plots (--plot <folder>: an SVG per lab task, docs/figures/bench/).
#include "commands.h"

#include "bench/figures.h"
#include "bench/metrics.h"
#include "bench/plot.h"
#include "bench/render.h"

#include <fmt/format.h>

namespace hpclab::cli {

namespace fs = std::filesystem;

namespace {

int update_documents(const BenchArgs& args, const BenchResults& results)
{
    const std::vector<RegeneratedDocument> docs = regenerate_documents(args.update, results);
    for (const auto& doc : docs)
        if (!doc.changed) fmt::print("{} is up to date with {}\n", doc.file.string(), args.report);
    for (const auto& doc : docs)
        if (doc.changed) {
            write_text_file(doc.file, doc.text);
            fmt::print("Rewrote the generated parts of {} from {}\n", doc.file.string(), args.report);
        }
    return kPass;
}

int draw_plots(const BenchArgs& args, const BenchResults& results)
{
    std::error_code ec;
    fs::create_directories(args.plot, ec);
    if (ec) throw UsageError(fmt::format("--plot {}: cannot be made: {}", args.plot, ec.message()));
    for (const auto& [name, svg] : render_plots(results)) {
        write_text_file(fs::path(args.plot) / name, svg);
        fmt::print("{}\n", (fs::path(args.plot) / name).string());
    }
    return kPass;
}

}  // namespace

int cmd_bench_report(const BenchArgs& args)
{
    // The measuring options make no sense for a file already measured.
    if (!args.labs.empty() || !args.task.empty() || !args.variants.empty() || !args.sizes.empty() || args.reps ||
        args.quick || !args.variants_dir.empty() || args.build_only || !args.csv.empty() || !args.json.empty())
        throw UsageError("--report renders a results file: give it alone, or with --markdown, --update <documents> "
                         "or --plot <folder>");
    BenchResults results = read_results_file(args.report);
    // The figures again from the rows: a file written by hand, or by an
    // older hpclab, renders as one the bench writes now.
    compute_metrics(results.rows, results.header.gpu);
    if (!args.plot.empty()) {
        if (!args.update.empty() || args.markdown) throw UsageError("--plot draws the pictures alone: leave out --update and --markdown");
        return draw_plots(args, results);
    }
    if (!args.update.empty()) return update_documents(args, results);
    fmt::print("{}", args.markdown ? render_markdown(results) : render_table(results));
    return kPass;
}

}  // namespace hpclab::cli
