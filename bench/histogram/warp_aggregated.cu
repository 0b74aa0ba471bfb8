// hpclab-bench: kind=further tasks=shared title="Going further, measured: the private histogram with warp-aggregated updates (__match_any_sync)"
// hpclab-expect: too_slow
/****************************************************************************
 *
 * warp_aggregated.cu - histogram, going further: the lanes of a warp that
 *                      hold the same value update once
 *
 * The shared task with one change: in the counting loop the lanes holding
 * the same value find each other (__match_any_sync) and the lowest adds
 * their number (__popc) for all, where the solution has each lane add 1.
 * The classic cure for a skewed histogram; measured here to see whether it
 * still is one (docs/histogram.md, "Going further"): on sm_90 the
 * solution's atomicAdd(&local[v], 1) compiles to ATOMS.POPC.INC, with
 * which the hardware already counts a warp's lanes on one bin as one update.
 *
 * Its check is too_slow (hpclab-expect above): on uniform values, the
 * shared task's timed size, it runs about a quarter of the tuned one's pace.
 *
 * Time it:  hpclab bench histogram --task shared --hot 0,90 --variants solution,warp_aggregated
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

/*
 * Why it is slow: every element is one atomic read-modify-write on d_hist,
 * done in the L2 cache. Atomics on different bins proceed in parallel, but
 * those on the same bin queue up one behind the other: with 256 bins and
 * uniform values a warp's 32 updates spread over many bins, so the cost is
 * the L2's atomic throughput (n atomics against n loads); when 90% of the
 * elements hold one value, nearly every update waits for the one before it
 * on the same address, and the kernel runs several times slower.
 */
__global__ void histogram_global_kernel( const int *a, int n, int *hist )
{
    /* 1: each thread adds its element to its bin, atomically: two threads
       with the same value would lose a count with a plain ++ */
    const int i = threadIdx.x + blockIdx.x * blockDim.x;

    if ( i < n ) {
        atomicAdd(&hist[a[i]], 1);
    }
}

void histogram_global( const int *d_a, int n, int *d_hist, int bins )
{
    const int n_blocks = (n + BLKDIM - 1) / BLKDIM;

    /* 2: d_hist holds garbage: every bin starts from zero. The memset and
       the kernel go to the same (default) stream: the kernel waits for it. */
    cudaSafeCall( cudaMemset(d_hist, 0, bins * sizeof(int)) );

    histogram_global_kernel<<<n_blocks, BLKDIM>>>(d_a, n, d_hist);
    cudaCheckError();
}

/****************************************************************************
 * (b) shared, warp-aggregated: the lanes of a warp with the same value update once
 ****************************************************************************/

/*
 * Why it is fast on skewed inputs: __match_any_sync gives each lane the mask
 * of the lanes that hold its value; the lowest of them adds the count of the
 * mask (__popc) for all, so a warp whose 32 lanes hold the hot value makes
 * one shared atomic instead of 32. Why it is not faster than the solution:
 * the match is a multi-cycle instruction on every element, and the
 * solution's ATOMS.POPC.INC already counts a warp's lanes on one bin as one
 * update in hardware; on uniform values over 256 bins most masks hold one
 * lane, and the match is paid for nothing.
 */
__global__ void histogram_warp_kernel( const int *a, int n, int *hist, int bins )
{
    __shared__ int local[MAX_BINS];
    const int lane = threadIdx.x % warpSize;
    int b, i;

    for (b = threadIdx.x; b < bins; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();

    for (i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += gridDim.x * blockDim.x) {
        /* the lanes still in the loop that hold the same value v; the
           lowest of them adds their number for all */
        const int v = a[i];
        const unsigned peers = __match_any_sync(__activemask(), v);
        if ( lane == __ffs(peers) - 1 ) {
            atomicAdd(&local[v], __popc(peers));
        }
    }

    __syncthreads();
    for (b = threadIdx.x; b < bins; b += blockDim.x) {
        if ( local[b] > 0 ) {
            atomicAdd(&hist[b], local[b]);
        }
    }
}

void histogram_shared( const int *d_a, int n, int *d_hist, int bins )
{
    cudaSafeCall( cudaMemset(d_hist, 0, bins * sizeof(int)) );
    histogram_warp_kernel<<<grid_for(n, (const void *)histogram_warp_kernel), BLKDIM>>>(d_a, n, d_hist, bins);
    cudaCheckError();
}
