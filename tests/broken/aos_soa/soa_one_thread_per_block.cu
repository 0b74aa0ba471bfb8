// expect: too_slow
// profile: lanes_per_warp
// why: move_soa launches n blocks of one thread: the answers are right, but each warp has one busy lane, so the SoA update is far slower than the AoS baseline it must beat.
// task: soa
/*
 * aos_soa.cu with one mistake: the SoA update runs in blocks of one thread.
 */
#include "hpc.h"
#include "aos_soa.h"

#define BLKDIM 1024

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
        xnew[i] = p.x[i] + p.vx[i] * DT;
    }
}

void move_soa( particles_soa_t p, float *d_xnew, int n )
{
    move_soa_kernel<<<n, 1>>>(p, d_xnew, n);  /* MISTAKE: one thread per block */
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
