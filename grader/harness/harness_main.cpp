// The lab program's main(): the child side of a run.
//
// hpclab links the student's compiled lab with this file and the lab's
// bind.cpp, then starts the program as
//
//     <lab program> --exchange-fd N
//
// where N is an open shared-memory file laid out as wire/exchange.h says.
// For each call slot the harness copies the inputs into buffers it owns
// (device or host memory, with guard zones on both sides), fills the outputs
// with poison, calls the student's entry point through the lab's binding,
// waits for the device, then writes back the outputs, a read-back of the
// inputs and what it saw (time, return value, guard damage, CUDA errors).
// It decides nothing: the verdict is the parent's.
#include "binding.h"
#include "trace.h"
#include "wire/exchange.h"

#include <cuda_runtime_api.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
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
#include <vector>

namespace {

using namespace hpclab;
using wire::Header;

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

// One buffer the student's code receives, with its guard zones.
struct OwnedBuffer {
    const wire::Buffer* desc = nullptr;
    unsigned char* base = nullptr;  // start of the allocation (guard before)
    unsigned char* user = nullptr;  // what the student gets
    std::uint64_t bytes = 0;
    std::uint64_t guard = 0;
    bool on_device = false;
    // Timed runs (fewer input sets than calls): each set of this input kept
    // on the device, so a call's inputs are a device copy away. Empty when
    // not used or when the device has no room (then they come from the file).
    std::vector<void*> sets;
};

void fill_guards(OwnedBuffer& b)
{
    if (b.guard == 0) return;
    if (b.on_device) {
        harness_cuda(cudaMemset(b.base, wire::kGuardByte, b.guard), "setting a guard zone");
        harness_cuda(cudaMemset(b.user + b.bytes, wire::kGuardByte, b.guard), "setting a guard zone");
    } else {
        std::memset(b.base, wire::kGuardByte, b.guard);
        std::memset(b.user + b.bytes, wire::kGuardByte, b.guard);
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
        for (std::uint64_t i = 0; i < b.guard; ++i)
            if (bytes[i] != wire::kGuardByte) return false;
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

// With a gate (hpclab's gate.h): say "ready", then wait for "go". No "go"
// (hpclab closed the gate: no calls are needed) ends the program here.
void wait_at_gate(int go_fd, int ready_fd)
{
    if (go_fd < 0 || ready_fd < 0) return;
    const char ready = 'r';
    const bool told = write(ready_fd, &ready, 1) == 1;
    close(ready_fd);
    char go = 0;
    ssize_t n;
    do n = told ? read(go_fd, &go, 1) : 0;
    while (n < 0 && errno == EINTR);
    close(go_fd);
    if (n != 1) std::_Exit(wire::kExitOk);
}

// Whether some outputs wait on the device to be copied back (timed runs).
bool history_pending(const std::vector<std::vector<void*>>& history)
{
    for (const auto& h : history)
        if (!h.empty()) return true;
    return false;
}

void validate_job(const wire::Job& job, std::uint64_t file_size)
{
    if (job.magic != wire::kMagic || job.version != wire::kVersion)
        stop(wire::kExitHarnessError, "the exchange file is not a job of this hpclab version");
    if (job.nparams > wire::kMaxParams || job.nbuffers > wire::kMaxBuffers || job.ncalls > wire::kMaxCalls ||
        job.ncalls == 0 || job.nsets == 0 || job.nsets > job.ncalls)
        stop(wire::kExitHarnessError, "the job's counts are out of range");
    // Each product below is at most kMaxCalls times a buffer size already
    // bounded by the file, so none of them overflows once these hold.
    if (job.data_offset < sizeof(Header) || job.data_offset > file_size || job.slot_bytes > file_size ||
        job.out_slot_bytes > file_size || wire::slots_bytes(job) > file_size - job.data_offset)
        stop(wire::kExitHarnessError, "the job's call slots do not fit the exchange file");
    for (std::uint32_t i = 0; i < job.nbuffers; ++i) {
        const auto& b = job.buffers[i];
        const std::uint64_t bytes = b.count * wire::elem_size(b.type);
        if (b.count != 0 && bytes / b.count != wire::elem_size(b.type))
            stop(wire::kExitHarnessError, "buffer %u is too large", i);
        if (b.offset > job.slot_bytes || bytes > job.slot_bytes - b.offset)
            stop(wire::kExitHarnessError, "buffer %u does not fit its call slot", i);
        if (b.role == wire::Role::output && job.nsets < job.ncalls &&
            (b.out_offset > job.out_slot_bytes || bytes > job.out_slot_bytes - b.out_offset))
            stop(wire::kExitHarnessError, "buffer %u does not fit its output slot", i);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    // Die with the process that started us (hpclab, or compute-sanitizer):
    // a kernel that never ends must not outlive its run and hold the GPU.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) return wire::kExitHarnessError;  // the parent is already gone

    int fd = -1, gate_go = -1, gate_ready = -1;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--exchange-fd") == 0) fd = std::atoi(argv[i + 1]);
        if (std::strcmp(argv[i], "--gate") == 0 && std::sscanf(argv[i + 1], "%d,%d", &gate_go, &gate_ready) != 2)
            gate_go = gate_ready = -1;
    }
    if (fd < 0) {
        std::fprintf(stderr,
                     "This is a lab program built by hpclab; it runs the lab's graded functions for\n"
                     "hpclab and has nothing to do on its own. Run it with: hpclab run <lab>\n");
        return wire::kExitHarnessError;
    }

    struct stat st {};
    if (fstat(fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) < sizeof(Header))
        stop(wire::kExitHarnessError, "cannot read the exchange file (descriptor %d)", fd);
    const auto file_size = static_cast<std::uint64_t>(st.st_size);
    // MAP_POPULATE: the pages' mappings made now, in one pass, rather than a
    // fault per 4 KiB page while the outputs are copied back after the calls.
    void* map = mmap(nullptr, file_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (map == MAP_FAILED) stop(wire::kExitHarnessError, "cannot map the exchange file: %s", std::strerror(errno));
    close(fd);  // the student's code has no use for it
    auto* file = static_cast<unsigned char*>(map);
    g_header = static_cast<Header*>(map);
    const wire::Job job = g_header->job;  // a private copy: the file is shared
    wire::Result& result = g_header->result;
    validate_job(job, file_size);
    result.magic = wire::kMagic;

    // Device printf and the marker line must reach the parent in the order
    // they happen: no stdio buffering.
    std::setvbuf(stdout, nullptr, _IONBF, 0);

    // HPCLAB_PROFILE: where the program's time goes, on stderr (which hpclab
    // shows when it profiles too).
    const bool profile = std::getenv("HPCLAB_PROFILE") != nullptr;
    const double t_begin = now_ms();
    double t_calls = 0, t_timed = 0;

    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
        stop(wire::kExitNoGpu, "no CUDA GPU is visible to this program");
    cudaDeviceProp prop {};
    harness_cuda(cudaGetDeviceProperties(&prop, 0), "querying the GPU");
    wire::set_name(result.device_name, sizeof result.device_name, prop.name);
    result.cc_major = prop.major;
    result.cc_minor = prop.minor;

    hpclab::Bindings bindings;
    hpclab_lab_bindings(bindings);
    const std::string task(job.task, wire::name_length(job.task, sizeof job.task));
    const hpclab::TaskFunction* fn = bindings.find(task);
    if (!fn) stop(wire::kExitHarnessError, "this lab program has no task '%s' (bind.cpp)", task.c_str());

    // Allocate every buffer once, with its guard zones. Without guard zones
    // (under compute-sanitizer), a spacer allocation after each buffer, freed
    // before the student's code runs, keeps the next buffer away from its
    // end: an access past the end then lands in memory that belongs to no
    // allocation, which memcheck reports (one into a neighbour it cannot).
    std::vector<void*> spacers;
    std::vector<OwnedBuffer> owned(job.nbuffers);
    std::uint64_t largest_output = 0, largest_device_output = 0;
    for (std::uint32_t i = 0; i < job.nbuffers; ++i) {
        OwnedBuffer& b = owned[i];
        b.desc = &job.buffers[i];
        b.bytes = b.desc->count * wire::elem_size(b.desc->type);
        b.guard = job.guard_bytes;
        b.on_device = b.desc->place == wire::Place::device;
        const std::uint64_t total = b.bytes + 2 * b.guard;
        if (b.on_device) {
            void* p = nullptr;
            const cudaError_t err = cudaMalloc(&p, total);
            if (err != cudaSuccess)
                stop(wire::kExitHarnessError, "cannot allocate %.3f GB of device memory for buffer '%s': %s",
                     total / 1e9, b.desc->name, cudaGetErrorString(err));
            b.base = static_cast<unsigned char*>(p);
        } else {
            b.base = static_cast<unsigned char*>(std::malloc(total ? total : 1));
            if (!b.base) stop(wire::kExitHarnessError, "cannot allocate %.3f GB of host memory", total / 1e9);
        }
        b.user = b.base + b.guard;
        if (b.desc->role == wire::Role::output) {
            largest_output = std::max(largest_output, b.bytes);
            if (b.on_device) largest_device_output = std::max(largest_device_output, b.bytes);
        }
        void* spacer = nullptr;
        if (b.on_device && b.guard == 0 && cudaMalloc(&spacer, 1u << 20) == cudaSuccess) spacers.push_back(spacer);
    }
    for (void* p : spacers) cudaFree(p);
    const bool cycling = job.nsets < job.ncalls;
    for (OwnedBuffer& b : owned) {
        if (!cycling || !b.on_device || b.desc->role != wire::Role::input) continue;
        for (std::uint32_t s = 0; s < job.nsets; ++s) {
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
            harness_cuda(cudaMemcpy(b.sets[s], file + wire::buffer_offset(job, s, *b.desc), b.bytes, cudaMemcpyHostToDevice),
                         "copying an input set to the GPU");
    }
    // Timed runs keep each call's device outputs on the device until the
    // last call, then copy them all back: between two timed calls the GPU
    // then only runs device copies, no trip to the host leaves it idle (an
    // idle GPU lowers its clocks, and the next call would pay for it).
    std::vector<std::vector<void*>> history(job.nbuffers);
    const bool discard = job.flags & wire::kFlagDiscardOutputs;
    for (std::uint32_t i = 0; cycling && !discard && i < job.nbuffers; ++i) {
        OwnedBuffer& b = owned[i];
        if (!b.on_device || b.desc->role != wire::Role::output) continue;
        for (std::uint32_t k = 0; k < job.ncalls; ++k) {
            void* p = nullptr;
            if (cudaMalloc(&p, b.bytes ? b.bytes : 1) != cudaSuccess) {
                cudaGetLastError();  // not sticky: copy back after each call instead
                for (void* q : history[i]) cudaFree(q);
                history[i].clear();
                break;
            }
            history[i].push_back(p);
        }
    }
    // Poison comes from memory on the same side as the output: a device
    // copy of the pattern costs microseconds where a host one costs a trip.
    std::vector<std::uint32_t> poison(largest_output / 4, wire::kPoison32);
    void* device_poison = nullptr;
    if (largest_device_output > 0) {
        harness_cuda(cudaMalloc(&device_poison, largest_device_output), "allocating the poison pattern");
        harness_cuda(cudaMemcpy(device_poison, poison.data(), largest_device_output, cudaMemcpyHostToDevice),
                     "copying the poison pattern");
    }

    // Writing more than the L2 cache evicts whatever the previous call or the
    // input copies left there, so every call starts from device memory.
    void* flush = nullptr;
    std::size_t flush_bytes = 0;
    if (job.flags & wire::kFlagFlushL2) {
        flush_bytes = 2 * static_cast<std::size_t>(prop.l2CacheSize);
        harness_cuda(cudaMalloc(&flush, flush_bytes), "allocating the L2 flush buffer");
    }

    cudaEvent_t start, stop_event;
    harness_cuda(cudaEventCreate(&start), "creating an event");
    harness_cuda(cudaEventCreate(&stop_event), "creating an event");
    std::vector<unsigned char> scratch;
    const bool trace_wanted = job.flags & (wire::kFlagTrace | wire::kFlagTraceFirst);
    result.trace_available = trace_wanted && hpclab::trace::start() ? 1 : 0;

    wait_at_gate(gate_go, gate_ready);
    // A GPU that sat idle runs its first kernels at lower clocks: timed runs
    // keep it busy a moment before the first call.
    if (flush) {
        const double until = now_ms() + 20;
        while (now_ms() < until) {
            for (int i = 0; i < 8; ++i) cudaMemset(flush, i, flush_bytes);
            harness_cuda(cudaDeviceSynchronize(), "warming the GPU up");
        }
    }

    result.stage = wire::Stage::started;
    t_calls = now_ms();
    for (std::uint32_t k = 0; k < job.ncalls; ++k) {
        const std::uint32_t set = k % job.nsets;
        std::vector<Call::Slot> slots;
        for (auto& b : owned) {
            fill_guards(b);
            unsigned char* in_file = file + wire::buffer_offset(job, k, *b.desc);
            const bool input = b.desc->role == wire::Role::input;
            if (input && !b.sets.empty()) {
                harness_cuda(cudaMemcpy(b.user, b.sets[set], b.bytes, cudaMemcpyDeviceToDevice),
                             "copying an input set on the GPU");
            } else if (b.on_device) {
                const void* from = input ? static_cast<const void*>(in_file) : device_poison;
                harness_cuda(cudaMemcpy(b.user, from, b.bytes, input ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice),
                             "copying a buffer to the GPU");
            } else {
                std::memcpy(b.user, input ? static_cast<const void*>(in_file) : poison.data(), b.bytes);
            }
            slots.push_back({b.desc->name, b.user, static_cast<std::uint32_t>(b.desc->type), input});
        }
        std::vector<std::pair<std::string, std::int64_t>> params;
        for (std::uint32_t i = 0; i < job.nparams; ++i)
            params.emplace_back(std::string(job.params[i].name, wire::name_length(job.params[i].name, wire::kNameLen)),
                                job.params[i].value);
        const Call call(std::move(slots), std::move(params));

        if (flush) {
            harness_cuda(cudaMemset(flush, static_cast<int>(k & 0xff), flush_bytes), "flushing the L2 cache");
            cudaCtxResetPersistingL2Cache();
        }
        harness_cuda(cudaDeviceSynchronize(), "waiting for the GPU before the call");

        wire::CallOutcome& out = result.calls[k];
        // Traced outside the timed window: turning CUPTI on costs time.
        const bool traced = result.trace_available && ((job.flags & wire::kFlagTrace) || k == 0);
        if (traced) hpclab::trace::begin_call(&out.trace);
        result.stage = wire::Stage::in_call;
        harness_cuda(cudaEventRecord(start), "recording an event");
        const double t0 = now_ms();
        int returned = 0;
        try {
            returned = (*fn)(call);
        } catch (const BindingError& e) {
            stop(wire::kExitHarnessError, "%s", e.what());
        }
        if (job.flags & wire::kFlagMarker)
            std::printf("\n@@hpclab-returned-%016llx@@\n", static_cast<unsigned long long>(job.marker));
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
        harness_cuda(cudaEventRecord(stop_event), "recording an event");
        harness_cuda(cudaEventSynchronize(stop_event), "waiting for an event");
        float gpu_ms = 0;
        harness_cuda(cudaEventElapsedTime(&gpu_ms, start, stop_event), "reading an event");
        if (traced) hpclab::trace::end_call();
        result.stage = wire::Stage::started;

        t_timed += t1 - t0;
        out.returned = returned;
        out.host_ms = t1 - t0;
        out.gpu_ms = gpu_ms;
        out.guard_damaged = 0;
        for (std::uint32_t i = 0; i < owned.size(); ++i) {
            OwnedBuffer& b = owned[i];
            unsigned char* dst = file + wire::buffer_offset(job, k, *b.desc);
            // Inputs come back (so the parent sees any write into them) once
            // per set: later calls of a set share its place in the file.
            const bool write_back = !discard && (b.desc->role == wire::Role::output ||
                                                 (!(job.flags & wire::kFlagOutputsOnly) && k < job.nsets));
            if (write_back) {
                if (!history[i].empty())
                    harness_cuda(cudaMemcpy(history[i][k], b.user, b.bytes, cudaMemcpyDeviceToDevice),
                                 "keeping an output on the GPU");
                else if (b.on_device)
                    harness_cuda(cudaMemcpy(dst, b.user, b.bytes, cudaMemcpyDeviceToHost), "copying a buffer from the GPU");
                else
                    std::memcpy(dst, b.user, b.bytes);
            }
            if (!guards_intact(b, scratch)) out.guard_damaged |= 1u << i;
        }
        if (history_pending(history)) continue;  // done once its outputs are back in the file
        out.done = 1;
        result.calls_done = k + 1;
    }
    for (std::uint32_t k = 0; k < job.ncalls && history_pending(history); ++k) {
        for (std::uint32_t i = 0; i < owned.size(); ++i)
            if (!history[i].empty())
                harness_cuda(cudaMemcpy(file + wire::buffer_offset(job, k, *owned[i].desc), history[i][k],
                                        owned[i].bytes, cudaMemcpyDeviceToHost),
                             "copying an output from the GPU");
        result.calls[k].done = 1;
        result.calls_done = k + 1;
    }
    const double t_back = now_ms();
    if (job.flags & wire::kFlagMeasureCopy) result.copy_bytes_per_s = measure_copy(start, stop_event);
    if (profile)
        std::fprintf(stderr, "hpclab profile: program: start %.0f ms, %u calls %.0f ms (%.1f ms in them), copy %.0f ms\n",
                     t_calls - t_begin, job.ncalls, t_back - t_calls, t_timed, now_ms() - t_back);
    result.stage = wire::Stage::finished;
    std::fflush(stdout);
    return wire::kExitOk;
}
