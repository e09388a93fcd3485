// nvcc-flags: --extended-lambda
// Extended lambdas whose parameter and return types differ from the buffers': float -> int, int -> double,
// unsigned -> bool, and one returning a struct; the kernel template deduces the element types from its
// pointers. Closure types are numbered per parameter list (Z4mainEUlfE_, Z4mainEUliE_, Z4mainEUljE_, ...).
#include <cstdio>

struct Pair { int q; float r; };

template <typename F, typename T, typename R> __global__ void transform(F f, const T *in, R *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]);
}

int main() {
  const int N = 64;
  float hf[N]; int hi[N]; unsigned hu[N];
  for (int i = 0; i < N; i++) { hf[i] = 0.75f * i - 20.0f; hi[i] = 7 * i - 200; hu[i] = 37u * i * i; }
  float *df; int *di, *dq; unsigned *du; double *dd; bool *db; Pair *dp;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&di, sizeof(hi)); cudaMalloc(&du, sizeof(hu));
  cudaMalloc(&dq, N * sizeof(int)); cudaMalloc(&dd, N * sizeof(double)); cudaMalloc(&db, N * sizeof(bool)); cudaMalloc(&dp, N * sizeof(Pair));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice);
  cudaMemcpy(du, hu, sizeof(hu), cudaMemcpyHostToDevice);
  int step = 3; double half = 0.5; unsigned mask = 0x40u; short d = 6;
  transform<<<2, 32>>>([step] __device__ (float x) { return (int)x / step; }, df, dq, N);
  transform<<<2, 32>>>([=] __device__ (int v) { return v * half + step; }, di, dd, N);
  transform<<<2, 32>>>([mask] __device__ (unsigned u) { return (u & mask) != 0; }, du, db, N);
  transform<<<2, 32>>>([d] __host__ __device__ (int v) { return Pair{v / d, (float)(v % d) * 0.5f}; }, di, dp, N);
  int rq[N]; double rd[N]; bool rb[N]; Pair rp[N];
  cudaMemcpy(rq, dq, sizeof(rq), cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, dd, sizeof(rd), cudaMemcpyDeviceToHost);
  cudaMemcpy(rb, db, sizeof(rb), cudaMemcpyDeviceToHost);
  cudaMemcpy(rp, dp, sizeof(rp), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int wq = (int)hf[i] / step;
    double wd = hi[i] * half + step;
    bool wb = (hu[i] & mask) != 0;
    Pair wp = {hi[i] / d, (float)(hi[i] % d) * 0.5f};
    if (rq[i] != wq) { printf("FAIL cxx2_xlambda_types: q[%d] = %d, want %d\n", i, rq[i], wq); bad = 1; }
    if (rd[i] != wd) { printf("FAIL cxx2_xlambda_types: d[%d] = %f, want %f\n", i, rd[i], wd); bad = 1; }
    if (rb[i] != wb) { printf("FAIL cxx2_xlambda_types: b[%d] = %d, want %d\n", i, rb[i], wb); bad = 1; }
    if (rp[i].q != wp.q || rp[i].r != wp.r) { printf("FAIL cxx2_xlambda_types: p[%d] = {%d, %f}\n", i, rp[i].q, rp[i].r); bad = 1; }
  }
  if (bad) return 1;
  printf("PASS cxx2_xlambda_types\n");
  return 0;
}
