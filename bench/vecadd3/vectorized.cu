// hpclab-bench: kind=further tasks=add title="Going further: int4 loads of 16 bytes and two of them per array per thread"
/****************************************************************************
 *
 * vectorized.cu - vecadd3, going further: vector loads (int4)
 *
 * Not part of the lesson: a benchmark variant that shows what is left
 * between the tuned reference and the memory bandwidth. The tuned
 * reference (bench/vecadd3/tuned.cu) moves one int per load instruction;
 * here each load moves an int4, four ints (16 bytes) at once.
 *
 ****************************************************************************/
#include <stdint.h>
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 256
#define VECS 2       /* int4 per array per thread */

/*
 * Each thread adds VECS int4 of a and b (4 * VECS ints), BLKDIM int4
 * apart, as tuned.cu does with single ints: at every round a warp
 * reads 32 consecutive int4, 512 bytes, of each array.
 *
 * Why it is fast: a 16-byte load brings as many bytes as four 4-byte ones
 * for one instruction, so the same bytes in flight need a quarter of the
 * load instructions and of the index arithmetic, and each thread has
 * 2 * VECS loads of 16 bytes on their way at once. What bounds it is the
 * memory bandwidth: 12 bytes per element, at best the speed of a copy.
 *
 * Any n: the n / 4 whole int4 go through the vector loads; the last n % 4
 * ints (at most 3) are added one by one by the first threads of block 0.
 * The int4 casts need 16-byte aligned pointers: cudaMalloc gives 256-byte
 * alignment, and vecadd() checks it before it takes this kernel.
 */
__global__ void add4( const int *a, const int *b, int *c, int n )
{
    const size_t n4 = n / 4;  /* whole int4 in each array */
    const int4 *a4 = (const int4 *)a;
    const int4 *b4 = (const int4 *)b;
    int4 *c4 = (int4 *)c;
    const size_t first = (size_t)blockIdx.x * (VECS * BLKDIM) + threadIdx.x;
    int4 va[VECS], vb[VECS];
    int k;

    for (k = 0; k < VECS; k++) {
        const size_t i = first + k * BLKDIM;
        if (i < n4) {
            va[k] = a4[i];
            vb[k] = b4[i];
        }
    }
    for (k = 0; k < VECS; k++) {
        const size_t i = first + k * BLKDIM;
        if (i < n4) {
            c4[i] = make_int4(va[k].x + vb[k].x, va[k].y + vb[k].y, va[k].z + vb[k].z, va[k].w + vb[k].w);
        }
    }
    /* The tail: elements 4 * n4 .. n - 1. */
    if (blockIdx.x == 0 && threadIdx.x < n % 4) {
        const size_t i = 4 * n4 + threadIdx.x;
        c[i] = a[i] + b[i];
    }
}

/*
 * The lesson's kernel, one int per thread, for pointers that are not
 * 16-byte aligned (never the case with cudaMalloc). Slower than add4: one
 * 4-byte load per array per thread, few bytes in flight per thread.
 */
__global__ void add1( const int *a, const int *b, int *c, int n )
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    const bool aligned = ((uintptr_t)d_a | (uintptr_t)d_b | (uintptr_t)d_c) % 16 == 0;
    if (aligned) {
        const int n4 = n / 4;
        const int n_blocks = (n4 + VECS * BLKDIM - 1) / (VECS * BLKDIM);
        /* At least one block: with n < 4 there is only the tail. */
        add4<<<(n_blocks > 0 ? n_blocks : 1), BLKDIM>>>(d_a, d_b, d_c, n);
    } else {
        add1<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_a, d_b, d_c, n);
    }
    cudaCheckError();
}
