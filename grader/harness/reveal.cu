// Grid-stride kernels over any count: a few blocks per SM keep every load in
// flight that the memory system can take, so making a timed call's inputs
// costs about one write of them at the device's bandwidth, and a commitment
// one read of the outputs.
#include "reveal.h"

#include "wire/reveal.h"

namespace hpclab::harness {

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 1024;

int blocks_for(std::uint64_t count)
{
    const std::uint64_t needed = (count + kThreads - 1) / kThreads;
    return static_cast<int>(needed < kBlocks ? (needed ? needed : 1) : kBlocks);
}

// wire::stream_folded, with its 64-bit remainder by a reciprocal (wire::IntRange).
__global__ void fill_i32(int* out, std::uint64_t count, std::uint64_t key, wire::FoldedRange range)
{
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count; i += stride)
        out[i] = static_cast<int>(wire::stream_folded(key, i, range));
}

__global__ void fill_f32(float* out, std::uint64_t count, std::uint64_t key, double lo, double hi)
{
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count; i += stride)
        out[i] = static_cast<float>(wire::stream_real(key, i, lo, hi));
}

__global__ void fill_word(std::uint32_t* out, std::uint64_t count, std::uint32_t word)
{
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count; i += stride)
        out[i] = word;
}

__global__ void commit(const std::uint32_t* words, std::uint64_t count, std::uint64_t key, std::uint32_t buffer,
                       unsigned long long* sum)
{
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    unsigned long long mine = 0;
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < count; i += stride)
        mine += wire::commitment_term(key, buffer, i, words[i]);
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
    if ((threadIdx.x & 31) == 0) atomicAdd(sum, mine);
}

}  // namespace

cudaError_t reveal_fill_i32(int* device_out, std::uint64_t count, std::uint64_t key, std::int64_t lo, std::int64_t hi,
                            std::uint32_t fold)
{
    if (count == 0) return cudaSuccess;
    fill_i32<<<blocks_for(count), kThreads>>>(device_out, count, key, wire::folded_range(lo, hi, fold));
    return cudaGetLastError();
}

cudaError_t reveal_fill_f32(float* device_out, std::uint64_t count, std::uint64_t key, double lo, double hi)
{
    if (count == 0) return cudaSuccess;
    fill_f32<<<blocks_for(count), kThreads>>>(device_out, count, key, lo, hi);
    return cudaGetLastError();
}

cudaError_t fill_words(std::uint32_t* device_out, std::uint64_t count, std::uint32_t word)
{
    if (count == 0) return cudaSuccess;
    fill_word<<<blocks_for(count), kThreads>>>(device_out, count, word);
    return cudaGetLastError();
}

cudaError_t reveal_commit(const std::uint32_t* device_words, std::uint64_t count, std::uint64_t key,
                          std::uint32_t buffer, unsigned long long* device_sum)
{
    if (count == 0) return cudaSuccess;
    commit<<<blocks_for(count), kThreads>>>(device_words, count, key, buffer, device_sum);
    return cudaGetLastError();
}

}  // namespace hpclab::harness
