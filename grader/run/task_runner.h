// One run of a lab program: the parent generates the inputs, starts the
// program in a fresh process, and judges what comes back with the spec.
#pragma once

#include "run/run_request.h"

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

RunReport run_task(const RunRequest& request);

// Several runs of one program (one task's sizes) in one process, one after
// the other: a CUDA context costs each process about 0.2 s, and contexts
// are made one at a time across the machine. Each run's report is what it
// would have been alone, from its own exchange and its own share of the
// program's output; nothing where that cannot be told (the program ended
// before the run finished, other than at the time limit): the caller runs
// those alone, each in a fresh process (a fault is sticky in its process).
// The requests share their program, wrapper and limits; no gate.
// The inputs of such a program's runs, made before the program exists
// (they need none of it): a check makes its correctness runs' while the
// student's file compiles, on CPUs nvcc leaves idle. Given back to
// run_tasks_together with the same requests, once each has its program
// (or to run_task, one request's: RunRequest::inputs_ahead).
std::shared_ptr<MadeInputs> make_inputs(const std::vector<RunRequest>& requests);
// How many of its exchanges no run has taken yet (RunRequest::inputs_ahead).
std::size_t exchanges_left(const MadeInputs& made);
std::vector<std::optional<RunReport>> run_tasks_together(const std::vector<RunRequest>& requests,
                                                         std::shared_ptr<MadeInputs> made = {});

// A size's device buffers, and whether they fit a GPU of `gpu_memory_bytes`
// (0: unknown, taken to fit): 9/10 of its memory, the rest left to the CUDA
// context and the student's own allocations. A run refuses a size past it
// (too_large), and a check plans no big size past it (check/plan.h).
std::uint64_t device_bytes(const std::vector<BufferDecl>& decls);
bool fits_gpu_memory(const std::vector<BufferDecl>& decls, std::uint64_t gpu_memory_bytes);

}  // namespace hpclab
