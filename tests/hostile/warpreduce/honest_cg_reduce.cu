// expect: pass
// why: an honest control for the invariant that the student's own code does the work: one kernel template does both tasks, each warp reduced by cooperative groups' reduce() over a tile of 32 threads (a header of the CUDA toolkit, inlined into the student's own kernel, which the PTX's line table shows defined in the student's file), not by a library's kernel; a grid-stride loop over a grid of at most 8 blocks of 256 threads per multiprocessor, one atomic per warp. It must pass.
#include <limits.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "hpc.h"
#include "warpreduce.h"

namespace cg = cooperative_groups;

#define THREADS 256

/* Op: cg::plus<int> or cg::greater<int>; start: what an element-less thread offers. */
template <typename Op>
__global__ void warp_reduce_kernel(const int *a, int n, int *out, int start)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int acc = start;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)gridDim.x * blockDim.x)
        acc = Op()(acc, a[i]);
    acc = cg::reduce(tile, acc, Op());
    if (tile.thread_rank() == 0) {
        if (start == 0) atomicAdd(out, acc);
        else atomicMax(out, acc);
    }
}

static int grid_for(int n)
{
    int dev, sms;
    cudaSafeCall(cudaGetDevice(&dev));
    cudaSafeCall(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const int wanted = (n + THREADS - 1) / THREADS;
    return wanted < 8 * sms ? wanted : 8 * sms;
}

void reduce_sum(const int *d_a, int n, int *d_sum)
{
    cudaSafeCall(cudaMemset(d_sum, 0, sizeof(int)));
    warp_reduce_kernel<cg::plus<int> ><<<grid_for(n), THREADS>>>(d_a, n, d_sum, 0);
    cudaCheckError();
}

void reduce_max(const int *d_a, int n, int *d_max)
{
    const int lowest = INT_MIN;
    cudaSafeCall(cudaMemcpy(d_max, &lowest, sizeof(int), cudaMemcpyHostToDevice));
    warp_reduce_kernel<cg::greater<int> ><<<grid_for(n), THREADS>>>(d_a, n, d_max, INT_MIN);
    cudaCheckError();
}
