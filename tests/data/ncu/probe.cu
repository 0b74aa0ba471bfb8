// Device probe 19a: kernels with one known profile each, for ncu's metrics.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void copy_coalesced(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = a[i]; }
__global__ void copy_strided(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { int j = (int)(((long long)i * 32) % n + ((long long)i * 32) / n); b[i] = a[j]; } }
__global__ void one_thread_blocks(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = a[i] + 1.0f; }
__global__ void bank_conflicts(const float* a, float* b, int n) {
  __shared__ float s[32][32];
  int i = blockIdx.x * 1024 + threadIdx.y * 32 + threadIdx.x;
  s[threadIdx.x][threadIdx.y] = i < n ? a[i] : 0;   // column writes: 32-way
  __syncthreads();
  if (i < n) b[i] = s[threadIdx.x][threadIdx.y] * 2;
}
__global__ void atomics_one_block(const int* a, int* sum, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(sum, a[i] ^ (i & 7)); }
__global__ void barrier_heavy(const float* a, float* b, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x; float v = i < n ? a[i] : 0;
  for (int k = 0; k < 64; ++k) { s[threadIdx.x] = v; __syncthreads(); v += s[(threadIdx.x + k) & 255]; __syncthreads(); }
  if (i < n) b[i] = v; }
int main() {
  const int n = 1 << 24; float *a, *b; int *ia, *s;
  cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4); cudaMalloc(&ia, n * 4); cudaMalloc(&s, 4);
  cudaMemset(a, 0, n * 4); cudaMemset(ia, 0, n * 4); cudaMemset(s, 0, 4);
  copy_coalesced<<<n / 256, 256>>>(a, b, n);
  copy_strided<<<n / 256, 256>>>(a, b, n);
  one_thread_blocks<<<n / 16, 1>>>(a, b, n / 16);
  bank_conflicts<<<n / 1024, dim3(32, 32)>>>(a, b, n);
  atomics_one_block<<<1, 1024>>>(ia, s, n / 16);
  barrier_heavy<<<n / 256 / 16, 256>>>(a, b, n / 16);
  cudaError_t e = cudaDeviceSynchronize(); printf("probe: %s\n", cudaGetErrorString(e)); return e != cudaSuccess;
}
