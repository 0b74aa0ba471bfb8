// How long CUDA contexts take when many processes make them at once (the
// pace of a class's grading: see docs/instructors.md). Each process makes its
// context, optionally allocates and copies, and exits; scripts/ctx-cost.sh
// starts N of them together and times the lot.
//   ctx-cost <mode>   mode 0: cuInit only; 1: cudaFree(0); 2: + 64 MB malloc, memset, free
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
int main(int argc, char** argv)
{
    const int mode = argc > 1 ? std::atoi(argv[1]) : 1;
    if (mode == 0) return cuInit(0) == CUDA_SUCCESS ? 0 : 1;
    if (cudaFree(nullptr) != cudaSuccess) return 1;
    if (mode >= 2) {
        void* p = nullptr;
        if (cudaMalloc(&p, 64 << 20) != cudaSuccess) return 1;
        cudaMemset(p, 1, 64 << 20);
        cudaDeviceSynchronize();
        cudaFree(p);
    }
    return 0;
}
