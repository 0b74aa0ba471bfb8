// The harness's GPU work for a timed call whose inputs are revealed by the
// parent (wire/reveal.h): each input made from the call's seed where it
// lives, and the commitment to the outputs; and the outputs' poison pattern
// for every run. Kernels of the harness's own,
// queued on the legacy default stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace hpclab::harness {

cudaError_t reveal_fill_i32(int* device_out, std::uint64_t count, std::uint64_t key, std::int64_t lo, std::int64_t hi,
                            std::uint32_t fold);
cudaError_t reveal_fill_f32(float* device_out, std::uint64_t count, std::uint64_t key, double lo, double hi);
// `count` copies of `word` (the poison pattern, made where it is used).
cudaError_t fill_words(std::uint32_t* device_out, std::uint64_t count, std::uint32_t word);
// Adds the commitment terms of `count` words of output `buffer` into *device_sum.
cudaError_t reveal_commit(const std::uint32_t* device_words, std::uint64_t count, std::uint64_t key,
                          std::uint32_t buffer, unsigned long long* device_sum);

}  // namespace hpclab::harness
