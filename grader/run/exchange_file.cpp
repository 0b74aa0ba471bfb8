#include "run/exchange_file.h"

#include "util/parallel.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <tuple>
#include <utility>

namespace hpclab {

namespace {
constexpr std::uint64_t kAlign = 256;  // each buffer starts aligned, like cudaMalloc's

std::uint64_t round_up(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }

// Where each buffer lies in an input set's slot and in an output slot.
struct Layout {
    std::vector<std::uint64_t> offsets, out_offsets;
    std::uint64_t slot_bytes = 0, out_slot_bytes = 0;
};

Layout lay_out(const std::vector<BufferDecl>& buffers, bool inputs_in_file)
{
    Layout l;
    for (const auto& b : buffers) {
        const bool room = b.role == Role::output || inputs_in_file;
        l.offsets.push_back(room ? l.slot_bytes : 0);
        if (room) l.slot_bytes = round_up(l.slot_bytes + b.bytes(), kAlign);
        l.out_offsets.push_back(l.out_slot_bytes);
        if (b.role == Role::output) l.out_slot_bytes = round_up(l.out_slot_bytes + b.bytes(), kAlign);
    }
    return l;
}

// A memory file of `size` bytes that can neither grow nor shrink, mapped.
std::pair<int, void*> map_sealed_memfd(std::uint64_t size)
{
    const int fd = memfd_create("hpclab-exchange", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) throw std::system_error(errno, std::generic_category(), "memfd_create");
    if (ftruncate(fd, static_cast<off_t>(size)) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK) != 0) {
        const int err = errno;
        close(fd);
        throw std::system_error(err, std::generic_category(),
                                "cannot size and seal the exchange file of " + std::to_string(size) + " bytes");
    }
    // No MAP_POPULATE: populating holds this process's memory map for the
    // whole pass (aos_soa's timed files: 0.3 s each), and every fork, thread
    // start or mapping of hpclab's other threads waits for it (a correctness
    // run's start stalled 0.7 s behind three of them on the H100). The pages
    // come in as the threads that fill the inputs and poison write them.
    void* map = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        const int err = errno;
        close(fd);
        throw std::system_error(err, std::generic_category(), "cannot map the exchange file");
    }
    return {fd, map};
}

void describe_job(wire::Job& job, const std::string& lab, const std::string& task, const Params& params,
                  const std::vector<BufferDecl>& buffers, const Layout& layout)
{
    job.magic = wire::kMagic;
    job.version = wire::kVersion;
    wire::set_name(job.lab, sizeof job.lab, lab.c_str());
    wire::set_name(job.task, sizeof job.task, task.c_str());
    for (const auto& [name, value] : params) {
        wire::Param& p = job.params[job.nparams++];
        wire::set_name(p.name, sizeof p.name, name.c_str());
        p.value = value;
    }
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        wire::Buffer& b = job.buffers[job.nbuffers++];
        wire::set_name(b.name, sizeof b.name, buffers[i].name.c_str());
        b.type = buffers[i].type;
        b.place = buffers[i].place;
        b.role = buffers[i].role;
        b.count = buffers[i].count;
        b.offset = layout.offsets[i];
        b.out_offset = layout.out_offsets[i];
    }
}

}  // namespace

ExchangeFile::ExchangeFile(const std::string& lab, const std::string& task, const Params& params,
                           const std::vector<BufferDecl>& buffers, std::uint32_t ncalls, std::uint32_t flags,
                           std::uint64_t marker, std::uint64_t guard_bytes, std::uint32_t nsets)
    : ncalls_(ncalls), decls_(buffers)
{
    if (nsets == 0 || nsets > ncalls) nsets = ncalls;
    if (buffers.size() > wire::kMaxBuffers || params.size() > wire::kMaxParams || ncalls == 0 ||
        ncalls > wire::kMaxCalls)
        throw std::logic_error("exchange: job too large for the wire format");
    // A parent-clock job's inputs take no room: the program makes each call's
    // from its seed (wire/exchange.h). Their room was most of the file (aos_soa's
    // timed soa calls: eight input arrays against one output), and the kernel
    // zeroes every page of it as the file is mapped.
    inputs_in_file_ = !(flags & wire::kFlagParentClock);
    Layout layout = lay_out(buffers, inputs_in_file_);
    // Outputs the program will not send back (a trusted baseline's timed
    // calls) need no slots of their own past the input sets, nor poison.
    discards_outputs_ = flags & wire::kFlagDiscardOutputs;
    if (discards_outputs_) layout.out_slot_bytes = 0;
    size_ = wire::kDataOffset + nsets * layout.slot_bytes + (ncalls - nsets) * layout.out_slot_bytes;
    std::tie(fd_, map_) = map_sealed_memfd(size_);

    wire::Job& job = header().job;
    std::memset(&header(), 0, sizeof(wire::Header));
    describe_job(job, lab, task, params, buffers, layout);
    job.ncalls = ncalls;
    job.nsets = nsets;
    job.flags = flags;
    job.slot_bytes = layout.slot_bytes;
    job.out_slot_bytes = layout.out_slot_bytes;
    job.data_offset = wire::kDataOffset;
    job.guard_bytes = guard_bytes;
    job.marker = marker;
    job_ = job;  // a private copy: the child can write into the file
    poison_outputs();
}

void ExchangeFile::reveal_inputs(const std::vector<InputFill>& fills, std::uint32_t empty_calls)
{
    if (empty_calls > wire::kMaxCalls - ncalls_) throw std::logic_error("exchange: too many empty calls");
    wire::Job& job = header().job;
    for (std::uint32_t i = 0; i < job.nbuffers; ++i) {
        if (decls_[i].role != Role::input) continue;
        const auto fill = std::find_if(fills.begin(), fills.end(), [&](const InputFill& f) { return f.buffer == decls_[i].name; });
        if (fill == fills.end()) throw std::logic_error("exchange: input '" + decls_[i].name + "' has no fill");
        job.buffers[i].fill_stream = fill->stream;
        job.buffers[i].fill_lo = fill->lo;
        job.buffers[i].fill_hi = fill->hi;
        job.buffers[i].fill_fold = fill->fold;
    }
    job.flags |= wire::kFlagParentClock;
    job.empty_calls = empty_calls;
    job_ = job;
}

void ExchangeFile::poison_outputs()
{
    if (discards_outputs_) return;
    for (std::uint32_t k = 0; k < ncalls_; ++k)
        for (std::size_t i = 0; i < decls_.size(); ++i) {
            if (decls_[i].role != Role::output) continue;
            auto* out = static_cast<unsigned char*>(map_) + wire::buffer_offset(job_, k, job_.buffers[i]);
            // Spread over threads: a timed run keeps every call's outputs
            // (aos_soa's conversion at 2^24: 2.5 GiB to poison).
            parallel_for(
                decls_[i].bytes() / 4,
                [&](std::uint64_t from, std::uint64_t to) {
                    const std::uint32_t poison = wire::kPoison32;
                    for (std::uint64_t w = from; w < to; ++w) std::memcpy(out + 4 * w, &poison, 4);
                },
                /*grain=*/1u << 16);
        }
}

void ExchangeFile::freeze()
{
    if (fd_ < 0) return;
    munmap(map_, size_);
    map_ = nullptr;
    // The kernel refuses F_SEAL_WRITE while any process still maps the file
    // writable, and once it is set nobody can write into it again: then the
    // file itself is the private copy, read where it is. Otherwise something
    // of the run still holds it (it got out of its sandbox, or there was
    // none), and what is judged is copied out first.
    const bool sealed = fcntl(fd_, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SEAL) == 0;
    // Read-only from here on (not populated at once either: see the constructor).
    void* file = mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd_, 0);
    if (file == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "cannot map the exchange file");
    if (sealed) {
        map_ = file;
    } else {
        void* copy = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (copy == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "cannot copy the exchange file");
        std::memcpy(copy, file, size_);
        munmap(file, size_);
        map_ = copy;
    }
    frozen_by_seal_ = sealed;
    close(fd_);
    fd_ = -1;
}

ExchangeFile::~ExchangeFile()
{
    if (map_ && map_ != MAP_FAILED) munmap(map_, size_);
    if (fd_ >= 0) close(fd_);
}

CallBuffers ExchangeFile::call(std::uint32_t k) const
{
    CallBuffers view;
    auto* file = static_cast<std::byte*>(map_);
    for (std::size_t i = 0; i < decls_.size(); ++i)
        if (decls_[i].role == Role::output || inputs_in_file_)
            view.add(decls_[i], {file + wire::buffer_offset(job_, k, job_.buffers[i]),
                             static_cast<std::size_t>(decls_[i].bytes())});
    return view;
}

}  // namespace hpclab
