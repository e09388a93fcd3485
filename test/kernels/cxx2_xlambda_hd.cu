// nvcc-flags: --extended-lambda
// Extended __host__ __device__ lambdas passed to a kernel template: the device side sees cudafe++'s
// __nv_hdl_wrapper_t (the captures, then 8 more bytes: 16 bytes for one float captured), a captureless one
// (1 byte), a char and a float4 (48 bytes, align 16: the size rounded to the closure's alignment), mutable and noexcept ones (the wrapper's flags, in the stub's Unvhdl names), and a trailing return
// type. The same closures are also called on the host, which checks the device results.
#include <cstdio>

struct Range { float lo, hi; char tag; };

template <typename F> __global__ void apply(F f, float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = f(p[i]);
}

int main() {
  const int N = 64;
  float h[N], r[N];
  for (int i = 0; i < N; i++) h[i] = 0.5f * i - 9.0f;
  float *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  float s = 0.75f;
  Range rg = {-4.0f, 6.0f, 2};
  auto scale = [s] __host__ __device__ (float x) { return x * s; };
  auto clampTo = [rg, s] __host__ __device__ (float x) -> float { return (x < rg.lo ? rg.lo : x > rg.hi ? rg.hi : x) + rg.tag * s; };
  auto twice = [] __host__ __device__ (float x) { return 2.0f * x + 1.0f; };
  auto bumped = [=] __host__ __device__ (float x) mutable { s += 1.0f; return x + s; };
  auto safe = [rg] __host__ __device__ (float x) noexcept { return x * rg.hi; };
  char tg = 3;
  float4 q4 = make_float4(0.5f, 1.0f, 1.5f, 2.0f);
  auto wide = [tg, q4] __host__ __device__ (float x) { return x * q4.w + q4.x - tg; };
  apply<<<2, 32>>>(scale, d, N);
  apply<<<2, 32>>>(clampTo, d, N);
  apply<<<2, 32>>>(twice, d, N);
  apply<<<2, 32>>>(bumped, d, N);
  apply<<<2, 32>>>(safe, d, N);
  apply<<<2, 32>>>(wide, d, N);
  cudaMemcpy(r, d, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    auto b = bumped;   // each thread starts from the captured copy
    float w = wide(safe(b(twice(clampTo(scale(h[i]))))));
    if (r[i] != w) { printf("FAIL cxx2_xlambda_hd: p[%d] = %f, want %f\n", i, r[i], w); bad = 1; }
  }
  if (bad) return 1;
  printf("PASS cxx2_xlambda_hd\n");
  return 0;
}
