// Tile reductions written against the thread_block_tile interface, the way code does without
// cooperative_groups/reduce.h: a template over the tile size and a functor (sum, min, max, and, or, xor)
// reducing int, unsigned and float values with shfl_xor on tiles of 32 and 8 threads. (cg::reduce itself
// needs template template parameters, which ptxd does not read yet: test/cuda-headers.test.ts.) On sm_80+
// the warp's own redux.sync builtins (__reduce_*_sync) give the same six int and three unsigned results.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define N 256

template <typename T> struct Sum { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct Min { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <typename T> struct Max { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <typename T> struct And { __device__ T operator()(T a, T b) const { return a & b; } };
template <typename T> struct Or { __device__ T operator()(T a, T b) const { return a | b; } };
template <typename T> struct Xor { __device__ T operator()(T a, T b) const { return a ^ b; } };

template <unsigned Size, typename T, typename Op>
__device__ T tile_reduce(const cg::thread_block_tile<Size> &t, T v, Op op) {
  for (unsigned k = Size / 2; k > 0; k /= 2) v = op(v, t.shfl_xor(v, k));
  return v;
}

template <unsigned Size>
__device__ void reduce_all(const cg::thread_block_tile<Size> &t, int v, unsigned u, float f, int *io, unsigned *uo, float *fo) {
  int r[6] = {tile_reduce(t, v, Sum<int>()), tile_reduce(t, v, Min<int>()), tile_reduce(t, v, Max<int>()),
              tile_reduce(t, v, And<int>()), tile_reduce(t, v, Or<int>()), tile_reduce(t, v, Xor<int>())};
  unsigned s[3] = {tile_reduce(t, u, Sum<unsigned>()), tile_reduce(t, u, Min<unsigned>()), tile_reduce(t, u, Max<unsigned>())};
  float g[3] = {tile_reduce(t, f, Sum<float>()), tile_reduce(t, f, Min<float>()), tile_reduce(t, f, Max<float>())};
  if (t.thread_rank() == 0) {
    for (int k = 0; k < 6; k++) io[k] = r[k];
    for (int k = 0; k < 3; k++) { uo[k] = s[k]; fo[k] = g[k]; }
  }
}

__device__ void warp_redux(const cg::thread_block_tile<32> &t, int v, unsigned u, int *ro) {
#if __CUDA_ARCH__ >= 800
  int r[9] = {__reduce_add_sync(0xffffffffu, v), __reduce_min_sync(0xffffffffu, v), __reduce_max_sync(0xffffffffu, v),
              (int)__reduce_and_sync(0xffffffffu, (unsigned)v), (int)__reduce_or_sync(0xffffffffu, (unsigned)v),
              (int)__reduce_xor_sync(0xffffffffu, (unsigned)v), (int)__reduce_add_sync(0xffffffffu, u),
              (int)__reduce_min_sync(0xffffffffu, u), (int)__reduce_max_sync(0xffffffffu, u)};
#else
  int r[9] = {tile_reduce(t, v, Sum<int>()), tile_reduce(t, v, Min<int>()), tile_reduce(t, v, Max<int>()),
              tile_reduce(t, v, And<int>()), tile_reduce(t, v, Or<int>()), tile_reduce(t, v, Xor<int>()),
              (int)tile_reduce(t, u, Sum<unsigned>()), (int)tile_reduce(t, u, Min<unsigned>()), (int)tile_reduce(t, u, Max<unsigned>())};
#endif
  if (t.thread_rank() == 0) for (int k = 0; k < 9; k++) ro[k] = r[k];
}

__global__ void tile_reduce_kernel(const int *in, const float *fin, int *io, unsigned *uo, float *fo, int *ro) {
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned u = (unsigned)v * 2654435761u;
  float f = fin[i];
  int w = i / 32, e = i / 8;
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(b);   // the parent-erased tile type deduces Size
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(b);
  reduce_all(t32, v, u, f, io + w * 6, uo + w * 3, fo + w * 3);
  reduce_all(t8, v, u, f, io + (N / 32 + e) * 6, uo + (N / 32 + e) * 3, fo + (N / 32 + e) * 3);
  warp_redux(t32, v, u, ro + w * 9);
}

int main() {
  const int T = N / 32 + N / 8;
  int h[N], io[T * 6], ro[N / 32 * 9];
  unsigned uo[T * 3];
  float fh[N], fo[T * 3];
  for (int i = 0; i < N; i++) { h[i] = (i * 7919) % 2001 - 1000; fh[i] = ((i * 37) % 64 - 32) * 0.25f; }
  int *din, *dio, *dro; unsigned *duo; float *dfin, *dfo;
  cudaMalloc(&dro, sizeof(ro)); cudaMalloc(&din, sizeof(h)); cudaMalloc(&dio, sizeof(io)); cudaMalloc(&duo, sizeof(uo)); cudaMalloc(&dfin, sizeof(fh)); cudaMalloc(&dfo, sizeof(fo));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(dfin, fh, sizeof(fh), cudaMemcpyHostToDevice);
  tile_reduce_kernel<<<N / 128, 128>>>(din, dfin, dio, duo, dfo, dro);
  cudaMemcpy(ro, dro, sizeof(ro), cudaMemcpyDeviceToHost);
  cudaMemcpy(io, dio, sizeof(io), cudaMemcpyDeviceToHost);
  cudaMemcpy(uo, duo, sizeof(uo), cudaMemcpyDeviceToHost);
  cudaMemcpy(fo, dfo, sizeof(fo), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int size = t < N / 32 ? 32 : 8, first = t < N / 32 ? t * 32 : (t - N / 32) * 8;
    int e[6] = {0, 1 << 30, -(1 << 30), -1, 0, 0};
    unsigned ue[3] = {0, 0xffffffffu, 0};
    float fe[3] = {0, 1e30f, -1e30f};
    for (int k = first; k < first + size; k++) {
      int v = h[k]; unsigned u = (unsigned)v * 2654435761u; float f = fh[k];
      e[0] += v; e[1] = v < e[1] ? v : e[1]; e[2] = v > e[2] ? v : e[2]; e[3] &= v; e[4] |= v; e[5] ^= v;
      ue[0] += u; ue[1] = u < ue[1] ? u : ue[1]; ue[2] = u > ue[2] ? u : ue[2];
      fe[0] += f; fe[1] = f < fe[1] ? f : fe[1]; fe[2] = f > fe[2] ? f : fe[2];
    }
    for (int k = 0; k < 6; k++) if (io[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cuda_coop_tile_reduce: int tile %d op %d = %d, expected %d\n", t, k, io[t * 6 + k], e[k]); }
    for (int k = 0; k < 3; k++) if (uo[t * 3 + k] != ue[k]) { if (bad++ < 5) printf("FAIL cuda_coop_tile_reduce: unsigned tile %d op %d = %u, expected %u\n", t, k, uo[t * 3 + k], ue[k]); }
    if (t < N / 32) {
      int re[9] = {e[0], e[1], e[2], e[3], e[4], e[5], (int)ue[0], (int)ue[1], (int)ue[2]};
      for (int k = 0; k < 9; k++) if (ro[t * 9 + k] != re[k]) { if (bad++ < 5) printf("FAIL cuda_coop_tile_reduce: redux warp %d op %d = %d, expected %d\n", t, k, ro[t * 9 + k], re[k]); }
    }
    for (int k = 0; k < 3; k++) if (fo[t * 3 + k] != fe[k]) { if (bad++ < 5) printf("FAIL cuda_coop_tile_reduce: float tile %d op %d = %g, expected %g\n", t, k, fo[t * 3 + k], fe[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_coop_tile_reduce\n");
  return 0;
}
