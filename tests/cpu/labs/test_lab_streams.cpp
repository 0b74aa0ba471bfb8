// streams' specs: the reference against hand-computed values, where a wrong
// element lies among the chunks, and the lab's sizes against its lesson.
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <vector>

using hpclab::CheckResult;
using namespace hpclab::test;

TEST_CASE("streams: both tasks take host vectors x and y of n ints")
{
    for (const char* task : {"pinned", "overlap"}) {
        CAPTURE(task);
        const auto decls = spec_of("streams", task).buffers({{"n", 5}});
        REQUIRE(decls.size() == 2);
        for (const auto& d : decls) {
            CHECK(d.count == 5);
            CHECK(d.place == hpclab::Place::host);
        }
    }
}

TEST_CASE("streams: the reference is 2x + 1, at the ends of the inputs' range too")
{
    const hpclab::Params p {{"n", 4}};
    hpclab::OwnedCallBuffers buf(spec_of("streams", "pinned").buffers(p));
    fill<int>(buf.view(), "x", {0, -3, 536870912, -536870912});
    CHECK(reference_all(spec_of("streams", "pinned"), p, buf.view(), "y") ==
          std::vector<double> {1, -5, 1073741825, -1073741823});
}

TEST_CASE("streams: overlap names the chunk of a wrong element")
{
    const hpclab::Params p {{"n", 20}};  // chunks of ceil(20 / 8) = 3: element 19 is in chunk 6
    const hpclab::TaskInfo& task = task_of("streams", "overlap");
    hpclab::OwnedCallBuffers buf(spec_of("streams", "overlap").buffers(p));
    auto x = buf.view().get<int>("x");
    auto y = buf.view().get<int>("y");
    for (int i = 0; i < 20; ++i) {
        x[i] = i;
        y[i] = 2 * i + 1;
    }
    const hpclab::CheckInput in {.task = task, .params = p, .buffers = buf.view()};
    CHECK(spec_of("streams", "overlap").check(in).ok());
    y[19] = 0;
    const CheckResult wrong = spec_of("streams", "overlap").check(in);
    CHECK(wrong.kind == CheckResult::Kind::mismatch);
    CHECK(contains(wrong.summary, "y[19]"));
    CHECK(contains(wrong.summary, "chunk 6 of 8"));
}

TEST_CASE("streams: the sizes probe the chunks, and the trace's overlap is asked where chunks are long")
{
    const hpclab::TaskInfo& overlap = task_of("streams", "overlap");
    bool fewer_than_chunks = false, remainder = false, asked = false;
    for (const auto& s : overlap.sizes) {
        const auto n = s.params.at("n");
        CHECK_FALSE(s.big);
        fewer_than_chunks = fewer_than_chunks || n < 8;
        remainder = remainder || (n > 8 && n % 8 != 0);
        asked = asked || n >= overlap.expect.asks(hpclab::LessonFact::copies_overlap_kernels)->from.at("n");
    }
    CHECK(fewer_than_chunks);
    CHECK(remainder);
    CHECK(asked);  // some correctness size is one where the trace must show overlap
    CHECK(task_of("streams", "pinned").expect.asks(hpclab::LessonFact::pinned_copies));
    CHECK(overlap.expect.asks(hpclab::LessonFact::pinned_copies));
    CHECK(task_of("streams", "pinned").judged_by(hpclab::Invariant::releases));
    CHECK(overlap.judged_by(hpclab::Invariant::releases));
}
