// expect: pass
// why: honest and unusual: a persistent grid, as many blocks of 256 threads as the GPU holds at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor times the multiprocessors), each block walking the input chunk by chunk: its threads copy a chunk and its halo into shared memory in a strided loop (no thread special-cased for the halo), a barrier, the sums from shared memory, a barrier before the next chunk. Not the lesson's launch shape (grid independent of n), and as fast
// timing: yes
#include "hpc.h"
#include "stencil.h"

#define CHUNK 256

__global__ void stencil_persistent(const int *in, int *out, int n)
{
    __shared__ int temp[CHUNK + 2 * RADIUS];
    for (int first = blockIdx.x * CHUNK; first < n; first += gridDim.x * CHUNK) {
        const int len = n - first < CHUNK ? n - first : CHUNK;
        for (int t = threadIdx.x; t < len + 2 * RADIUS; t += blockDim.x) temp[t] = in[first + t];
        __syncthreads();
        if (threadIdx.x < len) {
            int s = 0;
            for (int o = 0; o <= 2 * RADIUS; o++) s += temp[threadIdx.x + o];
            out[first + threadIdx.x] = s;
        }
        __syncthreads();
    }
}

void stencil1d(const int *d_in, int *d_out, int n)
{
    static int blocks = 0;
    if (blocks == 0) {
        int device, sms, per_sm;
        cudaSafeCall(cudaGetDevice(&device));
        cudaSafeCall(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        cudaSafeCall(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stencil_persistent, CHUNK, 0));
        blocks = sms * per_sm;
    }
    const int chunks = (n + CHUNK - 1) / CHUNK;
    stencil_persistent<<<chunks < blocks ? chunks : blocks, CHUNK>>>(d_in, d_out, n);
    cudaCheckError();
}
