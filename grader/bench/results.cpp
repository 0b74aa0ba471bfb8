#include "bench/results.h"

#include "util/text_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <unistd.h>

namespace hpclab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Numbers not measured are null in the file, 0 in a row.
json number_or_null(double v) { return v != 0 ? json(v) : json(nullptr); }

json row_to_json(const BenchRow& r)
{
    return {{"lab", r.lab},
            {"task", r.task},
            {"variant", r.variant},
            {"kind", r.kind},
            {"title", r.title},
            {"params", r.params},
            {"bytes", r.bytes},
            {"flops", r.flops},
            {"reps", r.reps},
            {"median_ms", number_or_null(r.median_ms)},
            {"min_ms", number_or_null(r.min_ms)},
            {"max_ms", number_or_null(r.max_ms)},
            {"gbps", number_or_null(r.gbps)},
            {"gflops", number_or_null(r.gflops)},
            {"fraction_of_limit", number_or_null(r.fraction_of_limit)},
            {"limit_low", number_or_null(r.limit_low)},
            {"limit_high", number_or_null(r.limit_high)},
            {"limit_name", r.limit_name},
            {"ratio_to_library", number_or_null(r.ratio_to_library)},
            {"library_low", number_or_null(r.library_low)},
            {"library_high", number_or_null(r.library_high)},
            {"library", r.library},
            {"status", std::string(status_name(r.status))},
            {"message", r.message}};
}

// Fields of one object of the file, each error naming the file and the field.
class Fields {
public:
    Fields(const json& j, std::string where) : j_(j), where_(std::move(where))
    {
        if (!j_.is_object()) fail("", "must be a JSON object");
    }
    [[noreturn]] void fail(const std::string& key, const std::string& what) const
    {
        throw BenchInputError(fmt::format("{}{}: {}", where_, key.empty() ? "" : "." + key, what));
    }
    const json& at(const std::string& key) const
    {
        if (!j_.contains(key)) fail(key, "missing");
        return j_.at(key);
    }
    std::string text(const std::string& key, bool required = true) const
    {
        if (!required && !j_.contains(key)) return "";
        const json& v = at(key);
        if (!v.is_string()) fail(key, "must be a string");
        return v.get<std::string>();
    }
    double number(const std::string& key) const  // null: not measured
    {
        if (!j_.contains(key) || j_.at(key).is_null()) return 0;
        const json& v = j_.at(key);
        if (!v.is_number()) fail(key, "must be a number or null");
        return v.get<double>();
    }
    std::vector<std::string> texts(const std::string& key) const  // absent: none
    {
        std::vector<std::string> out;
        if (!j_.contains(key)) return out;
        if (!j_.at(key).is_array()) fail(key, "must be an array of strings");
        for (const json& v : j_.at(key)) {
            if (!v.is_string()) fail(key, "must be an array of strings");
            out.push_back(v.get<std::string>());
        }
        return out;
    }
    bool flag(const std::string& key, bool fallback) const
    {
        if (!j_.contains(key)) return fallback;
        if (!j_.at(key).is_boolean()) fail(key, "must be true or false");
        return j_.at(key).get<bool>();
    }
    const std::string& where() const { return where_; }

private:
    const json& j_;
    std::string where_;
};

BenchRow row_from_json(const json& j, const std::string& where)
{
    const Fields f(j, where);
    BenchRow r;
    r.lab = f.text("lab");
    r.task = f.text("task");
    r.variant = f.text("variant");
    r.kind = f.text("kind");
    r.title = f.text("title", false);
    const json& params = f.at("params");
    if (!params.is_object()) f.fail("params", "must be an object of integers");
    for (const auto& [name, value] : params.items()) {
        if (!value.is_number_integer()) f.fail("params." + name, "must be an integer");
        r.params[name] = value.get<std::int64_t>();
    }
    r.bytes = f.number("bytes");
    r.flops = f.number("flops");
    r.reps = static_cast<int>(f.number("reps"));
    r.median_ms = f.number("median_ms");
    r.min_ms = f.number("min_ms");
    r.max_ms = f.number("max_ms");
    r.gbps = f.number("gbps");
    r.gflops = f.number("gflops");
    r.fraction_of_limit = f.number("fraction_of_limit");
    r.limit_low = f.number("limit_low");  // absent from files written before the spreads: none
    r.limit_high = f.number("limit_high");
    r.limit_name = f.text("limit_name", false);
    r.ratio_to_library = f.number("ratio_to_library");
    r.library_low = f.number("library_low");
    r.library_high = f.number("library_high");
    r.library = f.text("library", false);
    const std::string status = f.text("status");
    const auto s = status_from_name(status);
    if (!s) f.fail("status", "unknown status '" + status + "'");
    r.status = *s;
    r.message = f.text("message", false);
    return r;
}

std::string csv_cell(const std::string& s)
{
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string csv_number(double v) { return v != 0 ? fmt::format("{}", v) : ""; }

}  // namespace

const BenchSupplement* supplement_of(const BenchHeader& header, const std::string& lab)
{
    for (const BenchSupplement& s : header.supplements)
        if (std::find(s.labs.begin(), s.labs.end(), lab) != s.labs.end()) return &s;
    return nullptr;
}

namespace {

json supplement_to_json(const BenchSupplement& s)
{
    return {{"labs", s.labs},         {"gpu", s.gpu},         {"gpu_uuid", s.gpu_uuid},
            {"date", s.date},         {"commit", s.commit},   {"copy_gbps", number_or_null(s.copy_gb_per_s)},
            {"command", s.command},   {"note", s.note}};
}

BenchSupplement supplement_from_json(const json& j, const std::string& where)
{
    const Fields f(j, where);
    BenchSupplement s;
    s.labs = f.texts("labs");
    if (s.labs.empty()) f.fail("labs", "must name the labs whose rows this run measured");
    s.gpu = f.text("gpu");
    s.gpu_uuid = f.text("gpu_uuid", false);
    s.date = f.text("date", false);
    s.commit = f.text("commit", false);
    s.copy_gb_per_s = f.number("copy_gbps");
    s.command = f.text("command", false);
    s.note = f.text("note", false);
    return s;
}

}  // namespace

json results_to_json(const BenchResults& results)
{
    const BenchHeader& h = results.header;
    json supplements = json::array();
    for (const BenchSupplement& s : h.supplements) supplements.push_back(supplement_to_json(s));
    json rows = json::array();
    for (const auto& r : results.rows) rows.push_back(row_to_json(r));
    return {{"format", std::string(kResultsFormat)},
            {"version", kResultsVersion},
            {"header",
             {{"gpu", h.gpu},
              {"gpu_uuid", h.gpu_uuid},
              {"driver", h.driver},
              {"nvcc", h.nvcc},
              {"architectures", h.architectures},
              {"copy_gbps", number_or_null(h.copy_gb_per_s)},
              {"date", h.date},
              {"commit", h.commit},
              {"changed_files", h.changed_files},
              {"command", h.command},
              {"complete", h.complete},
              {"supplements", supplements}}},
            {"rows", rows}};
}

BenchResults results_from_json(const json& doc, const std::string& where)
{
    const Fields top(doc, where);
    if (!doc.contains("format") || doc.at("format") != std::string(kResultsFormat))
        top.fail("format", fmt::format("missing or not \"{}\": not a results file of hpclab bench", kResultsFormat));
    if (!doc.contains("version") || doc.at("version") != kResultsVersion)
        top.fail("version", fmt::format("this hpclab reads version {}", kResultsVersion));
    BenchResults out;
    const Fields h(top.at("header"), where + ".header");
    out.header.gpu = h.text("gpu");
    out.header.gpu_uuid = h.text("gpu_uuid", false);
    out.header.driver = h.text("driver", false);
    out.header.nvcc = h.text("nvcc", false);
    out.header.architectures = h.text("architectures", false);
    out.header.copy_gb_per_s = h.number("copy_gbps");
    out.header.date = h.text("date", false);
    out.header.commit = h.text("commit", false);
    out.header.changed_files = h.texts("changed_files");
    out.header.command = h.text("command", false);
    out.header.complete = h.flag("complete", true);
    if (doc.at("header").contains("supplements")) {
        const json& sups = h.at("supplements");
        if (!sups.is_array()) h.fail("supplements", "must be an array");
        for (std::size_t i = 0; i < sups.size(); ++i)
            out.header.supplements.push_back(supplement_from_json(sups[i], fmt::format("{}.header.supplements[{}]", where, i)));
    }
    const json& rows = top.at("rows");
    if (!rows.is_array()) top.fail("rows", "must be an array");
    for (std::size_t i = 0; i < rows.size(); ++i)
        out.rows.push_back(row_from_json(rows[i], fmt::format("{}.rows[{}]", where, i)));
    return out;
}

BenchResults read_results_file(const fs::path& file)
{
    const std::string name = file.string();
    std::error_code ec;
    if (!fs::exists(file, ec)) throw BenchInputError(name + ": no such file");
    if (fs::is_directory(file, ec)) throw BenchInputError(name + ": a folder, not a results file");
    const auto text = read_text_file(file);
    if (!text) throw BenchInputError(name + ": cannot be read");
    if (text->find('\0') != std::string::npos)
        throw BenchInputError(name + ": a binary file, not a results file of hpclab bench (JSON)");
    json doc;
    try {
        doc = json::parse(*text);
    } catch (const json::parse_error& e) {
        throw BenchInputError(fmt::format("{}: not valid JSON, so not a results file of hpclab bench ({})", name,
                                          e.what()));
    }
    return results_from_json(doc, name);
}

void write_text_file(const fs::path& file, const std::string& text)
{
    const fs::path tmp = file.string() + fmt::format(".tmp-{}", getpid());
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out.flush()) throw std::runtime_error("cannot write " + tmp.string());
    }
    std::error_code ec;
    fs::rename(tmp, file, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw std::runtime_error("cannot write " + file.string());
    }
}

void write_results_file(const fs::path& file, const BenchResults& results)
{
    write_text_file(file, results_to_json(results).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

std::string results_csv(const std::vector<BenchRow>& rows)
{
    std::string out = "lab,task,variant,kind,title,params,bytes,flops,reps,median_ms,min_ms,max_ms,gbps,gflops,"
                      "fraction_of_limit,limit_name,ratio_to_library,library,status,message\n";
    for (const auto& r : rows) {
        const std::vector<std::string> cells = {
            csv_cell(r.lab), csv_cell(r.task), csv_cell(r.variant), csv_cell(r.kind), csv_cell(r.title),
            csv_cell(format_params(r.params)), csv_number(r.bytes), csv_number(r.flops),
            r.reps ? std::to_string(r.reps) : "", csv_number(r.median_ms), csv_number(r.min_ms),
            csv_number(r.max_ms), csv_number(r.gbps), csv_number(r.gflops), csv_number(r.fraction_of_limit),
            csv_cell(r.limit_name), csv_number(r.ratio_to_library), csv_cell(r.library),
            std::string(status_name(r.status)), csv_cell(r.message)};
        out += fmt::format("{}\n", fmt::join(cells, ","));
    }
    return out;
}

}  // namespace hpclab
