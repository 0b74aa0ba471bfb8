// Whether what runs on one GPU slows a timed call on another GPU of the
// same machine (issue 15: a grading on two GPUs timed some correct
// reductions 20 to 50 times slower than on one). An experiment, not part of
// the grader; scripts/gpu-crosstalk.sh runs it on GPU 1 with GPU 0 quiet,
// then with other programs on GPU 0.
//   gpu-crosstalk kernel <s>  a vector addition of 2^24 ints, timed with events, for s seconds
//   gpu-crosstalk tree <s>    the reduction lab's tree call as a student writes it (cudaMalloc,
//                             kernel, cudaMemcpy of the partial sums, cudaFree), timed the same way
//   gpu-crosstalk busy <s>    a program that keeps the driver busy without new contexts:
//                             cudaMalloc, cudaMemset, a copy back, cudaFree, over and over
// Prints the median, quartiles and maximum of the calls' times in ms.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int kBlock = 1024;
constexpr int kN = 1 << 24;

__global__ void add(const int* a, const int* b, int* c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void tree(const int* a, int n, int* partial)
{
    __shared__ int temp[kBlock];
    const int l = threadIdx.x, g = threadIdx.x + blockIdx.x * blockDim.x;
    temp[l] = g < n ? a[g] : 0;
    __syncthreads();
    for (int b = blockDim.x / 2; b > 0; b /= 2) {
        if (l < b) temp[l] += temp[l + b];
        __syncthreads();
    }
    if (l == 0) partial[blockIdx.x] = temp[0];
}

static double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static int tree_call(const int* d_a, std::vector<int>& h)
{
    const int blocks = (kN + kBlock - 1) / kBlock;
    int* d_partial;
    cudaMalloc(&d_partial, blocks * sizeof(int));
    tree<<<blocks, kBlock>>>(d_a, kN, d_partial);
    cudaMemcpy(h.data(), d_partial, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d_partial);
    int s = 0;
    for (int v : h) s += v;
    return s;
}

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: gpu-crosstalk kernel|tree|busy <seconds>\n");
        return 2;
    }
    const char* what = argv[1];
    const double seconds = std::atof(argv[2]);
    if (cudaFree(nullptr) != cudaSuccess) return 1;
    int *a, *b, *c;
    cudaMalloc(&a, kN * sizeof(int));
    cudaMalloc(&b, kN * sizeof(int));
    cudaMalloc(&c, kN * sizeof(int));
    cudaMemset(a, 1, kN * sizeof(int));
    cudaMemset(b, 2, kN * sizeof(int));
    std::vector<int> h((kN + kBlock - 1) / kBlock);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    std::vector<double> ms;
    const double end = now_s() + seconds;
    while (now_s() < end) {
        if (!std::strcmp(what, "busy")) {
            void* p;
            cudaMalloc(&p, 64 << 20);
            cudaMemset(p, 1, 64 << 20);
            cudaMemcpy(h.data(), p, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
            cudaFree(p);
            continue;
        }
        cudaEventRecord(e0);
        if (!std::strcmp(what, "tree")) tree_call(a, h);
        else add<<<(kN + kBlock - 1) / kBlock, kBlock>>>(a, b, c, kN);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float t = 0;
        cudaEventElapsedTime(&t, e0, e1);
        ms.push_back(t);
    }
    if (cudaGetLastError() != cudaSuccess) return 1;
    if (ms.empty()) return 0;
    std::sort(ms.begin(), ms.end());
    auto q = [&](double f) { return ms[std::min(ms.size() - 1, std::size_t(f * ms.size()))]; };
    std::printf("%-6s %6zu calls  median %8.3f ms  quartiles %8.3f..%8.3f  max %9.3f\n", what, ms.size(), q(0.5),
                q(0.25), q(0.75), ms.back());
    return 0;
}
