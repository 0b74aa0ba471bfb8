// The exchange between hpclab (the parent, which decides) and the lab
// program (the child, which runs the student's code).
//
// One shared memory file (a memfd the parent creates, passed to the child as
// an open descriptor) holds, in order:
//
//   Header { Job, Result }   fixed size, plain data
//   call slot 0              every buffer of the first call
//   call slot 1              ...
//   call slot nsets - 1
//   output slot nsets        the outputs only of call nsets
//   ...
//   output slot ncalls - 1
//
// A job has `nsets` input sets (nsets <= ncalls): call k reads the inputs of
// slot k % nsets. A parent-clock job's inputs (kFlagParentClock) take no
// room in the slots: the child makes each call's from the seed it is sent. Runs that check correctness give every call its own set;
// timed runs cycle through a few sets that the harness keeps on the device,
// so that a timed call costs a device copy instead of a trip from the host,
// while consecutive calls still see different inputs at the same pointers
// (a result cached by pointer is wrong at the next call).
//
// The parent writes the Job and every input buffer; the child reads them,
// runs each call on its own copy of the inputs, then writes the outputs and
// a read-back of the inputs into the same slot, and its progress into Result.
// Everything the child writes is a claim: the parent checks outputs against
// its own reference and inputs against a keyed hash it took before the run.
//
// This header is plain C++17 with no dependencies: it is compiled into both
// hpclab and the harness.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace hpclab::wire {

inline constexpr std::uint32_t kMagic = 0x4C435048u;  // "HPCL"
inline constexpr std::uint32_t kVersion = 8;
inline constexpr int kNameLen = 32;
inline constexpr int kMaxParams = 8;
inline constexpr int kMaxBuffers = 16;  // aos_soa's soa task: eight arrays of a structure and the output
inline constexpr int kMaxCalls = 64;
inline constexpr int kMessageLen = 1024;
inline constexpr int kMaxKernelRecords = 6;  // per call: the first launches, in order
inline constexpr int kKernelNameLen = 96;

// Exit statuses of the lab program. HPC_CUDA_ERROR_EXIT (99, from hpc.h)
// means the student's own cudaSafeCall/cudaCheckError stopped the program.
inline constexpr int kExitOk = 0;
inline constexpr int kExitNoGpu = 77;
inline constexpr int kExitHarnessError = 96;
inline constexpr int kExitGpuFault = 97;
inline constexpr int kExitStudentCudaError = 99;

// Four-byte poison written into every output before a call. As a float it
// is a NaN (which never passes a comparison); as an int it is a value no lab
// produces from its generated inputs.
inline constexpr std::uint32_t kPoison32 = 0x7FBADBADu;
// What the guard zones placed before and after every buffer hold, word by
// word, by the buffer's element type: read as one of its elements, a value
// that spoils any result it enters (a float NaN; an int near 2^30, far past
// any sum of the labs' inputs). So a read past an end is a wrong answer in
// every ordinary run, not only under compute-sanitizer; a write there shows
// as a damaged guard.
inline constexpr std::uint32_t kGuardF32 = 0x7FC0A5A5u;  // a quiet NaN
inline constexpr std::uint32_t kGuardI32 = 0x40A5A5A5u;  // 1084597669

enum class ElemType : std::uint32_t { i32 = 1, f32 = 2 };
enum class Place : std::uint32_t { host = 1, device = 2 };
enum class Role : std::uint32_t { input = 1, output = 2 };

inline constexpr std::uint64_t elem_size(ElemType) { return 4; }
inline constexpr std::uint32_t guard_word(ElemType t) { return t == ElemType::f32 ? kGuardF32 : kGuardI32; }

// Job flags.
inline constexpr std::uint32_t kFlagFlushL2 = 1u << 0;  // flush L2 before each call
inline constexpr std::uint32_t kFlagMarker = 1u << 1;   // print a marker line after each call returns
inline constexpr std::uint32_t kFlagTrace = 1u << 2;    // CUPTI records of every call
inline constexpr std::uint32_t kFlagTraceFirst = 1u << 3;  // ... of the first call only (timed runs)
// Whether a job's program keeps CUPTI records at all (of one call or of every one).
inline constexpr bool wants_trace(std::uint32_t flags) { return (flags & (kFlagTrace | kFlagTraceFirst)) != 0; }
inline constexpr std::uint32_t kFlagMeasureCopy = 1u << 4; // time a device-to-device copy after the calls
inline constexpr std::uint32_t kFlagOutputsOnly = 1u << 5; // write back outputs only (timed runs: less copying)
inline constexpr std::uint32_t kFlagDiscardOutputs = 1u << 6;  // write back nothing (a trusted baseline's timed runs)
// Timed runs: each call waits for the parent's go (the Handshake below), makes
// its inputs on the GPU from the seed the parent sends with it (wire/reveal.h,
// each input buffer's Fill), commits to its outputs and says done; the parent
// times the call from go to done on its own clock. Before the real calls,
// `empty_calls` handshakes do all of that but call nothing of the student's:
// what the parent measures of them is the harness's own cost.
inline constexpr std::uint32_t kFlagParentClock = 1u << 7;

struct Param {
    char name[kNameLen];
    std::int64_t value;
};

struct Buffer {
    char name[kNameLen];
    ElemType type;
    Place place;
    Role role;
    std::uint32_t reserved;
    std::uint64_t count;   // elements
    std::uint64_t offset;      // bytes from the start of a call slot
    std::uint64_t out_offset;  // outputs: bytes from the start of an output slot
    // Inputs of a kFlagParentClock job: element i is stream_folded (i32) or
    // stream_real (f32) of stream_key(seed, fill_stream), in [fill_lo, fill_hi]
    // (an i32 fill's values drawn past fill_hi + 0 .. fill_fold folded: reveal.h).
    std::uint32_t fill_stream;
    std::uint32_t fill_fold;
    double fill_lo, fill_hi;
};

struct Job {
    std::uint32_t magic;
    std::uint32_t version;
    char lab[kNameLen];
    char task[kNameLen];
    std::uint32_t nparams;
    std::uint32_t nbuffers;
    Param params[kMaxParams];
    Buffer buffers[kMaxBuffers];
    std::uint32_t ncalls;       // all are verified
    std::uint32_t nsets;        // input sets: call k reads set k % nsets
    std::uint32_t flags;
    std::uint32_t reserved;
    std::uint64_t slot_bytes;   // bytes of one call slot (all buffers)
    std::uint64_t out_slot_bytes;  // bytes of one output slot (outputs only)
    std::uint64_t data_offset;  // file offset of call slot 0
    std::uint64_t guard_bytes;  // guard zone on each side of each buffer (a multiple of 4)
    std::uint64_t marker;       // nonce of the marker line (kFlagMarker)
    std::uint32_t empty_calls;  // kFlagParentClock: handshakes before the calls that call nothing
    std::uint32_t reserved2;
};

// The parent's clock (kFlagParentClock): handshake j (the empty ones first,
// then call k = j - empty_calls) goes ready, go, done. The parent starts its
// clock, writes the seed, then go = j + 1; the child makes the inputs, runs
// the call, writes the commitment, then done = j + 1, and the parent stops
// its clock the moment it reads it. Counters are read and written with
// acquire and release (load_acquire, store_release): plain data otherwise.
struct alignas(64) Handshake {
    std::uint32_t ready;  // child: j + 1, the call's buffers staged, waiting for go
    std::uint32_t pad0[15];
    std::uint32_t go;     // parent: j + 1, after seed[j]
    std::uint32_t pad1[15];
    std::uint32_t done;   // child: j + 1, after commitment[j]
    std::uint32_t pad2[15];
    std::uint64_t seed[kMaxCalls];
    std::uint64_t commitment[kMaxCalls];
};

inline std::uint32_t load_acquire(const std::uint32_t& x) { return __atomic_load_n(&x, __ATOMIC_ACQUIRE); }
inline void store_release(std::uint32_t& x, std::uint32_t v) { __atomic_store_n(&x, v, __ATOMIC_RELEASE); }

// What CUPTI saw of one call: the student's launches, copies, allocations.
struct KernelRecord {
    char name[kKernelNameLen];  // as compiled (mangled); the parent demangles
    std::int32_t grid[3];
    std::int32_t block[3];
    std::int32_t static_shared;   // bytes per block
    std::int32_t dynamic_shared;
    std::uint64_t duration_ns;
};

// What a call made and had not released when it returned, by kind: the
// release invariant (check/release_evidence.h). Memory comes from CUPTI's
// allocation records, whatever API made it; the handles (streams, events,
// graphs, ...) from CUPTI's callbacks on the runtime's and the driver's
// functions that make and destroy them. Only what the call made counts: a
// release of something made before the call releases nothing of the call's.
enum class ResourceKind : std::uint32_t {
    device_memory = 0,
    managed_memory,
    pinned_memory,      // page-locked host memory the CUDA allocator made (cudaMallocHost, cudaHostAlloc)
    registered_memory,  // host memory pinned in place (cudaHostRegister)
    stream,
    event,
    graph,
    graph_exec,
    memory_pool,
};
inline constexpr int kResourceKinds = 9;
inline constexpr int kApiNameLen = 40;

struct ResourceLedger {
    std::uint32_t traced;                     // 1: the harness could watch every kind (CUPTI callbacks subscribed)
    std::uint32_t made[kResourceKinds];       // made during the call
    std::uint32_t left[kResourceKinds];       // of those, not released when it returned
    std::uint64_t bytes_left[kResourceKinds]; // memory kinds: the bytes of those left
    char made_by[kResourceKinds][kApiNameLen];  // the function that made the first one left
};

struct CallTrace {
    std::uint32_t traced;           // 1: CUPTI recorded this call
    std::uint32_t kernels;          // launches in the call (all of them, recorded or not)
    KernelRecord kernel[kMaxKernelRecords];
    std::uint64_t kernel_ns;        // sum of the kernels' durations
    std::uint32_t any_shared;       // some launch used shared memory
    std::uint32_t copies;
    std::uint64_t h2d_bytes, d2h_bytes, d2d_bytes;
    std::uint32_t memsets;
    std::uint32_t allocations, frees;  // device memory, inside the call
    std::uint64_t allocated_bytes, freed_bytes;
    std::uint32_t dropped;          // records CUPTI lost
    // The copies between host and device by the host memory's kind (a copy
    // from pageable memory is staged by the driver: slower, and synchronous),
    // the streams the call's copies and kernels ran on, and the copies into
    // the device that ran, for some time, while a kernel of another stream
    // ran (harness/copy_overlap.h says why only those).
    std::uint32_t pinned_copies, pageable_copies;
    std::uint32_t streams;
    std::uint32_t overlapped_copies;
    ResourceLedger resources;
};

// How far the child got. Written by the child, so only a claim.
enum class Stage : std::uint32_t {
    not_started = 0,
    started = 1,    // the job was read and the device opened
    in_call = 2,    // inside the student's entry point
    finished = 3,   // every call done and written back
};

struct CallOutcome {
    std::uint32_t done;              // 1 once the slot was written back
    std::int32_t returned;           // what the entry point returned (0 for void)
    double host_ms;                  // wall time of the call, to the device sync
    double gpu_ms;                   // CUDA events around the call and the sync
    std::uint32_t guard_damaged;     // bit b set: buffer b's guard zone was written
    std::int32_t cuda_error;         // error seen when synchronising after the call
    CallTrace trace;
};

struct Result {
    std::uint32_t magic;
    Stage stage;
    std::uint32_t calls_done;
    std::int32_t cuda_error;         // the fault that stopped the run, if any
    char cuda_error_name[64];
    char message[kMessageLen];       // what the harness has to say
    char device_name[256];
    std::int32_t cc_major;
    std::int32_t cc_minor;
    std::int32_t trace_available;    // the harness was built with CUPTI and it started
    double copy_bytes_per_s;         // kFlagMeasureCopy: bytes read + written per second
    // What the program made before main (its global objects' constructors)
    // and still held when main began, where the job asked for a trace.
    ResourceLedger before_main;
    CallOutcome calls[kMaxCalls];
};

struct Header {
    Job job;
    Handshake handshake;
    Result result;
};

// Header size rounded up so that call slots start 4 KiB aligned.
inline constexpr std::uint64_t kDataOffset = (sizeof(Header) + 4095) / 4096 * 4096;

// The file offset of call k's buffer b (the layout at the top of this file).
inline std::uint64_t buffer_offset(const Job& job, std::uint32_t k, const Buffer& b)
{
    if (b.role == Role::input) return job.data_offset + (k % job.nsets) * job.slot_bytes + b.offset;
    if (k < job.nsets) return job.data_offset + k * job.slot_bytes + b.offset;
    return job.data_offset + job.nsets * job.slot_bytes + (k - job.nsets) * job.out_slot_bytes + b.out_offset;
}

// The bytes the job's slots take, from data_offset on.
inline std::uint64_t slots_bytes(const Job& job)
{
    return job.nsets * job.slot_bytes + (job.ncalls - job.nsets) * job.out_slot_bytes;
}

// Why the lab program cannot run this job, or empty: a file that is no
// hpclab exchange, a job of another wire version (kVersion: one per
// release of this layout; a program built by another hpclab), counts out
// of range, buffers that do not fit their slots or the file. The harness
// stops with it before reading anything else; a CPU test runs it on
// made-up jobs (tests/cpu/harness/test_job_problem.cpp).
inline std::string job_problem(const Job& job, std::uint64_t file_size)
{
    if (job.magic != kMagic) return "the exchange file is not an hpclab job";
    // snprintf, not std::to_string: the harness must define none of the
    // standard library's template instances a student's file may define too
    // (run/link_check.h).
    char text[256];
    if (job.version != kVersion) {
        std::snprintf(text, sizeof text,
                      "the exchange file holds a job of wire version %u, and this lab program reads version %u: it "
                      "was built by another hpclab (hpclab build <lab> builds it again)",
                      job.version, kVersion);
        return text;
    }
    if (job.nparams > kMaxParams || job.nbuffers > kMaxBuffers || job.ncalls > kMaxCalls || job.ncalls == 0 ||
        job.nsets == 0 || job.nsets > job.ncalls || job.guard_bytes % 4 != 0 || job.empty_calls > kMaxCalls - job.ncalls)
        return "the job's counts are out of range";
    // Each product below is at most kMaxCalls times a buffer size already
    // bounded by the file, so none of them overflows once these hold.
    if (job.data_offset < sizeof(Header) || job.data_offset > file_size || job.slot_bytes > file_size ||
        job.out_slot_bytes > file_size || slots_bytes(job) > file_size - job.data_offset)
        return "the job's call slots do not fit the exchange file";
    for (std::uint32_t i = 0; i < job.nbuffers; ++i) {
        const Buffer& b = job.buffers[i];
        const std::uint64_t bytes = b.count * elem_size(b.type);
        std::snprintf(text, sizeof text, "buffer %u", i);
        const std::string buffer = text;
        if (b.count != 0 && bytes / b.count != elem_size(b.type)) return buffer + " is too large";
        if (b.role == Role::input && (job.flags & kFlagParentClock)) continue;  // made by the program: no room
        if (b.offset > job.slot_bytes || bytes > job.slot_bytes - b.offset) return buffer + " does not fit its call slot";
        if (b.role == Role::output && job.nsets < job.ncalls && !(job.flags & kFlagDiscardOutputs) &&
            (b.out_offset > job.out_slot_bytes || bytes > job.out_slot_bytes - b.out_offset))
            return buffer + " does not fit its output slot";
    }
    return {};
}

// The start of the lines the harness prints around each call when the job
// has kFlagMarker: "<prefix>begin-<k>@@" before the student's call and
// "<prefix>end-<k>@@" once the device finished it; "<prefix>exchange-<e>@@"
// as it starts the e-th exchange of its command line (the exchanges of one
// program share their marker), and "<prefix>opened-<e>@@" once the GPU is
// ready for it (the CUDA context made: the run's time limit counts from there). The parent reads them as
// they come (process/process.h keeps when): what it saw itself of the run.
inline std::string tag_prefix(std::uint64_t marker)
{
    char text[48];
    std::snprintf(text, sizeof text, "@@hpclab-%016llx-", static_cast<unsigned long long>(marker));
    return text;
}

// Copy a string into a fixed field, always terminated.
inline void set_name(char* dst, std::size_t cap, const char* src)
{
    std::size_t n = std::strlen(src);
    if (n >= cap) n = cap - 1;
    std::memcpy(dst, src, n);
    dst[n] = '\0';
}

// Read a fixed field that the other side may have left unterminated.
inline std::size_t name_length(const char* s, std::size_t cap)
{
    std::size_t n = 0;
    while (n < cap && s[n] != '\0') ++n;
    return n;
}

}  // namespace hpclab::wire
