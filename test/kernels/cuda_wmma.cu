// Warp matrix multiply-accumulate (nvcuda::wmma, <mma.h>): fragments loaded from global and shared memory in
// row- and column-major layouts, mma_sync with f32 and f16 accumulators on the three f16 shapes, fill_fragment,
// element-wise work on a fragment's elements, and (sm_80+) bf16, tf32, int8 and f64 fragments. Small integer
// data keeps every product and sum exact, so any order of accumulation gives the same bits.
#include <cstdio>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cuda_wmma: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

static float aval(int i, int k) { return (float)(((i * 3 + k) % 7) - 3); }
static float bval(int k, int j) { return (float)(((k + 2 * j) % 5) - 2); }
static float cval(int i, int j) { return (i - j) * 0.5f; }

// d = a (16x16, row-major) * b (16x16, column-major) + c (row-major); then d * 2 element-wise, stored row-major
__global__ void wmmaF32(const half *a, const half *b, const float *c, float *d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(acc, fa, fb, acc);
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] = acc.x[i] * 2.0f;
  wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

// m32n8k16 with an f16 accumulator that starts at zero; a staged through shared memory column-major
__global__ void wmmaF16(const half *a, const half *b, half *d) {
  __shared__ half sa[32 * 16];
  for (int t = threadIdx.x; t < 32 * 16; t += blockDim.x) { int i = t / 16, k = t % 16; sa[k * 32 + i] = a[t]; }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  wmma::load_matrix_sync(fa, sa, 32);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, 32, wmma::mem_col_major);   // column-major: 32 rows apart
}

// sm_80+: bf16 (m16n16k16), int8 (m16n16k16), f64 (m8n8k4); each writes its own block of out
__global__ void wmmaOther(const __nv_bfloat16 *abf, const __nv_bfloat16 *bbf, const signed char *a8, const signed char *b8,
                          const double *a64, const double *b64, float *obf, int *o8, double *o64) {
#if __CUDA_ARCH__ >= 800
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 1.0f);
  wmma::load_matrix_sync(fa, abf, 16);
  wmma::load_matrix_sync(fb, bbf, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(obf, acc, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> ia;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> ib;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> ic;
  wmma::fill_fragment(ic, -5);
  wmma::load_matrix_sync(ia, a8, 16);
  wmma::load_matrix_sync(ib, b8, 16);
  wmma::mma_sync(ic, ia, ib, ic);
  wmma::store_matrix_sync(o8, ic, 16, wmma::mem_col_major);

  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> da;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> db;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> dc;
  wmma::fill_fragment(dc, 0.25);
  wmma::load_matrix_sync(da, a64, 4);
  wmma::load_matrix_sync(db, b64, 4);
  wmma::mma_sync(dc, da, db, dc);
  wmma::store_matrix_sync(o64, dc, 8, wmma::mem_row_major);
#endif
}

int main() {
  int bad = 0;
  // f32 accumulator, m16n16k16
  {
    half ha[256], hb[256]; float hc[256], hd[256];
    for (int i = 0; i < 16; i++) for (int k = 0; k < 16; k++) ha[i * 16 + k] = __float2half(aval(i, k));
    for (int k = 0; k < 16; k++) for (int j = 0; j < 16; j++) hb[j * 16 + k] = __float2half(bval(k, j));   // column-major
    for (int i = 0; i < 16; i++) for (int j = 0; j < 16; j++) hc[i * 16 + j] = cval(i, j);
    half *da, *db; float *dc, *dd;
    CK(cudaMalloc(&da, sizeof(ha))); CK(cudaMalloc(&db, sizeof(hb))); CK(cudaMalloc(&dc, sizeof(hc))); CK(cudaMalloc(&dd, sizeof(hd)));
    CK(cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, hc, sizeof(hc), cudaMemcpyHostToDevice));
    wmmaF32<<<1, 32>>>(da, db, dc, dd);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++) for (int j = 0; j < 16; j++) {
      float s = cval(i, j);
      for (int k = 0; k < 16; k++) s += aval(i, k) * bval(k, j);
      if (hd[i * 16 + j] != 2 * s && bad++ < 5) printf("FAIL cuda_wmma: f32 [%d][%d] = %g, expected %g\n", i, j, hd[i * 16 + j], 2 * s);
    }
  }
  // f16 accumulator, m32n8k16
  {
    half ha[32 * 16], hb[16 * 8], hd[32 * 8];
    for (int i = 0; i < 32; i++) for (int k = 0; k < 16; k++) ha[i * 16 + k] = __float2half(aval(i, k));
    for (int k = 0; k < 16; k++) for (int j = 0; j < 8; j++) hb[k * 8 + j] = __float2half(bval(k, j));
    half *da, *db, *dd;
    CK(cudaMalloc(&da, sizeof(ha))); CK(cudaMalloc(&db, sizeof(hb))); CK(cudaMalloc(&dd, sizeof(hd)));
    CK(cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice));
    wmmaF16<<<1, 32>>>(da, db, dd);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) for (int j = 0; j < 8; j++) {
      float s = 0;
      for (int k = 0; k < 16; k++) s += aval(i, k) * bval(k, j);
      float got = __half2float(hd[j * 32 + i]);   // stored column-major
      if (got != s && bad++ < 5) printf("FAIL cuda_wmma: f16 [%d][%d] = %g, expected %g\n", i, j, got, s);
    }
  }
  int dev = 0, major = 0;
  CK(cudaGetDevice(&dev)); CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  if (major >= 8) {
    __nv_bfloat16 habf[256], hbbf[256]; signed char ha8[256], hb8[256]; double ha64[32], hb64[32];
    for (int i = 0; i < 16; i++) for (int k = 0; k < 16; k++) { habf[i * 16 + k] = __float2bfloat16(aval(i, k)); ha8[i * 16 + k] = (signed char)(aval(i, k) * 5); }
    for (int k = 0; k < 16; k++) for (int j = 0; j < 16; j++) { hbbf[k * 16 + j] = __float2bfloat16(bval(k, j)); hb8[j * 16 + k] = (signed char)(bval(k, j) * 7); }
    for (int i = 0; i < 8; i++) for (int k = 0; k < 4; k++) ha64[i * 4 + k] = aval(i, k) * 0.5;
    for (int k = 0; k < 4; k++) for (int j = 0; j < 8; j++) hb64[j * 4 + k] = bval(k, j) * 0.25;
    __nv_bfloat16 *dabf, *dbbf; signed char *da8, *db8; double *da64, *db64, *do64; float *dobf; int *do8;
    CK(cudaMalloc(&dabf, sizeof(habf))); CK(cudaMalloc(&dbbf, sizeof(hbbf))); CK(cudaMalloc(&da8, sizeof(ha8))); CK(cudaMalloc(&db8, sizeof(hb8)));
    CK(cudaMalloc(&da64, sizeof(ha64))); CK(cudaMalloc(&db64, sizeof(hb64)));
    CK(cudaMalloc(&dobf, 256 * sizeof(float))); CK(cudaMalloc(&do8, 256 * sizeof(int))); CK(cudaMalloc(&do64, 64 * sizeof(double)));
    CK(cudaMemcpy(dabf, habf, sizeof(habf), cudaMemcpyHostToDevice)); CK(cudaMemcpy(dbbf, hbbf, sizeof(hbbf), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(da8, ha8, sizeof(ha8), cudaMemcpyHostToDevice)); CK(cudaMemcpy(db8, hb8, sizeof(hb8), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(da64, ha64, sizeof(ha64), cudaMemcpyHostToDevice)); CK(cudaMemcpy(db64, hb64, sizeof(hb64), cudaMemcpyHostToDevice));
    wmmaOther<<<1, 32>>>(dabf, dbbf, da8, db8, da64, db64, dobf, do8, do64);
    CK(cudaGetLastError());
    float obf[256]; int o8[256]; double o64[64];
    CK(cudaMemcpy(obf, dobf, sizeof(obf), cudaMemcpyDeviceToHost)); CK(cudaMemcpy(o8, do8, sizeof(o8), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o64, do64, sizeof(o64), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++) for (int j = 0; j < 16; j++) {
      float s = 1; int n = -5;
      for (int k = 0; k < 16; k++) { s += aval(i, k) * bval(k, j); n += (int)(aval(i, k) * 5) * (int)(bval(k, j) * 7); }
      if (obf[i * 16 + j] != s && bad++ < 5) printf("FAIL cuda_wmma: bf16 [%d][%d] = %g, expected %g\n", i, j, obf[i * 16 + j], s);
      if (o8[j * 16 + i] != n && bad++ < 5) printf("FAIL cuda_wmma: s8 [%d][%d] = %d, expected %d\n", i, j, o8[j * 16 + i], n);
    }
    for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) {
      double s = 0.25;
      for (int k = 0; k < 4; k++) s += aval(i, k) * 0.5 * bval(k, j) * 0.25;
      if (o64[i * 8 + j] != s && bad++ < 5) printf("FAIL cuda_wmma: f64 [%d][%d] = %g, expected %g\n", i, j, o64[i * 8 + j], s);
    }
  }
  if (bad) return 1;
  printf("PASS cuda_wmma\n");
  return 0;
}
