// The second set of gpu-perf kernels (included by perf.cu, one translation unit): loop nests over run-time bounds,
// GEMM variants, reductions, a scan, a sort, histograms, sparse matrix-vector products, transcendental-heavy code.
// Their host checks and timings are in benches2.cuh.

// ---------------------------------------------------------------- linear algebra

// one thread per element, the k loop over the run-time n
__global__ void sgemm_naive(int n, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C) {
  int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  float acc = 0.f;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

// 64x64 block tile, 256 threads, each a 4x4 register block; k tiles of 16 staged in shared memory
__global__ void sgemm_regblock(int n, const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C) {
  const int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
  __shared__ float As[BK][BM], Bs[BK][BN];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;
  }
  for (int t = 0; t < n; t += BK) {
    for (int l = threadIdx.x; l < BM * BK; l += blockDim.x) { int r = l / BK, k = l % BK; As[k][r] = A[(row0 + r) * n + t + k]; }
    for (int l = threadIdx.x; l < BK * BN; l += blockDim.x) { int k = l / BN, c = l % BN; Bs[k][c] = B[(t + k) * n + col0 + c]; }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = As[k][ty * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = Bs[k][tx * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) C[(row0 + ty * TM + i) * n + col0 + tx * TN + j] = acc[i][j];
  }
}

// one warp per row
__global__ void sgemv_warp(int rows, int cols, const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (warp >= rows) return;
  const float *a = A + (size_t)warp * cols;
  float s = 0.f;
  for (int j = lane; j < cols; j += 32) s += a[j] * x[j];
  s = warp_sum(s);
  if (lane == 0) y[warp] = s;
}

// y = A^T x: one thread per column over a slice of rowsPer rows, slices added with atomics
__global__ void sgemv_t(int rows, int cols, int rowsPer, const float *__restrict__ A, const float *__restrict__ x, float *y) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  int r0 = blockIdx.y * rowsPer, r1 = min(rows, r0 + rowsPer);
  float s = 0.f;
  for (int r = r0; r < r1; ++r) s += A[(size_t)r * cols + j] * x[r];
  atomicAdd(&y[j], s);
}

__global__ void transpose_tiled(int w, int h, const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float t[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += blockDim.y)
    if (x < w && y + j < h) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += blockDim.y)
    if (x < h && y + j < w) out[(size_t)(y + j) * h + x] = t[threadIdx.x][threadIdx.y + j];
}

// ---------------------------------------------------------------- stencils and filters

// 7-point stencil: a thread per (x, y) column walks z over the run-time depth
__global__ void stencil7(int nx, int ny, int nz, float c0, float c1, const float *__restrict__ in, float *__restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
  size_t plane = (size_t)nx * ny;
  for (int z = 1; z < nz - 1; ++z) {
    size_t i = z * plane + (size_t)y * nx + x;
    out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane]);
  }
}

// (2r+1)^2 convolution with a run-time radius, edges clamped
__global__ void conv2d(int w, int h, int r, const float *__restrict__ in, const float *__restrict__ filt, float *__restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int fw = 2 * r + 1;
  float acc = 0.f;
  for (int dy = -r; dy <= r; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -r; dx <= r; ++dx) {
      int xx = min(max(x + dx, 0), w - 1);
      acc += filt[(dy + r) * fw + dx + r] * in[yy * w + xx];
    }
  }
  out[y * w + x] = acc;
}

// FIR filter with a run-time tap count; the taps are staged in shared memory
__global__ void fir1d(int n, int taps, const float *__restrict__ x, const float *__restrict__ h, float *__restrict__ y) {
  extern __shared__ float hs[];
  for (int t = threadIdx.x; t < taps; t += blockDim.x) hs[t] = h[t];
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + taps <= n; i += gridDim.x * blockDim.x) {
    float s = 0.f;
    for (int t = 0; t < taps; ++t) s += hs[t] * x[i + t];
    y[i] = s;
  }
}

// ---------------------------------------------------------------- reductions, scan, sort, histogram

// shared-memory tree over blockDim.x (wrapping unsigned sum)
__global__ void reduce_tree(int n, const unsigned *__restrict__ x, unsigned *out) {
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

__device__ __forceinline__ double warp_sum_d(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__global__ void dot_double(int n, const double *__restrict__ x, const double *__restrict__ y, double *out) {
  __shared__ double part[32];
  double s = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i] * y[i];
  s = warp_sum_d(s);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.0;
    s = warp_sum_d(s);
    if (threadIdx.x == 0) atomicAdd(out, s);
  }
}

// each block scans its blockDim.x * ITEMS elements: a sequential scan per thread, then Hillis-Steele over the
// thread totals (double-buffered in 2 * blockDim.x ints of dynamic shared memory)
template <int ITEMS>
__global__ void scan_smem(const int *__restrict__ in, int *__restrict__ out) {
  extern __shared__ int tot[];
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
  int v[ITEMS];
  int run = 0;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) { run += in[base + k]; v[k] = run; }
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
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) out[base + k] = v[k] + excl;
}

// one compare-exchange step of a global bitonic sort (ascending)
__global__ void bitonic_step(unsigned *a, int j, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, ixj = i ^ (unsigned)j;
  if (ixj > i) {
    unsigned x = a[i], y = a[ixj];
    bool up = (i & (unsigned)k) == 0;
    if ((x > y) == up) { a[i] = y; a[ixj] = x; }
  }
}

// 1024 bins of floats in [0, 1), counted in shared memory
__global__ void hist1024(int n, const float *__restrict__ x, unsigned *__restrict__ bins) {
  __shared__ unsigned local[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int b = min(max((int)(x[i] * 1024.f), 0), 1023);
    atomicAdd(&local[b], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    if (local[i]) atomicAdd(&bins[i], local[i]);
}

// ---------------------------------------------------------------- sparse

__global__ void spmv_csr_scalar(int rows, const int *__restrict__ rowptr, const int *__restrict__ col, const float *__restrict__ val,
                                const float *__restrict__ x, float *__restrict__ y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int e = rowptr[r]; e < rowptr[r + 1]; ++e) s += val[e] * x[col[e]];
  y[r] = s;
}

__global__ void spmv_csr_vector(int rows, const int *__restrict__ rowptr, const int *__restrict__ col, const float *__restrict__ val,
                                const float *__restrict__ x, float *__restrict__ y) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r >= rows) return;
  float s = 0.f;
  for (int e = rowptr[r] + lane; e < rowptr[r + 1]; e += 32) s += val[e] * x[col[e]];
  s = warp_sum(s);
  if (lane == 0) y[r] = s;
}

// ---------------------------------------------------------------- transcendental-heavy

__global__ void transcend2(int n, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float v = x[i];
    y[i] = tanhf(v) + powf(fabsf(v) + 1.f, 1.5f) + atan2f(v, 1.f + v * v) + erff(0.5f * v) + exp2f(-fabsf(v)) + log10f(fabsf(v) + 0.5f);
  }
}

__global__ void transcend_d(int n, const double *__restrict__ x, double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  y[i] = exp(-v * v) * sin(3.0 * v) + log(1.0 + v * v) + sqrt(fabs(v)) * cos(v);
}

__host__ __device__ inline float cnd_poly(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
  const float RSQRT2PI = 0.39894228040143267794f;
  float k = 1.f / (1.f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * expf(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  return d > 0.f ? 1.f - c : c;
}

__global__ void black_scholes(int n, float r, float vol, const float *__restrict__ S, const float *__restrict__ X, const float *__restrict__ T,
                              float *__restrict__ call, float *__restrict__ put) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float s = S[i], x = X[i], t = T[i], sq = sqrtf(t);
    float d1 = (logf(s / x) + (r + 0.5f * vol * vol) * t) / (vol * sq), d2 = d1 - vol * sq;
    float e = expf(-r * t), c1 = cnd_poly(d1), c2 = cnd_poly(d2);
    call[i] = s * c1 - x * e * c2;
    put[i] = x * e * (1.f - c2) - s * (1.f - c1);
  }
}

// softmax of each row: block-wide max and sum through warp shuffles and shared memory
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}

__device__ float block_all(float v, bool isMax, float *part) {
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  v = isMax ? warp_max(v) : warp_sum(v);
  if (lane == 0) part[w] = v;
  __syncthreads();
  if (w == 0) {
    float id = isMax ? -3.4e38f : 0.f;
    v = lane < (int)(blockDim.x >> 5) ? part[lane] : id;
    v = isMax ? warp_max(v) : warp_sum(v);
    if (lane == 0) part[32] = v;
  }
  __syncthreads();
  v = part[32];
  __syncthreads();
  return v;
}

__global__ void softmax_rows(int rows, int cols, const float *__restrict__ x, float *__restrict__ y) {
  __shared__ float part[33];
  const float *xr = x + (size_t)blockIdx.x * cols;
  float *yr = y + (size_t)blockIdx.x * cols;
  float m = -3.4e38f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) m = fmaxf(m, xr[j]);
  m = block_all(m, true, part);
  float s = 0.f;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) s += expf(xr[j] - m);
  s = block_all(s, false, part);
  float inv = 1.f / s;
  for (int j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = expf(xr[j] - m) * inv;
}

// ---------------------------------------------------------------- control-heavy and integer

__global__ void mandelbrot(int w, int h, int maxit, float x0, float y0, float dx, float dy, int *__restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float cr = x0 + x * dx, ci = y0 + y * dy, zr = 0.f, zi = 0.f;
  int it = 0;
  while (it < maxit && zr * zr + zi * zi <= 4.f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.f * zr * zi + ci;
    zr = t;
    ++it;
  }
  out[y * w + x] = it;
}

// nearest of k centroids (staged in shared memory) for points stored dimension-major
__global__ void kmeans_assign(int n, int k, int d, const float *__restrict__ pts, const float *__restrict__ cent, int *__restrict__ out) {
  extern __shared__ float cs[];
  for (int i = threadIdx.x; i < k * d; i += blockDim.x) cs[i] = cent[i];
  __syncthreads();
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  float best = 3.4e38f;
  int bi = 0;
  for (int j = 0; j < k; ++j) {
    float s = 0.f;
    for (int q = 0; q < d; ++q) { float t = pts[(size_t)q * n + p] - cs[j * d + q]; s += t * t; }
    if (s < best) { best = s; bi = j; }
  }
  out[p] = bi;
}

// one k step of Floyd-Warshall (row and column k do not change during step k)
__global__ void floyd_step(int n, int k, int *d) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= n) return;
  int via = d[i * n + k] + d[k * n + j];
  if (via < d[i * n + j]) d[i * n + j] = via;
}

__host__ __device__ inline unsigned mix_round(unsigned x, unsigned r) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x + r;
}

__global__ void hash_mix(int n, int rounds, unsigned *__restrict__ out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned x = (unsigned)i;
    for (int r = 0; r < rounds; ++r) x = mix_round(x, (unsigned)r);
    out[i] = x;
  }
}

__constant__ float c_poly[32];

// Horner over a run-time degree, coefficients in constant memory
__global__ void poly_horner(int n, int deg, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float v = x[i], s = c_poly[deg];
    for (int j = deg - 1; j >= 0; --j) s = s * v + c_poly[j];
    y[i] = s;
  }
}
