// expect: wrong_answer
// why: the conversion reads the structures as floats with the lecture's point3d stride, f[i * 3 + k], not 8: from particle 1 on, every field comes from the wrong place. The reads stay inside p (3n + 7 < 8n floats for n >= 2; at n = 1 the stride does not matter and the answer is right), so no sanitizer finding takes over.
/*
 * aos_soa.cu with one mistake: the conversion reads field k of particle i at float i * 3 + k (the slides' 3-float struct).
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
    move_soa_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(p, d_xnew, n);
    cudaCheckError();
}

__global__ void aos_to_soa_kernel( const particle_t *p, particles_soa_t soa, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        const float *f = (const float *)p;
        const size_t first = (size_t)i * 3;  /* MISTAKE: the slides' point3d stride; a particle_t is 8 floats */
        soa.x[i] = f[first + 0];
        soa.y[i] = f[first + 1];
        soa.z[i] = f[first + 2];
        soa.vx[i] = f[first + 3];
        soa.vy[i] = f[first + 4];
        soa.vz[i] = f[first + 5];
        soa.mass[i] = f[first + 6];
        soa.charge[i] = f[first + 7];
    }
}

void aos_to_soa( const particle_t *d_p, particles_soa_t soa, int n )
{
    aos_to_soa_kernel<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_p, soa, n);
    cudaCheckError();
}
