#include "check/release_evidence.h"

#include <fmt/format.h>

#include <array>
#include <string_view>

namespace hpclab {

namespace {

struct KindWords {
    std::string_view name;      // in records: "stream"
    std::string_view one;       // for people: "stream"
    std::string_view release;   // the function that releases it
    bool memory;                // bytes are counted
};

// In the order of wire::ResourceKind.
constexpr std::array<KindWords, wire::kResourceKinds> kKinds = {{
    {"device_memory", "device memory allocation", "cudaFree (cudaFreeAsync for cudaMallocAsync)", true},
    {"managed_memory", "managed memory allocation", "cudaFree", true},
    {"pinned_memory", "pinned host memory allocation", "cudaFreeHost", true},
    {"registered_memory", "host memory registration", "cudaHostUnregister", true},
    {"stream", "stream", "cudaStreamDestroy", false},
    {"event", "event", "cudaEventDestroy", false},
    {"graph", "graph", "cudaGraphDestroy", false},
    {"graph_exec", "executable graph", "cudaGraphExecDestroy", false},
    {"memory_pool", "memory pool", "cudaMemPoolDestroy", false},
}};

// Each kind the ledger has left, "; " between them, each ending "never
// released with <its function>" (`released`) or not.
std::string kinds_left(const wire::ResourceLedger& l, bool released)
{
    std::string kinds;
    for (int k = 0; k < wire::kResourceKinds; ++k) {
        if (l.left[k] == 0) continue;
        const KindWords& w = kKinds[static_cast<std::size_t>(k)];
        const std::string by(l.made_by[k], wire::name_length(l.made_by[k], sizeof l.made_by[k]));
        kinds += fmt::format("{}{} of the {} {}{} it made{} ({}){}", kinds.empty() ? "" : "; ", l.left[k], l.made[k],
                             w.one, l.made[k] == 1 ? "" : "s",
                             w.memory ? fmt::format(", {} bytes", l.bytes_left[k]) : "",
                             by.empty() ? "made by a function hpclab does not name" : "made by " + by,
                             released ? fmt::format(", never released with {}", w.release) : "");
    }
    return kinds;
}

}  // namespace

std::string_view resource_kind_name(int kind) { return kKinds.at(static_cast<std::size_t>(kind)).name; }

std::optional<std::string> unreleased(const wire::ResourceLedger& ledger)
{
    if (!ledger.traced) return std::nullopt;
    const std::string kinds = kinds_left(ledger, true);
    if (kinds.empty()) return std::nullopt;
    return fmt::format("the call returned with what it made still held: {}. Everything a call makes it releases "
                       "before it returns, on every path (an early return too)",
                       kinds);
}

std::optional<std::string> held_from_start(const wire::ResourceLedger& before_main)
{
    if (!before_main.traced) return std::nullopt;
    const std::string kinds = kinds_left(before_main, false);
    if (kinds.empty()) return std::nullopt;
    return fmt::format("before main (in a global object's constructor or a static variable's initializer) the "
                       "program made what it still held when main began, through every call: {}. What a call uses "
                       "it makes in the call and releases before it returns: what is kept from the start carries "
                       "state from one call to the next",
                       kinds);
}

}  // namespace hpclab
