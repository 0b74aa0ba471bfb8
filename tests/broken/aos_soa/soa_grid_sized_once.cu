// expect: no_output
// why: the grid is computed at the first call and kept in a static variable for the calls after it: every call of the size it was made for is right, but hpclab calls the task at several sizes in one program, in an order drawn from the check's seed whose first size is never the largest, so a later, larger size gets the first call's grid and its last elements are never written (the invariant no_state) (move_aos and aos_to_soa are the lesson's)
/*
 * aos_soa.cu with one mistake in move_soa: the number of blocks computed once, for the first call's n.
 */
#include "hpc.h"
#include "aos_soa.h"

#define BLKDIM 1024

/*
 * AoS: the 32 threads of a warp read p[i].x at addresses 32 bytes apart,
 * one in each of 32 sectors of 32 bytes, then p[i].vx from the same 32
 * sectors (the L1 cache still holds them). Memory moves whole sectors: the
 * warp brings in 1024 bytes to use 256 of them, the other six fields of
 * each particle ride along unused. Bandwidth bounds the kernel, so its time
 * follows the bytes moved: 32 read + 4 written per particle.
 */
__global__ void move_aos_kernel( const particle_t *p, float *xnew, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        xnew[i] = p[i].x + p[i].vx * DT;
    }
}

void move_aos( const particle_t *d_p, float *d_xnew, int n )
{
    move_aos_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_p, d_xnew, n);
    cudaCheckError();
}

/*
 * SoA: the warp reads x[i .. i+31], 128 consecutive bytes (four sectors,
 * all used), then vx[i .. i+31] the same way; the arrays of the six other
 * fields are never touched. 4 + 4 read + 4 written per particle: a third of
 * the AoS kernel's bytes, for the same result. The struct of pointers is
 * passed by value: the kernel gets the eight device pointers themselves in
 * its parameters (a pointer to a host struct would be useless on the GPU).
 */
__global__ void move_soa_kernel( particles_soa_t p, float *xnew, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        xnew[i] = p.x[i] + p.vx[i] * DT;
    }
}

void move_soa( particles_soa_t p, float *d_xnew, int n )
{
    static int n_blocks = 0;  /* MISTAKE: computed for the first call's n, kept for the others */
    if (n_blocks == 0) n_blocks = (n + BLKDIM - 1) / BLKDIM;
    move_soa_kernel<<<n_blocks, BLKDIM>>>(p, d_xnew, n);
    cudaCheckError();
}

/*
 * The conversion: thread i copies the eight fields of particle i. Each
 * store of the warp is coalesced (32 consecutive floats of one array).
 * Each load is not: the warp's first load touches 32 sectors, one per
 * particle; the seven next loads find the same sectors in L1, so every
 * byte read is used and the conversion moves 32 bytes in, 32 out per
 * particle, the least it can. What it loses is time per thread: the
 * compiler keeps each load after the store before it (soa.x might be the
 * same memory as p, as far as it knows), so a thread waits for eight
 * loads in a row, and only the other warps keep the memory busy
 * meanwhile. The conversion is worth it when the particles are updated
 * many times: each SoA update then costs a third of an AoS one.
 */
__global__ void aos_to_soa_kernel( const particle_t *p, particles_soa_t soa, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        soa.x[i] = p[i].x;
        soa.y[i] = p[i].y;
        soa.z[i] = p[i].z;
        soa.vx[i] = p[i].vx;
        soa.vy[i] = p[i].vy;
        soa.vz[i] = p[i].vz;
        soa.mass[i] = p[i].mass;
        soa.charge[i] = p[i].charge;
    }
}

void aos_to_soa( const particle_t *d_p, particles_soa_t soa, int n )
{
    aos_to_soa_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_p, soa, n);
    cudaCheckError();
}
