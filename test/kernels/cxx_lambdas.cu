// Lambdas in device code: captures by copy and by reference (default and explicit), parameters,
// deduced and trailing return types, mutable, and a lambda passed to a device function template.
#include <cstdio>

template <typename F> __device__ int applyTwice(F f, int x) { return f(f(x)); }
template <typename F> __device__ void forEach(int *p, int n, F f) { for (int i = 0; i < n; i++) p[i] = f(p[i], i); }

__global__ void lambdas(int *out, float *fout) {
  int i = threadIdx.x;
  int base = 10 * i;
  auto addBase = [=](int v) { return v + base; };
  int counter = 0;
  auto bump = [&counter](int by) { counter += by; };
  bump(2); bump(3);                                  // counter = 5
  auto scale = [base](float v) -> float { return v * 0.5f + base; };
  int state = 1;
  auto next = [state]() mutable { state *= 2; return state; };
  next();
  int n2 = next();                                   // 4 (state in the closure)
  int arr[4] = {1, 2, 3, 4};
  forEach(arr, 4, [&](int v, int k) { return v * k + counter; });   // v*k + 5
  out[i * 6 + 0] = addBase(7);                       // 10i + 7
  out[i * 6 + 1] = counter;                          // 5
  out[i * 6 + 2] = applyTwice([](int v) { return v * 3; }, i);      // 9i
  out[i * 6 + 3] = n2 + state;                       // 4 + 1
  out[i * 6 + 4] = arr[0] + arr[1] + arr[2] + arr[3];               // 0+2+6+12 + 20 = 40
  out[i * 6 + 5] = [&] { return base + i; }();       // 11i
  fout[i] = scale(4.0f);                             // 2 + 10i
}

int main() {
  const int T = 32;
  int *d; float *df;
  cudaMalloc(&d, T * 6 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  lambdas<<<1, T>>>(d, df);
  int h[T * 6]; float hf[T];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int e[6] = {10 * i + 7, 5, 9 * i, 5, 40, 11 * i};
    for (int k = 0; k < 6; k++) if (h[i * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_lambdas: out[%d][%d] = %d, expected %d\n", i, k, h[i * 6 + k], e[k]); }
    if (hf[i] != 2.0f + 10 * i) { if (bad++ < 5) printf("FAIL cxx_lambdas: f[%d] = %f\n", i, hf[i]); }
  }
  if (bad) return 1;
  printf("PASS cxx_lambdas\n");
  return 0;
}
