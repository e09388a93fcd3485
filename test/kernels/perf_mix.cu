// More of bench/gpu-perf's shapes: a block scan (sequential per thread, then Hillis-Steele over double-buffered
// dynamic shared memory), a tree reduction over blockDim.x, a shared-atomics histogram, a warp-per-row CSR SpMV,
// a row softmax (block-wide max and sum), Floyd-Warshall launched once per k, an integer hash with a run-time
// round count, Horner with coefficients in __constant__ memory, Mandelbrot and Black-Scholes. Checked on the host.
#include <cstdio>
#include <cmath>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL perf_mix: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void scan4(const int *in, int *out) {
  extern __shared__ int tot[];
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  int v[4], run = 0;
  for (int k = 0; k < 4; ++k) { run += in[base + k]; v[k] = run; }
  int *a = tot, *b = tot + blockDim.x;
  a[threadIdx.x] = run;
  __syncthreads();
  for (int off = 1; off < (int)blockDim.x; off <<= 1) {
    int t = a[threadIdx.x];
    if ((int)threadIdx.x >= off) t += a[threadIdx.x - off];
    b[threadIdx.x] = t;
    __syncthreads();
    int *c = a; a = b; b = c;
  }
  int excl = a[threadIdx.x] - run;
  for (int k = 0; k < 4; ++k) out[base + k] = v[k] + excl;
}

__global__ void reduce_tree(int n, const unsigned *x, unsigned *out) {
  extern __shared__ unsigned sh[];
  unsigned s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (threadIdx.x < st) sh[threadIdx.x] += sh[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, sh[0]);
}

__global__ void hist64(int n, const float *x, unsigned *bins) {
  __shared__ unsigned local[64];
  for (int i = threadIdx.x; i < 64; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[min(max((int)(x[i] * 64.f), 0), 63)], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 64; i += blockDim.x)
    if (local[i]) atomicAdd(&bins[i], local[i]);
}

__global__ void spmv_warp(int rows, const int *rowptr, const int *col, const float *val, const float *x, float *y) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r >= rows) return;
  float s = 0.f;
  for (int e = rowptr[r] + lane; e < rowptr[r + 1]; e += 32) s += val[e] * x[col[e]];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[r] = s;
}

__device__ float block_all(float v, bool isMax, float *part) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  for (int o = 16; o > 0; o >>= 1) { float u = __shfl_down_sync(0xffffffffu, v, o); v = isMax ? fmaxf(v, u) : v + u; }
  if (lane == 0) part[w] = v;
  __syncthreads();
  if (w == 0) {
    v = lane < (int)(blockDim.x >> 5) ? part[lane] : (isMax ? -3.4e38f : 0.f);
    for (int o = 16; o > 0; o >>= 1) { float u = __shfl_down_sync(0xffffffffu, v, o); v = isMax ? fmaxf(v, u) : v + u; }
    if (lane == 0) part[32] = v;
  }
  __syncthreads();
  v = part[32];
  __syncthreads();
  return v;
}

__global__ void softmax(int cols, const float *x, float *y) {
  __shared__ float part[33];
  const float *xr = x + blockIdx.x * cols;
  float m = -3.4e38f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) m = fmaxf(m, xr[j]);
  m = block_all(m, true, part);
  float s = 0.f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) s += expf(xr[j] - m);
  s = block_all(s, false, part);
  for (int j = threadIdx.x; j < cols; j += blockDim.x) y[blockIdx.x * cols + j] = expf(xr[j] - m) / s;
}

__global__ void floyd_step(int n, int k, int *d) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= n) return;
  int via = d[i * n + k] + d[k * n + j];
  if (via < d[i * n + j]) d[i * n + j] = via;
}

__host__ __device__ unsigned mix(unsigned x, unsigned r) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x + r;
}

__global__ void hash_rounds(int n, int rounds, unsigned *out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i;
    for (int r = 0; r < rounds; ++r) x = mix(x, (unsigned)r);
    out[i] = x;
  }
}

__constant__ float coef[16];

__global__ void horner(int n, int deg, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float v = x[i], s = coef[deg];
    for (int j = deg - 1; j >= 0; --j) s = s * v + coef[j];
    y[i] = s;
  }
}

__global__ void mandel(int w, int h, int maxit, float x0, float y0, float dx, float dy, int *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float cr = x0 + x * dx, ci = y0 + y * dy, zr = 0.f, zi = 0.f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi <= 4.f) { float t = zr * zr - zi * zi + cr; zi = 2.f * zr * zi + ci; zr = t; ++it; }
  out[y * w + x] = it;
}

__device__ float cnd(float d) {
  float k = 1.f / (1.f + 0.2316419f * fabsf(d));
  float c = 0.39894228f * expf(-0.5f * d * d) * (k * (0.31938153f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f)))));
  return d > 0.f ? 1.f - c : c;
}

__global__ void black_scholes(int n, float r, float vol, const float *S, const float *X, const float *T, float *call, float *put) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float s = S[i], x = X[i], t = T[i], sq = sqrtf(t);
    float d1 = (logf(s / x) + (r + 0.5f * vol * vol) * t) / (vol * sq), d2 = d1 - vol * sq;
    float e = expf(-r * t), c1 = cnd(d1), c2 = cnd(d2);
    call[i] = s * c1 - x * e * c2;
    put[i] = x * e * (1.f - c2) - s * (1.f - c1);
  }
}

static double cnd_ref(double d) {
  double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double c = 0.39894228040143267794 * std::exp(-0.5 * d * d) * (k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
  return d > 0 ? 1.0 - c : c;
}

static unsigned lcg(unsigned &s) { s = s * 1664525u + 1013904223u; return s >> 8; }
static float frand(unsigned &s) { return lcg(s) * (1.0f / 16777216.0f); }

template <typename T> static T *upload(const std::vector<T> &h, cudaError_t &err) {
  T *d = nullptr;
  if (err == cudaSuccess) err = cudaMalloc(&d, h.size() * sizeof(T));
  if (err == cudaSuccess) err = cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <typename T> static std::vector<T> download(const T *d, size_t n, cudaError_t &err) {
  std::vector<T> h(n);
  if (err == cudaSuccess) err = cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}
template <typename T> static T *scratch(size_t n, cudaError_t &err) {
  T *d = nullptr;
  if (err == cudaSuccess) err = cudaMalloc(&d, n * sizeof(T));
  if (err == cudaSuccess) err = cudaMemset(d, 0, n * sizeof(T));
  return d;
}

int main() {
  unsigned seed = 4242;
  cudaError_t err = cudaSuccess;
  int bad = 0;
  auto fail = [&](const char *what, int i) { if (bad++ < 8) printf("%s: wrong at %d\n", what, i); };
  { // scan: 6 blocks of 128 threads x 4; reduction and histogram of 20000 values
    const int B = 128, blocks = 6, n = B * 4 * blocks, m = 20000;
    std::vector<int> in(n);
    std::vector<unsigned> u(m);
    std::vector<float> f(m);
    for (auto &v : in) v = (int)(lcg(seed) % 1000u) - 300;
    for (auto &v : u) v = lcg(seed);
    for (auto &v : f) { float a = frand(seed); v = a * a; }
    int *din = upload(in, err), *dout = scratch<int>(n, err);
    unsigned *du = upload(u, err), *dsum = scratch<unsigned>(1, err), *dbins = scratch<unsigned>(64, err);
    float *df = upload(f, err);
    CK(err);
    scan4<<<blocks, B, 2 * B * sizeof(int)>>>(din, dout);
    reduce_tree<<<10, 256, 256 * sizeof(unsigned)>>>(m, du, dsum);
    hist64<<<9, 128>>>(m, df, dbins);
    auto out = download(dout, n, err); auto sum = download(dsum, 1, err); auto bins = download(dbins, 64, err); CK(err);
    for (int s = 0; s < n; s += B * 4) { int acc = 0; for (int k = 0; k < B * 4; ++k) { acc += in[s + k]; if (out[s + k] != acc) fail("scan4", s + k); } }
    unsigned want = 0; for (unsigned v : u) want += v;
    if (sum[0] != want) fail("reduce_tree", 0);
    std::vector<unsigned> wb(64, 0);
    for (float v : f) { int b = (int)(v * 64.f); wb[b < 0 ? 0 : b > 63 ? 63 : b]++; }
    for (int i = 0; i < 64; ++i) if (bins[i] != wb[i]) fail("hist64", i);
  }
  { // SpMV: 500 rows of 0..70 entries; softmax of 12 rows of 700
    const int rows = 500, sr = 12, sc = 700;
    std::vector<int> rowptr(rows + 1, 0);
    for (int r = 0; r < rows; ++r) rowptr[r + 1] = rowptr[r] + (int)(lcg(seed) % 71u);
    std::vector<int> col(rowptr[rows]);
    std::vector<float> val(rowptr[rows]), x(rows), sx(sr * sc);
    for (auto &c : col) c = (int)(lcg(seed) % (unsigned)rows);
    for (auto &v : val) v = frand(seed);
    for (auto &v : x) v = frand(seed);
    for (auto &v : sx) v = frand(seed) * 10.f - 5.f;
    int *drp = upload(rowptr, err), *dcol = upload(col, err);
    float *dval = upload(val, err), *dx = upload(x, err), *dy = scratch<float>(rows, err), *dsx = upload(sx, err), *dsy = scratch<float>(sx.size(), err);
    CK(err);
    spmv_warp<<<(rows * 32 + 255) / 256, 256>>>(rows, drp, dcol, dval, dx, dy);
    softmax<<<sr, 160>>>(sc, dsx, dsy);
    auto y = download(dy, rows, err); auto sy = download(dsy, sx.size(), err); CK(err);
    for (int r = 0; r < rows; ++r) {
      double want = 0; for (int e = rowptr[r]; e < rowptr[r + 1]; ++e) want += (double)val[e] * x[col[e]];
      if (std::fabs(y[r] - want) > 1e-5 * want + 1e-30) fail("spmv_warp", r);
    }
    for (int r = 0; r < sr; ++r) {
      double m = -1e300, s = 0;
      for (int j = 0; j < sc; ++j) m = std::fmax(m, sx[r * sc + j]);
      for (int j = 0; j < sc; ++j) s += std::exp(sx[r * sc + j] - m);
      for (int j = 0; j < sc; ++j) { double want = std::exp(sx[r * sc + j] - m) / s; if (std::fabs(sy[r * sc + j] - want) > 2e-5 * want + 1e-9) fail("softmax", r * sc + j); }
    }
  }
  { // Floyd-Warshall on 48 nodes; 64 rounds of hashing 3000 values; Horner of degree 11
    const int n = 48, INF = 1 << 29, hn = 3000, rounds = 64, pn = 2000, deg = 11;
    std::vector<int> d(n * n);
    for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) { unsigned h = lcg(seed); d[i * n + j] = i == j ? 0 : h % 5u == 0 ? 1 + (int)(h % 100u) : INF; }
    float c[16];
    for (int j = 0; j < 16; ++j) c[j] = (frand(seed) - 0.5f) / (float)(j + 1);
    std::vector<float> px(pn);
    for (auto &v : px) v = frand(seed) * 2.f - 1.f;
    int *dd = upload(d, err); unsigned *dh = scratch<unsigned>(hn, err); float *dpx = upload(px, err), *dpy = scratch<float>(pn, err);
    CK(err);
    CK(cudaMemcpyToSymbol(coef, c, sizeof c));
    for (int k = 0; k < n; ++k) floyd_step<<<dim3(1, n), 64>>>(n, k, dd);
    hash_rounds<<<5, 128>>>(hn, rounds, dh);
    horner<<<4, 128>>>(pn, deg, dpx, dpy);
    auto gd = download(dd, n * n, err); auto gh = download(dh, hn, err); auto py = download(dpy, pn, err); CK(err);
    for (int k = 0; k < n; ++k) for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) if (d[i * n + k] + d[k * n + j] < d[i * n + j]) d[i * n + j] = d[i * n + k] + d[k * n + j];
    for (int i = 0; i < n * n; ++i) if (gd[i] != d[i]) fail("floyd_step", i);
    for (int i = 0; i < hn; ++i) { unsigned x = (unsigned)i; for (int r = 0; r < rounds; ++r) x = mix(x, (unsigned)r); if (gh[i] != x) fail("hash_rounds", i); }
    for (int i = 0; i < pn; ++i) { double s = c[deg]; for (int j = deg - 1; j >= 0; --j) s = s * px[i] + c[j]; if (std::fabs(py[i] - s) > 1e-5) fail("horner", i); }
  }
  { // Mandelbrot 96 x 64 up to 200 iterations; Black-Scholes of 1500 options
    const int w = 96, h = 64, maxit = 200, n = 1500;
    const float x0 = -2.f, y0 = -1.f, dx = 3.f / w, dy = 2.f / h;
    std::vector<float> S(n), X(n), T(n);
    for (int i = 0; i < n; ++i) { S[i] = 5.f + 25.f * frand(seed); X[i] = 1.f + 99.f * frand(seed); T[i] = 0.25f + 9.75f * frand(seed); }
    int *dm = scratch<int>(w * h, err);
    float *dS = upload(S, err), *dX = upload(X, err), *dT = upload(T, err), *dc = scratch<float>(n, err), *dp = scratch<float>(n, err);
    CK(err);
    mandel<<<dim3(w / 32, h / 8), dim3(32, 8)>>>(w, h, maxit, x0, y0, dx, dy, dm);
    black_scholes<<<3, 128>>>(n, 0.02f, 0.3f, dS, dX, dT, dc, dp);
    auto m = download(dm, w * h, err); auto call = download(dc, n, err); auto put = download(dp, n, err); CK(err);
    int differ = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float cr = x0 + x * dx, ci = y0 + y * dy, zr = 0.f, zi = 0.f;
        int it = 0;
        while (it < maxit && zr * zr + zi * zi <= 4.f) { float t = zr * zr - zi * zi + cr; zi = 2.f * zr * zi + ci; zr = t; ++it; }
        if (m[y * w + x] != it) ++differ;   // rounding (fma contraction) moves a few points near the boundary
      }
    if (differ * 50 > w * h) fail("mandel", differ);
    for (int i = 0; i < n; ++i) {
      double s = S[i], x = X[i], t = T[i], sq = std::sqrt(t);
      double d1 = (std::log(s / x) + (0.02 + 0.5 * 0.3 * 0.3) * t) / (0.3 * sq), d2 = d1 - 0.3 * sq, e = std::exp(-0.02 * t);
      double wc = s * cnd_ref(d1) - x * e * cnd_ref(d2), wp = x * e * (1 - cnd_ref(d2)) - s * (1 - cnd_ref(d1));
      if (std::fabs(call[i] - wc) > 1e-4 * (s + x) || std::fabs(put[i] - wp) > 1e-4 * (s + x)) fail("black_scholes", i);
    }
  }
  if (bad) { printf("FAIL perf_mix: %d wrong values\n", bad); return 1; }
  printf("PASS perf_mix\n");
  return 0;
}
