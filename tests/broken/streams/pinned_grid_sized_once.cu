// expect: wrong_answer
// why: the grid is computed at the first call and kept in a static variable for the calls after it: every call of the size it was made for is right, but hpclab calls the task at several sizes in one program, in an order drawn from the check's seed whose first size is never the largest, so a later, larger size gets the first call's grid and its last elements are never computed: the device buffer's unwritten part (what cudaMalloc left there) is copied back to the host's `y`, so they show as wrong values rather than hpclab's untouched poison (the invariant no_state) (the overlap task is the lesson's)
/*
 * streams.cu with one mistake in scale_pinned: the number of blocks computed once, for the first call's n.
 */
#include <stdio.h>
#include "hpc.h"
#include "streams.h"

#define BLKDIM 1024
#define NSTREAMS 8

/*
 * Pinned (page-locked) host memory: the operating system may never move or
 * swap it out, so the GPU's copy engines read and write it directly (DMA)
 * at the bus's speed. A copy from ordinary, pageable memory goes through a
 * pinned buffer of the driver's, a piece at a time, with the CPU copying
 * each piece: several times slower. Pinning costs time too (the pages are
 * touched and locked), so a program pins the buffers it copies many times,
 * once: here hpclab allocates x and y with these functions before the calls.
 */
void *host_alloc( size_t bytes )
{
    void *p = NULL;
    cudaSafeCall( cudaHostAlloc(&p, bytes, cudaHostAllocDefault) );
    return p;
}

void host_free( void *p )
{
    cudaSafeCall( cudaFreeHost(p) );
}

/*
 * One thread per element, a load, a multiply-add and a store: the kernel
 * moves 8 bytes an element through device memory (3 TB/s and more), where
 * the copies move the same 8 bytes over the bus (tens of GB/s). The call's
 * time is the copies': the kernel is a small part, which is why the two
 * tasks are about the copies.
 */
__global__ void twice_plus_one( const int *x, int *y, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        y[i] = 2 * x[i] + 1;
    }
}

/*
 * pinned: the plain sequence of vecadd, from pinned memory. Each cudaMemcpy
 * waits until it is done, and the kernel waits for the copy in: copy in,
 * kernel, copy out, one after the other. From pinned memory each copy runs
 * at the bus's speed; the same code on malloc()ed vectors is several times
 * slower (the walkthrough's table).
 */
void scale_pinned( const int *x, int *y, int n )
{
    int *d_x, *d_y;
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_x, size) );
    cudaSafeCall( cudaMalloc((void **)&d_y, size) );
    cudaSafeCall( cudaMemcpy(d_x, x, size, cudaMemcpyHostToDevice) );
    static int n_blocks = 0;  /* MISTAKE: computed for the first call's n, kept for the others */
    if (n_blocks == 0) n_blocks = (n + BLKDIM - 1) / BLKDIM;
    twice_plus_one<<<n_blocks, BLKDIM>>>(d_x, d_y, n);
    cudaCheckError();
    cudaSafeCall( cudaMemcpy(y, d_y, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_x) );
    cudaSafeCall( cudaFree(d_y) );
}

/*
 * overlap: NSTREAMS chunks, each on a stream of its own. Within a stream
 * the chunk's copy in, kernel and copy out still run in order; across
 * streams they do not wait for one another, so while chunk i's kernel runs,
 * chunk i+1 is copied in and chunk i-1 copied out: the bus carries both
 * directions at once (a copy engine each way), and the call takes about the
 * longer of the two directions instead of their sum, plus one chunk's start
 * and end. cudaMemcpyAsync only returns at once, and only overlaps, when
 * the host memory is pinned; and the kernels must go to the chunks'
 * streams: on the default stream a kernel waits for every stream's work
 * before it and holds back every stream's work after it.
 *
 * The launch is checked with cudaGetLastError() alone: hpc.h's
 * cudaCheckError() also waits for the whole device (cudaDeviceSynchronize,
 * to report a fault inside the kernel), and inside the loop that wait lets
 * one chunk's kernel run at a time, with no copy beside it. A fault inside
 * a kernel is reported by the cudaDeviceSynchronize() after the loop.
 *
 * The last chunk takes the remainder: chunk = ceil(n / NSTREAMS), and a
 * chunk past n (n smaller than NSTREAMS) is skipped.
 */
void scale_overlap( const int *x, int *y, int n )
{
    int *d_x, *d_y;
    const size_t size = (size_t)n * sizeof(int);
    const int chunk = (n + NSTREAMS - 1) / NSTREAMS;
    cudaStream_t stream[NSTREAMS];

    cudaSafeCall( cudaMalloc((void **)&d_x, size) );
    cudaSafeCall( cudaMalloc((void **)&d_y, size) );
    for (int s = 0; s < NSTREAMS; s++) {
        cudaSafeCall( cudaStreamCreate(&stream[s]) );
    }
    for (int s = 0; s < NSTREAMS; s++) {
        const int start = s * chunk;
        const int len = (n - start < chunk ? n - start : chunk);
        if (len <= 0) break;
        const size_t bytes = (size_t)len * sizeof(int);
        cudaSafeCall( cudaMemcpyAsync(d_x + start, x + start, bytes, cudaMemcpyHostToDevice, stream[s]) );
        twice_plus_one<<<(len + BLKDIM - 1) / BLKDIM, BLKDIM, 0, stream[s]>>>(d_x + start, d_y + start, len);
        cudaSafeCall( cudaGetLastError() );
        cudaSafeCall( cudaMemcpyAsync(y + start, d_y + start, bytes, cudaMemcpyDeviceToHost, stream[s]) );
    }
    /* y is complete only when every stream is done. */
    cudaSafeCall( cudaDeviceSynchronize() );
    for (int s = 0; s < NSTREAMS; s++) {
        cudaSafeCall( cudaStreamDestroy(stream[s]) );
    }
    cudaSafeCall( cudaFree(d_x) );
    cudaSafeCall( cudaFree(d_y) );
}
