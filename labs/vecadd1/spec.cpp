// vecadd1's spec: c = a + b on host vectors, added on the GPU by n blocks of
// one thread (the launch shape is the lesson; the trace checks it later).
#include "course/spec_kit.h"

#include <fmt/format.h>

namespace {

class AddTask final : public hpclab::VectorAddSpec {
public:
    AddTask() : VectorAddSpec(hpclab::Place::host) {}

    std::string locate(const hpclab::Params&, std::string_view, std::uint64_t index) const override
    {
        return fmt::format("element {}, the one block {} adds", index, index);
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("vecadd1", "add", AddTask);
