/****************************************************************************
 *
 * streams.cu - Pinned memory and streams: copies at the bus's speed, and
 * copies beside kernels
 *
 * After the CUDA C++ Programming Guide's "Page-Locked Host Memory" and
 * "Asynchronous Concurrent Execution" (its two-stream cudaMallocHost
 * example), and the lecture's cudaMemcpyAsync (slide 29).
 *
 * Both tasks compute y[i] = 2 * x[i] + 1 on the GPU, where x and y are in
 * HOST memory: the kernel is light, and the time goes to the copies. This
 * lab makes the copies fast, in two steps:
 *
 *  (a) pinned: hpclab allocates x and y with YOUR host_alloc(). Memory
 *      from malloc() is pageable: the driver copies it through a buffer of
 *      its own, a piece at a time. Pinned (page-locked) memory, from
 *      cudaHostAlloc(), is copied by the GPU directly, several times
 *      faster. Then the usual sequence: cudaMalloc, copy in, kernel, copy
 *      out, cudaFree.
 *  (b) overlap: split the vector into NSTREAMS chunks, each on a stream of
 *      its own: its copy in (cudaMemcpyAsync), its kernel and its copy out
 *      (cudaMemcpyAsync). Work of different streams may run at the same
 *      time: one chunk is copied in while another is computed and a third
 *      is copied out.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run streams
 *     hpclab run streams --n 1000       (any other size)
 *
 ****************************************************************************/
#include <stdio.h>
#include <stdlib.h>
#include "hpc.h"
#include "streams.h"

#define BLKDIM 1024
#define NSTREAMS 8

/****************************************************************************
 * The host memory hpclab puts x and y in
 ****************************************************************************/

void *host_alloc( size_t bytes )
{
    /* TODO 2: allocate PINNED memory instead:
       cudaSafeCall( cudaHostAlloc(&p, bytes, cudaHostAllocDefault) ); */
    void *p = malloc(bytes);
    return p;
}

void host_free( void *p )
{
    /* TODO 3: pinned memory is given back with cudaFreeHost(), not free(). */
    free(p);
}

/****************************************************************************
 * (a) pinned
 ****************************************************************************/

__global__ void twice_plus_one( const int *x, int *y, int n )
{
    /* TODO 1: the thread of global index i (threadIdx.x + blockIdx.x *
       blockDim.x) stores 2 * x[i] + 1 into y[i], if i < n. */
}

void scale_pinned( const int *x, int *y, int n )
{
    /* TODO 4: as in vecadd: allocate d_x and d_y on the device (n ints
       each), copy x into d_x (cudaMemcpy, cudaMemcpyHostToDevice), launch
       twice_plus_one with (n + BLKDIM - 1) / BLKDIM blocks of BLKDIM
       threads, copy d_y into y (cudaMemcpyDeviceToHost), free d_x and d_y.
       Careful: n * sizeof(int) as a size_t, (size_t)n * sizeof(int). */
}

/****************************************************************************
 * (b) overlap
 ****************************************************************************/

void scale_overlap( const int *x, int *y, int n )
{
    /* Each chunk is chunk elements long, the last one shorter: the
       NSTREAMS chunks cover all of x, also when n is not a multiple of
       NSTREAMS. A chunk that starts past n is empty: skip it. */
    const int chunk = (n + NSTREAMS - 1) / NSTREAMS;
    cudaStream_t stream[NSTREAMS];

    /* TODO 5: allocate d_x and d_y (n ints each), and create the NSTREAMS
       streams: cudaSafeCall( cudaStreamCreate(&stream[s]) ); */

    /* TODO 6: for each chunk s, starting at start = s * chunk and len =
       min(chunk, n - start) elements long (skip it when len <= 0), all on
       stream[s]:
         - copy x + start into d_x + start: cudaMemcpyAsync(dst, src,
           bytes, cudaMemcpyHostToDevice, stream[s]);
         - launch twice_plus_one on the chunk, on the same stream (the
           fourth launch parameter):
           twice_plus_one<<<blocks, BLKDIM, 0, stream[s]>>>(d_x + start,
           d_y + start, len);
         - copy d_y + start into y + start (cudaMemcpyAsync,
           cudaMemcpyDeviceToHost, stream[s]).
       No waiting inside the loop: the point is that the chunks run side
       by side. Check each launch with cudaSafeCall( cudaGetLastError() ),
       not with cudaCheckError(): hpc.h's check also waits for the whole
       device (cudaDeviceSynchronize), and one chunk would run at a time. */

    /* TODO 7: wait until every stream is done (cudaDeviceSynchronize), then
       destroy the streams (cudaStreamDestroy) and free d_x and d_y. */

    (void)chunk; (void)stream; /* keeps the compiler quiet until TODO 5 and 6 use them: remove it then */
}
