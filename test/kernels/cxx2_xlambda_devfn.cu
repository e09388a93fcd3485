// nvcc-flags: --extended-lambda
// Extended lambdas passed through a kernel template to __device__ function templates it calls (kept out of
// line: their names carry the closure type, Z4mainEUlfE_ as in the kernel's), by value and by reference,
// with a __host__ __device__ lambda among them; a kernel taking two closures (the stub's name refers back to the
// first one's parts through substitutions: ...Z4mainEUnvhdl0_0_0_1_S1_4main2_ffEf...).
#include <cstdio>

template <typename F> __device__ __noinline__ float twice(F f, float x) { return f(f(x)); }
template <typename F> __device__ __noinline__ float sumOver(const F &f, const float *p, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++) s += f(p[j]);
  return s;
}

template <typename F> __global__ void reduceWith(F f, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = twice(f, in[i]) + sumOver(f, in, i % 5);
}

template <typename F, typename G> __global__ void compose(F f, G g, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = g(f(in[i]));
}

int main() {
  const int N = 64;
  float h[N], r[3 * N];
  for (int i = 0; i < N; i++) h[i] = 0.125f * i - 2.0f;
  float *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  float a = 1.25f, b = -0.5f;
  auto lin = [a, b] __device__ (float x) { return a * x + b; };
  auto sq = [b] __host__ __device__ (float x) { return x * x + b; };
  reduceWith<<<2, 32>>>(lin, din, dout, N);
  reduceWith<<<2, 32>>>(sq, din, dout + N, N);
  compose<<<2, 32>>>(lin, sq, din, dout + 2 * N, N);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    auto hlin = [a, b](float x) { return a * x + b; };
    float s0 = 0.0f, s1 = 0.0f;
    for (int j = 0; j < i % 5; j++) { s0 += hlin(h[j]); s1 += sq(h[j]); }
    float w0 = hlin(hlin(h[i])) + s0, w1 = sq(sq(h[i])) + s1;
    if (r[i] != w0) { printf("FAIL cxx2_xlambda_devfn: lin[%d] = %f, want %f\n", i, r[i], w0); bad = 1; }
    if (r[N + i] != w1) { printf("FAIL cxx2_xlambda_devfn: sq[%d] = %f, want %f\n", i, r[N + i], w1); bad = 1; }
    if (r[2 * N + i] != sq(hlin(h[i]))) { printf("FAIL cxx2_xlambda_devfn: compose[%d] = %f\n", i, r[2 * N + i]); bad = 1; }
  }
  if (bad) return 1;
  printf("PASS cxx2_xlambda_devfn\n");
  return 0;
}
