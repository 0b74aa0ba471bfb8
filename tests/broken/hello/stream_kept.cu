// expect: not_released
// why: the kernel runs on a stream of its own, waited for, and the stream is never destroyed: the greetings are right and come before the function returns, but every call leaves a stream behind, which the call's ledger shows
/*
 * hello.cu with one mistake: the kernel's stream is never destroyed.
 */
#include <stdio.h>
#include "hpc.h"
#include "hello.h"

__global__ void say_hello( void )
{
    printf("Hello from block %d, thread %d\n", blockIdx.x, threadIdx.x);
}

void hello( int nblocks, int nthreads )
{
    printf("Hello from the host: launching %d blocks of %d threads\n", nblocks, nthreads);
    cudaStream_t stream;
    cudaSafeCall( cudaStreamCreate(&stream) );
    say_hello<<<nblocks, nthreads, 0, stream>>>();
    cudaCheckError();
    cudaSafeCall( cudaStreamSynchronize(stream) ); /* MISTAKE: no cudaStreamDestroy(stream) */
}
