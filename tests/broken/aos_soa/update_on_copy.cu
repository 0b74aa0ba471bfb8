// expect: wrong_answer
// why: the update is applied to a local copy of the particle and the original x is stored: every xnew[i] is the old x[i], off by vx * DT (up to 1, far past the tolerance); all accesses are in bounds, so nothing else is wrong.
/*
 * aos_soa.cu with one mistake: the update is applied to a copy of the particle, and the copy is dropped.
 */
#include "hpc.h"
#include "aos_soa.h"

#define BLKDIM 1024

__global__ void move_aos_kernel( const particle_t *p, float *xnew, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        particle_t q = p[i];
        q.x += q.vx * DT;
        xnew[i] = p[i].x;  /* MISTAKE: q was updated, p[i] is stored */
    }
}

void move_aos( const particle_t *d_p, float *d_xnew, int n )
{
    move_aos_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_p, d_xnew, n);
    cudaCheckError();
}

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
