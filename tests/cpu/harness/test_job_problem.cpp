// What the lab program refuses before it reads a job (wire::job_problem,
// which the harness stops with): the jobs hpclab writes pass; a job of
// another wire version, a file that is no job, counts out of range and a
// buffer outside its slot are each refused, saying which.
#include "run/exchange_file.h"
#include "wire/exchange.h"

#include <doctest/doctest.h>

#include <string>

using namespace hpclab;

namespace {

bool says(const std::string& problem, const std::string& part) { return problem.find(part) != std::string::npos; }

const std::vector<BufferDecl> kDecls = {{"x", ElemType::i32, Place::host, Role::input, 1000},
                                        {"y", ElemType::i32, Place::host, Role::output, 1000}};

}  // namespace

TEST_CASE("exchange: a job hpclab writes is one the lab program runs, correctness or timed")
{
    const ExchangeFile correctness("lab", "task", {{"n", 1000}}, kDecls, 3, 0, 1);
    CHECK(wire::job_problem(correctness.job(), correctness.size()).empty());
    const ExchangeFile timed("lab", "task", {{"n", 1000}}, kDecls, 9, wire::kFlagParentClock, 1, 0, 3);
    CHECK(wire::job_problem(timed.job(), timed.size()).empty());
}

TEST_CASE("exchange: a job of another wire version is refused, naming both versions and what to do")
{
    const ExchangeFile ex("lab", "task", {{"n", 1000}}, kDecls, 3, 0, 1);
    wire::Job old = ex.job();
    old.version = wire::kVersion - 1;
    const std::string problem = wire::job_problem(old, ex.size());
    CHECK(says(problem, "wire version " + std::to_string(wire::kVersion - 1)));
    CHECK(says(problem, "reads version " + std::to_string(wire::kVersion)));
    CHECK(says(problem, "hpclab build <lab>"));
    wire::Job other = ex.job();
    other.magic = 0;
    CHECK(says(wire::job_problem(other, ex.size()), "not an hpclab job"));
}

TEST_CASE("exchange: counts out of range and a buffer outside its slot or the file are refused")
{
    const ExchangeFile ex("lab", "task", {{"n", 1000}}, kDecls, 3, 0, 1);
    wire::Job no_calls = ex.job();
    no_calls.ncalls = 0;
    CHECK(says(wire::job_problem(no_calls, ex.size()), "counts are out of range"));
    CHECK(says(wire::job_problem(ex.job(), ex.size() - 1), "do not fit the exchange file"));
    wire::Job past_slot = ex.job();
    past_slot.buffers[1].offset = past_slot.slot_bytes;
    CHECK(says(wire::job_problem(past_slot, ex.size()), "buffer 1 does not fit its call slot"));
}
