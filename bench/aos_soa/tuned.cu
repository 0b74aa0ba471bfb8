// hpclab-bench: kind=reference tasks=aos,soa,convert title="Tuned reference: each particle read with 16-byte loads"
// The speed baseline that labs/aos_soa/lab.json names ("speed_baseline": "tuned"): the
// thresholds are measured against it, the soa task's against this file's aos task. The
// course's versions, one 4-byte load per field, are the solution (solutions/aos_soa/aos_soa.cu).
/****************************************************************************
 *
 * tuned.cu - aos_soa, the tuned reference: 16-byte loads of the particles
 *
 * Check it:  hpclab check aos_soa --file bench/aos_soa/tuned.cu
 * Time it:   hpclab bench aos_soa --variants solution,tuned
 *
 ****************************************************************************/
#include "hpc.h"
#include "aos_soa.h"

#define BLKDIM 256

/* A particle_t is 32 bytes and hpclab's arrays start at an address that
   is a multiple of 256, so particle i is the two float4 at 2i and 2i + 1:
   x, y, z, vx and vy, vz, mass, charge. */
__device__ float4 particle_half( const particle_t *p, size_t i, int half )
{
    return ((const float4 *)p)[2 * i + half];
}

/*
 * AoS with one 16-byte load (x, y, z, vx) where the solution issues two
 * 4-byte ones. Fewer instructions, the same bytes: each particle is one
 * 32-byte sector, and memory moves the whole sector either way, so this
 * kernel is as bound by bandwidth as the solution's, at 36 bytes a particle.
 */
__global__ void move_aos_kernel( const particle_t *p, float *xnew, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        const float4 a = particle_half(p, i, 0);
        xnew[i] = a.x + a.w * DT;
    }
}

void move_aos( const particle_t *d_p, float *d_xnew, int n )
{
    move_aos_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_p, d_xnew, n);
    cudaCheckError();
}

/*
 * SoA: the solution's kernel is already the best one can do, two
 * coalesced 4-byte loads and one coalesced store, 12 bytes a particle.
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
    move_soa_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(p, d_xnew, n);
    cudaCheckError();
}

/*
 * The conversion reads each particle with two 16-byte loads, both issued
 * before any store, instead of eight 4-byte loads interleaved with the
 * stores (without __restrict__ the compiler cannot move a load of p above
 * a store to another array, which might alias it). The stores are the
 * solution's: eight coalesced ones.
 */
__global__ void aos_to_soa_kernel( const particle_t *p, particles_soa_t soa, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        const float4 a = particle_half(p, i, 0);
        const float4 b = particle_half(p, i, 1);
        soa.x[i] = a.x;
        soa.y[i] = a.y;
        soa.z[i] = a.z;
        soa.vx[i] = a.w;
        soa.vy[i] = b.x;
        soa.vz[i] = b.y;
        soa.mass[i] = b.z;
        soa.charge[i] = b.w;
    }
}

void aos_to_soa( const particle_t *d_p, particles_soa_t soa, int n )
{
    aos_to_soa_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_p, soa, n);
    cudaCheckError();
}
