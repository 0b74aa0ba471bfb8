// The canary: a kernel whose answer hpclab knows, run on a GPU after a
// check's programs have ended. A GPU that a submission left broken (a
// context it could not tear down, a fault the driver has not recovered
// from) fails it, and is then not trusted with anyone else's code.
#include <cstdio>

__global__ void square_plus_index(const int* in, int* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i] + i;
}

int main()
{
    const int n = 1 << 20;
    int *in = nullptr, *out = nullptr;
    static int host[1 << 20];
    for (int i = 0; i < n; ++i) host[i] = i % 1000;
    if (cudaMalloc(&in, n * sizeof(int)) != cudaSuccess || cudaMalloc(&out, n * sizeof(int)) != cudaSuccess) {
        std::printf("canary: cudaMalloc failed\n");
        return 1;
    }
    cudaMemcpy(in, host, n * sizeof(int), cudaMemcpyHostToDevice);
    square_plus_index<<<(n + 255) / 256, 256>>>(in, out, n);
    const cudaError_t err = cudaMemcpy(host, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) {
        std::printf("canary: %s\n", cudaGetErrorString(err));
        return 1;
    }
    for (int i = 0; i < n; ++i)
        if (host[i] != (i % 1000) * (i % 1000) + i) {
            std::printf("canary: wrong result at %d\n", i);
            return 1;
        }
    std::printf("canary ok\n");
    return 0;
}
