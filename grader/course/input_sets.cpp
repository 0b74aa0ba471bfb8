#include "course/input_sets.h"

#include "util/parallel.h"
#include "course/random.h"

#include <cstring>
#include <stdexcept>

namespace hpclab {

void derive_input_set(const CallBuffers& base, CallBuffers& into, std::uint64_t seed)
{
    if (base.entries().size() != into.entries().size())
        throw std::logic_error("derive_input_set: the two calls hold different buffers");
    for (std::size_t b = 0; b < base.entries().size(); ++b) {
        const auto& from = base.entries()[b];
        auto& to = into.entries()[b];
        if (from.decl.role != Role::input) continue;
        if (from.bytes.size() != to.bytes.size())
            throw std::logic_error("derive_input_set: buffer '" + from.decl.name + "' differs in size");
        std::memcpy(to.bytes.data(), from.bytes.data(), from.bytes.size());
        // Every element type is 4 bytes (wire::elem_size).
        const std::uint64_t count = from.decl.count;
        if (count < 2) continue;  // nothing to swap with: a size-1 input stays as it is
        auto* words = reinterpret_cast<std::uint32_t*>(to.bytes.data());
        const auto* source = reinterpret_cast<const std::uint32_t*>(from.bytes.data());
        const RandomStream pick(seed, 2 * b), what(seed, 2 * b + 1);
        // Element i changes or not from its own random draw: the same set for
        // a seed whatever the number of threads.
        parallel_for(count, [&](std::uint64_t lo, std::uint64_t hi) {
            for (std::uint64_t i = lo; i < hi; ++i) {
                if (pick.bits(i) % kChangedOneIn != 0) continue;
                // Another element's value (for a size of 2 or more, a
                // different element, so that most changes change something).
                std::uint64_t other = what.bits(i) % (count - 1);
                if (other >= i) ++other;
                words[i] = source[other];
            }
        });
    }
}

}  // namespace hpclab
