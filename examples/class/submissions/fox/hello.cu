/* hello - Fox's: prints the greetings from the host, no kernel. */
#include <stdio.h>
#include "hpc.h"
#include "hello.h"

void hello(int nblocks, int nthreads)
{
    printf("Hello from the host: launching %d blocks of %d threads\n", nblocks, nthreads);
    for (int b = 0; b < nblocks; b++)
        for (int t = 0; t < nthreads; t++) printf("Hello from block %d, thread %d\n", b, t);
}
