// The parent's side of the exchange file (wire/exchange.h): an anonymous
// shared-memory file, sized for the job's call slots, mapped here and
// handed to the lab program as an inherited descriptor. It is private to its
// run: close-on-exec (only the run's program gets it, through
// ProcessSpec::pass_fds), sealed against resizing (a program that shrank it
// would make the parent fault reading it) and, once the run is over, against
// writes, and hpclab's own descriptors are
// not readable through /proc (cli/main.cpp). Its outputs start poisoned: an
// output the program never writes is seen as never written.
#pragma once

#include "course/call_buffers.h"
#include "course/params.h"
#include "course/task_spec.h"
#include "wire/exchange.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hpclab {

class ExchangeFile {
public:
    // Lays out `ncalls` calls of `buffers` with `nsets` input sets (0: one
    // per call; call k reads set k % nsets) and writes the job header.
    ExchangeFile(const std::string& lab, const std::string& task, const Params& params,
                 const std::vector<BufferDecl>& buffers, std::uint32_t ncalls, std::uint32_t flags,
                 std::uint64_t marker, std::uint64_t guard_bytes = kDefaultGuardBytes, std::uint32_t nsets = 0);
    static constexpr std::uint64_t kDefaultGuardBytes = 64 * 1024;
    ~ExchangeFile();
    ExchangeFile(const ExchangeFile&) = delete;
    ExchangeFile& operator=(const ExchangeFile&) = delete;

    int fd() const { return fd_; }
    // A timed run on the parent's clock (wire::kFlagParentClock): the
    // program makes each call's inputs from the seed sent with it, by these
    // fills (one for every input), after `empty_calls` calls of nothing.
    void reveal_inputs(const std::vector<InputFill>& fills, std::uint32_t empty_calls);
    // The handshake block, until freeze() (the parent's clock writes it).
    wire::Handshake& handshake() { return header().handshake; }
    const wire::Job& job() const { return job_; }
    // Once every process of the run has ended: the file is sealed against
    // writes (or, when a process still maps it writable, copied into private
    // memory) and let go, and everything read from here on (results,
    // outputs, inputs) can no longer change. Nothing still holding the file
    // (a process that escaped the run) can change what is judged.
    void freeze();
    bool frozen_by_seal() const { return frozen_by_seal_; }  // false: copied
    // Writable until freeze(), read-only after it.
    wire::Header& header() { return *reinterpret_cast<wire::Header*>(map_); }
    const wire::Result& result() const { return reinterpret_cast<const wire::Header*>(map_)->result; }
    std::uint32_t ncalls() const { return ncalls_; }
    const std::vector<BufferDecl>& decls() const { return decls_; }
    std::uint32_t nsets() const { return job_.nsets; }
    // Views on call k's buffers inside the file: the inputs of set k % nsets
    // (shared by the calls of that set; none in a parent-clock job, whose
    // inputs the program makes) and call k's own outputs.
    CallBuffers call(std::uint32_t k) const;
    bool inputs_in_file() const { return inputs_in_file_; }
    std::uint64_t size() const { return size_; }

private:
    void poison_outputs();

    int fd_ = -1;
    void* map_ = nullptr;
    std::uint64_t size_ = 0;
    std::uint32_t ncalls_ = 0;
    bool discards_outputs_ = false;
    bool inputs_in_file_ = true;
    bool frozen_by_seal_ = false;
    std::vector<BufferDecl> decls_;
    wire::Job job_ {};
};

}  // namespace hpclab
