// How a lab's bind.cpp tells the harness to call the student's functions.
//
// Each lab has one bind.cpp that defines hpclab_lab_bindings(): for every
// graded task, a function that takes the call's buffers and parameters from
// a Call and calls the lab's entry point with them. The harness owns the
// buffers (it allocates them with guard zones, fills the inputs, poisons the
// outputs) and decides where they live (host or device) from the job the
// grader sent, which comes from the lab's spec.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// The buffers and parameters of one call, as the student's function sees them.
class Call {
public:
    struct Slot {
        std::string name;
        void* ptr;          // host or device pointer, as the job says
        std::uint32_t type; // wire::ElemType
        bool is_input;
    };

    Call(std::vector<Slot> slots, std::vector<std::pair<std::string, std::int64_t>> params)
        : slots_(std::move(slots)), params_(std::move(params)) {}

    template <class T> const T* in(std::string_view name) const { return static_cast<const T*>(find(name, true, code<T>())); }
    template <class T> T* out(std::string_view name) const { return static_cast<T*>(find(name, false, code<T>())); }

    std::int64_t param(std::string_view name) const;
    // The parameter as an int, for the course's int-sized entry points.
    int int_param(std::string_view name) const;

private:
    template <class T> static std::uint32_t code();
    void* find(std::string_view name, bool input, std::uint32_t type) const;

    std::vector<Slot> slots_;
    std::vector<std::pair<std::string, std::int64_t>> params_;
};

template <> inline std::uint32_t Call::code<int>() { return 1; }
template <> inline std::uint32_t Call::code<float>() { return 2; }

// The value an entry point returned, or 0 for a void function.
using TaskFunction = std::function<int(const Call&)>;

// Where the harness puts the host buffers of a "pointers": "host" lab. By
// default the C library's heap; a lab whose lesson is the host memory itself
// (streams: pinned memory) has the student's own functions allocate it, so
// that the copies of the student's calls run from what the student chose.
struct HostMemory {
    void* (*allocate)(std::size_t bytes) = nullptr;
    void (*release)(void* p) = nullptr;
};

class Bindings {
public:
    void add(std::string task, TaskFunction fn) { tasks_.emplace_back(std::move(task), std::move(fn)); }
    void host_memory(HostMemory m) { host_memory_ = m; }
    const HostMemory& host_memory() const { return host_memory_; }
    const TaskFunction* find(std::string_view task) const
    {
        for (const auto& [name, fn] : tasks_)
            if (name == task) return &fn;
        return nullptr;
    }

private:
    std::vector<std::pair<std::string, TaskFunction>> tasks_;
    HostMemory host_memory_;
};

// A mismatch between bind.cpp and the job: a bug of the course, not the student.
struct BindingError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Defined here, inline: bind.cpp is linked after the harness library.
inline void* Call::find(std::string_view name, bool input, std::uint32_t type) const
{
    for (const auto& s : slots_) {
        if (s.name != name) continue;
        if (s.is_input != input)
            throw BindingError("bind.cpp asks for buffer '" + std::string(name) + "' as an " +
                               (input ? "input" : "output") + ", but the spec declares it the other way");
        if (s.type != type)
            throw BindingError("bind.cpp asks for buffer '" + std::string(name) +
                               "' with another element type than the spec declares");
        return s.ptr;
    }
    throw BindingError("bind.cpp asks for buffer '" + std::string(name) + "', which the spec does not declare");
}

inline std::int64_t Call::param(std::string_view name) const
{
    for (const auto& [key, value] : params_)
        if (key == name) return value;
    throw BindingError("bind.cpp asks for parameter '" + std::string(name) + "', which the job does not carry");
}

inline int Call::int_param(std::string_view name) const
{
    const std::int64_t v = param(name);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        throw BindingError("parameter '" + std::string(name) + "' does not fit an int");
    return static_cast<int>(v);
}

}  // namespace hpclab

// Defined once per lab, in labs/<id>/bind.cpp.
void hpclab_lab_bindings(hpclab::Bindings& lab);
