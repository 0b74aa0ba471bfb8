// hpclab-bench: kind=reference tasks=pinned,overlap title="Speed baseline: the whole vector on one stream, from pinned memory"
// hpclab-expect: slow_copies
/****************************************************************************
 *
 * onestream.cu - streams' speed baseline: copy in, kernel, copy out, one
 * after the other, from pinned host memory
 *
 * Both tasks are timed against this file (lab.json "speed_baseline"): the
 * pinned task should match it (the same sequence from the same kind of
 * memory), the overlap task should beat it by running its chunks' copies
 * beside each other and beside the kernels. Both tasks here are the pinned
 * task's sequence: nothing runs beside anything, which is why its own check
 * of the overlap task says slow_copies (hpclab-expect above).
 *
 ****************************************************************************/
#include "hpc.h"
#include "streams.h"

#define BLKDIM 1024

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

__global__ void twice_plus_one( const int *x, int *y, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        y[i] = 2 * x[i] + 1;
    }
}

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

void scale_overlap( const int *x, int *y, int n )
{
    scale_pinned(x, y, n);
}
