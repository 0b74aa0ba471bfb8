// The results of one `hpclab bench`: where they were measured (the header)
// and every row. Written as JSON (and CSV) by the bench, read back by
// `hpclab bench --report` to render tables without a GPU: the docs'
// performance page is such a rendering of a committed results file.
#pragma once

#include "bench/row.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace hpclab {

// A later run whose rows replaced a lab's in the file (a lab added after
// the run the header names, measured on its own): where those rows were
// measured, so that a rendering names their run and not the header's.
struct BenchSupplement {
    std::vector<std::string> labs;
    std::string gpu, gpu_uuid, date, commit, command, note;
    double copy_gb_per_s = 0;
};

struct BenchHeader {
    std::string gpu, gpu_uuid, driver, nvcc, architectures;
    double copy_gb_per_s = 0;  // the device copy's bandwidth, GB/s (the best of the labs' measurements)
    std::string date;       // UTC, ISO 8601
    std::string commit;     // the commit hpclab was built from ("-dirty": with changes); empty: unknown
    // Tracked files that differed from the checkout's commit when the bench
    // ran (it compiles the variants then): none, when it measured the commit.
    std::vector<std::string> changed_files;
    std::string command;    // the command line that measured
    bool complete = true;   // false: written while the bench ran, or it stopped early
    std::vector<BenchSupplement> supplements;
};

// The later run a lab's rows come from; null: the header's run.
const BenchSupplement* supplement_of(const BenchHeader& header, const std::string& lab);

struct BenchResults {
    BenchHeader header;
    std::vector<BenchRow> rows;
};

inline constexpr std::string_view kResultsFormat = "hpclab-bench-results";
inline constexpr int kResultsVersion = 1;

nlohmann::json results_to_json(const BenchResults& results);
// `where` (the file) starts every error message; throws BenchInputError.
BenchResults results_from_json(const nlohmann::json& doc, const std::string& where);

// A results file: missing, unreadable, binary or malformed is a
// BenchInputError that names the file.
BenchResults read_results_file(const std::filesystem::path& file);
// Written whole or not at all (a temporary file renamed into place); a
// std::runtime_error when it cannot be.
void write_results_file(const std::filesystem::path& file, const BenchResults& results);

// Every row, one per line, with a header line; numbers not measured are empty.
std::string results_csv(const std::vector<BenchRow>& rows);
void write_text_file(const std::filesystem::path& file, const std::string& text);

}  // namespace hpclab
