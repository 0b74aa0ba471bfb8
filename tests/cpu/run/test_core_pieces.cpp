// Small pieces of the grader core: nvcc's architecture flags, compiler
// output trimming, the keyed hash of inputs, the exchange file's layout.
#include "run/exchange_file.h"
#include "course/input_sets.h"
#include "util/keyed_hash.h"
#include "util/parallel.h"
#include "course/random.h"
#include "run/toolchain.h"

#include <doctest/doctest.h>

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstring>

using namespace hpclab;

TEST_CASE("toolchain: architecture lists become nvcc flags")
{
    CHECK(nvcc_arch_flags("90") == std::vector<std::string> {"-gencode=arch=compute_90,code=sm_90",
                                                             "-gencode=arch=compute_90,code=compute_90"});
    const auto many = nvcc_arch_flags("75;80;90");
    REQUIRE(many.size() == 4);
    CHECK(many[0] == "-gencode=arch=compute_75,code=sm_75");
    CHECK(many[3] == "-gencode=arch=compute_90,code=compute_90");  // PTX of the newest, for later GPUs
    CHECK(nvcc_arch_flags("90-real") == std::vector<std::string> {"-gencode=arch=compute_90,code=sm_90"});
    CHECK(nvcc_arch_flags("90-virtual") == std::vector<std::string> {"-gencode=arch=compute_90,code=compute_90"});
    CHECK(nvcc_arch_flags("all") == std::vector<std::string> {"-arch=all"});
}

TEST_CASE("toolchain: compiler output is shortened and cut")
{
    std::string text;
    for (int i = 0; i < 50; ++i) text += "/course/labs/x/x.cu(" + std::to_string(i) + "): error: oops\n";
    const std::string t = trim_diagnostics(text, "/course", 3);
    CHECK(t == "labs/x/x.cu(0): error: oops\nlabs/x/x.cu(1): error: oops\nlabs/x/x.cu(2): error: oops\n"
               "... (47 more lines)\n");
}

TEST_CASE("keyed hash: any change of a byte or of the key changes it")
{
    std::vector<std::byte> data(3'000'017);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = std::byte(mix64(i) & 0xff);
    const std::uint64_t h = keyed_hash(data, 1);
    CHECK(h == keyed_hash(data, 1));
    CHECK(h != keyed_hash(data, 2));
    for (std::size_t at : {std::size_t(0), std::size_t(1) << 20, data.size() - 1}) {
        data[at] ^= std::byte {1};
        CHECK(keyed_hash(data, 1) != h);
        data[at] ^= std::byte {1};
    }
    // Swapping two 1 MiB chunks changes it too.
    std::vector<std::byte> swapped(data);
    std::swap_ranges(swapped.begin(), swapped.begin() + (1 << 20), swapped.begin() + (1 << 20));
    CHECK(keyed_hash(swapped, 1) != h);
}

TEST_CASE("parallel_for covers every index exactly once")
{
    std::vector<std::atomic<int>> hits(5'000'003);
    parallel_for(hits.size(), [&](std::uint64_t b, std::uint64_t e) {
        for (std::uint64_t i = b; i < e; ++i) hits[i]++;
    });
    bool once = true;
    for (auto& h : hits) once = once && h == 1;
    CHECK(once);
}

TEST_CASE("exchange: the job header and call slots are laid out as the harness reads them")
{
    const std::vector<BufferDecl> decls = {{"a", ElemType::i32, Place::device, Role::input, 10},
                                           {"b", ElemType::f32, Place::host, Role::output, 3}};
    ExchangeFile ex("lab", "task", {{"n", 10}, {"m", 3}}, decls, 2, wire::kFlagFlushL2, 77);
    const wire::Job& job = ex.header().job;
    CHECK(job.magic == wire::kMagic);
    CHECK(std::string(job.lab) == "lab");
    CHECK(std::string(job.task) == "task");
    CHECK(job.nparams == 2);
    CHECK(job.nbuffers == 2);
    CHECK(job.ncalls == 2);
    CHECK(job.marker == 77);
    CHECK(job.data_offset % 4096 == 0);
    CHECK(job.buffers[0].offset == 0);
    CHECK(job.buffers[1].offset % 256 == 0);
    CHECK(job.slot_bytes % 256 == 0);
    CHECK(ex.size() == job.data_offset + 2 * job.slot_bytes);
    // A write through call 1's view lands in call 1's slot.
    ex.call(1).get<float>("b")[2] = 1.5f;
    float back;
    const auto* base = reinterpret_cast<const std::byte*>(&ex.header());
    std::memcpy(&back, base + job.data_offset + job.slot_bytes + job.buffers[1].offset + 8, 4);
    CHECK(back == 1.5f);
}

TEST_CASE("exchange: with fewer input sets than calls, calls share their set's inputs and own their outputs")
{
    const std::vector<BufferDecl> decls = {{"a", ElemType::i32, Place::device, Role::input, 1000},
                                           {"c", ElemType::i32, Place::device, Role::output, 10}};
    ExchangeFile ex("lab", "task", {{"n", 10}}, decls, 7, 0, 1, 0, 3);
    const wire::Job& job = ex.header().job;
    CHECK(job.nsets == 3);
    CHECK(ex.nsets() == 3);
    CHECK(job.out_slot_bytes == 256);  // the output alone, aligned
    CHECK(ex.size() == job.data_offset + 3 * job.slot_bytes + 4 * job.out_slot_bytes);
    // Calls 1 and 4 read set 1; calls 2 and 4 do not share outputs.
    ex.call(1).get<int>("a")[5] = 42;
    CHECK(ex.call(4).get<int>("a")[5] == 42);
    CHECK(ex.call(2).get<int>("a")[5] != 42);
    for (std::uint32_t k = 0; k < 7; ++k) ex.call(k).get<int>("c")[0] = static_cast<int>(k);
    for (std::uint32_t k = 0; k < 7; ++k) CHECK(ex.call(k).get<int>("c")[0] == static_cast<int>(k));
    // The harness finds the same places from the header alone.
    const auto* base = reinterpret_cast<const std::byte*>(&ex.header());
    int back;
    std::memcpy(&back, base + wire::buffer_offset(job, 5, job.buffers[1]), 4);
    CHECK(back == 5);
    std::memcpy(&back, base + wire::buffer_offset(job, 4, job.buffers[0]) + 20, 4);
    CHECK(back == 42);
    // 0, or more sets than calls: one set per call.
    ExchangeFile one_each("lab", "task", {}, decls, 4, 0, 1, 0, 0);
    CHECK(one_each.nsets() == 4);
    ExchangeFile too_many("lab", "task", {}, decls, 4, 0, 1, 0, 9);
    CHECK(too_many.nsets() == 4);
}

TEST_CASE("exchange: a trusted baseline's run that discards its outputs gets no output slots past its input sets")
{
    const std::vector<BufferDecl> decls = {{"a", ElemType::i32, Place::device, Role::input, 1000},
                                           {"c", ElemType::i32, Place::device, Role::output, 1000}};
    ExchangeFile ex("lab", "task", {{"n", 1000}}, decls, 9, wire::kFlagDiscardOutputs, 1, 0, 3);
    CHECK(ex.header().job.out_slot_bytes == 0);
    CHECK(ex.size() == ex.header().job.data_offset + 3 * ex.header().job.slot_bytes);
}

TEST_CASE("exchange: a parent-clock run's inputs take no room in the file, its outputs a slot per call")
{
    const std::vector<BufferDecl> decls = {{"p", ElemType::f32, Place::device, Role::input, 8000},
                                           {"a", ElemType::i32, Place::host, Role::input, 1000},
                                           {"c", ElemType::i32, Place::device, Role::output, 1000}};
    ExchangeFile ex("lab", "task", {{"n", 1000}}, decls, 6, wire::kFlagParentClock, 1, 0, 1);
    const wire::Job& job = ex.header().job;
    CHECK_FALSE(ex.inputs_in_file());
    CHECK(job.slot_bytes == 4096);  // c alone, aligned
    CHECK(ex.size() == job.data_offset + 6 * 4096);
    // The program's view of the outputs and the parent's agree; inputs are not in the view.
    for (std::uint32_t k = 0; k < 6; ++k) ex.call(k).get<int>("c")[999] = static_cast<int>(k);
    const auto* base = reinterpret_cast<const std::byte*>(&ex.header());
    int back;
    std::memcpy(&back, base + wire::buffer_offset(job, 4, job.buffers[2]) + 4 * 999, 4);
    CHECK(back == 4);
    CHECK(ex.call(3).entries().size() == 1);
    CHECK(ex.call(3).entries()[0].decl.name == "c");
    CHECK(ex.decls().size() == 3);  // the job still lists every buffer, in order
}

TEST_CASE("exchange: frozen with no writer left, the file is sealed and read in place (with one left, copied)")
{
    const std::vector<BufferDecl> decls = {{"c", ElemType::i32, Place::device, Role::output, 1000}};
    {
        ExchangeFile ex("lab", "task", {{"n", 1000}}, decls, 1, 0, 1, 0);
        ex.call(0).get<int>("c")[3] = 7;
        ex.freeze();
        CHECK(ex.frozen_by_seal());
        CHECK(ex.call(0).get<int>("c")[3] == 7);
        CHECK(ex.fd() == -1);
    }
    // Something of the run that escaped it still maps the file writable: no
    // seal is possible, and what it writes later must not reach the judge.
    ExchangeFile ex("lab", "task", {{"n", 1000}}, decls, 1, 0, 1, 0);
    ex.call(0).get<int>("c")[3] = 7;
    void* escaped = mmap(nullptr, ex.size(), PROT_READ | PROT_WRITE, MAP_SHARED, ex.fd(), 0);
    REQUIRE(escaped != MAP_FAILED);
    ex.freeze();
    CHECK_FALSE(ex.frozen_by_seal());
    auto* c = reinterpret_cast<int*>(static_cast<unsigned char*>(escaped) + wire::buffer_offset(ex.job(), 0, ex.job().buffers[0]));
    c[3] = 99;
    CHECK(ex.call(0).get<int>("c")[3] == 7);
    munmap(escaped, ex.size());
}

TEST_CASE("input sets: a derived set changes about one element in 32, each to another element's value")
{
    const std::vector<BufferDecl> decls = {{"a", ElemType::i32, Place::device, Role::input, 1 << 16},
                                           {"c", ElemType::i32, Place::device, Role::output, 4}};
    OwnedCallBuffers base(decls), derived(decls), again(decls);
    auto a = base.view().get<int>("a");
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int>(i);  // every value tells its place
    derived.view().get<int>("c")[0] = 7;
    derive_input_set(base.view(), derived.view(), 99);
    derive_input_set(base.view(), again.view(), 99);
    const auto d = derived.view().get<int>("a");
    std::size_t changed = 0;
    bool from_elsewhere = true;
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (d[i] == a[i]) continue;
        ++changed;
        from_elsewhere = from_elsewhere && d[i] >= 0 && d[i] < static_cast<int>(d.size());
    }
    CHECK(changed > d.size() / kChangedOneIn / 2);
    CHECK(changed < d.size() / kChangedOneIn * 2);
    CHECK(from_elsewhere);
    CHECK(derived.view().get<int>("c")[0] == 7);  // outputs untouched
    const auto d2 = again.view().get<int>("a");
    CHECK(std::equal(d.begin(), d.end(), d2.begin()));  // the same seed, the same set
    OwnedCallBuffers other(decls);
    derive_input_set(base.view(), other.view(), 100);
    const auto d3 = other.view().get<int>("a");
    CHECK(!std::equal(d.begin(), d.end(), d3.begin()));
}
