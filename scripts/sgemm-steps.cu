// The steps of docs/matmul-further.md past register tiling, and the shapes tried beside them: SGEMM
// kernels (row-major R = P Q, n a multiple of every tile) timed against cuBLAS in one process, in
// interleaved rounds, each checked against cuBLAS first. Not a lab file: scripts/sgemm-steps.sh builds
// and runs it on a GPU machine; docs/results/matmul-further-h200.txt holds what it printed.
//   kA:  bench/matmul/register_tiled.cu's scheme with the tile shapes as parameters (A transposed in
//        shared memory, warp tiles, the next slices staged through registers, one barrier a step);
//        PREFETCH: the operands of k + 1 loaded before the multiply-adds of k (step 6; the labels say
//        A2); SNAKE: the multiply-adds' snake order (step 7); LATE: the next slices' global loads
//        issued halfway through the k loop.
//   kB:  cp.async copies into a STAGES-deep ring of shared buffers, A kept row-major (rows padded).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cublas_v2.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// The numbers a block of these shapes works with: NT threads, each lane of a warp's TRW x TCW grid
// computing MI x NI runs of 4 x 4 outputs, and LA, LB float4 of each slice copied by each thread.
template <int BM, int BN, int BK, int WM, int WN, int TRW>
struct Shape {
    static constexpr int NT = (BM / WM) * (BN / WN) * 32, TCW = 32 / TRW;
    static constexpr int MI = WM / (TRW * 4), NI = WN / (TCW * 4);
    static_assert(MI * TRW * 4 == WM && NI * TCW * 4 == WN, "warp tile");
    static constexpr int LA = BM * BK / 4 / NT, LB = BK * BN / 4 / NT;
    static_assert(LA * NT * 4 == BM * BK && LB * NT * 4 == BK * BN, "loads");
};

// ---- A: register-staged double buffer, A transposed in shared memory, warp tiles; PREFETCH: the
// fragments of k+1 loaded before the multiply-adds of k; SNAKE: snake order; LATE: see the top.
template <int BM, int BN, int BK, int WM, int WN, int TRW, int MINB, bool PREFETCH = true, bool SNAKE = true, bool LATE = false>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, MINB)
kA(const float *__restrict__ p, const float *__restrict__ q, float *__restrict__ r, int n)
{
    using S = Shape<BM, BN, BK, WM, WN, TRW>;
    constexpr int NT = S::NT, TCW = S::TCW, MI = S::MI, NI = S::NI, LA = S::LA, LB = S::LB;
    constexpr int APAD = 4;
    __shared__ __align__(16) float As[2][BK][BM + APAD];
    __shared__ __align__(16) float Bs[2][BK][BN];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wr = warp / (BN / WN), wc = warp % (BN / WN);
    const int ty = lane / TCW, tx = lane % TCW;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[MI * 4][NI * 4] = {};
    float4 ra[LA], rb[LB];
    const int nsteps = n / BK;
    auto gload = [&](int k0) {
#pragma unroll
        for (int l = 0; l < LA; l++) {
            int f = tid + l * NT, row = f / (BK / 4), kc = (f % (BK / 4)) * 4;
            ra[l] = *(const float4 *)&p[(size_t)(row0 + row) * n + k0 + kc];
        }
#pragma unroll
        for (int l = 0; l < LB; l++) {
            int f = tid + l * NT, row = f / (BN / 4), c = (f % (BN / 4)) * 4;
            rb[l] = *(const float4 *)&q[(size_t)(k0 + row) * n + col0 + c];
        }
    };
    auto sstore = [&](int buf) {
#pragma unroll
        for (int l = 0; l < LA; l++) {
            int f = tid + l * NT, row = f / (BK / 4), kc = (f % (BK / 4)) * 4;
            As[buf][kc + 0][row] = ra[l].x; As[buf][kc + 1][row] = ra[l].y;
            As[buf][kc + 2][row] = ra[l].z; As[buf][kc + 3][row] = ra[l].w;
        }
#pragma unroll
        for (int l = 0; l < LB; l++) {
            int f = tid + l * NT, row = f / (BN / 4), c = (f % (BN / 4)) * 4;
            *(float4 *)&Bs[buf][row][c] = rb[l];
        }
    };
    gload(0); sstore(0); __syncthreads();
    for (int s = 0; s < nsteps; s++) {
        const int cur = s & 1;
        if (!LATE && s + 1 < nsteps) gload((s + 1) * BK);
        float a[2][MI * 4], b[2][NI * 4];
        auto frag = [&](int k, int f) {
#pragma unroll
            for (int i = 0; i < MI; i++) {
                float4 v = *(const float4 *)&As[cur][k][wr * WM + i * TRW * 4 + ty * 4];
                a[f][i * 4 + 0] = v.x; a[f][i * 4 + 1] = v.y; a[f][i * 4 + 2] = v.z; a[f][i * 4 + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < NI; j++) {
                float4 v = *(const float4 *)&Bs[cur][k][wc * WN + j * TCW * 4 + tx * 4];
                b[f][j * 4 + 0] = v.x; b[f][j * 4 + 1] = v.y; b[f][j * 4 + 2] = v.z; b[f][j * 4 + 3] = v.w;
            }
        };
        if (PREFETCH) frag(0, 0);
#pragma unroll
        for (int k = 0; k < BK; k++) {
            const int f = PREFETCH ? k % 2 : 0;  // without PREFETCH, one set of operands
            if (!PREFETCH) frag(k, 0);
            if (PREFETCH && k + 1 < BK) frag(k + 1, (k + 1) % 2);
            if (LATE && k == BK / 2 - 1 && s + 1 < nsteps) gload((s + 1) * BK);
#pragma unroll
            for (int i = 0; i < MI * 4; i++)
#pragma unroll
                for (int jj = 0; jj < NI * 4; jj++) {
                    const int j = (SNAKE && (i % 2)) ? NI * 4 - 1 - jj : jj;
                    acc[i][j] += a[f][i] * b[f][j];
                }
        }
        if (s + 1 < nsteps) sstore(1 - cur);
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < MI * 4; i++) {
        const int row = row0 + wr * WM + (i / 4) * TRW * 4 + ty * 4 + i % 4;
#pragma unroll
        for (int j = 0; j < NI; j++) {
            const int col = col0 + wc * WN + j * TCW * 4 + tx * 4;
            *(float4 *)&r[(size_t)row * n + col] = make_float4(acc[i][j * 4], acc[i][j * 4 + 1], acc[i][j * 4 + 2], acc[i][j * 4 + 3]);
        }
    }
}

// ---- B: cp.async, STAGES-deep pipeline, A row-major in shared memory (rows padded), thread rows interleaved.
template <int BM, int BN, int BK, int WM, int WN, int TRW, int STAGES, int MINB>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, MINB)
kB(const float *__restrict__ p, const float *__restrict__ q, float *__restrict__ r, int n)
{
    using S = Shape<BM, BN, BK, WM, WN, TRW>;
    constexpr int NT = S::NT, TCW = S::TCW, MI = S::MI, NI = S::NI, LA = S::LA, LB = S::LB;
    constexpr int AS = BK + 4;  // row stride of As: 16-byte rows, 8 consecutive rows on distinct banks
    extern __shared__ __align__(16) float smem[];
    float *As = smem;                          // [STAGES][BM][AS]
    float *Bs = smem + STAGES * BM * AS;       // [STAGES][BK][BN]
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wr = warp / (BN / WN), wc = warp % (BN / WN);
    const int ty = lane / TCW, tx = lane % TCW;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[MI * 4][NI * 4] = {};
    const int nsteps = n / BK;
    auto issue = [&](int s) {
        if (s < nsteps) {
            const int k0 = s * BK, st = s % STAGES;
#pragma unroll
            for (int l = 0; l < LA; l++) {
                int f = tid + l * NT, row = f / (BK / 4), kc = (f % (BK / 4)) * 4;
                __pipeline_memcpy_async(&As[(st * BM + row) * AS + kc], &p[(size_t)(row0 + row) * n + k0 + kc], 16);
            }
#pragma unroll
            for (int l = 0; l < LB; l++) {
                int f = tid + l * NT, row = f / (BN / 4), c = (f % (BN / 4)) * 4;
                __pipeline_memcpy_async(&Bs[(st * BK + row) * BN + c], &q[(size_t)(k0 + row) * n + col0 + c], 16);
            }
        }
        __pipeline_commit();
    };
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) issue(s);
    for (int s = 0; s < nsteps; s++) {
        __pipeline_wait_prior(STAGES - 2);
        __syncthreads();
        issue(s + STAGES - 1);  // into the stage read at step s-1: every thread has passed the barrier above
        const float *A = &As[(s % STAGES) * BM * AS];
        const float *B = &Bs[(s % STAGES) * BK * BN];
#pragma unroll
        for (int kk = 0; kk < BK; kk += 4) {
            float4 a[MI * 4];
#pragma unroll
            for (int i = 0; i < MI * 4; i++)
                a[i] = *(const float4 *)&A[(wr * WM + (i / 4) * TRW * 4 + (i % 4) * TRW + ty) * AS + kk];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                float b[NI * 4];
#pragma unroll
                for (int j = 0; j < NI; j++) {
                    float4 v = *(const float4 *)&B[(kk + k) * BN + wc * WN + j * TCW * 4 + tx * 4];
                    b[j * 4 + 0] = v.x; b[j * 4 + 1] = v.y; b[j * 4 + 2] = v.z; b[j * 4 + 3] = v.w;
                }
#pragma unroll
                for (int i = 0; i < MI * 4; i++) {
                    const float ai = k == 0 ? a[i].x : k == 1 ? a[i].y : k == 2 ? a[i].z : a[i].w;
#pragma unroll
                    for (int j = 0; j < NI * 4; j++) acc[i][j] += ai * b[j];
                }
            }
        }
    }
#pragma unroll
    for (int i = 0; i < MI * 4; i++) {
        const int row = row0 + wr * WM + (i / 4) * TRW * 4 + (i % 4) * TRW + ty;
#pragma unroll
        for (int j = 0; j < NI; j++) {
            const int col = col0 + wc * WN + j * TCW * 4 + tx * 4;
            *(float4 *)&r[(size_t)row * n + col] = make_float4(acc[i][j * 4], acc[i][j * 4 + 1], acc[i][j * 4 + 2], acc[i][j * 4 + 3]);
        }
    }
}

typedef void (*Launch)(const float *, const float *, float *, int);
struct Variant { const char *name; Launch run; };

template <int BM, int BN, int BK, int WM, int WN, int TRW, int MINB, bool PREFETCH = true, bool SNAKE = true, bool LATE = false>
void launchA(const float *p, const float *q, float *r, int n)
{
    dim3 grid(n / BN, n / BM);
    kA<BM, BN, BK, WM, WN, TRW, MINB, PREFETCH, SNAKE, LATE><<<grid, (BM / WM) * (BN / WN) * 32>>>(p, q, r, n);
}
template <int BM, int BN, int BK, int WM, int WN, int TRW, int STAGES, int MINB>
void launchB(const float *p, const float *q, float *r, int n)
{
    constexpr int AS = BK + 4;
    constexpr size_t bytes = (size_t)STAGES * (BM * AS + BK * BN) * sizeof(float);
    static bool set = false;
    if (!set) { CK(cudaFuncSetAttribute(kB<BM, BN, BK, WM, WN, TRW, STAGES, MINB>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes)); set = true; }
    dim3 grid(n / BN, n / BM);
    kB<BM, BN, BK, WM, WN, TRW, STAGES, MINB><<<grid, (BM / WM) * (BN / WN) * 32, bytes>>>(p, q, r, n);
}

static cublasHandle_t H;
void launch_cublas(const float *p, const float *q, float *r, int n)
{
    const float one = 1.0f, zero = 0.0f;  // row-major R = P Q is column-major R^T = Q^T P^T
    cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, q, n, p, n, &zero, r, n);
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 4096;
    const int rounds = argc > 2 ? atoi(argv[2]) : 3;
    if (n <= 0 || n % 256 != 0 || rounds <= 0) {
        fprintf(stderr, "usage: %s [n, a multiple of 256] [rounds]\n", argv[0]);
        return 2;
    }
    cublasCreate(&H);
    cublasSetMathMode(H, CUBLAS_DEFAULT_MATH);
    std::vector<Variant> v = {
        {"cublas", launch_cublas},
        {"A 128x128x8 (register_tiled.cu, steps 3-5)", launchA<128, 128, 8, 64, 32, 8, 2, false, false>},
        {"A2 .. + operands a step ahead (step 6)", launchA<128, 128, 8, 64, 32, 8, 2, true, false>},
        {"A2 .. + snake order (step 7)", launchA<128, 128, 8, 64, 32, 8, 2>},
        {"A2 .. late global loads", launchA<128, 128, 8, 64, 32, 8, 2, true, true, true>},
        {"A2 128x128x8 w32x64 t4", launchA<128, 128, 8, 32, 64, 4, 2>},
        {"A 128x128x8, 1 block/SM", launchA<128, 128, 8, 64, 32, 8, 1, false, false>},
        {"A 128x128x16", launchA<128, 128, 16, 64, 32, 8, 2, false, false>},
        {"A2 256x128x8 w64x64, 1 block/SM", launchA<256, 128, 8, 64, 64, 8, 1>},
        {"A2 128x256x8 w64x64, 1 block/SM", launchA<128, 256, 8, 64, 64, 8, 1>},
        {"A2 128x64x8, 128 threads", launchA<128, 64, 8, 64, 32, 8, 3>},
        {"B 128x128x8 cp.async 3 stages", launchB<128, 128, 8, 64, 32, 8, 3, 2>},
        {"B 128x128x16 cp.async 4 stages", launchB<128, 128, 16, 64, 32, 8, 4, 2>},
        {"B 256x128x8 cp.async 3 stages (cuBLAS's shape)", launchB<256, 128, 8, 64, 64, 8, 3, 1>},
        {"B 128x256x16 cp.async 3 stages", launchB<128, 256, 16, 64, 64, 8, 3, 1>},
    };
    const size_t N = (size_t)n * n;
    std::vector<float> hp(N), hq(N), ref(N), out(N);
    srand(1);
    for (size_t i = 0; i < N; i++) { hp[i] = rand() / (float)RAND_MAX - 0.5f; hq[i] = rand() / (float)RAND_MAX - 0.5f; }
    float *p, *q, *r;
    CK(cudaMalloc(&p, N * 4)); CK(cudaMalloc(&q, N * 4)); CK(cudaMalloc(&r, N * 4));
    CK(cudaMemcpy(p, hp.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(q, hq.data(), N * 4, cudaMemcpyHostToDevice));
    launch_cublas(p, q, r, n); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(ref.data(), r, N * 4, cudaMemcpyDeviceToHost));
    std::vector<bool> ok(v.size(), true);
    for (size_t i = 1; i < v.size(); i++) {
        CK(cudaMemset(r, 0xff, N * 4));
        v[i].run(p, q, r, n);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) { printf("%s: %s\n", v[i].name, cudaGetErrorString(e)); exit(1); }
        CK(cudaMemcpy(out.data(), r, N * 4, cudaMemcpyDeviceToHost));
        double worst = 0;
        for (size_t k = 0; k < N; k++) { double d = fabs(out[k] - ref[k]); if (!(d <= worst)) worst = d; }
        ok[i] = worst < 1e-2;
        printf("check %-48s max |diff| %.3g %s\n", v[i].name, worst, ok[i] ? "ok" : "WRONG");
    }
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    const int reps = n >= 4096 ? 20 : 100;
    std::vector<std::vector<float>> ms(v.size());
    for (int round = 0; round < rounds; round++) {
        for (size_t i = 0; i < v.size(); i++) {
            if (!ok[i]) continue;
            for (int w = 0; w < 3; w++) v[i].run(p, q, r, n);
            cudaEventRecord(a);
            for (int k = 0; k < reps; k++) v[i].run(p, q, r, n);
            cudaEventRecord(b); cudaEventSynchronize(b);
            float t; cudaEventElapsedTime(&t, a, b); ms[i].push_back(t / reps);
        }
    }
    printf("n=%d, %d rounds of %d calls, best ms per call; ratio = cuBLAS time / variant time\n", n, rounds, reps);
    auto best = [](std::vector<float> &x) { float m = 1e30f; for (float t : x) m = t < m ? t : m; return m; };
    const float cub = best(ms[0]);
    for (size_t i = 0; i < v.size(); i++) {
        if (!ok[i]) { printf("%-48s WRONG\n", v[i].name); continue; }
        const float t = best(ms[i]);
        printf("%-48s %.3f ms %6.2f TFLOP/s %.3fx cuBLAS  (rounds:", v[i].name, t, 2.0 * n * n * (double)n / t / 1e9, cub / t);
        for (float x : ms[i]) printf(" %.3f", x);
        printf(")\n");
    }
    return 0;
}
