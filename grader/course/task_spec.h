// A lab's spec: for each graded task, the buffers its entry point takes, how
// inputs are generated from a seed, the CPU reference (float64 where floats
// are involved) and how outputs are judged. Each lab writes one spec.cpp in
// its folder that registers its tasks here; the runner, the tests and later
// the grader all use the same spec. Nothing of it runs in the student's
// process.
#pragma once

#include "course/call_buffers.h"
#include "course/lab_catalog.h"
#include "course/params.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hpclab {

// What one call moves and computes, for throughput figures.
struct Work {
    double bytes = 0;  // fewest bytes through device memory: inputs read once, outputs written once
    double flops = 0;
};

// Everything the parent knows after one call, handed to the task's check.
struct CheckInput {
    const TaskInfo& task;
    const Params& params;
    const CallBuffers& buffers;    // inputs (verified unchanged) and outputs
    int returned = 0;              // the entry point's return value (0 for void)
    int launch_error = 0;          // a CUDA launch error left pending after the call
    std::string_view printed;      // what the program printed before the call returned
    std::string_view printed_late; // ...and after it returned (kernel output the host did not wait for)
    std::uint64_t sample_seed = 0; // for checks that sample large outputs
    // Non-empty: the indices compared in every output, sorted and each once
    // (a timed call of a task whose reads are known, its inputs made only
    // there: TaskSpec::reads_known). Every element is still checked for the poison.
    std::span<const std::uint64_t> sample;
    // Reference operations one call may cost before the comparison samples
    // (every element is still checked for the poison).
    double reference_budget = 4e8;
};

struct CheckResult {
    enum class Kind {
        pass,
        mismatch,      // an element differs from the reference
        unwritten,     // an output element still holds the poison
        wrong_return,  // the entry point returned the wrong status
        wrong_output,  // printed output is wrong (hello)
    };
    Kind kind = Kind::pass;
    bool ok() const { return kind == Kind::pass; }
    std::string summary;               // one line, the first thing a student reads
    std::vector<std::string> details;  // more lines: counts, errors, where
    std::uint64_t checked = 0;         // elements compared
    std::uint64_t wrong = 0;           // of which differ (unwritten included)
    std::uint64_t unwritten = 0;       // outputs never written, over the whole buffer
    bool sampled = false;              // only a sample was compared (large, costly reference)
    double max_abs_error = 0;
    double max_rel_error = 0;
};

// How one input buffer is made from a seed: fill_uniform over
// RandomStream(seed, stream) in [lo, hi]. The harness makes a timed call's
// inputs on the GPU from these (wire/reveal.h), so a spec whose inputs are
// all fills can be timed with its inputs revealed one call at a time.
struct InputFill {
    std::string buffer;
    std::uint32_t stream = 1;
    double lo = 0, hi = 0;
    // An int fill's skew (wire::stream_folded): values drawn in
    // [lo, hi + fold], those past hi made the middle of [lo, hi]. 0: uniform.
    std::uint32_t fold = 0;
};

// Every input of `call` that a fill names, made from `seed`.
void apply_fills(const std::vector<InputFill>& fills, std::uint64_t seed, CallBuffers& call);

// Reference operations an element past which a spec's reference() is
// handed the whole sample at once (compare_outputs): it can share work
// between elements, as matmul gathers each column of q once for all of it.
inline constexpr double kCostlyReference = 64;

// Elements [begin, end) of one buffer.
struct ElementRange {
    std::uint64_t begin = 0, end = 0;
};

class TaskSpec;
// Whether every input of the task at this size has a fill (no inputs: true).
bool all_inputs_filled(const TaskSpec& spec, const Params& params);
// The indices of `count` elements to compare, sorted and each once: the
// first and last 256, and one random index in each of `budget` equal strata
// between them (all of them when `budget` covers the count).
std::vector<std::uint64_t> sample_indices(std::uint64_t count, std::uint64_t budget, std::uint64_t seed);
// The fills of a task whose reads are known (TaskSpec::reads_known) made
// only where output elements `at` of `outputs` elements read them
// (TaskSpec::reads): the rest of each input is left as it was.
void apply_fills_read(const TaskSpec& spec, const Params& params, std::uint64_t seed, CallBuffers& call,
                      std::uint64_t outputs, std::span<const std::uint64_t> at);

class TaskSpec {
public:
    virtual ~TaskSpec() = default;

    // The buffers of one call at this size, in the order the job lists them.
    virtual std::vector<BufferDecl> buffers(const Params& params) const = 0;
    // Fill every input buffer from the seed. Never all zeros. By default, the
    // fills; a spec adds to them what a small size needs (a sum never zero).
    virtual void generate(const Params& params, std::uint64_t seed, CallBuffers& call) const
    {
        apply_fills(input_fills(params), seed, call);
    }
    // The fills of the inputs (empty: the inputs are made some other way,
    // and timed runs send them whole).
    virtual std::vector<InputFill> input_fills(const Params&) const { return {}; }
    // The reference value of output `output` at each index, computed from the
    // inputs. `scale` is pre-filled with |expected| once known; a relative
    // tolerance is measured against it, so a reference may set a better one
    // (matmul: the sum of |p_ik * q_kj|, the size of the rounding it allows).
    virtual void reference(const Params& params, const CallBuffers& in, std::string_view output,
                           std::span<const std::uint64_t> indices, std::span<double> expected,
                           std::span<double> scale) const;
    // Operations per reference element: past a budget, a sample is compared.
    // Past kCostlyReference, reference() gets the whole sample in one call
    // and spreads it over the threads itself (util/parallel.h).
    virtual double reference_cost(const Params&) const { return 1; }
    // True when reads() says which input elements the reference of each
    // output element reads (every output of one count, m), and the default
    // check() judges it. A large timed call of such a task is judged on a
    // sample drawn after the call, its inputs made again only where the
    // sample reads them (run/task_runner.cpp). A CPU test holds the claim
    // for every spec that makes it (tests/cpu/course/test_reads_known.cpp).
    virtual bool reads_known(const Params&) const { return false; }
    // The elements of `input` that output element i of m reads. By default
    // its share: [i*w, (i+1)*w), w = the input's count / m (vecadd: a[i]
    // and b[i]; aos_soa: the fields of particle i).
    virtual ElementRange reads(const Params&, const BufferDecl& input, std::uint64_t m, std::uint64_t i) const;
    // Where index i of an output is, in the lab's words ("row 3, column 17").
    virtual std::string locate(const Params& params, std::string_view output, std::uint64_t index) const;
    virtual Work work(const Params&) const { return {}; }
    // What the call computed, in one line, as the course's programs print it
    // ("c = [12, -3, 5, ..., 7] (1000 ints)"; "sum = 12345").
    virtual std::string summarize(const Params& params, const CallBuffers& call) const;
    // The verdict on one call. By default every output is compared with the
    // reference under the task's tolerance (compare_outputs).
    virtual CheckResult check(const CheckInput& in) const;
};

// Compares every output buffer with the spec's reference.
CheckResult compare_outputs(const TaskSpec& spec, const CheckInput& in);

void register_task_spec(std::string lab, std::string task, std::unique_ptr<TaskSpec> spec);
const TaskSpec* find_task_spec(std::string_view lab, std::string_view task);
// Every (lab, task) with a spec, for the consistency tests.
std::vector<std::pair<std::string, std::string>> registered_task_specs();

}  // namespace hpclab

#define HPCLAB_CONCAT_(a, b) a##b
#define HPCLAB_CONCAT(a, b) HPCLAB_CONCAT_(a, b)
// In a lab's spec.cpp: HPCLAB_REGISTER_TASK("vecadd3", "add", AddTask);
#define HPCLAB_REGISTER_TASK(lab, task, Type)                                                      \
    static const bool HPCLAB_CONCAT(hpclab_registered_, __LINE__) =                               \
        (::hpclab::register_task_spec(lab, task, std::make_unique<Type>()), true)
