// expect: pass
// why: an honest control for the rule one_thread_per on a matrix task, written on its own, not from the solution: the naive product accumulates into r, which a 1-D kernel of (n * n + 255) / 256 blocks of 256 threads clears first, one thread per element of r; the rule counts a launch's threads against the matrix's n * n elements, not its blocks along one axis against n, so the clearing kernel keeps to it. The tiled task is a 32 x 32 tile product. It must pass.
#include "hpc.h"
#include "matmul.h"

#define TILE 32

__global__ void zero_all(float *m, long long count)
{
    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) m[k] = 0.0f;
}

/* r += p q, one thread per element of r: x the column, y the row */
__global__ void accumulate_product(const float *p, const float *q, float *r, int n)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= n || col >= n) return;
    const float *p_row = p + (size_t)row * n;
    float acc = r[(size_t)row * n + col];
    for (int k = 0; k < n; ++k) acc += p_row[k] * q[(size_t)k * n + col];
    r[(size_t)row * n + col] = acc;
}

void matmul_naive(const float *d_p, const float *d_q, float *d_r, int n)
{
    const long long count = (long long)n * n;
    zero_all<<<(unsigned)((count + 255) / 256), 256>>>(d_r, count);
    cudaCheckError();
    const dim3 threads(TILE, TILE);
    const dim3 blocks((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    accumulate_product<<<blocks, threads>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}

/* the product by tiles: each step brings a TILE x TILE piece of p and of q into shared memory */
__global__ void tile_product(const float *p, const float *q, float *r, int n)
{
    __shared__ float ps[TILE][TILE], qs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * TILE + tx, row = blockIdx.y * TILE + ty;
    float acc = 0.0f;
    for (int base = 0; base < n; base += TILE) {
        ps[ty][tx] = (row < n && base + tx < n) ? p[(size_t)row * n + base + tx] : 0.0f;
        qs[ty][tx] = (col < n && base + ty < n) ? q[(size_t)(base + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += ps[ty][k] * qs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n) r[(size_t)row * n + col] = acc;
}

void matmul_tiled(const float *d_p, const float *d_q, float *d_r, int n)
{
    const dim3 threads(TILE, TILE);
    const dim3 blocks((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    tile_product<<<blocks, threads>>>(d_p, d_q, d_r, n);
    cudaCheckError();
}
