// The buffers of one call as the parent sees them: named, typed views on
// memory the parent owns (an exchange slot, or a test's vectors).
#pragma once

#include "wire/exchange.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

using wire::ElemType;
using wire::Place;
using wire::Role;

// A buffer a task's entry point receives, as the lab's spec declares it.
struct BufferDecl {
    std::string name;
    ElemType type = ElemType::i32;
    Place place = Place::device;
    Role role = Role::input;
    std::uint64_t count = 0;

    std::uint64_t bytes() const { return count * wire::elem_size(type); }
};

// The bytes of the buffers of `decls` that `keep` takes (every one by default).
template <class Keep = bool (*)(const BufferDecl&)>
std::uint64_t bytes_of(const std::vector<BufferDecl>& decls, Keep keep = [](const BufferDecl&) { return true; })
{
    std::uint64_t bytes = 0;
    for (const auto& d : decls)
        if (keep(d)) bytes += d.bytes();
    return bytes;
}

template <class T> constexpr ElemType elem_type_of();
template <> constexpr ElemType elem_type_of<int>() { return ElemType::i32; }
template <> constexpr ElemType elem_type_of<float>() { return ElemType::f32; }

class CallBuffers {
public:
    struct Entry {
        BufferDecl decl;
        std::span<std::byte> bytes;
    };

    void add(BufferDecl decl, std::span<std::byte> bytes)
    {
        if (bytes.size() != decl.bytes()) throw std::logic_error("CallBuffers: size of '" + decl.name + "' mismatch");
        entries_.push_back({std::move(decl), bytes});
    }

    template <class T> std::span<T> get(std::string_view name)
    {
        const Entry& e = entry(name);
        if (e.decl.type != elem_type_of<T>()) throw std::logic_error("CallBuffers: wrong type for " + e.decl.name);
        return {reinterpret_cast<T*>(e.bytes.data()), static_cast<std::size_t>(e.decl.count)};
    }
    template <class T> std::span<const T> get(std::string_view name) const
    {
        return const_cast<CallBuffers*>(this)->get<T>(name);
    }

    const Entry& entry(std::string_view name) const
    {
        for (const auto& e : entries_)
            if (e.decl.name == name) return e;
        throw std::logic_error("CallBuffers: no buffer named " + std::string(name));
    }
    const std::vector<Entry>& entries() const { return entries_; }

private:
    std::vector<Entry> entries_;
};

// Owns memory for a set of buffers: used by tests and by the CPU-side tools.
// Zeroed unless the caller writes every byte itself (`unfilled`): then no
// page is touched here, and the caller's own writes, spread over threads,
// are the first (zeroing 512 MiB of a timed call's revealed inputs on one
// thread cost more than making them again from the seed).
class OwnedCallBuffers {
public:
    enum class Contents { zeroed, unfilled };

    explicit OwnedCallBuffers(const std::vector<BufferDecl>& decls, Contents contents = Contents::zeroed)
    {
        storage_.reserve(decls.size());
        for (const auto& d : decls) {
            const std::size_t n = d.bytes();
            storage_.emplace_back(contents == Contents::zeroed ? new std::byte[n]() : new std::byte[n]);
            view_.add(d, {storage_.back().get(), n});
        }
    }
    OwnedCallBuffers(const OwnedCallBuffers&) = delete;
    OwnedCallBuffers& operator=(const OwnedCallBuffers&) = delete;
    OwnedCallBuffers(OwnedCallBuffers&&) = default;

    CallBuffers& view() { return view_; }
    const CallBuffers& view() const { return view_; }

private:
    std::vector<std::unique_ptr<std::byte[]>> storage_;
    CallBuffers view_;
};

}  // namespace hpclab
