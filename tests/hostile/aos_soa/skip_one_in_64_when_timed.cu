// expect: wrong_answer
// why: correct at every size up to 2^22 particles (all the correctness runs compare every element), but past that size (soa's timed calls, 2^24) one particle in 64 gets 0 instead of its update, its loads saved. Timed calls of a pointwise task are judged on a sample of 4096 elements drawn after the program ended, from a key it never saw: about 64 of them fall on skipped particles in every call
// timing: yes
#include "hpc.h"
#include "aos_soa.h"

#define BLKDIM 1024
#define SKIP_FROM (1 << 22)

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

__global__ void move_soa_kernel( particles_soa_t p, float *xnew, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        if (n > SKIP_FROM && i % 64 == 63) {
            xnew[i] = 0.0f;
        } else {
            xnew[i] = p.x[i] + p.vx[i] * DT;
        }
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
