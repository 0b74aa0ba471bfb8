/****************************************************************************
 *
 * scan.cu - Prefix sums: one segment per block, then the whole array
 *
 * Based on the scan chapter of Kirk and Hwu, "Programming Massively
 * Parallel Processors" (the work-efficient scan, and reduce-then-scan over
 * blocks), after Blelloch's "Prefix sums and their applications".
 *
 * A scan turns a[] into its running sums: b[i] = a[0] + ... + a[i]. It
 * looks sequential (each sum needs the one before), yet it splits well:
 *
 *  (a) scan_blocks: each segment of SEGMENT elements on its own, by one
 *      block in shared memory: an up-sweep that adds pairs of partial sums
 *      level by level up a tree, then a down-sweep that hands each subtree
 *      the sum of everything to its left.
 *  (b) scan: the whole array. Scan the segments as in (a) and keep each
 *      one's total; scan the totals (the same function, on an array
 *      SEGMENT times shorter); add to every segment the total of the
 *      segments before it.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run scan
 *     hpclab run scan --n 3000
 *
 ****************************************************************************/
#include "hpc.h"
#include "scan.h"

/* Two elements per thread: a block of SEGMENT / 2 threads scans SEGMENT. */
#define BLKDIM (SEGMENT / 2)

/****************************************************************************
 * (a) blocks: the work-efficient scan of each segment, in shared memory
 ****************************************************************************/

/* `sums`, when not NULL, gets each segment's total, for (b). */
__global__ void scan_segments_kernel( const int *a, int n, int *b, int *sums )
{
    __shared__ int temp[SEGMENT];
    const int t = threadIdx.x;
    const int i1 = blockIdx.x * SEGMENT + t;
    const int i2 = i1 + BLKDIM;
    int offset = 1, d;

    /* TODO 1: in place of the zeros below, x1 = a[i1] and x2 = a[i2], or
       0 past the end of a[] (i >= n); store them into temp[t] and
       temp[t + BLKDIM]. Two loads a thread, each coalesced: consecutive
       threads, consecutive ints. */
    const int x1 = 0, x2 = 0;

    /* TODO 2: the up-sweep. For d = SEGMENT / 2, SEGMENT / 4, ..., 1: a
       barrier, then the threads t < d add temp[left] into temp[right],
       with left = offset * (2 * t + 1) - 1 and right = offset * (2 * t +
       2) - 1; then offset doubles. Draw it for SEGMENT = 8 first. */

    /* TODO 3: temp[SEGMENT - 1] now holds the segment's sum. Thread 0
       stores it into sums[blockIdx.x] (if sums is not NULL) and sets
       temp[SEGMENT - 1] to 0. Then the down-sweep: for d = 1, 2, 4, ...,
       SEGMENT / 2: offset halves, a barrier, and the threads t < d (the
       same left and right) swap and add: v = temp[left]; temp[left] =
       temp[right]; temp[right] += v. */

    /* TODO 4: a barrier; temp[] now holds each element's EXCLUSIVE sum
       (everything before it): write b[i1] = temp[t] + x1 and b[i2] =
       temp[t + BLKDIM] + x2, for the indices below n. */
    (void)temp; (void)x1; (void)x2; (void)offset; (void)d; (void)sums; (void)b;
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

__global__ void add_offsets_kernel( int *b, int n, const int *scanned_sums )
{
    /* TODO 6: block k serves segment k + 1 (the first segment has nothing
       before it and gets no block): its two elements i1 = segment *
       SEGMENT + threadIdx.x and i2 = i1 + BLKDIM (when below n) each add
       scanned_sums[segment - 1], the sum of every segment before it. */
    (void)b; (void)n; (void)scanned_sums;
}

void scan( const int *d_a, int n, int *d_b )
{
    const int n_segments = (n + SEGMENT - 1) / SEGMENT;

    if (n_segments == 1) {
        scan_segments_kernel<<<1, BLKDIM>>>(d_a, n, d_b, NULL);
        cudaCheckError();
        return;
    }

    /* TODO 5: allocate d_sums, n_segments ints on the device (cudaMalloc),
       and launch scan_segments_kernel as scan_blocks does, with d_sums for
       its sums. */

    /* TODO 7: scan the sums with this same function, in place
       (scan(d_sums, n_segments, d_sums)); launch add_offsets_kernel with
       n_segments - 1 blocks of BLKDIM threads; check the launch; free
       d_sums. */
}
