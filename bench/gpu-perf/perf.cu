// GPU run-time benchmark program (scripts/gpu-perf.sh): the same source is built twice, once by nvcc with the
// real cicc and once with ptxd as its cicc, and both executables run on one GPU. The kernels are ordinary CUDA
// workloads at sizes where a kernel takes about a millisecond or more, so that code quality, not launch overhead,
// is what the times show: memory-bound (saxpy, stencil), compute-bound (tiled SGEMM, all-pairs forces,
// transcendentals), atomics (histogram), warp shuffles and CUB's block primitives (reductions, scans).
//
// Each kernel's output is checked on the host (exact for integers, a relative tolerance for floating point, which
// the two compilers may contract differently); a checksum line lets the script compare the two builds. Times are
// the median over TRIALS trials of the mean over REPS back-to-back launches, from CUDA events.
// Output lines: "TIME <name> <ms>", "SUM <name> <checksum>", "CHECK <name> ok|FAIL <detail>", then "PASS perf".

#include <cuda_runtime.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)

static const int REPS = 10, TRIALS = 7;

// ---------------------------------------------------------------- kernels

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}

// SGEMM (and DGEMM in benches2.cuh) with TILE x TILE tiles in shared memory
template <typename T, int TILE>
__global__ void gemm_tiled(int n, const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ C) {
  __shared__ T As[TILE][TILE], Bs[TILE][TILE + 1];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  T acc = 0;
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void reduce_shfl(int n, const float *__restrict__ x, float *out) {
  __shared__ float part[32];
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i];
  s = warp_sum(s);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.f;
    s = warp_sum(s);
    if (threadIdx.x == 0) atomicAdd(out, s);
  }
}

template <int BLOCK>
__global__ void reduce_cub(int n, const int *__restrict__ x, unsigned long long *out) {
  typedef cub::BlockReduce<long long, BLOCK> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  long long s = 0;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) s += x[i];
  long long total = Reduce(tmp).Sum(s);
  if (threadIdx.x == 0) atomicAdd(out, (unsigned long long)total);
}

// each block scans its own BLOCK * ITEMS elements (a segmented inclusive scan)
template <int BLOCK, int ITEMS>
__global__ void scan_cub(const int *__restrict__ in, int *__restrict__ out) {
  typedef cub::BlockScan<int, BLOCK> Scan;
  __shared__ typename Scan::TempStorage tmp;
  int items[ITEMS];
  int base = blockIdx.x * BLOCK * ITEMS + threadIdx.x * ITEMS;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) items[k] = in[base + k];
  Scan(tmp).InclusiveSum(items, items);
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) out[base + k] = items[k];
}

__global__ void histogram256(int n, const unsigned char *__restrict__ data, unsigned int *__restrict__ bins) {
  __shared__ unsigned int local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}

__global__ void jacobi5(int w, int h, const float *__restrict__ in, float *__restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= w - 1 || y >= h - 1) return;
  int i = y * w + x;
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

__global__ void transcend(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = expf(-v * v) * sinf(3.f * v) + logf(1.f + v * v) + sqrtf(fabsf(v)) * cosf(v);
}

__global__ void nbody_forces(int n, const float4 *__restrict__ p, float4 *__restrict__ f) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = p[i];
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int t = 0; t < n; t += blockDim.x) {
    tile[threadIdx.x] = p[t + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < (int)blockDim.x; ++j) {
      float4 o = tile[j];
      float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
      float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
      float inv = rsqrtf(r2);
      float s = o.w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  f[i] = make_float4(ax, ay, az, 0.f);
}

__global__ void daxpy_poly(int n, const double *__restrict__ x, double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  y[i] = ((((0.5 * v + 1.25) * v - 0.75) * v + 2.0) * v - 1.0) + sqrt(v * v + 1.0);
}

#include "kernels2.cuh"

// ---------------------------------------------------------------- harness

struct Timer {
  cudaEvent_t a, b;
  Timer() { CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
  template <typename F> float median_ms(F launch) {
    launch(); CK(cudaDeviceSynchronize());   // warm-up (and module load)
    std::vector<float> t;
    for (int r = 0; r < TRIALS; ++r) {
      CK(cudaEventRecord(a));
      for (int k = 0; k < REPS; ++k) launch();
      CK(cudaEventRecord(b));
      CK(cudaEventSynchronize(b));
      float ms = 0.f;
      CK(cudaEventElapsedTime(&ms, a, b));
      t.push_back(ms / REPS);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  }
};

static int failures = 0;
static void report(const char *name, float ms, double sum, bool ok, const char *detail) {
  std::printf("TIME %s %.4f\nSUM %s %.9g\nCHECK %s %s%s%s\n", name, ms, name, sum, name, ok ? "ok" : "FAIL", ok ? "" : " ", ok ? "" : detail);
  if (!ok) ++failures;
}

static bool close(double got, double want, double rel) { return std::fabs(got - want) <= rel * std::max(1.0, std::fabs(want)); }

template <typename T> T *dev(const std::vector<T> &h) {
  T *d; CK(cudaMalloc(&d, h.size() * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T> std::vector<T> host(const T *d, size_t n) {
  std::vector<T> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

#include "benches2.cuh"

int main() {
  Timer tm;
  uint32_t seed = 12345u;
  auto rnd = [&]() { seed = seed * 1664525u + 1013904223u; return (seed >> 8) * (1.0f / 16777216.0f); };
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int grid = sms * 8;

  { // saxpy, 64 Mi floats
    const int n = 1 << 26;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) { x[i] = rnd(); y[i] = rnd(); }
    float *dx = dev(x), *dy = dev(y);
    saxpy<<<grid, 256>>>(n, 2.f, dx, dy);
    CK(cudaDeviceSynchronize());
    auto r = host(dy, n);
    bool ok = true; double sum = 0;
    for (int i = 0; i < n; ++i) { sum += r[i]; if (ok && !close(r[i], 2.f * x[i] + y[i], 1e-6)) ok = false; }
    float ms = tm.median_ms([&] { saxpy<<<grid, 256>>>(n, 2.f, dx, dy); });
    report("saxpy", ms, sum, ok, "saxpy value");
    CK(cudaFree(dx)); CK(cudaFree(dy));
  }
  { // SGEMM 2048^3, 32x32 tiles
    const int n = 2048;
    std::vector<float> A(n * n), B(n * n);
    for (auto &v : A) v = rnd() - 0.5f;
    for (auto &v : B) v = rnd() - 0.5f;
    float *dA = dev(A), *dB = dev(B), *dC; CK(cudaMalloc(&dC, sizeof(float) * n * n));
    dim3 blk(32, 32), grd(n / 32, n / 32);
    float ms = tm.median_ms([&] { gemm_tiled<float, 32><<<grd, blk>>>(n, dA, dB, dC); });
    auto C = host(dC, (size_t)n * n);
    bool ok = true; double sum = 0;
    for (double v : C) sum += v;
    for (int s = 0; s < 64 && ok; ++s) {
      int i = (s * 977) % n, j = (s * 613) % n;
      double want = 0; for (int k = 0; k < n; ++k) want += (double)A[i * n + k] * B[k * n + j];
      if (std::fabs(C[i * n + j] - want) > 1e-3 * (1 + std::fabs(want))) ok = false;
    }
    report("sgemm_tiled", ms, sum, ok, "sampled element");
    CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dC));
  }
  { // float sum of 64 Mi, shuffles + atomics
    const int n = 1 << 26;
    std::vector<float> x(n);
    double want = 0;
    for (int i = 0; i < n; ++i) { x[i] = rnd(); want += x[i]; }
    float *dx = dev(x), *dout; CK(cudaMalloc(&dout, sizeof(float)));
    auto run = [&] { CK(cudaMemsetAsync(dout, 0, sizeof(float))); reduce_shfl<<<grid, 256>>>(n, dx, dout); };
    float ms = tm.median_ms(run);
    float got = host(dout, 1)[0];
    report("reduce_shfl", ms, got, close(got, want, 1e-4), "sum");
    CK(cudaFree(dx)); CK(cudaFree(dout));
  }
  { // CUB BlockReduce of 64 Mi ints
    const int n = 1 << 26;
    std::vector<int> x(n);
    long long want = 0;
    for (int i = 0; i < n; ++i) { x[i] = (int)(rnd() * 2000.f) - 1000; want += x[i]; }
    int *dx = dev(x); unsigned long long *dout; CK(cudaMalloc(&dout, sizeof(unsigned long long)));
    auto run = [&] { CK(cudaMemsetAsync(dout, 0, sizeof(unsigned long long))); reduce_cub<256><<<grid, 256>>>(n, dx, dout); };
    float ms = tm.median_ms(run);
    long long got = (long long)host(dout, 1)[0];
    report("reduce_cub", ms, (double)got, got == want, "sum");
    CK(cudaFree(dx)); CK(cudaFree(dout));
  }
  { // CUB BlockScan, 256 threads x 8 items per block, 32 Mi ints
    const int B = 256, I = 8, n = 1 << 25;
    std::vector<int> x(n);
    for (int i = 0; i < n; ++i) x[i] = (int)(rnd() * 100.f);
    int *dx = dev(x), *dy; CK(cudaMalloc(&dy, sizeof(int) * n));
    float ms = tm.median_ms([&] { scan_cub<B, I><<<n / (B * I), B>>>(dx, dy); });
    auto y = host(dy, n);
    bool ok = true; double sum = 0;
    for (int s = 0; s < n; s += B * I) { int acc = 0; for (int k = 0; k < B * I; ++k) { acc += x[s + k]; if (y[s + k] != acc) ok = false; } sum += acc; }
    report("scan_cub", ms, sum, ok, "prefix");
    CK(cudaFree(dx)); CK(cudaFree(dy));
  }
  { // 256-bin histogram of 128 Mi bytes
    const int n = 1 << 27;
    std::vector<unsigned char> d(n);
    std::vector<unsigned long long> want(256, 0);
    for (int i = 0; i < n; ++i) { d[i] = (unsigned char)(rnd() * rnd() * 256.f); want[d[i]]++; }
    unsigned char *dd = dev(d); unsigned int *db; CK(cudaMalloc(&db, 256 * sizeof(unsigned int)));
    auto run = [&] { CK(cudaMemsetAsync(db, 0, 256 * sizeof(unsigned int))); histogram256<<<grid, 512>>>(n, dd, db); };
    float ms = tm.median_ms(run);
    auto b = host(db, 256);
    bool ok = true; double sum = 0;
    for (int i = 0; i < 256; ++i) { sum += (double)b[i] * (i + 1); if (b[i] != want[i]) ok = false; }
    report("histogram256", ms, sum, ok, "bin count");
    CK(cudaFree(dd)); CK(cudaFree(db));
  }
  { // 5-point Jacobi sweep on 8192 x 8192
    const int w = 8192, h = 8192;
    std::vector<float> a((size_t)w * h);
    for (auto &v : a) v = rnd();
    float *din = dev(a), *dout; CK(cudaMalloc(&dout, sizeof(float) * a.size()));
    CK(cudaMemset(dout, 0, sizeof(float) * a.size()));
    dim3 blk(32, 8), grd(w / 32, h / 8);
    float ms = tm.median_ms([&] { jacobi5<<<grd, blk>>>(w, h, din, dout); });
    auto r = host(dout, a.size());
    bool ok = true; double sum = 0;
    for (int s = 0; s < 4096; ++s) {
      int x = 1 + (s * 7919) % (w - 2), y = 1 + (s * 104729) % (h - 2);
      size_t i = (size_t)y * w + x;
      float want = 0.2f * (a[i] + a[i - 1] + a[i + 1] + a[i - w] + a[i + w]);
      if (!close(r[i], want, 1e-5)) ok = false;
    }
    for (float v : r) sum += v;
    report("jacobi5", ms, sum, ok, "stencil value");
    CK(cudaFree(din)); CK(cudaFree(dout));
  }
  { // transcendentals on 32 Mi floats
    const int n = 1 << 25;
    std::vector<float> x(n);
    for (auto &v : x) v = rnd() * 8.f - 4.f;
    float *dx = dev(x), *dy; CK(cudaMalloc(&dy, sizeof(float) * n));
    float ms = tm.median_ms([&] { transcend<<<n / 256, 256>>>(n, dx, dy); });
    auto y = host(dy, n);
    bool ok = true; double sum = 0;
    for (int i = 0; i < n; ++i) {
      sum += y[i];
      if (i % 97 == 0) { double v = x[i]; double want = std::exp(-v * v) * std::sin(3 * v) + std::log(1 + v * v) + std::sqrt(std::fabs(v)) * std::cos(v); if (!close(y[i], want, 1e-5)) ok = false; }
    }
    report("transcend", ms, sum, ok, "math value");
    CK(cudaFree(dx)); CK(cudaFree(dy));
  }
  { // all-pairs forces, 32 Ki bodies
    const int n = 1 << 15, B = 256;
    std::vector<float4> p(n);
    for (auto &v : p) v = make_float4(rnd(), rnd(), rnd(), rnd() + 0.5f);
    float4 *dp = dev(p), *df; CK(cudaMalloc(&df, sizeof(float4) * n));
    float ms = tm.median_ms([&] { nbody_forces<<<n / B, B, B * sizeof(float4)>>>(n, dp, df); });
    auto f = host(df, n);
    bool ok = true; double sum = 0;
    for (auto &v : f) sum += v.x + v.y + v.z;
    for (int s = 0; s < 16; ++s) {
      int i = (s * 2053) % n; double ax = 0;
      for (int j = 0; j < n; ++j) { double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z; double r2 = dx * dx + dy * dy + dz * dz + 1e-3; ax += dx * p[j].w / (r2 * std::sqrt(r2)); }
      if (!close(f[i].x, ax, 1e-3)) ok = false;
    }
    report("nbody_forces", ms, sum, ok, "force");
    CK(cudaFree(dp)); CK(cudaFree(df));
  }
  { // double-precision polynomial and sqrt on 32 Mi doubles
    const int n = 1 << 25;
    std::vector<double> x(n);
    for (auto &v : x) v = rnd() * 4.0 - 2.0;
    double *dx = dev(x), *dy; CK(cudaMalloc(&dy, sizeof(double) * n));
    float ms = tm.median_ms([&] { daxpy_poly<<<n / 256, 256>>>(n, dx, dy); });
    auto y = host(dy, n);
    bool ok = true; double sum = 0;
    for (int i = 0; i < n; ++i) {
      double v = x[i]; double want = ((((0.5 * v + 1.25) * v - 0.75) * v + 2.0) * v - 1.0) + std::sqrt(v * v + 1.0);
      sum += y[i]; if (!close(y[i], want, 1e-12)) ok = false;
    }
    report("daxpy_poly", ms, sum, ok, "value");
    CK(cudaFree(dx)); CK(cudaFree(dy));
  }
  run_benches2(tm, grid);
  if (failures) { std::printf("FAIL perf: %d kernels\n", failures); return 1; }
  std::printf("PASS perf\n");
  return 0;
}
