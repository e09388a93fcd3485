// References (lvalue, rvalue, const) as parameters, locals and returns; auto; range-based for over
// arrays; constexpr functions and variables where a constant is required.
#include <cstdio>

__host__ __device__ constexpr int square(int x) { return x * x; }
constexpr int N = square(4);            // 16
static_assert(N == 16, "constexpr function at namespace scope");

__device__ __noinline__ void swapRef(int &a, int &b) { int t = a; a = b; b = t; }
__device__ __noinline__ float sumRef(const float &a, const float &b) { return a + b; }
__device__ int &pick(int *p, int i) { return p[i]; }
__device__ __noinline__ int takeRvalue(int &&x) { x += 1; return x; }
__device__ const int &maxRef(const int &a, const int &b) { return a > b ? a : b; }

struct Pair { int a; float b; };
__device__ __noinline__ void bump(Pair &p) { p.a += 1; p.b *= 2.0f; }

__global__ void refs(int *out, float *fout) {
  int i = threadIdx.x;
  int x = i, y = 100 + i;
  swapRef(x, y);
  int &r = x;
  r += 1;                              // x = 101 + i
  pick(out, i * 8 + 7) = -1;           // a reference return used as an lvalue (overwritten below)
  int local[N];
  for (int k = 0; k < N; k++) local[k] = k;
  int s = 0;
  for (int v : local) s += v;          // 120
  for (auto &v : local) v *= 2;
  int s2 = 0;
  for (const auto &v : local) s2 += v; // 240
  auto z = x + y;                      // auto → int
  auto f = 1.5f;                       // auto → float
  const auto &m = maxRef(x, y);
  Pair p = {i, 1.0f};
  bump(p);
  int rv = takeRvalue(i * 2);
  constexpr int K = square(3);
  int arr[K];
  arr[K - 1] = 7;
  out[i * 8 + 0] = x;
  out[i * 8 + 1] = y;
  out[i * 8 + 2] = s;
  out[i * 8 + 3] = s2;
  out[i * 8 + 4] = z;
  out[i * 8 + 5] = m;
  out[i * 8 + 6] = p.a + rv + arr[8];
  out[i * 8 + 7] = sizeof(local) / sizeof(local[0]);
  fout[i] = sumRef(f, p.b);
}

int main() {
  const int T = 32;
  int *d; float *df;
  cudaMalloc(&d, T * 8 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  refs<<<1, T>>>(d, df);
  int h[T * 8]; float hf[T];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int e[8] = {101 + i, i, 120, 240, 101 + 2 * i, 101 + i, (i + 1) + (2 * i + 1) + 7, 16};
    for (int k = 0; k < 8; k++) if (h[i * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_refs: out[%d][%d] = %d, expected %d\n", i, k, h[i * 8 + k], e[k]); }
    if (hf[i] != 3.5f) { if (bad++ < 5) printf("FAIL cxx_refs: fout[%d] = %f\n", i, hf[i]); }
  }
  if (bad) return 1;
  printf("PASS cxx_refs\n");
  return 0;
}
