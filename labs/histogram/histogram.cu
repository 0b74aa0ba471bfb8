/****************************************************************************
 *
 * histogram.cu - A histogram of ints: two ways
 *
 * Based on the histogram chapter of Kirk and Hwu, "Programming Massively
 * Parallel Processors" (atomics, privatisation, coarsening), and on the
 * CUDA Programming Guide.
 *
 * A histogram counts how many elements take each value: d_hist[v] is the
 * number of elements equal to v. Many threads update the same few counts,
 * so every update must be atomic, and the lesson is how to make fewer
 * updates wait for each other:
 *
 *  (a) histogram_global: one thread per element, atomicAdd() on the bin in
 *      device memory. Right, and slow: every element is an atomic in the L2
 *      cache, and those of one bin queue up.
 *  (b) histogram_shared: privatisation. Each block counts into its own
 *      histogram in shared memory, looping over the array with a stride of
 *      the whole grid, and adds its counts into d_hist once, at the end.
 *
 * d_hist holds garbage when a function is called: set it to zero first.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run histogram
 *     hpclab run histogram --n 1000 --bins 10 --hot 90   (90% one value)
 *
 ****************************************************************************/
#include "hpc.h"
#include "histogram.h"

#define BLKDIM 256

/*
 * The blocks the GPU runs at once with `kernel`: the grid of (b),
 * whose threads loop over the array with a stride of the whole grid, so
 * that each block adds its private counts into d_hist once.
 */
static int resident_blocks( const void *kernel )
{
    int device, n_sm, per_sm;

    cudaSafeCall( cudaGetDevice(&device) );
    cudaSafeCall( cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, device) );
    cudaSafeCall( cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BLKDIM, 0) );
    return n_sm * (per_sm > 0 ? per_sm : 1);
}

/* The grid of (b): one thread per element, at most the resident blocks. */
static int grid_for( int n, const void *kernel )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;
    const int most = resident_blocks(kernel);
    return n_blocks < most ? n_blocks : most;
}

/****************************************************************************
 * (a) global: one atomicAdd() on device memory per element
 ****************************************************************************/

__global__ void histogram_global_kernel( const int *a, int n, int *hist )
{
    /* TODO 1: the thread of element i = threadIdx.x + blockIdx.x *
       blockDim.x (if i < n) adds 1 to hist[a[i]] with atomicAdd(): a plain
       hist[a[i]]++ loses counts when two threads do it at once. */
}

void histogram_global( const int *d_a, int n, int *d_hist, int bins )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    /* TODO 2: d_hist holds garbage: set its bins ints to zero
       (cudaMemset) before the kernel counts into them. */

    histogram_global_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_hist);
    cudaCheckError();
}

/****************************************************************************
 * (b) shared: a private histogram per block in shared memory
 ****************************************************************************/

__global__ void histogram_shared_kernel( const int *a, int n, int *hist, int bins )
{
    /* TODO 3: declare local[], an array of MAX_BINS ints in shared memory:
       the block's private histogram. Its threads set local[0 .. bins-1] to
       zero together (thread t zeroes bins t, t + blockDim.x, ...); then a
       barrier, before any thread counts into it. */

    /* TODO 4: count. Element i starts at threadIdx.x + blockIdx.x *
       blockDim.x and moves on by the whole grid, gridDim.x * blockDim.x,
       while i < n; each adds 1 to local[a[i]] with atomicAdd() (on shared
       memory: quick, and only the block's own threads contend). */

    /* TODO 5: a barrier (every thread has counted), then the block's
       counts into d_hist: thread t adds local[b] into hist[b] with
       atomicAdd(), for b = t, t + blockDim.x, ... < bins; a bin the block
       never saw (local[b] == 0) needs no update. */
}

void histogram_shared( const int *d_a, int n, int *d_hist, int bins )
{
    /* The blocks the GPU runs at once (fewer for a small n), not one per
       BLKDIM elements: each block counts many elements with the
       grid-stride loop of TODO 4, and merges its counts once. */
    const int n_blocks = grid_for(n, (const void *)histogram_shared_kernel);

    /* TODO 6: as in TODO 2, d_hist to zero before the launch. */

    histogram_shared_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_hist, bins);
    cudaCheckError();
}
