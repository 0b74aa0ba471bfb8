#include "student/progress.h"
#include "student/state_dir.h"
#include "util/text_file.h"

#include "util/clock_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kFormatVersion = 1;
constexpr std::size_t kEvidenceBytes = 4096;  // of a finding's message kept in the progress

// Why a progress file cannot be read: becomes the warning's text.
struct NotProgress : std::runtime_error {
    using std::runtime_error::runtime_error;
};

CheckEvidence parse_evidence(const std::string& id, const json& j)
{
    if (!j.is_object()) throw NotProgress("labs." + id + ".last_evidence is not an object");
    CheckEvidence e;
    for (auto [key, to] : {std::pair {"task", &e.task}, {"verdict", &e.verdict}, {"where", &e.where},
                           {"message", &e.message}, {"hint", &e.hint}}) {
        if (!j.contains(key)) continue;
        if (!j.at(key).is_string()) throw NotProgress("labs." + id + ".last_evidence." + key + " is not a string");
        *to = j.at(key).get<std::string>();
    }
    return e;
}

LabProgress parse_lab(const std::string& id, const json& j)
{
    if (!j.is_object()) throw NotProgress("labs." + id + " is not an object");
    LabProgress p;
    auto field = [&](const char* key) -> const json* { return j.contains(key) ? &j.at(key) : nullptr; };
    if (const json* v = field("hints_shown")) {
        if (!v->is_number_integer() || v->get<std::int64_t>() < 0 || v->get<std::int64_t>() > 1000)
            throw NotProgress("labs." + id + ".hints_shown is not a count");
        p.hints_shown = v->get<int>();
    }
    if (const json* v = field("last_verdict")) {
        if (!v->is_string()) throw NotProgress("labs." + id + ".last_verdict is not a string");
        p.last_verdict = v->get<std::string>();
    }
    if (const json* v = field("solved")) {
        if (!v->is_boolean()) throw NotProgress("labs." + id + ".solved is not true or false");
        p.solved = v->get<bool>();
    }
    if (const json* v = field("last_check")) {
        if (!v->is_string()) throw NotProgress("labs." + id + ".last_check is not a string");
        p.last_check = v->get<std::string>();
    }
    if (const json* v = field("evidence_shown")) {
        if (!v->is_boolean()) throw NotProgress("labs." + id + ".evidence_shown is not true or false");
        p.evidence_shown = v->get<bool>();
    }
    if (const json* v = field("last_evidence")) p.last_evidence = parse_evidence(id, *v);
    return p;
}

std::map<std::string, LabProgress, std::less<>> parse(const std::string& text)
{
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw NotProgress("not valid JSON, at byte " + std::to_string(e.byte));
    }
    if (!j.is_object()) throw NotProgress("not a JSON object");
    std::map<std::string, LabProgress, std::less<>> labs;
    if (!j.contains("labs")) return labs;
    const json& l = j.at("labs");
    if (!l.is_object()) throw NotProgress("\"labs\" is not an object");
    for (const auto& [id, value] : l.items()) labs[id] = parse_lab(id, value);
    return labs;
}

std::string to_text(const std::map<std::string, LabProgress, std::less<>>& labs)
{
    // Keys in this order, not sorted: the file is meant to be read by people too.
    nlohmann::ordered_json l = nlohmann::ordered_json::object();
    for (const auto& [id, p] : labs) {
        l[id] = {{"solved", p.solved},
                 {"last_verdict", p.last_verdict},
                 {"last_check", p.last_check},
                 {"hints_shown", p.hints_shown}};
        if (!p.last_evidence.empty()) {
            const CheckEvidence& e = p.last_evidence;
            l[id]["last_evidence"] = {{"task", e.task}, {"verdict", e.verdict}, {"where", e.where},
                                      {"message", e.message}, {"hint", e.hint}};
            l[id]["evidence_shown"] = p.evidence_shown;
        }
    }
    // The evidence quotes the student's program, whose bytes may be anything:
    // what is not UTF-8 is saved as U+FFFD rather than failing the save.
    return nlohmann::ordered_json {{"version", kFormatVersion}, {"labs", l}}.dump(
               2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
           "\n";
}

// Moves the unreadable file to the first free name among progress.json.corrupt,
// progress.json.corrupt.2, ...: link() never replaces an existing file, so an
// older copy is never lost. Returns the name, or empty when it could not.
fs::path move_aside(const fs::path& file)
{
    for (int i = 1; i < 1000; ++i) {
        fs::path aside = file;
        aside += i == 1 ? ".corrupt" : ".corrupt." + std::to_string(i);
        if (::link(file.c_str(), aside.c_str()) == 0) {
            ::unlink(file.c_str());
            return aside;
        }
        if (errno == EEXIST) continue;
        // A file system without hard links: a rename, to a name seen free just now.
        std::error_code ec;
        if (fs::exists(aside, ec) || ec) continue;
        fs::rename(file, aside, ec);
        return ec ? fs::path {} : aside;
    }
    return {};
}

void write_all(int fd, const std::string& text, const fs::path& name)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw std::runtime_error(fmt::format("cannot write {}: {}", name.string(), std::strerror(errno)));
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace

void warn_on_stderr(const std::string& message) { fmt::print(stderr, "hpclab: {}\n", message); }

fs::path Progress::file_of(const fs::path& root) { return state_dir(root) / "progress.json"; }

Progress Progress::load(const fs::path& root, const ProgressWarning& warn)
{
    Progress p;
    p.file_ = file_of(root);
    const auto text = read_text_file(p.file_);
    if (!text) return p;  // no progress yet
    try {
        p.labs_ = parse(*text);
    } catch (const NotProgress& e) {
        // Starting anew silently would lose the student's record for good, and
        // saving over the file later would too: keep it where they can look.
        const fs::path aside = move_aside(p.file_);
        if (aside.empty())
            warn(fmt::format("{} is not valid progress ({}), and it could not be kept aside: "
                             "starting with no progress",
                             p.file_.string(), e.what()));
        else
            warn(fmt::format("{} is not valid progress ({}): kept it as {} and started with no progress",
                             p.file_.string(), e.what(), aside.filename().string()));
    }
    return p;
}

void Progress::save() const
{
    fs::create_directories(file_.parent_path());
    fs::path tmp = file_;
    tmp += ".tmp-" + std::to_string(::getpid());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) throw std::runtime_error(fmt::format("cannot write {}: {}", tmp.string(), std::strerror(errno)));
    try {
        write_all(fd, to_text(labs_), tmp);
        ::fsync(fd);  // the rename must not publish a file whose bytes are still in flight
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    ::close(fd);
    if (std::rename(tmp.c_str(), file_.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw std::runtime_error(fmt::format("cannot replace {}: {}", file_.string(), std::strerror(err)));
    }
}

LabProgress& Progress::lab(std::string_view id)
{
    auto it = labs_.find(id);
    if (it == labs_.end()) it = labs_.emplace(std::string(id), LabProgress {}).first;
    return it->second;
}

const LabProgress* Progress::find(std::string_view id) const
{
    const auto it = labs_.find(id);
    return it == labs_.end() ? nullptr : &it->second;
}

void record_check(const fs::path& root, std::string_view lab, std::string_view verdict_name, bool passed,
                  const CheckEvidence& evidence, const ProgressWarning& warn)
{
    Progress p = Progress::load(root, warn);
    LabProgress& l = p.lab(lab);
    l.last_verdict = std::string(verdict_name);
    l.solved = l.solved || passed;
    l.last_check = iso_time_now();
    l.last_evidence = passed ? CheckEvidence {} : evidence;
    // What `hpclab hint` shows of it: a finding quoting a program's output
    // could be a megabyte, which the progress file has no use for.
    if (l.last_evidence.message.size() > kEvidenceBytes) l.last_evidence.message.resize(kEvidenceBytes);
    l.evidence_shown = false;
    p.save();
}

bool evidence_hint_due(const LabProgress& l)
{
    return !l.last_evidence.empty() && l.last_verdict != "pass" && !l.evidence_shown;
}

std::string iso_time_now() { return now_text("%Y-%m-%dT%H:%M:%SZ", Zone::utc); }

}  // namespace hpclab
