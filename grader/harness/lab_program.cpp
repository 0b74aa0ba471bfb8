#include "lab_program.h"

#include "reveal.h"
#include "trace.h"
#include "wire/reveal.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>

namespace hpclab::harness {

namespace {

using wire::Header;

// Where stop() writes its message: the exchange file's header, once mapped.
Header* g_header = nullptr;

// Write a message into the result and to stderr, then stop with `status`.
[[noreturn]] void stop(int status, const char* fmt, ...)
{
    char text[wire::kMessageLen];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (g_header) wire::set_name(g_header->result.message, sizeof g_header->result.message, text);
    std::fprintf(stderr, "hpclab harness: %s\n", text);
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(status);
}

// A CUDA call made by the harness itself (not by the student).
void harness_cuda(cudaError_t err, const char* what)
{
    if (err == cudaSuccess) return;
    if (g_header) {
        g_header->result.cuda_error = static_cast<std::int32_t>(err);
        wire::set_name(g_header->result.cuda_error_name, sizeof g_header->result.cuda_error_name,
                       cudaGetErrorName(err));
    }
    // An error here right after the student's code ran is a fault the
    // student's code left behind (sticky errors surface at the next call).
    stop(wire::kExitGpuFault, "%s: %s (%s)", what, cudaGetErrorString(err), cudaGetErrorName(err));
}

double now_ms()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

void fill_guards(OwnedBuffer& b)
{
    if (b.guard == 0) return;
    for (unsigned char* zone : {b.base, b.user + b.bytes}) {
        if (b.on_device)
            harness_cuda(cudaMemcpy(zone, b.device_guard, b.guard, cudaMemcpyDeviceToDevice), "setting a guard zone");
        else
            std::memcpy(zone, b.guard_pattern.data(), b.guard);
    }
}

bool guards_intact(const OwnedBuffer& b, std::vector<unsigned char>& scratch)
{
    if (b.guard == 0) return true;
    scratch.resize(b.guard);
    for (const unsigned char* zone : {b.base, b.user + b.bytes}) {
        const unsigned char* bytes = zone;
        if (b.on_device) {
            harness_cuda(cudaMemcpy(scratch.data(), zone, b.guard, cudaMemcpyDeviceToHost), "reading a guard zone");
            bytes = scratch.data();
        }
        if (std::memcmp(bytes, b.guard_pattern.data(), b.guard) != 0) return false;
    }
    return true;
}

// Device-to-device copy bandwidth (bytes read + written per second), the
// ceiling of a memory-bound kernel: the parent calls a time below what this
// bandwidth allows "suspicious". The best of a few copies of 256 MiB.
double measure_copy(cudaEvent_t start, cudaEvent_t stop_event)
{
    constexpr std::size_t kBytes = 256u << 20;
    void *src = nullptr, *dst = nullptr;
    if (cudaMalloc(&src, kBytes) != cudaSuccess || cudaMalloc(&dst, kBytes) != cudaSuccess) return 0;
    float best = 0;
    for (int rep = 0; rep < 6; ++rep) {
        cudaEventRecord(start);
        cudaMemcpy(dst, src, kBytes, cudaMemcpyDeviceToDevice);
        cudaEventRecord(stop_event);
        cudaEventSynchronize(stop_event);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop_event);
        if (rep > 0 && (best == 0 || ms < best)) best = ms;  // the first copy warms up
    }
    cudaFree(src);
    cudaFree(dst);
    return best > 0 ? 2.0 * kBytes / (best / 1e3) : 0;
}

void validate_job(const wire::Job& job, std::uint64_t file_size)
{
    if (const std::string problem = wire::job_problem(job, file_size); !problem.empty())
        stop(wire::kExitHarnessError, "%s", problem.c_str());
}

// The exchange file mapped; from here on stop() reports into its result.
ExchangeFile map_exchange(int fd)
{
    struct stat st {};
    if (fstat(fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) < sizeof(Header))
        stop(wire::kExitHarnessError, "cannot read the exchange file (descriptor %d)", fd);
    const auto file_size = static_cast<std::uint64_t>(st.st_size);
    // MAP_POPULATE: the pages' mappings made now, in one pass, rather than a
    // fault per 4 KiB page while the outputs are copied back after the calls.
    void* map = mmap(nullptr, file_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (map == MAP_FAILED) stop(wire::kExitHarnessError, "cannot map the exchange file: %s", std::strerror(errno));
    close(fd);  // the student's code has no use for it
    g_header = static_cast<Header*>(map);
    return {static_cast<unsigned char*>(map), file_size};
}

}  // namespace

LabProgram::LabProgram(int exchange_fd)
    : file_(map_exchange(exchange_fd)), job_(file_.header().job), result_(file_.header().result)
{
    validate_job(job_, file_.size);
    result_.magic = wire::kMagic;
}

// HPCLAB_PROFILE: where the program's time goes, on stderr (which hpclab
// shows when it profiles too).
void LabProgram::start_profile()
{
    profile_ = std::getenv("HPCLAB_PROFILE") != nullptr;
    t_begin_ = now_ms();
}

void LabProgram::open_gpu()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
        stop(wire::kExitNoGpu, "no CUDA GPU is visible to this program");
    harness_cuda(cudaGetDeviceProperties(&prop_, 0), "querying the GPU");
    wire::set_name(result_.device_name, sizeof result_.device_name, prop_.name);
    result_.cc_major = prop_.major;
    result_.cc_minor = prop_.minor;
    // The context now (the first allocation would make it): the parent's
    // time limit for this exchange starts once it exists.
    harness_cuda(cudaFree(nullptr), "making the CUDA context");
}

void LabProgram::find_task()
{
    hpclab_lab_bindings(bindings_);
    const std::string task(job_.task, wire::name_length(job_.task, sizeof job_.task));
    task_ = bindings_.find(task);
    if (!task_) stop(wire::kExitHarnessError, "this lab program has no task '%s' (bind.cpp)", task.c_str());
}

// Allocate every buffer once, with its guard zones. Without guard zones
// (under compute-sanitizer), a spacer allocation after each buffer, freed
// before the student's code runs, keeps the next buffer away from its
// end: an access past the end then lands in memory that belongs to no
// allocation, which memcheck reports (one into a neighbour it cannot).
void LabProgram::allocate_buffers()
{
    std::vector<void*> spacers;
    owned_.resize(job_.nbuffers);
    for (std::uint32_t i = 0; i < job_.nbuffers; ++i) {
        OwnedBuffer& b = owned_[i];
        b.desc = &job_.buffers[i];
        allocate(b);
        void* spacer = nullptr;
        if (b.on_device && b.guard == 0 && cudaMalloc(&spacer, 1u << 20) == cudaSuccess) spacers.push_back(spacer);
    }
    for (void* p : spacers) cudaFree(p);
}

void LabProgram::allocate(OwnedBuffer& b)
{
    b.bytes = b.desc->count * wire::elem_size(b.desc->type);
    b.guard = job_.guard_bytes;
    b.on_device = b.desc->place == wire::Place::device;
    const std::uint64_t total = b.bytes + 2 * b.guard;
    if (b.on_device) {
        // With guard zones (every run but the sanitizer's, which must see the
        // true ends), the trailing zone ends against an unmapped page.
        if (b.guard > 0) b.against_unmapped = guarded::allocate(total);
        void* p = b.against_unmapped.base;
        const cudaError_t err = p ? cudaSuccess : cudaMalloc(&p, total);
        if (err != cudaSuccess)
            stop(wire::kExitHarnessError, "cannot allocate %.3f GB of device memory for buffer '%s': %s",
                 total / 1e9, b.desc->name, cudaGetErrorString(err));
        b.base = static_cast<unsigned char*>(p);
    } else {
        b.base = allocate_host(total ? total : 1);
    }
    b.user = b.base + b.guard;
    if (parent_clock() && !b.on_device) {  // host inputs are made there, host outputs committed to there
        void* scratch = nullptr;
        harness_cuda(cudaMalloc(&scratch, b.bytes ? b.bytes : 1), "allocating room on the GPU for a host buffer");
        b.reveal_scratch = scratch;
    }
    if (b.guard == 0) return;
    b.guard_pattern.assign(b.guard / 4, wire::guard_word(b.desc->type));
    if (!b.on_device) return;
    void* pattern = nullptr;
    harness_cuda(cudaMalloc(&pattern, b.guard), "allocating a guard pattern");
    harness_cuda(cudaMemcpy(pattern, b.guard_pattern.data(), b.guard, cudaMemcpyHostToDevice),
                 "copying a guard pattern");
    b.device_guard = static_cast<unsigned char*>(pattern);
}

// A host buffer, from the heap or from the lab's own allocator (binding.h
// HostMemory: the student's code, so its failure is the student's).
unsigned char* LabProgram::allocate_host(std::uint64_t bytes)
{
    const HostMemory& lab = bindings_.host_memory();
    if (!lab.allocate) {
        void* p = std::malloc(bytes);
        if (!p) stop(wire::kExitHarnessError, "cannot allocate %.3f GB of host memory", bytes / 1e9);
        return static_cast<unsigned char*>(p);
    }
    void* p = lab.allocate(bytes);
    if (!p) {
        // The program cannot go on without its buffers: it ends as a crash,
        // with the reason in its message.
        if (g_header)
            std::snprintf(g_header->result.message, sizeof g_header->result.message,
                          "the lab's host allocator returned NULL for %llu bytes", static_cast<unsigned long long>(bytes));
        std::fprintf(stderr, "hpclab harness: the lab's host allocator returned NULL for %llu bytes\n",
                     static_cast<unsigned long long>(bytes));
        std::fflush(stderr);
        std::abort();
    }
    return static_cast<unsigned char*>(p);
}

bool LabProgram::holds_lab_host_memory() const
{
    if (!bindings_.host_memory().allocate) return false;
    return std::any_of(owned_.begin(), owned_.end(), [](const OwnedBuffer& b) { return !b.on_device && b.base; });
}

void LabProgram::release_host(unsigned char* p)
{
    const HostMemory& lab = bindings_.host_memory();
    if (lab.release) lab.release(p);
    else std::free(p);
}

void LabProgram::keep_input_sets()
{
    if (parent_clock()) return;  // the inputs are made call by call, from the seed
    for (OwnedBuffer& b : owned_) {
        if (!cycling() || !b.on_device || b.desc->role != wire::Role::input) continue;
        keep_sets(b);
    }
}

void LabProgram::keep_sets(OwnedBuffer& b)
{
    for (std::uint32_t s = 0; s < job_.nsets; ++s) {
        void* p = nullptr;
        if (cudaMalloc(&p, b.bytes ? b.bytes : 1) != cudaSuccess) {
            cudaGetLastError();  // not sticky: fall back to copies from the file
            for (void* q : b.sets) cudaFree(q);
            b.sets.clear();
            break;
        }
        b.sets.push_back(p);
    }
    for (std::uint32_t s = 0; s < b.sets.size(); ++s)
        harness_cuda(cudaMemcpy(b.sets[s], file_.bytes + wire::buffer_offset(job_, s, *b.desc), b.bytes,
                                cudaMemcpyHostToDevice),
                     "copying an input set to the GPU");
}

// Timed runs keep each call's device outputs on the device until the
// last call, then copy them all back: between two timed calls the GPU
// then only runs device copies, no trip to the host leaves it idle (an
// idle GPU lowers its clocks, and the next call would pay for it).
void LabProgram::keep_output_history()
{
    history_.resize(job_.nbuffers);
    for (std::uint32_t i = 0; cycling() && !discards_outputs() && i < job_.nbuffers; ++i) {
        const OwnedBuffer& b = owned_[i];
        if (!b.on_device || b.desc->role != wire::Role::output) continue;
        keep_history(i);
    }
}

void LabProgram::keep_history(std::uint32_t i)
{
    const OwnedBuffer& b = owned_[i];
    for (std::uint32_t k = 0; k < job_.ncalls; ++k) {
        void* p = nullptr;
        if (cudaMalloc(&p, b.bytes ? b.bytes : 1) != cudaSuccess) {
            cudaGetLastError();  // not sticky: copy back after each call instead
            for (void* q : history_[i]) cudaFree(q);
            history_[i].clear();
            break;
        }
        history_[i].push_back(p);
    }
}

// Whether some outputs wait on the device to be copied back (timed runs).
bool LabProgram::history_pending() const
{
    for (const auto& h : history_)
        if (!h.empty()) return true;
    return false;
}

std::uint64_t LabProgram::largest_output(bool device_only) const
{
    std::uint64_t largest = 0;
    for (const OwnedBuffer& b : owned_)
        if (b.desc->role == wire::Role::output && (b.on_device || !device_only)) largest = std::max(largest, b.bytes);
    return largest;
}

// Poison comes from memory on the same side as the output: a device
// copy of the pattern costs microseconds where a host one costs a trip.
// On the parent's clock a host output is poisoned from the device too
// (stage_buffer): before each of a timed run's eleven handshakes, a copy
// from the GPU into the student's pinned buffer is quicker than the host's
// own copy of it (streams: 128 MiB a call). A timed run makes the device's
// pattern there (its calls run the harness's kernels anyway): a host
// pattern copied up cost its preparation a pass over the host memory and a
// pageable copy (streams: 128 MiB). Other runs copy it up as they always
// did: a kernel of the harness's run before the student's moved the
// program's GPU address space, and rotation's int_index mistake (indices
// wrapped to 8 GiB before the images, tests/broken) then read and wrote
// memory that was there, a wrong answer, where the lesson shows the illegal
// address it gets in a program of its own.
void LabProgram::make_poison()
{
    if (!parent_clock()) poison_.assign(largest_output(false) / 4, wire::kPoison32);  // host outputs' (stage_buffer)
    const std::uint64_t device_bytes = largest_output(!parent_clock());
    if (device_bytes == 0) return;
    harness_cuda(cudaMalloc(&device_poison_, device_bytes), "allocating the poison pattern");
    if (parent_clock())
        harness_cuda(fill_words(static_cast<std::uint32_t*>(device_poison_), device_bytes / 4, wire::kPoison32),
                     "making the poison pattern");
    else
        harness_cuda(cudaMemcpy(device_poison_, poison_.data(), device_bytes, cudaMemcpyHostToDevice),
                     "copying the poison pattern");
}

// Writing more than the L2 cache evicts whatever the previous call or the
// input copies left there, so every call starts from device memory.
void LabProgram::make_l2_flush()
{
    if (!(job_.flags & wire::kFlagFlushL2)) return;
    flush_bytes_ = 2 * static_cast<std::size_t>(prop_.l2CacheSize);
    harness_cuda(cudaMalloc(&flush_, flush_bytes_), "allocating the L2 flush buffer");
}

void LabProgram::create_events()
{
    harness_cuda(cudaEventCreate(&start_), "creating an event");
    harness_cuda(cudaEventCreate(&stop_event_), "creating an event");
}

void LabProgram::start_trace()
{
    result_.trace_available = wire::wants_trace(job_.flags) && hpclab::trace::start() ? 1 : 0;
}

void LabProgram::tell_before_main(const wire::ResourceLedger& ledger) { result_.before_main = ledger; }

// A GPU that sat idle runs its first kernels at lower clocks: timed runs
// keep it busy a moment before the first call.
void LabProgram::warm_up()
{
    if (!flush_) return;
    const double until = now_ms() + 20;
    // Bounded in rounds too: the clock is the process's, and the student's
    // file may define clock_gettime.
    for (int round = 0; round < 400 && now_ms() < until; ++round) {
        for (int i = 0; i < 8; ++i) cudaMemset(flush_, i, flush_bytes_);
        harness_cuda(cudaDeviceSynchronize(), "warming the GPU up");
    }
}

void LabProgram::run_calls()
{
    result_.stage = wire::Stage::started;
    t_calls_ = now_ms();
    if (parent_clock()) {
        harness_cuda(cudaMalloc(reinterpret_cast<void**>(&commit_sum_), sizeof *commit_sum_),
                     "allocating the commitment");
        for (std::uint32_t j = 0; j < job_.empty_calls; ++j) run_empty_call(j);
    }
    for (std::uint32_t k = 0; k < job_.ncalls; ++k) run_call(k);
}

std::uint64_t LabProgram::wait_for_go(std::uint32_t j)
{
    wire::Handshake& hs = file_.header().handshake;
    wire::store_release(hs.ready, j + 1);
    // Spun on at first (the parent answers within microseconds), then with
    // the CPU given up between looks: a parent held up must not starve the
    // other threads of this program on its two CPUs.
    for (long spins = 0; wire::load_acquire(hs.go) != j + 1; ++spins) {
        if (spins < 200000) {
#if defined(__x86_64__)
            __builtin_ia32_pause();
#endif
        } else {
            sched_yield();
        }
    }
    return hs.seed[j];
}

void LabProgram::reveal_inputs(std::uint64_t seed)
{
    for (OwnedBuffer& b : owned_) {
        const wire::Buffer& d = *b.desc;
        if (d.role != wire::Role::input) continue;
        void* target = b.on_device ? static_cast<void*>(b.user) : b.reveal_scratch;
        const std::uint64_t key = wire::stream_key(seed, d.fill_stream);
        harness_cuda(d.type == wire::ElemType::f32
                         ? reveal_fill_f32(static_cast<float*>(target), d.count, key, d.fill_lo, d.fill_hi)
                         : reveal_fill_i32(static_cast<int*>(target), d.count, key, static_cast<std::int64_t>(d.fill_lo),
                                           static_cast<std::int64_t>(d.fill_hi), d.fill_fold),
                     "making an input on the GPU");
        if (!b.on_device)
            harness_cuda(cudaMemcpy(b.user, b.reveal_scratch, b.bytes, cudaMemcpyDeviceToHost),
                         "copying a made input to the host");
    }
    // Done before the student's code starts, whatever stream it uses.
    harness_cuda(cudaDeviceSynchronize(), "making the inputs");
}

std::uint64_t LabProgram::commit_outputs(std::uint64_t seed)
{
    harness_cuda(cudaMemset(commit_sum_, 0, sizeof *commit_sum_), "starting a commitment");
    for (std::uint32_t i = 0; i < owned_.size(); ++i) {
        const OwnedBuffer& b = owned_[i];
        if (b.desc->role != wire::Role::output) continue;
        // A host output is copied to the GPU and committed to there: a copy
        // costs less, and varies less, than a pass of the CPU over it.
        if (!b.on_device)
            harness_cuda(cudaMemcpy(b.reveal_scratch, b.user, b.bytes, cudaMemcpyHostToDevice),
                         "copying an output to commit to");
        const auto* words = static_cast<const std::uint32_t*>(b.on_device ? static_cast<void*>(b.user) : b.reveal_scratch);
        harness_cuda(reveal_commit(words, b.desc->count, seed, i, commit_sum_), "committing to an output");
    }
    std::uint64_t total = 0;
    harness_cuda(cudaMemcpy(&total, commit_sum_, sizeof total, cudaMemcpyDeviceToHost), "reading a commitment");
    return total;
}

void LabProgram::say_done(std::uint32_t j, std::uint64_t seed)
{
    wire::Handshake& hs = file_.header().handshake;
    hs.commitment[j] = commit_outputs(seed);
    wire::store_release(hs.done, j + 1);
}

// The harness's own part of a timed call, as run_call and time_student_call
// do it, around no call: the parent's measure of it is what the harness adds
// to every timed call. Outputs keep their poison, and are committed to.
void LabProgram::run_empty_call(std::uint32_t j)
{
    (void)stage_call(0);
    flush_l2(j);
    harness_cuda(cudaDeviceSynchronize(), "waiting for the GPU before an empty call");
    const std::uint64_t seed = wait_for_go(j);
    reveal_inputs(seed);
    flush_l2(j);
    print_marker("empty", j);
    harness_cuda(cudaEventRecord(start_), "recording an event");
    (void)cudaGetLastError();
    harness_cuda(cudaDeviceSynchronize(), "an empty call");
    harness_cuda(cudaEventRecord(stop_event_), "recording an event");
    print_marker("emptied", j);
    harness_cuda(cudaEventSynchronize(stop_event_), "waiting for an event");
    say_done(j, seed);
}

// One call: inputs in and outputs poisoned, the student's entry point timed,
// then the buffers written back and their guard zones checked.
void LabProgram::run_call(std::uint32_t k)
{
    const Call call = stage_call(k);
    flush_l2(k);
    harness_cuda(cudaDeviceSynchronize(), "waiting for the GPU before the call");

    wire::CallOutcome& out = result_.calls[k];
    const std::uint32_t handshake = job_.empty_calls + k;
    std::uint64_t seed = 0;
    if (parent_clock()) {
        seed = wait_for_go(handshake);
        reveal_inputs(seed);
        // The inputs just made sit in L2: flushed again, the call reads them
        // from device memory as every other timed call does (left there, a
        // call's speed depended on where its buffers fell: up to 2x between
        // two processes of the same program).
        flush_l2(k);
    }
    // Traced outside the timed window: turning CUPTI on costs time.
    const bool traced = result_.trace_available && ((job_.flags & wire::kFlagTrace) || k == 0);
    if (traced) hpclab::trace::begin_call(&out.trace);
    result_.stage = wire::Stage::in_call;
    const CallTimes times = time_student_call(k, call, out);
    if (traced) hpclab::trace::end_call();
    result_.stage = wire::Stage::started;
    if (parent_clock()) say_done(handshake, seed);

    t_timed_ += times.host_ms;
    out.returned = times.returned;
    out.host_ms = times.host_ms;
    out.gpu_ms = times.gpu_ms;
    out.guard_damaged = 0;
    write_back(k, out);
    if (history_pending()) return;  // done once its outputs are back in the file
    out.done = 1;
    result_.calls_done = k + 1;
}

// The call's buffers filled (each guard zone first): inputs from their set,
// outputs with the poison.
Call LabProgram::stage_call(std::uint32_t k)
{
    std::vector<Call::Slot> slots;
    for (auto& b : owned_) {
        fill_guards(b);
        stage_buffer(b, k);
        const bool input = b.desc->role == wire::Role::input;
        slots.push_back({b.desc->name, b.user, static_cast<std::uint32_t>(b.desc->type), input});
    }
    return Call(std::move(slots), call_params());
}

void LabProgram::stage_buffer(OwnedBuffer& b, std::uint32_t k)
{
    const std::uint32_t set = k % job_.nsets;
    unsigned char* in_file = file_.bytes + wire::buffer_offset(job_, k, *b.desc);
    const bool input = b.desc->role == wire::Role::input;
    if (input && parent_clock()) return;  // made once the call has its seed
    if (input && !b.sets.empty()) {
        harness_cuda(cudaMemcpy(b.user, b.sets[set], b.bytes, cudaMemcpyDeviceToDevice),
                     "copying an input set on the GPU");
    } else if (b.on_device) {
        const void* from = input ? static_cast<const void*>(in_file) : device_poison_;
        harness_cuda(cudaMemcpy(b.user, from, b.bytes, input ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice),
                     "copying a buffer to the GPU");
    } else if (!input && parent_clock() && device_poison_) {
        harness_cuda(cudaMemcpy(b.user, device_poison_, b.bytes, cudaMemcpyDeviceToHost), "poisoning a host output");
    } else {
        std::memcpy(b.user, input ? static_cast<const void*>(in_file) : poison_.data(), b.bytes);
    }
}

std::vector<std::pair<std::string, std::int64_t>> LabProgram::call_params() const
{
    std::vector<std::pair<std::string, std::int64_t>> params;
    for (std::uint32_t i = 0; i < job_.nparams; ++i)
        params.emplace_back(std::string(job_.params[i].name, wire::name_length(job_.params[i].name, wire::kNameLen)),
                            job_.params[i].value);
    return params;
}

void LabProgram::flush_l2(std::uint32_t k)
{
    if (!flush_) return;
    harness_cuda(cudaMemset(flush_, static_cast<int>(k & 0xff), flush_bytes_), "flushing the L2 cache");
    cudaCtxResetPersistingL2Cache();
}

// A line the parent reads as it comes, with the moment it read it: the
// begin and end of each call as hpclab itself saw them, against which it
// checks the times and the calls this program reports (stdout is unbuffered).
void LabProgram::print_marker(const char* what, std::uint32_t k) const
{
    if (job_.flags & wire::kFlagMarker)
        std::printf("\n%s%s-%u@@\n", wire::tag_prefix(job_.marker).c_str(), what, k);
}

// The student's call between two events, up to the device's end of its work.
LabProgram::CallTimes LabProgram::time_student_call(std::uint32_t k, const Call& call, wire::CallOutcome& out)
{
    print_marker("begin", k);
    harness_cuda(cudaEventRecord(start_), "recording an event");
    const double t0 = now_ms();
    const int returned = call_entry_point(call);
    if (job_.flags & wire::kFlagMarker)
        std::printf("\n@@hpclab-returned-%016llx@@\n", static_cast<unsigned long long>(job_.marker));
    // A failed launch (bad configuration) is reported once and does not
    // stop the device: record it and go on to show what was written.
    out.cuda_error = static_cast<std::int32_t>(cudaGetLastError());
    // Work the student queued on streams of their own must be in the time too.
    const cudaError_t sync = cudaDeviceSynchronize();
    const double t1 = now_ms();
    if (sync != cudaSuccess) {
        out.cuda_error = static_cast<std::int32_t>(sync);
        harness_cuda(sync, "the GPU failed while running the lab's code");
    }
    harness_cuda(cudaEventRecord(stop_event_), "recording an event");
    print_marker("end", k);
    harness_cuda(cudaEventSynchronize(stop_event_), "waiting for an event");
    float gpu_ms = 0;
    harness_cuda(cudaEventElapsedTime(&gpu_ms, start_, stop_event_), "reading an event");
    return {returned, t1 - t0, gpu_ms};
}

int LabProgram::call_entry_point(const Call& call)
{
    try {
        return (*task_)(call);
    } catch (const BindingError& e) {
        stop(wire::kExitHarnessError, "%s", e.what());
    }
}

void LabProgram::write_back(std::uint32_t k, wire::CallOutcome& out)
{
    for (std::uint32_t i = 0; i < owned_.size(); ++i) {
        if (should_write_back(owned_[i], k)) write_back_buffer(i, k);
        if (!guards_intact(owned_[i], scratch_)) out.guard_damaged |= 1u << i;
    }
}

// Inputs come back (so the parent sees any write into them) once
// per set: later calls of a set share its place in the file.
bool LabProgram::should_write_back(const OwnedBuffer& b, std::uint32_t k) const
{
    return !discards_outputs() && (b.desc->role == wire::Role::output ||
                                   (!(job_.flags & wire::kFlagOutputsOnly) && !parent_clock() && k < job_.nsets));
}

namespace {

// A large host output comes back to the file on two threads, one on each of
// a timed run's CPUs (run_recipe.h, timing_cpus): between two timed calls
// the copy is most of what the program does, and one core copied streams'
// 128 MiB in 13 ms of its 14 ms between calls.
void copy_to_file(unsigned char* dst, const void* src, std::size_t bytes)
{
    constexpr std::size_t kSplitFrom = std::size_t {8} << 20;
    if (bytes < kSplitFrom) {
        std::memcpy(dst, src, bytes);
        return;
    }
    const std::size_t half = bytes / 2 / 4096 * 4096;
    const auto* from = static_cast<const unsigned char*>(src);
    std::thread second([=] { std::memcpy(dst + half, from + half, bytes - half); });
    std::memcpy(dst, from, half);
    second.join();
}

}  // namespace

void LabProgram::write_back_buffer(std::uint32_t i, std::uint32_t k)
{
    const OwnedBuffer& b = owned_[i];
    unsigned char* dst = file_.bytes + wire::buffer_offset(job_, k, *b.desc);
    if (!history_[i].empty())
        harness_cuda(cudaMemcpy(history_[i][k], b.user, b.bytes, cudaMemcpyDeviceToDevice),
                     "keeping an output on the GPU");
    else if (b.on_device)
        harness_cuda(cudaMemcpy(dst, b.user, b.bytes, cudaMemcpyDeviceToHost), "copying a buffer from the GPU");
    else
        copy_to_file(dst, b.user, b.bytes);
}

void LabProgram::copy_back_history()
{
    for (std::uint32_t k = 0; k < job_.ncalls && history_pending(); ++k) {
        for (std::uint32_t i = 0; i < owned_.size(); ++i)
            if (!history_[i].empty())
                harness_cuda(cudaMemcpy(file_.bytes + wire::buffer_offset(job_, k, *owned_[i].desc), history_[i][k],
                                        owned_[i].bytes, cudaMemcpyDeviceToHost),
                             "copying an output from the GPU");
        result_.calls[k].done = 1;
        result_.calls_done = k + 1;
    }
}

void LabProgram::mark_start(std::uint32_t index) const { print_marker("exchange", index); }
void LabProgram::mark_opened(std::uint32_t index) const { print_marker("opened", index); }

void LabProgram::release()
{
    for (OwnedBuffer& b : owned_) {
        if (b.against_unmapped.base) guarded::release(b.against_unmapped);
        else if (b.on_device) cudaFree(b.base);
        else release_host(b.base);
        if (b.device_guard) cudaFree(b.device_guard);
        for (void* s : b.sets) cudaFree(s);
        if (b.reveal_scratch) cudaFree(b.reveal_scratch);
    }
    if (commit_sum_) cudaFree(commit_sum_);
    for (const auto& outputs : history_)
        for (void* p : outputs) cudaFree(p);
    if (device_poison_) cudaFree(device_poison_);
    if (flush_) cudaFree(flush_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_event_);
    // A buffer the student's code freed already makes its cudaFree fail:
    // not sticky, and not to be seen as the next call's launch error.
    cudaGetLastError();
    munmap(file_.bytes, file_.size);
    g_header = nullptr;
}

void LabProgram::finish()
{
    const double t_back = now_ms();
    if (job_.flags & wire::kFlagMeasureCopy) result_.copy_bytes_per_s = measure_copy(start_, stop_event_);
    if (profile_)
        std::fprintf(stderr, "hpclab profile: program: start %.0f ms, %u calls %.0f ms (%.1f ms in them), copy %.0f ms\n",
                     t_calls_ - t_begin_, job_.ncalls, t_back - t_calls_, t_timed_, now_ms() - t_back);
    result_.stage = wire::Stage::finished;
    std::fflush(stdout);
}

}  // namespace hpclab::harness
