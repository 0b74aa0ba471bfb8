#include "run/toolchain.h"
#include "util/source_encoding.h"
#include "util/text.h"
#include "util/text_file.h"

#include "hpclab_build_config.h"
#include "util/keyed_hash.h"
#include "run/link_check.h"
#include "process/process.h"
#include "run/run_recipe.h"
#include "process/sandbox.h"

#include <fmt/format.h>

#include <regex>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) { return read_text_file(p).value_or(""); }

// Identity of a file that goes into a build, without reading large ones.
std::string file_identity(const fs::path& p)
{
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    const auto time = fs::last_write_time(p, ec).time_since_epoch().count();
    return fmt::format("{}:{}:{}", p.string(), ec ? 0 : size, ec ? 0 : time);
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

constexpr int kCompileLimitSeconds = 300;
constexpr int kLinkLimitSeconds = 120;

// Why a build cannot begin (no source, or the lab's binding not built), or
// empty. `bind_lib` is empty for a program the student's file is whole.
std::string missing_input(const LabInfo& lab, const fs::path& source, const fs::path& bind_lib)
{
    std::error_code ec;
    if (!fs::is_regular_file(source, ec)) return fmt::format("{}: no such file", source.string());
    if (!bind_lib.empty() && !fs::exists(bind_lib, ec))
        return fmt::format("the binding of lab {} ({}) is not built: rebuild hpclab with cmake --build", lab.id,
                           bind_lib.string());
    return {};
}

// The build's stamp in the cache: the hash of everything that goes into it.
std::string build_stamp(const Toolchain& tc, const LabInfo& lab, const std::string& source_text,
                        const fs::path& bind_lib, const std::vector<std::string>& flags,
                        const std::vector<std::string>& library_flags)
{
    std::string key = source_text + '\0' + read_file(lab.lab_dir / lab.header) + '\0' +
                      read_file(tc.common_include / "hpc.h") + '\0' + file_identity(tc.nvcc) +
                      file_identity(tc.harness_lib) + file_identity(bind_lib);
    for (const auto& f : flags) key += '\0' + f;
    // Only when there are any: the keys of the builds without (every
    // student's and solution's) stay what they were.
    for (const auto& f : library_flags) key += std::string("\0link:", 6) + f;
    return fmt::format("{:016x}", keyed_hash(std::as_bytes(std::span(key)), 0x6275696C64ull));
}

// Build under unique names, then rename into place: two hpclab runs of
// the same lab (ctest -j) never see a half-written program.
struct BuildFiles {
    std::string suffix;  // what makes the names unique
    fs::path object, program;
};

BuildFiles unique_build_files(const fs::path& dir, const LabInfo& lab)
{
    static std::atomic<unsigned> builds {0};  // and two threads of one hpclab either
    const std::string tmp = fmt::format(".tmp-{}-{}", getpid(), builds++);
    return {tmp, dir / (lab.id + tmp + ".o"), dir / (lab.id + tmp)};
}

// The name the copy's #line gives the source: its own, but for a quote, a
// backslash or a control character, each made '_'. ptxas refuses a line
// table whose file name holds a quote, even escaped (a class's folder named
// O"Brien made an honest file a compile error), and a newline would end the
// directive. The compiler's messages get the real name back (compile_step).
std::string line_name(const fs::path& source)
{
    std::string name = source.string();
    for (char& c : name)
        if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
    return name;
}

// The compiler's messages with the source's real name where they say line_name's.
std::string with_real_name(const std::string& messages, const fs::path& source)
{
    const std::string shown = line_name(source);
    return shown == source.string() ? messages : replace_all(messages, shown, source.string());
}

// The source as read once, copied into the build's own folder: what is
// compiled is what was hashed, whatever happens to the file meanwhile, and
// nothing beside the copy is where its relative #includes look. Its #line
// keeps the original's name (line_name) in the compiler's messages and the line table.
fs::path private_copy(const fs::path& dir, const std::string& suffix, const fs::path& source, const std::string& text)
{
    const fs::path copy_dir = dir / ("src" + suffix);
    std::error_code ec;
    fs::create_directories(copy_dir, ec);
    std::ofstream(copy_dir / source.filename(), std::ios::binary) << "#line 1 \"" << line_name(source) << "\"\n" << text;
    return copy_dir / source.filename();
}

// What the compiler of a submission sees: the system, the CUDA toolkit (in
// /usr), the course's shared header and the lab's folder, and its own
// build folder. Not the solutions, the benchmarks, the other programs.
std::optional<SandboxSpec> compile_sandbox(const Toolchain& tc, const LabInfo& lab, const fs::path& dir)
{
    if (sandbox_unavailable()) return std::nullopt;
    SandboxSpec sb;
    sb.read_only = system_view(lab.lab_dir.parent_path().parent_path());
    if (sb.read_only.empty()) return std::nullopt;
    for (const fs::path& p : {tc.common_include, lab.lab_dir, tc.nvcc.parent_path().parent_path(),
                              tc.host_compiler.parent_path().parent_path()})
        sb.read_only.push_back(fs::absolute(p));
    sb.writable = {fs::absolute(dir)};
    sb.work_dir = fs::absolute(dir);
    sb.tmp_bytes = 4ull << 30;  // nvcc's intermediate files
    sb.env = sandbox_env();
    return sb;
}

// nvcc -c; the command line goes into `command`, for the record.
ProcessResult compile_object(const Toolchain& tc, const fs::path& source, const std::vector<std::string>& flags,
                             const fs::path& object, std::optional<SandboxSpec> sandbox, std::string& command)
{
    ProcessSpec compile;
    compile.sandbox = std::move(sandbox);
    compile.file_size_limit_bytes = 1ull << 30;
    compile.argv = {tc.nvcc.string()};
    compile.argv.insert(compile.argv.end(), flags.begin(), flags.end());
    compile.argv.insert(compile.argv.end(), {"-c", source.string(), "-o", object.string()});
    compile.wall_limit_s = kCompileLimitSeconds;
    compile.cpus = untimed_cpus();
    for (const auto& a : compile.argv) command += (command.empty() ? "" : " ") + a;
    return run_process(compile);
}

// The declaration of `name` in the lab's header, on one line; empty if none.
std::string declaration_in(const fs::path& header, const std::string& name)
{
    const std::string text = read_file(header);
    const std::regex decl("[A-Za-z_][A-Za-z_0-9 *]*\\b" + name + "\\s*\\([^;{]*\\)\\s*;");
    std::smatch m;
    if (!std::regex_search(text, m, decl)) return "";
    std::string one_line;
    for (char c : m.str()) one_line += (c == '\n' || c == '\t') ? ' ' : c;
    return one_line;
}

// A link that failed for want of an entry point the binding calls (a
// missing function, a wrong name or parameter type, a missing const):
// said first, with the header's declaration, then the linker's words.
std::string explain_undefined(const LabInfo& lab, const std::string& linker_output)
{
    static const std::regex undefined("undefined reference to `([A-Za-z_][A-Za-z_0-9]*)\\(([^']*)\\)'");
    std::smatch m;
    if (!std::regex_search(linker_output, m, undefined)) return "";
    const std::string name = m[1].str();
    const std::string decl = declaration_in(lab.lab_dir / lab.header, name);
    if (decl.empty()) return "";
    return fmt::format("your file does not define {} as {} declares it:\n    {}\n(the program looked for {}({}): check "
                       "the function's name, its parameters' types and their const)\n\n",
                       name, lab.header, decl, name, m[2].str());
}

// nvcc refusing its own options (an architecture it does not know, from
// HPCLAB_CUDA_ARCHITECTURES say) rather than the source: a set-up problem.
bool setup_failure(const ProcessResult& cr)
{
    if (!cr.started) return true;
    const std::string text = cr.err + cr.out;
    return text.rfind("bwrap: ", 0) == 0 || text.find("nvcc fatal") != std::string::npos ||
           text.find("Unsupported gpu architecture") != std::string::npos;
}

std::string compile_failure(const ProcessResult& cr)
{
    if (cr.timed_out) return fmt::format("the compiler ran past {} s and was stopped\n", kCompileLimitSeconds);
    if (!cr.started) return cr.start_error + "\n";
    return cr.err + cr.out;
}

// The object linked with the harness (the program's main), the lab's
// binding, CUPTI when there is one and the toolkit libraries asked for.
ProcessResult link_program(const Toolchain& tc, const fs::path& object, const fs::path& bind_lib,
                           const std::vector<std::string>& library_flags, const fs::path& program)
{
    ProcessSpec link;
    link.argv = {tc.nvcc.string(), "-ccbin", tc.host_compiler.string()};
    const auto arch = tc.arch_flags();
    link.argv.insert(link.argv.end(), arch.begin(), arch.end());
    link.argv.insert(link.argv.end(), {object.string(), tc.harness_lib.string(), bind_lib.string(),
                                       "-cudart=static", "-o", program.string()});
    if (!tc.cupti_lib_dir.empty())
        link.argv.insert(link.argv.end(), {"-L" + tc.cupti_lib_dir.string(), "-lcupti",
                                           "-Xlinker", "-rpath=" + tc.cupti_lib_dir.string()});
    link.argv.insert(link.argv.end(), library_flags.begin(), library_flags.end());
    link.wall_limit_s = kLinkLimitSeconds;
    link.cpus = untimed_cpus();
    return run_process(link);
}

// The program renamed into its place in the cache. False, with
// r.diagnostics saying why, when it cannot be moved.
bool install(const BuildFiles& files, BuildResult& r)
{
    std::error_code ec;
    fs::rename(files.program, r.program, ec);
    if (ec) r.diagnostics = fmt::format("cannot move the program into {}: {}", r.program.string(), ec.message());
    return !ec;
}

// The builds of one name kept: the newest few (a student's saves would
// otherwise pile up), never `current`.
void prune_builds(const fs::path& variant_dir, const fs::path& current)
{
    constexpr std::size_t kKept = 6;
    std::vector<std::pair<fs::file_time_type, fs::path>> builds;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(variant_dir, ec))
        if (e.is_directory(ec) && e.path() != current) builds.emplace_back(e.last_write_time(ec), e.path());
    if (builds.size() < kKept) return;
    std::sort(builds.begin(), builds.end());
    for (std::size_t i = 0; i + kKept - 1 < builds.size(); ++i) fs::remove_all(builds[i].second, ec);
}

}  // namespace

Toolchain Toolchain::configured()
{
    Toolchain tc;
    tc.nvcc = HPCLAB_NVCC;
    tc.host_compiler = HPCLAB_HOST_COMPILER;
    tc.harness_lib = HPCLAB_HARNESS_LIB;
    tc.bind_lib_dir = HPCLAB_BIND_LIB_DIR;
    tc.common_include = fs::path(HPCLAB_SOURCE_DIR) / "common";
    tc.cupti_lib_dir = HPCLAB_CUPTI_LIB_DIR;
    tc.cuda_lib_dir = HPCLAB_CUDA_LIB_DIR;
    if (!tc.nvcc.empty()) {
        std::error_code exists_ec;
        const fs::path cuobjdump = tc.nvcc.parent_path() / "cuobjdump";
        if (fs::exists(cuobjdump, exists_ec)) tc.cuobjdump = cuobjdump;
    }
    tc.nvcc_version = HPCLAB_NVCC_VERSION;
    tc.cache_dir = fs::path(HPCLAB_BINARY_DIR) / "lab-programs";
    tc.architectures = HPCLAB_CUDA_ARCHITECTURES;
    if (const char* archs = std::getenv("HPCLAB_CUDA_ARCHITECTURES"); archs && *archs) tc.architectures = archs;
    std::error_code ec;
    if (tc.nvcc.empty())
        tc.unavailable = fmt::format("this build of hpclab has no CUDA compiler ({})", HPCLAB_CUDA_DISABLED_REASON);
    else if (!fs::exists(tc.nvcc, ec))
        tc.unavailable = fmt::format("the CUDA compiler {} is gone; reconfigure", tc.nvcc.string());
    else if (!fs::exists(tc.harness_lib, ec))
        tc.unavailable = fmt::format("the harness library {} is not built; run: cmake --build on this build folder",
                                     tc.harness_lib.string());
    return tc;
}

std::string build_name(const LabInfo& lab, const fs::path& source)
{
    std::error_code ec;
    const auto same = [&](const fs::path& p) { return fs::equivalent(source, p, ec); };
    if (same(lab.student_source())) return "student";
    if (same(lab.solution_source())) return "solution";
    if (same(lab.baseline_source)) return "baseline";
    const std::string where = fs::absolute(source, ec).lexically_normal().string();
    return fmt::format("file-{}-{:08x}", source.stem().string(),
                       keyed_hash(std::as_bytes(std::span(where)), 0x66696C65ull) & 0xffffffffu);
}

std::vector<std::string> nvcc_arch_flags(const std::string& architectures)
{
    std::vector<std::string> flags;
    const auto archs = split(architectures, ';');
    if (archs.size() == 1 && (archs[0] == "all" || archs[0] == "all-major" || archs[0] == "native"))
        return {"-arch=" + archs[0]};
    // Real code for each architecture, and PTX for the newest so that a
    // later GPU can still run the program.
    std::string newest_virtual;
    int newest = -1;
    for (const auto& a : archs) {
        const auto dash = a.find('-');
        const std::string num = a.substr(0, dash);
        const std::string kind = dash == std::string::npos ? "" : a.substr(dash + 1);
        if (kind != "virtual") flags.push_back(fmt::format("-gencode=arch=compute_{0},code=sm_{0}", num));
        if (kind == "virtual") flags.push_back(fmt::format("-gencode=arch=compute_{0},code=compute_{0}", num));
        const int value = std::atoi(num.c_str());
        if (kind.empty() && value > newest) {
            newest = value;
            newest_virtual = num;
        }
    }
    if (!newest_virtual.empty())
        flags.push_back(fmt::format("-gencode=arch=compute_{0},code=compute_{0}", newest_virtual));
    return flags;
}

std::vector<std::string> Toolchain::arch_flags() const { return nvcc_arch_flags(architectures); }

std::vector<std::string> Toolchain::compile_flags(const LabInfo& lab) const
{
    // --threads 2: nvcc preprocesses the host's and the device's side at
    // once (the rest of its steps wait on each other): 0.59 s against 0.64 s
    // for matmul's solution on two cores; in the README's tests on an H200,
    // 1.07 s against 1.16 s a compile (docs/results/test-times-h200.txt).
    std::vector<std::string> f = {"-std=c++17", "-O3", "-lineinfo", "--threads", "2", "-ccbin", host_compiler.string(),
                                  "-I" + common_include.string(), "-I" + lab.lab_dir.string()};
    const auto arch = arch_flags();
    f.insert(f.end(), arch.begin(), arch.end());
    return f;
}

std::string trim_diagnostics(const std::string& text, const fs::path& root, std::size_t max_lines)
{
    std::string prefix = root.string();
    if (!prefix.empty() && prefix.back() != '/') prefix += '/';
    std::istringstream in(text);
    std::string line, out;
    std::size_t kept = 0, total = 0;
    while (std::getline(in, line)) {
        ++total;
        if (kept >= max_lines) continue;
        for (std::size_t pos; !prefix.empty() && (pos = line.find(prefix)) != std::string::npos;)
            line.erase(pos, prefix.size());
        out += line + '\n';
        ++kept;
    }
    if (total > kept) out += fmt::format("... ({} more lines)\n", total - kept);
    return out;
}

std::vector<std::string> toolkit_link_flags(const Toolchain& tc, const std::vector<std::string>& link_libraries,
                                            std::string& error)
{
    error.clear();
    if (link_libraries.empty()) return {};
    if (tc.cuda_lib_dir.empty()) {
        error = "this build of hpclab does not know the CUDA toolkit's library folder: reconfigure it with nvcc";
        return {};
    }
    std::vector<std::string> flags = {"-L" + tc.cuda_lib_dir.string()};
    for (const auto& lib : link_libraries) {
        std::error_code ec;
        if (!fs::exists(tc.cuda_lib_dir / ("lib" + lib + ".so"), ec)) {
            error = fmt::format("library '{}' is not in the CUDA toolkit's folder {} (no lib{}.so there)", lib,
                                tc.cuda_lib_dir.string(), lib);
            return {};
        }
        flags.push_back("-l" + lib);
    }
    // Found at run time where it was linked from, as CUPTI is, whatever
    // LD_LIBRARY_PATH says (or does not) where the program runs.
    flags.insert(flags.end(), {"-Xlinker", "-rpath=" + tc.cuda_lib_dir.string()});
    return flags;
}

bool compile_lab_object(const Toolchain& tc, const LabInfo& lab, const fs::path& source, const fs::path& object,
                        std::string& diagnostics)
{
    std::string command;
    const ProcessResult r = compile_object(tc, source, tc.compile_flags(lab), object, std::nullopt, command);
    if (r.exited() && r.exit_code == 0) return true;
    diagnostics = compile_failure(r);
    return false;
}

namespace {

struct CompileInput {
    const fs::path& source;
    const std::string& text;  // the source as read once
    const fs::path& dir;      // the build's folder
    const std::vector<std::string>& flags;
};

// The object file: a speed baseline shipped compiled (the student kit)
// copied as it is, a file hpclab refuses before nvcc failed as its own
// compile error, any other compiled from a private copy in the sandbox. On
// failure, r's diagnostics name the source as given, and no object is left.
ProcessResult compile_step(const Toolchain& tc, const LabInfo& lab, const CompileInput& in, const BuildFiles& files,
                           BuildResult& r)
{
    ProcessResult cr;
    fs::path copy = in.source;  // what the compiler's messages name
    std::error_code ec;
    if (in.source.extension() == ".o") {
        cr.started = true;
        fs::copy_file(in.source, files.object, ec);
        if (ec) cr.err = fmt::format("nvcc fatal: cannot copy {}: {}", in.source.string(), ec.message());
        cr.exit_code = ec ? 1 : 0;
    } else if (const CompilableSource compilable = compilable_source(in.text, in.source.filename().string());
               !compilable.ok()) {
        cr.started = true;  // the student's file, refused before nvcc: a compile error of theirs
        cr.exit_code = 1;
        cr.err = compilable.refusal;
    } else {
        copy = private_copy(in.dir, files.suffix, in.source, compilable.text);
        // nvcc's intermediate files kept beside the copy, for the PTX's line
        // table: which file each kernel's code is defined in.
        std::vector<std::string> flags = in.flags;
        flags.insert(flags.end(), {"--keep", "--keep-dir", copy.parent_path().string()});
        cr = compile_object(tc, copy, flags, files.object, compile_sandbox(tc, lab, in.dir), r.command);
        if (cr.exited() && cr.exit_code == 0) keep_kernel_origins(copy.parent_path(), line_name(in.source), r.program);
        fs::remove_all(copy.parent_path(), ec);
    }
    if (!cr.exited() || cr.exit_code != 0) {
        r.diagnostics = with_real_name(replace_all(compile_failure(cr), copy.string(), in.source.string()), in.source);
        r.setup_problem = setup_failure(cr);
        fs::remove(files.object, ec);
    }
    return cr;
}

// The calls of a program lab's object, one per line beside its program
// (read again for a cached build).
fs::path calls_file(const fs::path& program) { return program.string() + ".calls"; }

std::set<std::string> read_calls(const fs::path& program)
{
    std::set<std::string> calls;
    std::istringstream in(read_file(calls_file(program)));
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) calls.insert(line);
    return calls;
}

// A program lab's object is the whole program (its own main): linked with
// the CUDA runtime alone, no harness, no binding, nothing of hpclab's
// inside, so nothing of it to protect (link_check.h). What it calls is
// kept first, for the technique.
bool link_whole_program(const Toolchain& tc, const BuildFiles& files, BuildResult& r)
{
    std::error_code ec;
    const auto calls = object_calls(files.object);
    if (!calls) {
        r.diagnostics = fmt::format("cannot read the symbols of the compiled object {} (nm, from binutils)\n",
                                    files.object.string());
        r.setup_problem = true;
        fs::remove(files.object, ec);
        return false;
    }
    const fs::path kept = calls_file(r.program), written = kept.string() + files.suffix;
    {
        std::ofstream out(written, std::ios::binary);
        for (const auto& c : *calls) out << c << '\n';
    }
    fs::rename(written, kept, ec);
    ProcessSpec link;
    link.argv = {tc.nvcc.string(), "-ccbin", tc.host_compiler.string()};
    const auto arch = tc.arch_flags();
    link.argv.insert(link.argv.end(), arch.begin(), arch.end());
    link.argv.insert(link.argv.end(), {files.object.string(), "-cudart=static", "-o", files.program.string()});
    link.wall_limit_s = kLinkLimitSeconds;
    link.cpus = untimed_cpus();
    const ProcessResult lr = run_process(link);
    if (lr.exited() && lr.exit_code == 0) keep_sass(files.object, r.program, tc.cuobjdump);
    fs::remove(files.object, ec);
    if (lr.exited() && lr.exit_code == 0) return true;
    r.diagnostics = !lr.started ? lr.start_error + "\n" : lr.err + lr.out;
    r.setup_problem = setup_failure(lr);
    fs::remove(files.program, ec);
    return false;
}

LinkParts link_parts(const Toolchain& tc)
{
    return {.host_compiler = tc.host_compiler,
            .harness_lib = tc.harness_lib,
            .cuda_lib_dir = tc.cuda_lib_dir,
            .cupti_lib_dir = tc.cupti_lib_dir,
            .cache_dir = tc.cache_dir};
}

struct LinkInput {
    const fs::path& bind_lib;  // empty: the object is the whole program
    const std::vector<std::string>& library_flags;
    bool kernels_inside;      // no library's kernels: the program's SASS is kept
    bool sass_in_background;  // ... read on another thread (build_lab_program)
};

// The object's SASS kept beside the program, then the object removed: now
// (after the link), or listed on another thread from before the object is
// checked and linked (listed after the link, it ended 0.59 s after it in a
// streams check, and the timed turn could not begin before:
// docs/results/check-times-h200.txt).
// That thread removes the object once both are over, and the listing of a
// program that did not link; r.sass_pending says its end.
class SassListing {
public:
    SassListing(const Toolchain& tc, const BuildFiles& files, BuildResult& r, bool kernels_inside,
                bool in_background)
        : tc_(tc), files_(files), r_(r), wanted_(kernels_inside), beside_(kernels_inside && in_background)
    {
        if (!beside_) return;
        r.sass_pending = std::async(std::launch::async, [object = files.object, program = r.program,
                                                         cuobjdump = tc.cuobjdump, linked = linked_.get_future()]() mutable {
                             keep_sass(object, program, cuobjdump);
                             const bool ok = linked.get();
                             std::error_code ec;
                             fs::remove(object, ec);
                             if (!ok) fs::remove(sass_of(program), ec);
                         }).share();
    }
    ~SassListing() { linked(false); }  // every way out says the link's end: the thread waits for it
    SassListing(const SassListing&) = delete;
    SassListing& operator=(const SassListing&) = delete;

    // The link is over: the object goes (after its listing, made now
    // where it was not made beside).
    void linked(bool ok)
    {
        if (said_) return;
        said_ = true;
        if (beside_) return linked_.set_value(ok);
        if (ok && wanted_) keep_sass(files_.object, r_.program, tc_.cuobjdump);
        std::error_code ec;
        fs::remove(files_.object, ec);
    }

private:
    const Toolchain& tc_;
    const BuildFiles& files_;
    BuildResult& r_;
    const bool wanted_, beside_;
    std::promise<bool> linked_;
    bool said_ = false;
};

// The object linked into the program, after the check that it defines
// nothing the harness or a library defines (it would replace it there:
// link_check.h). False, with r's diagnostics, when it cannot be; the object
// is removed either way.
bool link_step(const Toolchain& tc, const LabInfo& lab, const BuildFiles& files, const LinkInput& in, BuildResult& r)
{
    if (in.bind_lib.empty()) return link_whole_program(tc, files, r);
    SassListing sass(tc, files, r, in.kernels_inside, in.sass_in_background);
    std::error_code ec;
    std::string setup_error;
    if (auto refusal = link_refusal(link_parts(tc), files.object, in.bind_lib, setup_error); refusal || !setup_error.empty()) {
        r.diagnostics = refusal ? *refusal : setup_error;
        r.setup_problem = !refusal;
        return false;
    }
    const ProcessResult lr = link_program(tc, files.object, in.bind_lib, in.library_flags, files.program);
    sass.linked(lr.exited() && lr.exit_code == 0);
    if (lr.exited() && lr.exit_code == 0) return true;
    r.diagnostics = !lr.started ? lr.start_error + "\n" : lr.err + lr.out;
    r.setup_problem = setup_failure(lr);
    if (!r.setup_problem) r.diagnostics = explain_undefined(lab, r.diagnostics) + r.diagnostics;
    fs::remove(files.program, ec);
    return false;
}

}  // namespace

BuildResult build_lab_program(const Toolchain& tc, const LabInfo& lab, const fs::path& source,
                              const std::string& variant, const std::vector<std::string>& link_libraries,
                              bool sass_in_background)
{
    BuildResult r;
    const auto t0 = std::chrono::steady_clock::now();
    // The harness and the lab's binding, linked with the student's object,
    // or none: the student's file is the whole program (course/lab_kind.h).
    const fs::path bind_lib = lab.kind_traits().harness_linked
                                  ? tc.bind_lib_dir / fmt::format("libhpclab_bind_{}.a", lab.id)
                                  : fs::path {};
    r.diagnostics = missing_input(lab, source, bind_lib);
    std::error_code source_ec;
    r.setup_problem = fs::exists(source, source_ec);  // a missing binding, not a missing source
    if (!r.diagnostics.empty()) return r;
    std::string link_error;
    const auto library_flags = toolkit_link_flags(tc, link_libraries, link_error);
    r.setup_problem = !link_error.empty();
    if (r.setup_problem) {
        r.diagnostics = link_error + "\n";
        return r;
    }

    const auto flags = tc.compile_flags(lab);
    const std::string source_text = read_file(source);  // the one read of the source
    const std::string stamp = build_stamp(tc, lab, source_text, bind_lib, flags, library_flags);
    // Keyed by content: a build is a folder named by its stamp, so a check
    // still running the program of one version of a file never finds the
    // next version's in its place.
    const fs::path variant_dir = tc.cache_dir / lab.id / variant;
    const fs::path dir = variant_dir / stamp;
    r.program = dir / (lab.id + "-" + variant);
    std::error_code ec;
    // The program's kernels are read from the file itself, cached or not:
    // library builds (benchmark variants) run kernels from outside it.
    const bool kernels_inside = link_libraries.empty();
    auto facts = [&] {
        // A listing still being written is read by complete_program_code(), not here.
        ProgramFacts f = read_program_facts(r.program, !tc.cupti_lib_dir.empty(),
                                            r.sass_pending.valid() ? fs::path {} : tc.cuobjdump);
        f.kernels_known = f.kernels_known && kernels_inside;
        if (bind_lib.empty()) r.calls = read_calls(r.program);
        return f;
    };
    if (fs::exists(r.program, ec)) {
        r.ok = true;
        r.cached = true;
        r.facts = facts();
        return r;
    }
    fs::create_directories(dir, ec);
    if (ec) {
        r.diagnostics = fmt::format("cannot create {}: {}", dir.string(), ec.message());
        r.setup_problem = true;
        return r;
    }

    const BuildFiles files = unique_build_files(dir, lab);
    const ProcessResult cr = compile_step(tc, lab, {source, source_text, dir, flags}, files, r);
    if (!cr.exited() || cr.exit_code != 0 ||
        !link_step(tc, lab, files, {bind_lib, library_flags, kernels_inside, sass_in_background}, r)) {
        r.seconds = seconds_since(t0);
        return r;
    }
    if (!install(files, r)) {
        r.setup_problem = true;
        return r;
    }
    prune_builds(variant_dir, dir);
    r.ok = true;
    r.facts = facts();
    r.diagnostics = with_real_name(cr.err, source);  // warnings, if any
    r.seconds = seconds_since(t0);
    return r;
}

void complete_program_code(const Toolchain& tc, BuildResult& r)
{
    if (!r.sass_pending.valid()) return;
    r.sass_pending.wait();
    r.sass_pending = {};
    if (r.ok) read_program_code(r.facts, r.program, tc.cuobjdump);
}

}  // namespace hpclab
