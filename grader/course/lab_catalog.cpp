#include "course/lab_catalog.h"
#include "course/verdict.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace hpclab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Reads fields of one JSON object, naming the file and the path of the field
// in every error, so that a typo in lab.json is found at once.
class Reader {
public:
    Reader(const json& j, std::string where) : j_(j), where_(std::move(where))
    {
        if (!j_.is_object()) fail("", "must be a JSON object");
    }

    [[noreturn]] void fail(const std::string& key, const std::string& what) const
    {
        throw CatalogError(where_ + (key.empty() ? "" : "." + key) + ": " + what);
    }
    bool has(const std::string& key) const { return j_.contains(key) && !j_.at(key).is_null(); }
    const json& at(const std::string& key) const
    {
        if (!has(key)) fail(key, "missing");
        return j_.at(key);
    }
    std::string str(const std::string& key) const
    {
        const json& v = at(key);
        if (!v.is_string() || v.get<std::string>().empty()) fail(key, "must be a non-empty string");
        return v.get<std::string>();
    }
    std::string str_or(const std::string& key, std::string fallback) const { return has(key) ? str(key) : fallback; }
    std::int64_t integer(const std::string& key) const
    {
        const json& v = at(key);
        if (!v.is_number_integer()) fail(key, "must be an integer");
        return v.get<std::int64_t>();
    }
    double number(const std::string& key) const
    {
        const json& v = at(key);
        if (!v.is_number()) fail(key, "must be a number");
        return v.get<double>();
    }
    double number_or(const std::string& key, double fallback) const { return has(key) ? number(key) : fallback; }
    std::int64_t integer_or(const std::string& key, std::int64_t fallback) const
    {
        return has(key) ? integer(key) : fallback;
    }
    bool boolean_or(const std::string& key, bool fallback) const
    {
        if (!has(key)) return fallback;
        if (!at(key).is_boolean()) fail(key, "must be true or false");
        return at(key).get<bool>();
    }
    const json& array(const std::string& key) const
    {
        const json& v = at(key);
        if (!v.is_array() || v.empty()) fail(key, "must be a non-empty array");
        return v;
    }
    Reader child(const std::string& key) const { return Reader(at(key), where_ + "." + key); }
    Reader element(const std::string& key, std::size_t i) const
    {
        return Reader(at(key).at(i), where_ + "." + key + "[" + std::to_string(i) + "]");
    }
    const std::string& where() const { return where_; }
    const json& raw() const { return j_; }

private:
    const json& j_;
    std::string where_;
};

Params read_params(const Reader& r, const LabInfo& lab, const std::set<std::string>& skip)
{
    Params p;
    for (const auto& [key, value] : r.raw().items()) {
        if (skip.count(key)) continue;
        if (!lab.find_param(key)) r.fail(key, "is not a parameter of this lab (see \"params\")");
        if (!value.is_number_integer()) r.fail(key, "must be an integer");
        p[key] = value.get<std::int64_t>();
    }
    return p;
}

void check_param_values(const Reader& r, const LabInfo& lab, const Params& p)
{
    for (const auto& info : lab.params) {
        const auto it = p.find(info.name);
        if (it == p.end()) r.fail(info.name, "missing (every size gives every parameter)");
        if (it->second < info.min || it->second > info.max)
            r.fail(info.name, "is " + std::to_string(it->second) + ", outside [" + std::to_string(info.min) + ", " +
                                  std::to_string(info.max) + "]");
    }
}

Tolerance read_tolerance(const Reader& r)
{
    Tolerance t;
    const std::string kind = r.str("kind");
    if (kind == "exact") {
        t.kind = Tolerance::Kind::exact;
    } else if (kind == "relative") {
        t.kind = Tolerance::Kind::relative;
        t.rtol = r.number("rtol");
        t.atol = r.number_or("atol", 0.0);
        if (t.rtol <= 0 || t.atol < 0) r.fail("rtol", "must be positive (and atol not negative)");
    } else {
        r.fail("kind", "must be \"exact\" or \"relative\"");
    }
    return t;
}

// ["n", 1, 1]: each a size parameter of the lab, a positive number, or "*".
std::vector<std::string> read_shape(const Reader& r, const std::string& key, const LabInfo& lab)
{
    if (!r.has(key)) return {};
    const json& v = r.at(key);
    if (!v.is_array() || v.size() != 3) r.fail(key, "must be an array of 3 entries (x, y, z)");
    std::vector<std::string> shape;
    for (const auto& e : v) {
        if (e.is_number_integer() && e.get<std::int64_t>() > 0) shape.push_back(std::to_string(e.get<std::int64_t>()));
        else if (e.is_string() && (e == "*" || lab.find_param(e.get<std::string>()))) shape.push_back(e.get<std::string>());
        else r.fail(key, "entries must be positive numbers, size parameters of the lab, or \"*\"");
    }
    return shape;
}

// A key of lab.json from before `invariant` held for every task: refused,
// with what to write instead.
void refuse_key_an_invariant_replaced(const Reader& r, const std::string& key, const std::string& invariant)
{
    if (r.has(key))
        r.fail(key, "is gone: every task is held to the invariant \"" + invariant + "\" (hpclab list <lab> shows the "
                    "invariants); remove the key, or opt a task out with \"opt_out\": {\"" + invariant +
                    "\": \"why\"}");
}

// The keys each of which was one lesson fact (before "shows" named them for
// every lab): refused, with the entry to write instead.
void refuse_key_a_fact_replaced(const Reader& r)
{
    static const std::map<std::string, std::string> kNowShown = {
        {"two_d", "\"launch_2d\""},
        {"prints", "\"printf_in_kernel\""},
        {"shared_reads_in_loop", "\"shared_reads_in_loop\""},
        {"no_device_malloc", "\"no_device_malloc\""},
        {"reads_constant_bank", "\"constant_bank_reads\""},
        {"pinned", "\"pinned_copies\""},
        {"overlap_from", "{\"fact\": \"copies_overlap_kernels\", \"from\": {...}}"},
        {"max_blocks_per_sm", "{\"fact\": \"grid_fills_gpu_once\", \"blocks_per_sm\": ...}"},
    };
    for (const auto& [key, entry] : kNowShown)
        if (r.has(key)) r.fail(key, "is gone: write \"shows\": [" + entry + "] (hpclab list <lab> names the facts)");
}

std::vector<std::string> lesson_fact_names()
{
    std::vector<std::string> names;
    for (const LessonFactInfo& f : lesson_fact_table()) names.emplace_back(f.name);
    return names;
}

// One entry of "shows" (r is the "expect" it is in): a fact's name, or
// {"fact": name, "from": {"n": 64}, "blocks_per_sm": 32}.
ShownFact read_shown_fact(const Reader& r, std::size_t i, const LabInfo& lab)
{
    const json& v = r.at("shows").at(i);
    const std::string where = "shows[" + std::to_string(i) + "]";
    std::string name;
    if (v.is_string()) name = v.get<std::string>();
    else if (v.is_object() && v.contains("fact") && v.at("fact").is_string()) name = v.at("fact").get<std::string>();
    const auto fact = lesson_fact_from_name(name);
    if (!fact) {
        const std::vector<std::string> names = lesson_fact_names();
        std::string listed;
        for (const std::string& n : names) listed += (listed.empty() ? "" : ", ") + n;
        r.fail(where, "must be a lesson fact's name, or {\"fact\": name, ...}; the facts are " + listed +
                          did_you_mean(name, names));
    }
    ShownFact out {.fact = *fact};
    const LessonFactInfo& info = lesson_fact_info(*fact);
    if (v.is_object()) {
        const Reader entry = r.element("shows", i);
        if (entry.has("from")) out.from = read_params(entry.child("from"), lab, {});
        if (!out.from.empty() && info.where == ObservedIn::machine_code)
            entry.fail("from", "is for facts of a call; " + name + " is read from the program's machine code, the "
                               "same at every size");
        out.blocks_per_sm = static_cast<int>(entry.integer_or("blocks_per_sm", 0));
    }
    if (info.takes_blocks_per_sm != (out.blocks_per_sm > 0))
        r.fail(where, info.takes_blocks_per_sm ? name + " needs \"blocks_per_sm\", a positive integer"
                                               : name + " takes no \"blocks_per_sm\"");
    return out;
}

std::vector<ShownFact> read_shows(const Reader& r, const LabInfo& lab)
{
    std::vector<ShownFact> out;
    if (!r.has("shows")) return out;
    for (std::size_t i = 0; i < r.array("shows").size(); ++i) {
        ShownFact f = read_shown_fact(r, i, lab);
        for (const ShownFact& before : out)
            if (before.fact == f.fact) r.fail("shows", std::string(lesson_fact_info(f.fact).name) + " is named twice");
        out.push_back(std::move(f));
    }
    return out;
}

LaunchExpectation read_expectation(const Reader& r, const LabInfo& lab)
{
    LaunchExpectation e;
    if (r.has("kernel"))
        r.fail("kernel", "is gone: a task that launches nothing writes \"shows\": [\"no_kernel\"] and opts out of "
                         "the invariant on_gpu (\"opt_out\": {\"on_gpu\": \"why\"})");
    e.grid = read_shape(r, "grid", lab);
    e.block = read_shape(r, "block", lab);
    refuse_key_an_invariant_replaced(r, "frees", "releases");
    refuse_key_a_fact_replaced(r);
    e.shared_per_thread = static_cast<int>(r.integer_or("shared_per_thread", 0));
    e.shared_extra = static_cast<int>(r.integer_or("shared_extra", 0));
    if (e.shared_per_thread < 0 || e.shared_extra < 0) r.fail("shared_per_thread", "and shared_extra must not be negative");
    e.shows = read_shows(r, lab);
    if (r.has("one_thread_per")) {
        const json& v = r.at("one_thread_per");
        if (!v.is_array() || v.empty() || v.size() > 3) r.fail("one_thread_per", "must be an array of 1 to 3 entries (x first)");
        for (const auto& p : v) {
            if (!p.is_string() || !lab.find_param(p.get<std::string>()))
                r.fail("one_thread_per", "entries must be size parameters of the lab");
            e.one_thread_per.push_back(p.get<std::string>());
        }
    }
    return e;
}

// {"releases": "why"}: an invariant of course/invariants.h by its name, and
// the reason this task is not judged by it (shown by hpclab list <lab>).
std::map<Invariant, std::string> read_opt_outs(const Reader& r)
{
    std::map<Invariant, std::string> out;
    for (const auto& [name, why] : r.raw().items()) {
        const auto invariant = invariant_from_name(name);
        if (!invariant) r.fail(name, "is not an invariant (hpclab list <lab> names them)");
        if (!why.is_string() || why.get<std::string>().empty()) r.fail(name, "needs the reason, as a sentence");
        out[*invariant] = why.get<std::string>();
    }
    return out;
}

// "profile": the profiler's rules (course/profile_rules.h), in order; only
// where a threshold is (`timed`): the profiler runs on a file too slow for one.
std::vector<ProfileRule> read_profile_rules(const Reader& r, bool timed)
{
    if (!timed) r.fail("profile", "no \"threshold\" here: the profiler runs on a file too slow for one");
    std::vector<ProfileRule> out;
    const json& rules = r.array("profile");
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const Reader p = r.element("profile", i);
        ProfileRule rule;
        if (const auto bad = parse_profile_rule(p.str("when"), p.str("say"), rule)) p.fail("", *bad);
        out.push_back(std::move(rule));
    }
    return out;
}

TaskInfo read_task(const Reader& r, const LabInfo& lab)
{
    TaskInfo t;
    t.id = r.str("id");
    t.entry = r.str("entry");
    t.title = r.str("title");
    t.technique = r.str_or("technique", "");
    if (!t.technique.empty() && t.technique != "shared_memory" && t.technique != "warp_shuffle")
        r.fail("technique", "must be \"shared_memory\", \"warp_shuffle\" or absent");
    t.launch = r.str_or("launch", "");
    t.tolerance = read_tolerance(r.child("tolerance"));
    const json& sizes = r.array("sizes");
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const Reader s = r.element("sizes", i);
        SizeCase c;
        c.params = read_params(s, lab, {"why", "big"});
        check_param_values(s, lab, c.params);
        c.why = s.str("why");
        c.big = s.boolean_or("big", false);
        t.sizes.push_back(std::move(c));
    }
    if (r.has("racecheck")) {
        const Reader s = r.child("racecheck");
        SizeCase c;
        c.params = read_params(s, lab, {"why"});
        check_param_values(s, lab, c.params);
        c.why = s.str("why");
        t.racecheck_size = std::move(c);
    }
    const Reader demo = r.child("demo");
    t.demo = read_params(demo, lab, {});
    check_param_values(demo, lab, t.demo);
    t.timing = t.demo;
    if (r.has("timing")) {
        t.timed = true;
        const Reader timing = r.child("timing");
        t.timing_reps = static_cast<int>(timing.integer("reps"));
        if (t.timing_reps < 1 || t.timing_reps > 30) r.fail("timing.reps", "must be between 1 and 30");
        if (timing.has("size")) {
            const Reader size = timing.child("size");
            t.timing = read_params(size, lab, {});
            check_param_values(size, lab, t.timing);
        }
    }
    if (r.has("bench")) {
        if (!t.timed) r.fail("bench", "needs a \"timing\" section: only timed tasks are benchmarked");
        const Reader bench = r.child("bench");
        const json& sizes = bench.array("sizes");
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const Reader s = bench.element("sizes", i);
            Params p = read_params(s, lab, {});
            check_param_values(s, lab, p);
            t.bench_sizes.push_back(std::move(p));
        }
    }
    if (r.has("expect")) t.expect = read_expectation(r.child("expect"), lab);
    if (r.has("threshold")) {
        const Reader th = r.child("threshold");
        Threshold x;
        x.baseline = th.str("baseline");
        x.min_speedup = th.number("min_speedup");
        x.calibrated = th.boolean_or("calibrated", false);
        x.note = th.str_or("note", "");
        if (x.min_speedup <= 0) th.fail("min_speedup", "must be positive");
        x.shipped = x.min_speedup;
        t.threshold = x;
    }
    if (r.has("profile")) t.profile = read_profile_rules(r, t.threshold.has_value());
    if (r.has("points")) {
        t.points = r.number("points");
        if (t.points < 0) r.fail("points", "must be zero or more");
    }
    if (r.has("opt_out")) t.opted_out = read_opt_outs(r.child("opt_out"));
    if (t.expect.asks(LessonFact::no_kernel) && t.judged_by(Invariant::on_gpu))
        r.fail("expect.shows", "asks no_kernel, a call that launches nothing: the task opts out of the invariant "
                               "on_gpu too (\"opt_out\": {\"on_gpu\": \"why\"})");
    return t;
}

std::vector<ParamInfo> read_params(const Reader& params)
{
    std::vector<ParamInfo> out;
    for (const auto& [name, value] : params.raw().items()) {
        const Reader p(value, params.where() + "." + name);
        ParamInfo info;
        info.name = name;
        info.help = p.str("help");
        info.min = p.integer("min");
        info.max = p.integer("max");
        // 0 is a share or a count of something optional (histogram's hot
        // percent); a buffer's length is at least 1 by its own lab.json's min.
        if (info.min < 0 || info.max < info.min) p.fail("min", "must satisfy 0 <= min <= max");
        out.push_back(std::move(info));
    }
    return out;
}

std::vector<std::string> read_hints(const Reader& r)
{
    std::vector<std::string> out;
    const json& hints = r.array("hints");
    for (std::size_t i = 0; i < hints.size(); ++i) {
        if (!hints[i].is_string() || hints[i].get<std::string>().empty())
            r.fail("hints[" + std::to_string(i) + "]", "must be a non-empty string");
        out.push_back(hints[i].get<std::string>());
    }
    return out;
}

// lab.json "program" of a lab of the kind "program".
ProgramRules read_program_rules(const Reader& r)
{
    ProgramRules p;
    p.kernel_header = r.str("kernel_header");
    p.time_factor = r.number("time_factor");
    p.launch_fraction = r.number("launch_fraction");
    p.calibrated = r.boolean_or("calibrated", false);
    p.note = r.str("note");
    if (p.time_factor <= 1) r.fail("time_factor", "must be more than 1 (a factor either way)");
    if (p.launch_fraction <= 0 || p.launch_fraction >= 1) r.fail("launch_fraction", "must lie between 0 and 1");
    return p;
}

// lab.json "mistakes": each names a task of the lab and a verdict, once.
std::vector<Mistake> read_mistakes(const Reader& r, const LabInfo& lab)
{
    std::vector<Mistake> out;
    if (!r.has("mistakes")) return out;
    const json& list = r.array("mistakes");
    std::set<std::string> ids;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Reader m = r.element("mistakes", i);
        Mistake x {m.str("id"), m.str("task"), m.str("did"), m.str("fails_at"), m.str("verdict"), m.str("message")};
        if (x.id.empty() || x.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
            m.fail("id", "must be a file name of lowercase letters, digits and _ (tests/broken/" + lab.id + "/<id>.cu)");
        if (!ids.insert(x.id).second) m.fail("id", "\"" + x.id + "\" twice");
        if (!lab.find_task(x.task)) m.fail("task", "\"" + x.task + "\" is not a task of the lab");
        if (!verdict_from_name(x.verdict) || x.verdict == "pass" || x.verdict == "not_run")
            m.fail("verdict", "\"" + x.verdict + "\" is not a failing verdict (hpclab verdicts lists them)");
        out.push_back(std::move(x));
    }
    return out;
}

}  // namespace

const TaskInfo* LabInfo::find_task(std::string_view id) const
{
    for (const auto& t : tasks)
        if (t.id == id) return &t;
    return nullptr;
}

std::string LabInfo::task_ids() const
{
    std::string out;
    for (const auto& t : tasks) out += (out.empty() ? "" : ", ") + t.id;
    return out;
}

const ParamInfo* LabInfo::find_param(std::string_view name) const
{
    for (const auto& p : params)
        if (p.name == name) return &p;
    return nullptr;
}

const ShownFact* LaunchExpectation::asks(LessonFact f) const
{
    for (const ShownFact& s : shows)
        if (s.fact == f) return &s;
    return nullptr;
}

std::string LabInfo::unknown_task(std::string_view task) const
{
    std::vector<std::string> ids;
    for (const auto& t : tasks) ids.push_back(t.id);
    return "lab " + id + " has no task '" + std::string(task) + "'; its tasks are: " + task_ids() + "." +
           did_you_mean(task, ids);
}

std::string size_option_problem(const LabInfo& lab, const std::string& name, std::int64_t value)
{
    const ParamInfo* p = lab.find_param(name);
    if (!p) {
        std::string names;
        for (const auto& q : lab.params) names += (names.empty() ? "--" : ", --") + q.name;
        return "--" + name + " is not a size of lab " + lab.id + "; its size options are: " +
               (names.empty() ? "none" : names);
    }
    if (value < p->min || value > p->max)
        return "--" + name + " " + std::to_string(value) + " is out of range for lab " + lab.id + ": " + p->help +
               " must be between " + std::to_string(p->min) + " and " + std::to_string(p->max);
    return "";
}

namespace {

json parse_lab_json(const fs::path& lab_json)
{
    std::ifstream in(lab_json, std::ios::binary);
    if (!in) throw CatalogError(lab_json.string() + ": cannot be read");
    try {
        return json::parse(in);
    } catch (const json::parse_error& e) {
        throw CatalogError(lab_json.string() + ": not valid JSON (" + e.what() + ")");
    }
}

// What the lab is and teaches, its files, its kind, its sizes and hints.
void read_lab_header(const Reader& r, LabInfo& lab)
{
    lab.id = r.str("id");
    if (lab.id != lab.lab_dir.filename().string())
        r.fail("id", "is \"" + lab.id + "\" but the folder is \"" + lab.lab_dir.filename().string() + "\"");
    lab.order = static_cast<int>(r.integer("order"));
    const auto kind = lab_kind_named(r.str_or("kind", "functions"));
    if (!kind) r.fail("kind", "must be " + std::string(lab_kind_names()));
    lab.kind = *kind;
    if (lab.kind == LabKind::program) lab.program = read_program_rules(r.child("program"));
    lab.title = r.str("title");
    lab.teaches = r.str("teaches");
    lab.course_program = r.str("course_program");
    lab.student_file = r.str("student_file");
    lab.header = r.str("header");
    lab.pointers = r.str("pointers");
    if (lab.pointers != "host" && lab.pointers != "device" && lab.pointers != "none")
        r.fail("pointers", "must be \"host\", \"device\" or \"none\"");
    lab.image = r.str_or("image", "");
    lab.params = read_params(r.child("params"));
    lab.hints = read_hints(r);
}

// The tasks, each id once, each threshold's baseline the reference or a task.
void read_tasks(const Reader& r, LabInfo& lab)
{
    const json& tasks = r.array("tasks");
    std::set<std::string> task_ids;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        TaskInfo t = read_task(r.element("tasks", i), lab);
        if (!task_ids.insert(t.id).second) r.fail("tasks[" + std::to_string(i) + "].id", "\"" + t.id + "\" twice");
        lab.tasks.push_back(std::move(t));
    }
    for (const auto& t : lab.tasks)
        if (t.threshold && t.threshold->baseline != "reference" && !task_ids.count(t.threshold->baseline))
            r.fail("tasks." + t.id + ".threshold.baseline",
                   "must be \"reference\" or the id of another task of this lab");
    if (r.has("profile"))
        lab.profile = read_profile_rules(r, std::any_of(lab.tasks.begin(), lab.tasks.end(),
                                                        [](const TaskInfo& t) { return t.threshold.has_value(); }));
}

// "answers": {"program": "<file in the lab's folder>", "questions":
// ["<task>.<measure>", ...]}: the program as given (a copy of the skeleton,
// which the student's own file replaces), and each question a timed task's
// (its timed size is where that program is profiled) and a numeric measure.
void read_answers(const Reader& r, LabInfo& lab)
{
    if (!r.has("answers")) return;
    const Reader a = r.child("answers");
    lab.answers_program = lab.lab_dir / a.str("program");
    const json& keys = a.array("questions");
    if (keys.empty()) a.fail("questions", "must ask at least one");
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::string where = "questions[" + std::to_string(i) + "]";
        if (!keys[i].is_string()) a.fail(where, "must be \"<task>.<measure>\"");
        AnswerAsked q;
        if (const auto bad = parse_answer_asked(keys[i].get<std::string>(), q)) a.fail(where, *bad);
        const TaskInfo* task = lab.find_task(q.task);
        if (!task || !task->timed) a.fail(where, "\"" + q.task + "\" is not a timed task of this lab");
        lab.answers.push_back(std::move(q));
    }
}

// lab.json "similarity": the score measured on the generated class
// (docs/results/similarity.txt), or why there is none.
void read_look_score(const Reader& r, LabInfo& lab)
{
    lab.no_look = "not measured: the generated class holds no independent files of this lab";
    if (!r.has("similarity")) return;
    const Reader s = r.child("similarity");
    if (s.has("look_from") == s.has("no_look")) s.fail("look_from", "give either look_from or no_look");
    if (s.has("no_look")) {
        lab.no_look = s.str("no_look");
        return;
    }
    lab.look_from = s.number("look_from");
    if (!(*lab.look_from > 0 && *lab.look_from <= 1)) s.fail("look_from", "must be a score above 0, at most 1");
    lab.no_look.clear();
}

// The lab's own feedback per verdict, its run limits and its connections.
void read_feedback_and_limits(const Reader& r, LabInfo& lab)
{
    if (r.has("feedback")) {
        const Reader f = r.child("feedback");
        for (const auto& [key, value] : f.raw().items()) {
            if (!value.is_string() || value.get<std::string>().empty()) f.fail(key, "must be a non-empty string");
            if (!verdict_from_name(key)) f.fail(key, "is not the name of a verdict (hpclab verdicts lists them)");
            lab.feedback[key] = value.get<std::string>();
        }
    }
    lab.device_max_connections = static_cast<int>(r.integer_or("device_max_connections", lab.device_max_connections));
    if (lab.device_max_connections < 1 || lab.device_max_connections > 32)
        r.fail("device_max_connections", "must be between 1 and 32 (CUDA's range)");
    if (r.has("limits")) {
        const Reader l = r.child("limits");
        lab.wall_limit_s = l.number_or("wall_s", lab.wall_limit_s);
        lab.big_wall_limit_s = l.number_or("big_wall_s", lab.big_wall_limit_s);
    }
}

// Where the lab's files are: the solution, the skeleton's blob, the program
// the speed thresholds are measured against (a variant of bench/<lab>/, the
// tuned kernels, or the solution when none is named), the walkthrough.
void find_lab_files(const Reader& r, const fs::path& root, LabInfo& lab)
{
    lab.solution_dir = root / "solutions" / lab.id;
    lab.skeleton_blob = r.str_or("skeleton_blob", "");
    if (!lab.skeleton_blob.empty() &&
        (lab.skeleton_blob.size() != 40 || lab.skeleton_blob.find_first_not_of("0123456789abcdef") != std::string::npos))
        r.fail("skeleton_blob", "must be a git blob id (40 hex digits: git hash-object labs/" + lab.id + "/" +
                                    lab.student_file + ")");
    lab.speed_baseline = r.str_or("speed_baseline", "");
    if (lab.speed_baseline.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
        r.fail("speed_baseline", "must be the name of a file of bench/" + lab.id + "/ without .cu");
    if (!lab.speed_baseline.empty() && !lab.kind_traits().baseline_program)
        r.fail("speed_baseline", "is for a lab whose tasks run at sizes; this lab's kind has no speed baseline program");
    if (lab.kind_traits().baseline_program)
        lab.baseline_source = lab.speed_baseline.empty() ? lab.solution_dir / lab.student_file
                                                         : root / "bench" / lab.id / (lab.speed_baseline + ".cu");
    // The student kit ships the baseline compiled, not its source (hpclab export-student-kit).
    std::error_code ec;
    if (!lab.baseline_source.empty() && !fs::exists(lab.baseline_source, ec) &&
        fs::exists(root / "baselines" / (lab.id + ".o"), ec))
        lab.baseline_source = root / "baselines" / (lab.id + ".o");
    lab.doc = root / "docs" / (lab.id + ".md");
}

}  // namespace

LabInfo Catalog::load_lab(const fs::path& root, const fs::path& lab_json)
{
    const json j = parse_lab_json(lab_json);
    const Reader r(j, lab_json.string());
    LabInfo lab;
    lab.lab_dir = lab_json.parent_path();
    read_lab_header(r, lab);
    read_tasks(r, lab);
    read_answers(r, lab);
    lab.mistakes = read_mistakes(r, lab);
    read_feedback_and_limits(r, lab);
    read_look_score(r, lab);
    refuse_key_an_invariant_replaced(r, "allow_libraries", "own_code");
    find_lab_files(r, root, lab);
    return lab;
}

Catalog Catalog::load(const fs::path& root)
{
    Catalog c;
    c.root_ = root;
    const fs::path labs = root / "labs";
    std::error_code ec;
    if (!fs::is_directory(labs, ec))
        throw CatalogError(labs.string() + ": no such folder (is " + root.string() + " the course's folder?)");
    for (const auto& entry : fs::directory_iterator(labs)) {
        const fs::path meta = entry.path() / "lab.json";
        if (entry.is_directory() && fs::exists(meta)) c.labs_.push_back(load_lab(root, meta));
    }
    std::sort(c.labs_.begin(), c.labs_.end(), [](const LabInfo& a, const LabInfo& b) { return a.order < b.order; });
    for (std::size_t i = 1; i < c.labs_.size(); ++i)
        if (c.labs_[i].order == c.labs_[i - 1].order)
            throw CatalogError("labs " + c.labs_[i - 1].id + " and " + c.labs_[i].id + " have the same order " +
                               std::to_string(c.labs_[i].order));
    return c;
}

const LabInfo* Catalog::find(std::string_view id) const
{
    for (const auto& lab : labs_)
        if (lab.id == id) return &lab;
    return nullptr;
}

void Catalog::use_course_thresholds(const CourseThresholds& thresholds, const fs::path& file)
{
    for (LabInfo& lab : labs_)
        for (TaskInfo& t : lab.tasks)
            if (t.threshold) {
                t.threshold->min_speedup = t.threshold->shipped;
                t.threshold->set_by.clear();
            }
    for (const auto& [lab_id, tasks] : thresholds)
        for (const auto& [task_id, min_speedup] : tasks) {
            TaskInfo* task = nullptr;
            for (LabInfo& lab : labs_)
                for (TaskInfo& t : lab.tasks)
                    if (lab.id == lab_id && t.id == task_id) task = &t;
            if (!task || !task->threshold)
                throw CatalogError(file.string() + ": thresholds: " + lab_id + "." + task_id +
                                   " is no task with a speed threshold");
            task->threshold->min_speedup = min_speedup;
            task->threshold->set_by = file;
        }
}

std::string Catalog::unknown_lab(std::string_view id) const
{
    std::vector<std::string> all;
    for (const auto& lab : labs_) all.push_back(lab.id);
    return "unknown lab '" + std::string(id) + "'. The labs are: " + ids() + "." + did_you_mean(id, all);
}

std::string Catalog::ids() const
{
    std::string out;
    for (const auto& lab : labs_) out += (out.empty() ? "" : ", ") + lab.id;
    return out;
}

}  // namespace hpclab
