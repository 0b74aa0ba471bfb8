// expect: wrong_answer
// why: the segments are scanned and their sums too, but no offset is ever added: from the second segment on, each starts again from its own first element.
/*
 * scan.cu with one mistake: scan never launches add_offsets_kernel.
 * The other functions are the reference solution.
 */
#include "hpc.h"
#include "scan.h"

/* Two elements per thread: a block of SEGMENT / 2 threads scans SEGMENT. */
#define BLKDIM (SEGMENT / 2)

/****************************************************************************
 * (a) blocks: the work-efficient scan of each segment, in shared memory
 ****************************************************************************/

/*
 * Why it is fast, or not: the segment is read from device memory once,
 * coalesced (thread t loads elements t and t + BLKDIM), and scanned in
 * shared memory with 2 * (SEGMENT - 1) additions in all, as a sequential
 * loop would make: the up-sweep builds a tree of partial sums in log2(SEGMENT)
 * = 10 levels, the down-sweep hands the sums of the left subtrees back down
 * in 10 more. What it costs: a barrier per level (20), fewer active threads
 * at each level near the root, and bank conflicts: at the level with stride
 * `offset` the threads of a warp touch addresses `offset` apart, and with an
 * even offset several of them fall in the same one of the 32 banks, which
 * serves them one after the other (padding the array is the classic cure).
 * `sums`, when not NULL, gets each segment's total, for (b).
 */
__global__ void scan_segments_kernel( const int *a, int n, int *b, int *sums )
{
    __shared__ int temp[SEGMENT];
    const int t = threadIdx.x;
    const int i1 = blockIdx.x * SEGMENT + t;
    const int i2 = i1 + BLKDIM;
    int offset = 1, d;

    /* 1: two elements per thread, coalesced; zeros past the end of a[] */
    const int x1 = (i1 < n ? a[i1] : 0);
    const int x2 = (i2 < n ? a[i2] : 0);
    temp[t] = x1;
    temp[t + BLKDIM] = x2;

    /* 2: the up-sweep: at each level the d active threads each add the
       left one of a pair of partial sums `offset` apart into the right one */
    for (d = SEGMENT / 2; d > 0; d /= 2) {
        __syncthreads();
        if (t < d) {
            const int left = offset * (2 * t + 1) - 1;
            const int right = offset * (2 * t + 2) - 1;
            temp[right] += temp[left];
        }
        offset *= 2;
    }

    /* 3: the root holds the segment's sum: keep it for (b), clear the
       root, and the down-sweep: each right child gets its parent's value
       plus its left sibling's sum, each left child its parent's */
    if (t == 0) {
        if (sums != NULL) {
            sums[blockIdx.x] = temp[SEGMENT - 1];
        }
        temp[SEGMENT - 1] = 0;
    }
    for (d = 1; d < SEGMENT; d *= 2) {
        offset /= 2;
        __syncthreads();
        if (t < d) {
            const int left = offset * (2 * t + 1) - 1;
            const int right = offset * (2 * t + 2) - 1;
            const int v = temp[left];
            temp[left] = temp[right];
            temp[right] += v;
        }
    }
    __syncthreads();

    /* 4: temp[] holds the exclusive sums: add each element to its own */
    if (i1 < n) {
        b[i1] = temp[t] + x1;
    }
    if (i2 < n) {
        b[i2] = temp[t + BLKDIM] + x2;
    }
}

void scan_blocks( const int *d_a, int n, int *d_b )
{
    const int n_segments = (n + SEGMENT - 1) / SEGMENT;

    scan_segments_kernel<<<n_segments, BLKDIM>>>(d_a, n, d_b, NULL);
    cudaCheckError();
}

/****************************************************************************
 * (b) scan: reduce-then-scan over the segments
 ****************************************************************************/

/*
 * Why it is fast, or not: one addition per element, after the segments'
 * sums were scanned; each block reads its offset once. The whole scan
 * reads a[] once and b[] twice and writes b[] twice (here and in (a)'s
 * kernel), 4 ints of traffic an element where a copy moves 2: at best half
 * a copy's speed. A single pass (bench/scan/tuned.cu) reads once and
 * writes once.
 */
__global__ void add_offsets_kernel( int *b, int n, const int *scanned_sums )
{
    /* 6: block k adds the sum of every segment before segment k + 1 (the
       first segment has nothing before it and is not launched) */
    const int segment = blockIdx.x + 1;
    const int i1 = segment * SEGMENT + threadIdx.x;
    const int i2 = i1 + BLKDIM;
    const int offset = scanned_sums[segment - 1];

    if (i1 < n) {
        b[i1] += offset;
    }
    if (i2 < n) {
        b[i2] += offset;
    }
}

void scan( const int *d_a, int n, int *d_b )
{
    const int n_segments = (n + SEGMENT - 1) / SEGMENT;
    int *d_sums;

    if (n_segments == 1) {
        scan_segments_kernel<<<1, BLKDIM>>>(d_a, n, d_b, NULL);
        cudaCheckError();
        return;
    }

    /* 5: each segment scanned, and its sum kept in d_sums */
    cudaSafeCall( cudaMalloc((void **)&d_sums, n_segments * sizeof(int)) );
    scan_segments_kernel<<<n_segments, BLKDIM>>>(d_a, n, d_b, d_sums);
    cudaCheckError();

    /* 7: the sums scanned by this same function, in place (SEGMENT times
       fewer: at most three levels for the lab's sizes), then every segment
       but the first gets its offset */
    scan(d_sums, n_segments, d_sums);
    cudaSafeCall( cudaFree(d_sums) );
}
