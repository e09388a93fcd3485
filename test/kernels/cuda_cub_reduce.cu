// CUB's block- and warp-wide reductions in device code (cub::BlockReduce with its default warp-reductions
// algorithm, cub::WarpReduce): reference members holding the shared temp storage, constant_t recursion ended by a
// more specialised overload, cuda::std::plus<> with a trailing decltype return type, CUB's layout constants.
#include <cstdio>
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

#define BLOCK 128

__global__ void cubReduce(const int *in, int *out, float *fout) {
  using BR = cub::BlockReduce<int, BLOCK>;
  using WR = cub::WarpReduce<float>;
  __shared__ typename BR::TempStorage bt;
  __shared__ typename WR::TempStorage wt[BLOCK / 32];
  int t = threadIdx.x;
  int x = in[blockIdx.x * BLOCK + t];
  int sum = BR(bt).Sum(x);
  __syncthreads();
  int mx = BR(bt).Reduce(x, cuda::maximum<int>{});
  __syncthreads();
  int partial = BR(bt).Sum(x, 100);   // only the first 100 threads' items
  float w = WR(wt[t / 32]).Sum(0.5f * x);
  if (t == 0) { out[blockIdx.x * 3 + 0] = sum; out[blockIdx.x * 3 + 1] = mx; out[blockIdx.x * 3 + 2] = partial; }
  if (t % 32 == 0) fout[blockIdx.x * (BLOCK / 32) + t / 32] = w;
}

int main() {
  const int G = 2, N = G * BLOCK;
  int h[N], r[G * 3];
  float f[G * BLOCK / 32];
  for (int i = 0; i < N; i++) h[i] = (i * 37) % 101 - 50;
  int *din, *dout; float *dfout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r)); cudaMalloc(&dfout, sizeof(f));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cubReduce<<<G, BLOCK>>>(din, dout, dfout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(f, dfout, sizeof(f), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < G; b++) {
    int s = 0, m = -1000, p = 0;
    for (int t = 0; t < BLOCK; t++) { int x = h[b * BLOCK + t]; s += x; m = x > m ? x : m; if (t < 100) p += x; }
    int e[3] = {s, m, p};
    for (int k = 0; k < 3; k++)
      if (r[b * 3 + k] != e[k] && bad++ < 5) printf("FAIL cuda_cub_reduce: block %d [%d] = %d, expected %d\n", b, k, r[b * 3 + k], e[k]);
    for (int w = 0; w < BLOCK / 32; w++) {
      float ws = 0;
      for (int t = 0; t < 32; t++) ws += 0.5f * h[b * BLOCK + w * 32 + t];
      if (f[b * (BLOCK / 32) + w] != ws && bad++ < 5) printf("FAIL cuda_cub_reduce: warp %d.%d = %g, expected %g\n", b, w, f[b * (BLOCK / 32) + w], ws);
    }
  }
  if (bad) return 1;
  printf("PASS cuda_cub_reduce\n");
  return 0;
}
