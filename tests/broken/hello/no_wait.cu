// expect: wrong_answer
// why: no cudaDeviceSynchronize()/cudaCheckError() after the launch: every line comes out only when the harness synchronises, after hello() returned, so the printed-before-return check fails (a kernel ran, with the right shape; nothing else is wrong).
/*
 * hello.cu with one mistake: hello() launches the kernel and returns
 * without waiting for it. Device printf() output is flushed only at a
 * synchronisation point, and there is none inside hello().
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
    say_hello<<<nblocks, nthreads>>>();
    /* MISTAKE: no cudaCheckError() (nor cudaDeviceSynchronize()) here */
}
