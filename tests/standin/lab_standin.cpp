// A stand-in for a lab program, with no GPU: it speaks the exchange
// protocol (wire/exchange.h) as the harness does, and plays one trick
// against the parent, named by its first argument. The CPU tests run it as
// a run's wrapper ({lab_standin, <trick>}), so that its argv ends with the
// real program's (ignored) and "--exchange-fd N":
//
//   vecadd        c = a + b for every call, done honestly (int buffers a, b, c)
//   modify_input  vecadd, and the first input's first element changed
//   zero_outputs  every output written with zeros
#include "wire/exchange.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace hpclab;

namespace {

wire::Header* map_exchange(int fd, unsigned char*& file)
{
    struct stat st {};
    if (fstat(fd, &st) != 0) std::exit(wire::kExitHarnessError);
    void* map = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) std::exit(wire::kExitHarnessError);
    file = static_cast<unsigned char*>(map);
    return static_cast<wire::Header*>(map);
}

std::int32_t* buffer(const wire::Job& job, unsigned char* file, std::uint32_t k, const char* name)
{
    for (std::uint32_t b = 0; b < job.nbuffers; ++b)
        if (std::strcmp(job.buffers[b].name, name) == 0)
            return reinterpret_cast<std::int32_t*>(file + wire::buffer_offset(job, k, job.buffers[b]));
    return nullptr;
}

void play(const std::string& trick, const wire::Job& job, unsigned char* file, std::uint32_t k)
{
    std::int32_t *a = buffer(job, file, k, "a"), *b = buffer(job, file, k, "b"), *c = buffer(job, file, k, "c");
    if (trick == "zero_outputs") {
        for (std::uint32_t i = 0; i < job.nbuffers; ++i)
            if (job.buffers[i].role == wire::Role::output)
                std::memset(file + wire::buffer_offset(job, k, job.buffers[i]), 0, job.buffers[i].count * 4);
        return;
    }
    if (a && b && c)
        for (std::uint64_t i = 0; i < job.buffers[2].count; ++i) c[i] = a[i] + b[i];
    if (trick == "modify_input" && job.nbuffers > 0) buffer(job, file, k, job.buffers[0].name)[0] ^= 1;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 4) return wire::kExitHarnessError;
    const std::string trick = argv[1];
    int fd = -1;
    for (int i = 2; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--exchange-fd") == 0) fd = std::atoi(argv[i + 1]);
    unsigned char* file = nullptr;
    wire::Header* h = map_exchange(fd, file);
    const wire::Job job = h->job;
    h->result.magic = wire::kMagic;
    h->result.stage = wire::Stage::started;
    for (std::uint32_t k = 0; k < job.ncalls; ++k) {
        play(trick, job, file, k);
        if (job.flags & wire::kFlagMarker)
            std::printf("\n@@hpclab-returned-%016llx@@\n", static_cast<unsigned long long>(job.marker));
        h->result.calls[k].done = 1;
        h->result.calls_done = k + 1;
    }
    h->result.stage = wire::Stage::finished;
    return wire::kExitOk;
}
