// RAII with templates and lambdas: a ScopeExit<F> guard holding a lambda that runs in its destructor
// (made by a factory function returning it by value), a scoped timer-like accumulator of clock-free
// "ticks", and nested atomic depth guards, all leaving scopes by every path.
#include <cstdio>

template <typename F> struct ScopeExit {
  F f;
  bool active;
  __device__ explicit ScopeExit(F fn) : f(fn), active(true) {}
  __device__ ~ScopeExit() { if (active) f(); }
  __device__ void dismiss() { active = false; }
};
template <typename F> __device__ ScopeExit<F> onExit(F f) { return ScopeExit<F>(f); }

struct Ticks {
  int *total; int start;
  __device__ Ticks(int *t, int now) : total(t), start(now) {}
  __device__ ~Ticks() { *total += 1000 - start; }
};

// Counts how deep the guards are nested (atomically, as a shared counter would be).
struct DepthGuard {
  int *depth;
  __device__ explicit DepthGuard(int *d) : depth(d) { atomicAdd(depth, 1); }
  __device__ ~DepthGuard() { atomicSub(depth, 1); }
};

__device__ int process(int *log, int v) {
  auto g = onExit([=] { *log = *log * 10 + 1; });
  if (v < 0) return -1;                       // the guard still runs
  auto h = onExit([=] { *log = *log * 10 + 2; });
  if (v == 0) { h.dismiss(); return 0; }      // only g runs
  return v;                                   // h then g
}

__global__ void scopeExit(const int *in, int *out, int *depths, int *shared) {
  int t = threadIdx.x;
  int *o = out + t * 4;
  o[0] = 0; o[2] = 0;
  o[1] = process(o, in[t]);
  for (int k = 0; k < 3; k++) {
    Ticks tk(o + 2, k * 100);
    if (k == 1) continue;
  }
  int *depth = depths + t;
  {
    DepthGuard a(depth);
    { DepthGuard b(depth); atomicAdd(shared, *depth * (t + 1)); }   // depth 2 here
  }
  o[3] = *depth;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = j % 3 == 0 ? 0 : (j % 3 == 1 ? -j : j);
  int *din, *dout, *dlock, *dshared;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 4 * sizeof(int)); cudaMalloc(&dlock, T * sizeof(int)); cudaMalloc(&dshared, sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  cudaMemset(dlock, 0, T * sizeof(int)); cudaMemset(dshared, 0, sizeof(int));
  scopeExit<<<1, T>>>(din, dout, dlock, dshared);
  int h[T * 4], sh = 0;
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(&sh, dshared, sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int log = v < 0 ? 1 : v == 0 ? 1 : 21;
    int e[4] = {log, v < 0 ? -1 : v, 3000 - 300, 0};
    for (int k = 0; k < 4; k++) if (h[t * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_scope_exit: [%d][%d] = %d, expected %d\n", t, k, h[t * 4 + k], e[k]); }
  }
  if (sh != T * (T + 1)) { bad++; printf("FAIL cxx2_scope_exit: shared = %d\n", sh); }
  if (bad) return 1;
  printf("PASS cxx2_scope_exit\n");
  return 0;
}
