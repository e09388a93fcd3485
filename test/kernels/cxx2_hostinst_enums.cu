// Kernel template arguments that host code spells with enumerators (GPUJPEG's shapes): a host function's local
// `enum { WARP_COUNT = 4 };` before `k<WARP_COUNT><<<...>>>` (and TensorRT's `int32_t constexpr kThreads = 2;`),
// a local enum in a host function template, and a
// namespace-scope enum whose enumerators name earlier ones (`YCBCR_JPEG = YCBCR_256`) used as a kernel template's
// enumeration argument and in device code.
#include <cstdio>
#include <cuda_runtime.h>

enum color_space {
  CS_NONE = 0,
  CS_RGB = 1,
  CS_YCBCR_601 = 2,
  CS_YCBCR_256 = 3,
  CS_YCBCR_JPEG = CS_YCBCR_256,
  CS_YCBCR_709 = 4,
  CS_YCBCR = CS_YCBCR_709,
  CS_LAST
};

template <int WARPS> __global__ void rowSum(const int *in, int *out) {
  __shared__ int s[WARPS];
  if (threadIdx.x < WARPS) s[threadIdx.x] = in[threadIdx.x] * WARPS;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int i = 0; i < WARPS; i++) t += s[i];
    out[0] = t;
  }
}

template <color_space CS> __global__ void tagKernel(int *out) {
  out[threadIdx.x] = (int)CS * 10 + (CS == CS_YCBCR_JPEG ? 1 : 0) + (CS_LAST == 5 ? 100 : 0);
}

static int runRows(const int *h) {
  enum { WARP_COUNT = 4, TWICE = WARP_COUNT * 2 };
  int *din, *dout, r = 0;
  cudaMalloc(&din, 8 * sizeof(int));
  cudaMalloc(&dout, sizeof(int));
  cudaMemcpy(din, h, 8 * sizeof(int), cudaMemcpyHostToDevice);
  rowSum<WARP_COUNT><<<1, 32>>>(din, dout);
  cudaMemcpy(&r, dout, sizeof(int), cudaMemcpyDeviceToHost);
  int r2 = 0, r3 = 0;
  rowSum<TWICE><<<1, 32>>>(din, dout);
  cudaMemcpy(&r2, dout, sizeof(int), cudaMemcpyDeviceToHost);
  // TensorRT's spelling: the type before constexpr
  int32_t constexpr kThreads = 2;
  rowSum<kThreads><<<1, 32>>>(din, dout);
  cudaMemcpy(&r3, dout, sizeof(int), cudaMemcpyDeviceToHost);
  if (r3 != 2 * 3) return -1;
  cudaFree(din);
  cudaFree(dout);
  return r * 1000 + r2;
}

template <color_space CS> int runTag() {
  enum Local { FIRST, SECOND };
  int *d, r[2] = {0, 0};
  cudaMalloc(&d, 2 * sizeof(int));
  tagKernel<CS><<<1, 2>>>(d);
  cudaMemcpy(r, d, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return r[FIRST] + r[SECOND];
}

int main() {
  int h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  bool ok = runRows(h) == (4 * 10) * 1000 + 8 * 36;
  ok = ok && runTag<CS_YCBCR_JPEG>() == 2 * (30 + 1 + 100);
  ok = ok && runTag<CS_YCBCR>() == 2 * (40 + 100);
  if (!ok) { printf("FAIL cxx2_hostinst_enums\n"); return 1; }
  printf("PASS cxx2_hostinst_enums\n");
  return 0;
}
