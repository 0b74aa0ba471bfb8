// expect: not_on_gpu
// why: the greetings are printed by the host, in a loop, beside an empty kernel launched with the right shape and waited for: every line is there, before hello() returns, and CUPTI sees the launch asked for; only the kernel's compiled code (cuobjdump -sass: no call of vprintf) tells that the GPU printed nothing. Needs cuobjdump beside nvcc.
/*
 * hello.cu with one mistake: the lines are printed by the host; the kernel is empty.
 */
#include <stdio.h>
#include "hpc.h"
#include "hello.h"

__global__ void say_hello( void )
{
    /* MISTAKE: the printf belongs here, run by every thread of the GPU */
}

void hello( int nblocks, int nthreads )
{
    printf("Hello from the host: launching %d blocks of %d threads\n", nblocks, nthreads);
    say_hello<<<nblocks, nthreads>>>();
    cudaCheckError();
    for (int b = 0; b < nblocks; b++) {
        for (int t = 0; t < nthreads; t++) {
            printf("Hello from block %d, thread %d\n", b, t);
        }
    }
}
