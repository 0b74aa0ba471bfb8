// expect: wrong_answer
// why: only thread 0 of each block prints, so every line of threads 1..nthreads-1 is missing (right for 1 thread per block only); the launch and the wait are right, so only the printed-lines check fails.
/*
 * hello.cu with one mistake: the printf() is guarded by threadIdx.x == 0,
 * as if one line per block were asked.
 */
#include <stdio.h>
#include "hpc.h"
#include "hello.h"

__global__ void say_hello( void )
{
    if (threadIdx.x == 0) { /* MISTAKE: every thread must print */
        printf("Hello from block %d, thread %d\n", blockIdx.x, threadIdx.x);
    }
}

void hello( int nblocks, int nthreads )
{
    printf("Hello from the host: launching %d blocks of %d threads\n", nblocks, nthreads);
    say_hello<<<nblocks, nthreads>>>();
    cudaCheckError();
}
