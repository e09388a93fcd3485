// Lambdas passed to device function templates that are not inlined: the specialisations are named after
// the closure types (Z<kernel>EUl<params>E[n]_, counted per parameter list in the kernel), as cicc names
// them; captures by value and by reference, and lambdas of two parameter lists.
#include <cstdio>

template <typename F> __device__ __noinline__ float applyTwice(F f, float x) { return f(f(x)); }
template <typename F> __device__ __noinline__ int applyInt(F f, int x) { return f(x) * 2; }

__global__ void lambdaNames(float *p, int *q, float s) {
  int t = threadIdx.x;
  int bump = t % 3;
  auto scale = [s](float x) { return x * s; };
  auto inc = [](float x) { return x + 1.0f; };
  auto addT = [&bump](int x) { return x + bump; };
  p[t] = applyTwice(scale, p[t]) + applyTwice(inc, 2.0f);
  q[t] = applyInt(addT, q[t]) + applyInt([](int x) { return -x; }, t);
}

int main() {
  const int N = 32;
  float hp[N], rp[N]; int hq[N], rq[N];
  for (int i = 0; i < N; i++) { hp[i] = 0.5f * i - 4.0f; hq[i] = 3 * i - 20; }
  float *dp; int *dq;
  cudaMalloc(&dp, sizeof(hp)); cudaMalloc(&dq, sizeof(hq));
  cudaMemcpy(dp, hp, sizeof(hp), cudaMemcpyHostToDevice);
  cudaMemcpy(dq, hq, sizeof(hq), cudaMemcpyHostToDevice);
  lambdaNames<<<1, N>>>(dp, dq, 1.5f);
  cudaMemcpy(rp, dp, sizeof(rp), cudaMemcpyDeviceToHost);
  cudaMemcpy(rq, dq, sizeof(rq), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float wp = hp[i] * 1.5f * 1.5f + 4.0f;
    int wq = (hq[i] + i % 3) * 2 + (-i) * 2;
    if (rp[i] != wp) { printf("FAIL cxx2_lambda_names: p[%d] = %f, want %f\n", i, rp[i], wp); bad = 1; }
    if (rq[i] != wq) { printf("FAIL cxx2_lambda_names: q[%d] = %d, want %d\n", i, rq[i], wq); bad = 1; }
  }
  if (bad) return 1;
  printf("PASS cxx2_lambda_names\n");
  return 0;
}
