// expect: pass
// why: honest: the kernel timed with two events, as the lecture's timing slides do, and both destroyed before the call returns: events made and released in the call must pass the invariant "releases"
// timing: no (two events made and waited for in every call cost it speed: 0.65x the tuned baseline, spread 0.57..0.80, on an H200, at the threshold; its subject is the events' life in a call)
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    /* 1: the element this thread handles (n <= 2^30: an int will do) */
    const int index = threadIdx.x + blockIdx.x * blockDim.x;

    /* 2: the threads of the last block past the end do nothing */
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    /* 3: enough blocks of BLKDIM threads to cover all n elements */
    cudaEvent_t start, stop;
    float ms;
    cudaSafeCall( cudaEventCreate(&start) );
    cudaSafeCall( cudaEventCreate(&stop) );
    cudaSafeCall( cudaEventRecord(start) );
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
    cudaSafeCall( cudaEventRecord(stop) );
    cudaSafeCall( cudaEventSynchronize(stop) );
    cudaSafeCall( cudaEventElapsedTime(&ms, start, stop) );
    (void)ms;
    cudaSafeCall( cudaEventDestroy(start) );
    cudaSafeCall( cudaEventDestroy(stop) );
}
