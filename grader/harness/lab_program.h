// The child side of a run, step by step (harness_main.cpp calls the steps in
// order): the exchange file mapped, the device opened, the buffers allocated
// with their guard zones, then each call run and written back.
//
// A step that fails writes why into the result and ends the program with one
// of wire/exchange.h's exit statuses: no step returns an error.
#pragma once

#include "binding.h"
#include "guarded_memory.h"
#include "wire/exchange.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace hpclab::harness {

// One buffer the student's code receives, with its guard zones.
struct OwnedBuffer {
    const wire::Buffer* desc = nullptr;
    unsigned char* base = nullptr;  // start of the allocation (guard before)
    unsigned char* user = nullptr;  // what the student gets
    std::uint64_t bytes = 0;
    std::uint64_t guard = 0;
    std::vector<std::uint32_t> guard_pattern;  // what each guard zone holds (wire::guard_word)
    unsigned char* device_guard = nullptr;      // ... a copy on the device, for device buffers
    // A device buffer with guard zones: its trailing zone ends against an
    // unmapped page (guarded_memory.h); empty where the driver could not.
    guarded::Allocation against_unmapped;
    bool on_device = false;
    // Timed runs (fewer input sets than calls): each set of this input kept
    // on the device, so a call's inputs are a device copy away. Empty when
    // not used or when the device has no room (then they come from the file).
    std::vector<void*> sets;
    // A host input of a parent-clock job: made on the device here, then copied over.
    void* reveal_scratch = nullptr;
};

// The shared-memory file of wire/exchange.h, mapped.
struct ExchangeFile {
    unsigned char* bytes = nullptr;
    std::uint64_t size = 0;
    wire::Header& header() const { return *reinterpret_cast<wire::Header*>(bytes); }
};

class LabProgram {
public:
    // Maps the exchange file (descriptor `exchange_fd`, closed here) and
    // checks that its job is one this harness can run.
    explicit LabProgram(int exchange_fd);
    LabProgram(const LabProgram&) = delete;  // buffers point into job_
    LabProgram& operator=(const LabProgram&) = delete;

    void start_profile();
    void open_gpu();
    void find_task();
    void allocate_buffers();
    void keep_input_sets();
    void keep_output_history();
    void make_poison();
    void make_l2_flush();
    void create_events();
    void start_trace();
    // What the program made before main and still held (trace.h).
    void tell_before_main(const wire::ResourceLedger& ledger);
    void warm_up();
    void run_calls();
    void copy_back_history();
    void finish();
    // Several exchanges in one program (wire/exchange.h, kFlagMarker): the
    // line that says exchange `index` starts, and, between two exchanges,
    // everything of this one given back so that the next starts clean.
    void mark_start(std::uint32_t index) const;
    // The line that says the GPU is ready for exchange `index` (after open_gpu).
    void mark_opened(std::uint32_t index) const;
    void release();
    // Host buffers from the lab's own allocator (streams' host_alloc, which
    // may pin them): given back as the program ends, which stalled the next
    // program's timed copies on an H100 (docs/results/streams-turn-h100.txt).
    bool holds_lab_host_memory() const;

private:
    // What the student's call took, kept apart from the result until the
    // call's window is closed.
    struct CallTimes {
        int returned = 0;
        double host_ms = 0;
        float gpu_ms = 0;
    };

    bool cycling() const { return job_.nsets < job_.ncalls; }
    bool parent_clock() const { return job_.flags & wire::kFlagParentClock; }
    bool discards_outputs() const { return job_.flags & wire::kFlagDiscardOutputs; }
    bool history_pending() const;
    std::uint64_t largest_output(bool device_only) const;
    void allocate(OwnedBuffer& b);
    unsigned char* allocate_host(std::uint64_t bytes);
    void release_host(unsigned char* p);
    void keep_sets(OwnedBuffer& b);
    void keep_history(std::uint32_t i);

    void run_call(std::uint32_t k);
    // The parent's clock (wire::Handshake): wait for handshake j's go and
    // return its seed; make the inputs from it; commit to the outputs and
    // say done. An empty call does all of it around no call of the student's.
    std::uint64_t wait_for_go(std::uint32_t j);
    void reveal_inputs(std::uint64_t seed);
    std::uint64_t commit_outputs(std::uint64_t seed);
    void say_done(std::uint32_t j, std::uint64_t seed);
    void run_empty_call(std::uint32_t j);
    Call stage_call(std::uint32_t k);
    void stage_buffer(OwnedBuffer& b, std::uint32_t k);
    std::vector<std::pair<std::string, std::int64_t>> call_params() const;
    void flush_l2(std::uint32_t k);
    void print_marker(const char* what, std::uint32_t k) const;
    CallTimes time_student_call(std::uint32_t k, const Call& call, wire::CallOutcome& out);
    int call_entry_point(const Call& call);
    void write_back(std::uint32_t k, wire::CallOutcome& out);
    bool should_write_back(const OwnedBuffer& b, std::uint32_t k) const;
    void write_back_buffer(std::uint32_t i, std::uint32_t k);

    const ExchangeFile file_;
    const wire::Job job_;   // a private copy: the file is shared
    wire::Result& result_;  // in the file: the parent reads it

    // HPCLAB_PROFILE: where the program's time goes.
    bool profile_ = false;
    double t_begin_ = 0, t_calls_ = 0, t_timed_ = 0;

    cudaDeviceProp prop_ {};
    Bindings bindings_;
    const TaskFunction* task_ = nullptr;

    std::vector<OwnedBuffer> owned_;
    // history_[i][k]: call k's output i, kept on the device (timed runs).
    std::vector<std::vector<void*>> history_;
    std::vector<std::uint32_t> poison_;
    void* device_poison_ = nullptr;
    void* flush_ = nullptr;
    unsigned long long* commit_sum_ = nullptr;  // the device part of a commitment
    std::size_t flush_bytes_ = 0;
    cudaEvent_t start_ {}, stop_event_ {};
    std::vector<unsigned char> scratch_;  // guard zones read back from the device
};

}  // namespace hpclab::harness
