// hpclab-bench: kind=reference tasks=global,shared title="Tuned reference: the course's global atomics; int4 loads and a private copy per warp"
// The speed baseline that labs/histogram/lab.json names ("speed_baseline": "tuned"): the
// thresholds are measured against it. global is the course's kernel, as in the solution
// (solutions/histogram/histogram.cu); shared reads int4 vectors and counts into a private copy
// per warp.
/****************************************************************************
 *
 * tuned.cu - histogram, the tuned reference
 *
 * Check it:  hpclab check histogram --file bench/histogram/tuned.cu
 * Time it:   hpclab bench histogram --variants solution,tuned,cub
 *
 ****************************************************************************/
#include "hpc.h"
#include "histogram.h"

#define BLKDIM 512
#define WARPS (BLKDIM / 32)
/* Shared memory for the private copies of one block: at most 48 KB. */
#define SHARED_INTS 12288

/****************************************************************************
 * (a) global: the course's kernel
 ****************************************************************************/

/*
 * Why it is slow: one atomic on device memory (in the L2 cache) per
 * element; those on the same bin queue up, so skewed inputs are slower
 * still. The lesson's first version, kept as it is: the baseline of the
 * global task is the lesson's own kernel.
 */
__global__ void histogram_global_kernel( const int *a, int n, int *hist )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;

    if ( i < n ) {
        atomicAdd(&hist[a[i]], 1);
    }
}

void histogram_global( const int *d_a, int n, int *d_hist, int bins )
{
    cudaSafeCall( cudaMemset(d_hist, 0, bins * sizeof(int)) );
    histogram_global_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, n, d_hist);
    cudaCheckError();
}

/****************************************************************************
 * (b) shared: private histograms, a copy per warp
 ****************************************************************************/

/*
 * Why it is fast: a pure read of n ints, arranged to run at the device's
 * read bandwidth, with the counting kept off device memory:
 * - each thread reads int4 vectors (16 bytes a load: a quarter of the load
 *   instructions of int loads), in a grid-stride loop over a grid that
 *   just fills the GPU, then the last n % 4 elements one by one;
 * - `copies` private histograms per block in shared memory (as many as fit
 *   in 48 KB, up to one per warp): warp w counts into copy w % copies, so
 *   that warps that meet on a hot bin mostly hit different addresses;
 * - each block adds its copies up and into d_hist once, at the end: one
 *   device atomic per bin per block.
 * A skew costs little: atomicAdd(&copy[v], 1) compiles to ATOMS.POPC.INC,
 * with which the hardware (sm_90) counts a warp's lanes that hit one bin
 * as one update. Going further by hand, __match_any_sync to combine them
 * (bench/histogram/warp_aggregated.cu), only adds work.
 */
__global__ void histogram_private_kernel( const int *a, int n, int *hist, int bins, int copies )
{
    extern __shared__ int local[];
    int *copy = local + (threadIdx.x / 32 % copies) * bins;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t n4 = (size_t)n / 4;
    const int4 *a4 = (const int4 *)a;
    size_t i;
    int b, c;

    for (b = threadIdx.x; b < copies * bins; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();

    for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        const int4 v = a4[i];
        atomicAdd(&copy[v.x], 1);
        atomicAdd(&copy[v.y], 1);
        atomicAdd(&copy[v.z], 1);
        atomicAdd(&copy[v.w], 1);
    }
    for (i = 4 * n4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += stride) {
        atomicAdd(&copy[a[i]], 1);
    }
    __syncthreads();

    for (b = threadIdx.x; b < bins; b += blockDim.x) {
        int total = 0;
        for (c = 0; c < copies; c++) {
            total += local[c * bins + b];
        }
        if (total > 0) {
            atomicAdd(&hist[b], total);
        }
    }
}

void histogram_shared( const int *d_a, int n, int *d_hist, int bins )
{
    int copies = SHARED_INTS / bins;
    int device, n_sm, per_sm, n_blocks;
    size_t shared;

    if (copies > WARPS) copies = WARPS;
    if (copies < 1) copies = 1;
    shared = (size_t)copies * bins * sizeof(int);
    cudaSafeCall( cudaGetDevice(&device) );
    cudaSafeCall( cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, device) );
    cudaSafeCall( cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, histogram_private_kernel, BLKDIM, shared) );
    n_blocks = (n / 4 + BLKDIM - 1) / BLKDIM;
    if (n_blocks > n_sm * per_sm) n_blocks = n_sm * per_sm;
    if (n_blocks < 1) n_blocks = 1;

    cudaSafeCall( cudaMemset(d_hist, 0, bins * sizeof(int)) );
    histogram_private_kernel<<<n_blocks, BLKDIM, shared>>>(d_a, n, d_hist, bins, copies);
    cudaCheckError();
}
