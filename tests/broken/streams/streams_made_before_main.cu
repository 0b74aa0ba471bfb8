// expect: not_released
// why: scale_overlap's eight streams are made once, by a global object's constructor before main, and destroyed only at exit: every result is right and each call overlaps its copies as the lesson asks, but the program holds eight streams through every call, made outside any call, which only the trace from before main can tell.
/*
 * streams.cu with one mistake: the streams belong to a global object made
 * before main, not to the call.
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
    twice_plus_one<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x, d_y, n);
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
/* MISTAKE: the streams are made once, before main, by this global object
   (and destroyed at exit): scale_overlap makes none of its own. */
struct Streams {
    cudaStream_t s[NSTREAMS];
    Streams() {
        for (int i = 0; i < NSTREAMS; i++) {
            cudaSafeCall( cudaStreamCreate(&s[i]) );
        }
    }
    ~Streams() {
        for (int i = 0; i < NSTREAMS; i++) {
            cudaStreamDestroy(s[i]);
        }
    }
};
static Streams streams;

void scale_overlap( const int *x, int *y, int n )
{
    int *d_x, *d_y;
    const size_t size = (size_t)n * sizeof(int);
    const int chunk = (n + NSTREAMS - 1) / NSTREAMS;
    cudaStream_t *stream = streams.s;

    cudaSafeCall( cudaMalloc((void **)&d_x, size) );
    cudaSafeCall( cudaMalloc((void **)&d_y, size) );
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
    cudaSafeCall( cudaDeviceSynchronize() );
    cudaSafeCall( cudaFree(d_x) );
    cudaSafeCall( cudaFree(d_y) );
}
