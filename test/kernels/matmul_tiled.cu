// Tiled integer matrix multiply C = A * B with shared-memory tiles, 2D blocks, #pragma unroll over the
// tile, non-multiple-of-tile sizes, plus a naive kernel for comparison; results exact.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL matmul_tiled: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define T 16

__global__ void matmul_tiled(const int *__restrict__ A, const int *__restrict__ B, long long *__restrict__ C, int M, int N, int K) {
  __shared__ int As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  long long acc = 0;
  for (int k0 = 0; k0 < K; k0 += T) {
    As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0;
    Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; k++) acc += (long long)As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

__global__ void matmul_naive(const int *A, const int *B, long long *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  long long acc = 0;
  for (int k = 0; k < K; k++) acc += (long long)A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

int main() {
  const int M = 77, N = 61, K = 93;
  int *hA = new int[M * K], *hB = new int[K * N];
  long long *hC = new long long[M * N], *hC2 = new long long[M * N];
  for (int i = 0; i < M * K; i++) hA[i] = (i * 7) % 201 - 100;
  for (int i = 0; i < K * N; i++) hB[i] = (i * 13) % 1999 - 1000;
  int *dA, *dB; long long *dC, *dC2;
  CK(cudaMalloc(&dA, M * K * sizeof(int))); CK(cudaMalloc(&dB, K * N * sizeof(int)));
  CK(cudaMalloc(&dC, M * N * sizeof(long long))); CK(cudaMalloc(&dC2, M * N * sizeof(long long)));
  CK(cudaMemcpy(dA, hA, M * K * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, hB, K * N * sizeof(int), cudaMemcpyHostToDevice));
  dim3 grid((N + T - 1) / T, (M + T - 1) / T), block(T, T);
  matmul_tiled<<<grid, block>>>(dA, dB, dC, M, N, K);
  matmul_naive<<<grid, block>>>(dA, dB, dC2, M, N, K);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hC, dC, M * N * sizeof(long long), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hC2, dC2, M * N * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      long long w = 0;
      for (int k = 0; k < K; k++) w += (long long)hA[r * K + k] * hB[k * N + c];
      if (hC[r * N + c] != w || hC2[r * N + c] != w) { printf("FAIL matmul_tiled: C[%d][%d] = %lld / %lld want %lld\n", r, c, hC[r * N + c], hC2[r * N + c], w); return 1; }
    }
  printf("PASS matmul_tiled\n");
  return 0;
}
