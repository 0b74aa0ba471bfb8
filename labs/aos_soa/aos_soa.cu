/****************************************************************************
 *
 * aos_soa.cu - Array of structures against structure of arrays
 *
 * Based on the course's slides "Array of Structures (AoS)" and "Structure
 * of Arrays (SoA)" (Moreno Marzolla, "CUDA Programming").
 *
 * A particle has eight fields (aos_soa.h): position x, y, z, velocity
 * vx, vy, vz, mass and charge. One step of a simulation moves every
 * particle along x:
 *
 *     xnew[i] = x[i] + vx[i] * DT
 *
 * You write this update twice, over the same particles in two layouts:
 *
 * - an array of structures (AoS): particle_t p[n], the eight fields of a
 *   particle next to each other in memory, 32 bytes a particle;
 * - a structure of arrays (SoA): particles_soa_t, eight arrays of n floats,
 *   one per field, all the x together, all the vx together, ...
 *
 * and the conversion from the first layout to the second. One thread per
 * particle in all three; n is any size, so the last block may have
 * threads past the end: they must do nothing.
 *
 * hpclab times both updates: which is faster, and why, when both compute
 * the same floats from the same data?
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run aos_soa
 *     hpclab run aos_soa --n 1000       (any other size)
 *
 ****************************************************************************/
#include "hpc.h"
#include "aos_soa.h"

#define BLKDIM 1024

__global__ void move_aos_kernel( const particle_t *p, float *xnew, int n )
{
    /* TODO 1: compute i = threadIdx.x + blockIdx.x * blockDim.x, the
       particle of this thread, and, if i < n, store
       p[i].x + p[i].vx * DT into xnew[i]. */
}

void move_aos( const particle_t *d_p, float *d_xnew, int n )
{
    move_aos_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_p, d_xnew, n);
    cudaCheckError();
}

__global__ void move_soa_kernel( particles_soa_t p, float *xnew, int n )
{
    /* TODO 2: the same update from the structure of arrays: particle i's
       x is p.x[i] and its vx is p.vx[i] (each array holds one field of
       every particle, so the index is i, not i times anything). */
}

void move_soa( particles_soa_t p, float *d_xnew, int n )
{
    /* TODO 3: launch move_soa_kernel as move_aos launches its kernel,
       with (n + BLKDIM - 1) / BLKDIM blocks of BLKDIM threads. Pass p
       itself (by value, as the header does): it holds the eight device
       pointers the kernel needs. Then cudaCheckError(). */
}

__global__ void aos_to_soa_kernel( const particle_t *p, particles_soa_t soa, int n )
{
    /* TODO 4: if i < n, copy each of the eight fields of p[i] into
       element i of its array: soa.x[i] = p[i].x, soa.y[i] = p[i].y, ...
       up to soa.charge[i] = p[i].charge. */
}

void aos_to_soa( const particle_t *d_p, particles_soa_t soa, int n )
{
    aos_to_soa_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_p, soa, n);
    cudaCheckError();
}
