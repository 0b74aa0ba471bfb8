// expect: wrong_answer
// why: <<<nthreads, nblocks>>>: blocks and threads swapped; at 2 x 4 the lines say blocks 0..3 of threads 0..1, so "block 2, thread 0" is no thread of the launch asked for and block 0's threads 2 and 3 printed nothing. The printed-lines check (wrong_answer) outranks the launch shape (wrong_launch).
/*
 * hello.cu with one mistake: the launch's blocks and threads are swapped.
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
    say_hello<<<nthreads, nblocks>>>(); /* MISTAKE: <<<nblocks, nthreads>>> */
    cudaCheckError();
}
