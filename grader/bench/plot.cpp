#include "bench/plot.h"

#include "bench/render.h"
#include "util/escape.h"
#include "util/text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace hpclab {

namespace {

constexpr double kLeft = 70, kTop = 40, kWidth = 520, kHeight = 260;
const char* const kColours[] = {"#4a6fb5", "#2a7a4a", "#c0392b", "#8e44ad", "#d68910", "#17a589", "#555555"};

double throughput(const BenchRow& r) { return r.compute_bound() ? r.gflops : r.gbps; }

// A round step for the y axis: 1, 2 or 5 times a power of ten.
double nice_step(double max)
{
    const double raw = max / 5, base = std::pow(10, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * base) return m * base;
    return 10 * base;
}

struct Series {
    std::string variant, title;
    bool ceiling = false;
    std::map<std::size_t, double> points;  // size index -> throughput
};

std::string plot_one(const std::string& lab, const std::string& task, const std::vector<const RowGroup*>& sizes)
{
    std::vector<Series> series;
    // One unit a plot: a compute-bound task's in flops, its copy row (a
    // bandwidth, not the ceiling of its flops) left out.
    bool compute = false;
    for (const RowGroup* g : sizes)
        for (const BenchRow* r : g->rows) compute = compute || r->compute_bound();
    for (std::size_t i = 0; i < sizes.size(); ++i)
        for (const BenchRow* r : sizes[i]->rows) {
            if (!r->timed() || throughput(*r) <= 0 || r->compute_bound() != compute) continue;
            auto it = std::find_if(series.begin(), series.end(), [&](const Series& s) { return s.variant == r->variant; });
            if (it == series.end()) {
                series.push_back({r->variant, r->title, r->kind == "library" || r->variant == kCopyVariantId, {}});
                it = series.end() - 1;
            }
            it->points[i] = throughput(*r);
        }
    double max = 1;
    for (const Series& s : series)
        for (const auto& [i, v] : s.points) max = std::max(max, v);
    const double step = nice_step(max), top = std::ceil(max / step) * step;
    const auto x_of = [&](std::size_t i) { return kLeft + (sizes.size() < 2 ? kWidth / 2 : kWidth * i / (sizes.size() - 1)); };
    const auto y_of = [&](double v) { return kTop + kHeight * (1 - v / top); };
    const std::string unit = compute ? "GFLOP/s" : "GB/s";

    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1150\" height=\"{:.0f}\" font-family=\"sans-serif\" "
        "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        "<text x=\"{:.0f}\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{} / {}: {} against size</text>\n",
        kTop + kHeight + 70, kLeft, for_svg(lab), for_svg(task), unit);
    for (double v = 0; v <= top + step / 2; v += step)
        svg += fmt::format("<line x1=\"{0:.0f}\" y1=\"{1:.1f}\" x2=\"{2:.0f}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>"
                           "<text x=\"{3:.0f}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:g}</text>\n",
                           kLeft, y_of(v), kLeft + kWidth, kLeft - 6, y_of(v) + 4, v);
    for (std::size_t i = 0; i < sizes.size(); ++i)
        svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.0f}\" text-anchor=\"middle\">{}</text>\n", x_of(i),
                           kTop + kHeight + 20, for_svg(format_params(sizes[i]->params)));
    const bool has_ceiling = std::any_of(series.begin(), series.end(), [](const Series& s) { return s.ceiling; });
    svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" fill=\"#555\">{} (higher is better){}</text>\n", kLeft,
                       kTop + kHeight + 46, unit,
                       has_ceiling ? "; the dashed line is the ceiling the page's table measures against" : "");
    for (std::size_t k = 0; k < series.size(); ++k) {
        const Series& s = series[k];
        const char* colour = s.ceiling ? "#888888" : kColours[k % std::size(kColours)];
        std::string path;
        for (const auto& [i, v] : s.points) path += fmt::format("{}{:.1f},{:.1f}", path.empty() ? "" : " ", x_of(i), y_of(v));
        svg += fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", path, colour,
                           s.ceiling ? " stroke-dasharray=\"6,4\"" : "");
        for (const auto& [i, v] : s.points)
            svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\"><title>{}: {:.4g} {}</title>"
                               "</circle>\n",
                               x_of(i), y_of(v), colour, for_svg(s.variant), v, unit);
        const double ly = kTop + 10 + 20 * k;
        svg += fmt::format("<line x1=\"{0:.0f}\" y1=\"{1:.0f}\" x2=\"{2:.0f}\" y2=\"{1:.0f}\" stroke=\"{3}\" "
                           "stroke-width=\"2\"{4}/><text x=\"{5:.0f}\" y=\"{6:.0f}\">{7}</text>\n",
                           kLeft + kWidth + 20, ly, kLeft + kWidth + 44, colour,
                           s.ceiling ? " stroke-dasharray=\"6,4\"" : "", kLeft + kWidth + 50, ly + 4,
                           for_svg(s.variant == s.title ? s.variant : s.variant + ": " + shortened(s.title, 60)));
    }
    return svg + "</svg>\n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> render_plots(const BenchResults& results)
{
    const std::vector<RowGroup> groups = group_rows(results.rows);
    std::vector<std::pair<std::string, std::string>> out;
    std::vector<std::pair<std::string, std::string>> order;  // lab, task, as they first appear
    for (const RowGroup& g : groups)
        if (std::find(order.begin(), order.end(), std::pair(g.lab, g.task)) == order.end()) order.emplace_back(g.lab, g.task);
    for (const auto& [lab, task] : order) {
        std::vector<const RowGroup*> sizes;
        for (const RowGroup& g : groups)
            if (g.lab == lab && g.task == task) sizes.push_back(&g);
        out.emplace_back(fmt::format("bench-{}-{}.svg", lab, task), plot_one(lab, task, sizes));
    }
    return out;
}

}  // namespace hpclab
