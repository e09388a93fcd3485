// Loop nests over run-time bounds, the shapes bench/gpu-perf times on a GPU: a register-blocked GEMM (k tiles
// staged in shared memory by blockDim-strided loops), gemv by rows (a warp per row, shuffles) and by columns,
// a 7-point stencil walking z, a convolution with a run-time radius and clamped edges, a FIR filter whose taps
// sit in dynamic shared memory, k-means assignment (nested loops over k and d). Checked on the host.
#include <cstdio>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL loop_nests: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

// 32x32 tile per block of 64 threads, each a 4x4 block of C; k tiles of 8
__global__ void gemm_rb(int n, const float *A, const float *B, float *C) {
  __shared__ float As[8][32], Bs[8][32];
  int tx = threadIdx.x % 8, ty = threadIdx.x / 8;
  int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
  for (int t = 0; t < n; t += 8) {
    for (int l = threadIdx.x; l < 256; l += blockDim.x) { int r = l / 8, k = l % 8; As[k][r] = A[(row0 + r) * n + t + k]; }
    for (int l = threadIdx.x; l < 256; l += blockDim.x) { int k = l / 32, c = l % 32; Bs[k][c] = B[(t + k) * n + col0 + c]; }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) { a[i] = As[k][ty * 4 + i]; b[i] = Bs[k][tx * 4 + i]; }
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) C[(row0 + ty * 4 + i) * n + col0 + tx * 4 + j] = acc[i][j];
}

__global__ void gemv_rows(int rows, int cols, const float *A, const float *x, float *y) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (w >= rows) return;
  float s = 0.f;
  for (int j = lane; j < cols; j += 32) s += A[w * cols + j] * x[j];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[w] = s;
}

__global__ void gemv_cols(int rows, int cols, const float *A, const float *x, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  float s = 0.f;
  for (int r = 0; r < rows; ++r) s += A[r * cols + j] * x[r];
  y[j] = s;
}

__global__ void stencil7(int nx, int ny, int nz, float c0, float c1, const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  int plane = nx * ny;
  for (int z = 1; z < nz - 1; ++z) {
    int i = z * plane + y * nx + x;
    out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane]);
  }
}

__global__ void conv2d(int w, int h, int r, const float *in, const float *filt, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.f;
  for (int dy = -r; dy <= r; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -r; dx <= r; ++dx) acc += filt[(dy + r) * (2 * r + 1) + dx + r] * in[yy * w + min(max(x + dx, 0), w - 1)];
  }
  out[y * w + x] = acc;
}

__global__ void fir(int n, int taps, const float *x, const float *h, float *y) {
  extern __shared__ float hs[];
  for (int t = threadIdx.x; t < taps; t += blockDim.x) hs[t] = h[t];
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + taps <= n; i += gridDim.x * blockDim.x) {
    float s = 0.f;
    for (int t = 0; t < taps; ++t) s += hs[t] * x[i + t];
    y[i] = s;
  }
}

__global__ void kmeans(int n, int k, int d, const float *pts, const float *cent, int *out) {
  extern __shared__ float cs[];
  for (int i = threadIdx.x; i < k * d; i += blockDim.x) cs[i] = cent[i];
  __syncthreads();
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  float best = 3.4e38f;
  int bi = 0;
  for (int j = 0; j < k; ++j) {
    float s = 0.f;
    for (int q = 0; q < d; ++q) { float t = pts[q * n + p] - cs[j * d + q]; s += t * t; }
    if (s < best) { best = s; bi = j; }
  }
  out[p] = bi;
}

static float frand(unsigned &s) { s = s * 1664525u + 1013904223u; return (s >> 8) * (1.0f / 16777216.0f); }
static bool near(double got, double want, double mag) { return std::fabs(got - want) <= 1e-5 * (1.0 + mag); }

template <typename T> static T *upload(const std::vector<T> &h, cudaError_t &err) {
  T *d = nullptr;
  err = cudaMalloc(&d, h.size() * sizeof(T));
  if (err == cudaSuccess) err = cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

int main() {
  unsigned seed = 99;
  cudaError_t err = cudaSuccess;
  int bad = 0;
  { // GEMM 128^3
    const int n = 128;
    std::vector<float> A(n * n), B(n * n), C(n * n);
    for (auto &v : A) v = frand(seed) - 0.5f;
    for (auto &v : B) v = frand(seed) - 0.5f;
    float *dA = upload(A, err), *dB = upload(B, err), *dC; CK(err);
    CK(cudaMalloc(&dC, sizeof(float) * n * n));
    gemm_rb<<<dim3(n / 32, n / 32), 64>>>(n, dA, dB, dC);
    CK(cudaMemcpy(C.data(), dC, sizeof(float) * n * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double want = 0, mag = 0;
        for (int k = 0; k < n; ++k) { double t = (double)A[i * n + k] * B[k * n + j]; want += t; mag += std::fabs(t); }
        if (!near(C[i * n + j], want, mag)) { if (bad++ < 5) printf("gemm_rb (%d,%d): %f, want %f\n", i, j, C[i * n + j], want); }
      }
    CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dC));
  }
  { // gemv both ways on 300 x 200
    const int rows = 300, cols = 200;
    std::vector<float> A(rows * cols), x(cols), w(rows), y(rows), z(cols);
    for (auto &v : A) v = frand(seed);
    for (auto &v : x) v = frand(seed);
    for (auto &v : w) v = frand(seed);
    float *dA = upload(A, err), *dx = upload(x, err), *dw = upload(w, err), *dy, *dz; CK(err);
    CK(cudaMalloc(&dy, sizeof(float) * rows)); CK(cudaMalloc(&dz, sizeof(float) * cols));
    gemv_rows<<<(rows * 32 + 127) / 128, 128>>>(rows, cols, dA, dx, dy);
    gemv_cols<<<(cols + 63) / 64, 64>>>(rows, cols, dA, dw, dz);
    CK(cudaMemcpy(y.data(), dy, sizeof(float) * rows, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(z.data(), dz, sizeof(float) * cols, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; ++r) { double s = 0; for (int j = 0; j < cols; ++j) s += (double)A[r * cols + j] * x[j]; if (!near(y[r], s, s)) { if (bad++ < 5) printf("gemv_rows %d: %f, want %f\n", r, y[r], s); } }
    for (int j = 0; j < cols; ++j) { double s = 0; for (int r = 0; r < rows; ++r) s += (double)A[r * cols + j] * w[r]; if (!near(z[j], s, s)) { if (bad++ < 5) printf("gemv_cols %d: %f, want %f\n", j, z[j], s); } }
    CK(cudaFree(dA)); CK(cudaFree(dx)); CK(cudaFree(dw)); CK(cudaFree(dy)); CK(cudaFree(dz));
  }
  { // 7-point stencil on 40 x 24 x 10, convolution 5x5 on 70 x 45
    const int nx = 40, ny = 24, nz = 10, w = 70, h = 45, r = 2;
    std::vector<float> a(nx * ny * nz), o(a.size()), img(w * h), f(25), co(w * h);
    for (auto &v : a) v = frand(seed);
    for (auto &v : img) v = frand(seed);
    for (auto &v : f) v = frand(seed) - 0.5f;
    float *din = upload(a, err), *dimg = upload(img, err), *df = upload(f, err), *dout, *dco; CK(err);
    CK(cudaMalloc(&dout, sizeof(float) * a.size())); CK(cudaMemset(dout, 0, sizeof(float) * a.size()));
    CK(cudaMalloc(&dco, sizeof(float) * co.size()));
    stencil7<<<dim3((nx + 15) / 16, (ny + 7) / 8), dim3(16, 8)>>>(nx, ny, nz, 0.4f, 0.1f, din, dout);
    conv2d<<<dim3((w + 15) / 16, (h + 7) / 8), dim3(16, 8)>>>(w, h, r, dimg, df, dco);
    CK(cudaMemcpy(o.data(), dout, sizeof(float) * o.size(), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(co.data(), dco, sizeof(float) * co.size(), cudaMemcpyDeviceToHost));
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          int i = (z * ny + y) * nx + x;
          bool inner = x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1;
          double want = inner ? 0.4 * a[i] + 0.1 * ((double)a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx] + a[i - nx * ny] + a[i + nx * ny]) : 0.0;
          if (!near(o[i], want, want)) { if (bad++ < 5) printf("stencil7 %d: %f, want %f\n", i, o[i], want); }
        }
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double want = 0, mag = 0;
        for (int dy = -r; dy <= r; ++dy)
          for (int dx = -r; dx <= r; ++dx) {
            int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy, xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
            double t = (double)f[(dy + r) * 5 + dx + r] * img[yy * w + xx];
            want += t; mag += std::fabs(t);
          }
        if (!near(co[y * w + x], want, mag)) { if (bad++ < 5) printf("conv2d (%d,%d): %f, want %f\n", x, y, co[y * w + x], want); }
      }
    CK(cudaFree(din)); CK(cudaFree(dimg)); CK(cudaFree(df)); CK(cudaFree(dout)); CK(cudaFree(dco));
  }
  { // FIR with 13 taps on 5000 samples; k-means: 3000 points, 9 centroids, 5 dimensions
    const int n = 5000, taps = 13, np = 3000, k = 9, d = 5;
    std::vector<float> x(n), hc(taps), y(n), pts(np * d), cent(k * d);
    std::vector<int> as(np);
    for (auto &v : x) v = frand(seed);
    for (auto &v : hc) v = frand(seed) - 0.25f;
    for (auto &v : pts) v = frand(seed);
    for (auto &v : cent) v = frand(seed);
    float *dx = upload(x, err), *dh = upload(hc, err), *dp = upload(pts, err), *dc = upload(cent, err), *dy; int *da; CK(err);
    CK(cudaMalloc(&dy, sizeof(float) * n)); CK(cudaMemset(dy, 0, sizeof(float) * n));
    CK(cudaMalloc(&da, sizeof(int) * np));
    fir<<<7, 128, taps * sizeof(float)>>>(n, taps, dx, dh, dy);
    kmeans<<<(np + 127) / 128, 128, k * d * sizeof(float)>>>(np, k, d, dp, dc, da);
    CK(cudaMemcpy(y.data(), dy, sizeof(float) * n, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(as.data(), da, sizeof(int) * np, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      double want = 0, mag = 0;
      if (i + taps <= n) for (int t = 0; t < taps; ++t) { double v = (double)hc[t] * x[i + t]; want += v; mag += std::fabs(v); }
      if (!near(y[i], want, mag)) { if (bad++ < 5) printf("fir %d: %f, want %f\n", i, y[i], want); }
    }
    for (int p = 0; p < np; ++p) {
      double best = 1e300, chosen = -1;
      for (int j = 0; j < k; ++j) {
        double s = 0;
        for (int q = 0; q < d; ++q) { double t = (double)pts[q * np + p] - cent[j * d + q]; s += t * t; }
        if (s < best) best = s;
        if (j == as[p]) chosen = s;
      }
      if (chosen < 0 || chosen > best * (1 + 1e-5) + 1e-7) { if (bad++ < 5) printf("kmeans %d: centroid %d is not the nearest\n", p, as[p]); }
    }
    CK(cudaFree(dx)); CK(cudaFree(dh)); CK(cudaFree(dp)); CK(cudaFree(dc)); CK(cudaFree(dy)); CK(cudaFree(da));
  }
  if (bad) { printf("FAIL loop_nests: %d wrong values\n", bad); return 1; }
  printf("PASS loop_nests\n");
  return 0;
}
