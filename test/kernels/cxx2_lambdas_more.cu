// Lambdas beyond the basics: nested lambdas capturing from the enclosing function through the outer
// closure (by copy and by reference), lambdas in member functions capturing `this` explicitly and by
// default, init-captures (by value and by reference), and lambdas passed to function templates.
#include <cstdio>

struct Accumulator {
  int base, scale;
  __device__ int weighted(int v) const { return v * scale; }
  __device__ int run(int v) {
    auto viaThis = [this](int x) { return base + weighted(x); };
    auto viaCopy = [=](int x) { return this->base * x + scale; };
    auto viaRef = [&](int x) { base += x; return base; };
    int r = viaThis(v) + viaCopy(2);
    viaRef(3);
    auto nested = [this, v] { auto in = [&] { return scale * v; }; return in() + base; };
    return r + nested();
  }
};

template <typename F> __device__ int applyTwice(F f, int x) { return f(f(x)); }

__global__ void lambdasMore(const int *in, int *io) {
  int t = threadIdx.x;
  int a = in[t], b = in[(t + 3) % 32];
  auto outer = [=](int x) { auto inner = [=](int y) { return a * y + b; }; return inner(x) + a; };
  io[t * 8 + 0] = outer(3);                                  // 3a + b + a
  int c = a;
  auto byRef = [&](int x) { auto inc = [&] { c += x; }; inc(); inc(); return c; };
  io[t * 8 + 1] = byRef(2);                                  // a + 4
  int n = 5, d = b;
  auto init = [m = n * 2, &r = d](int x) { r += m; return m + x; };
  io[t * 8 + 2] = init(1) + d;                               // 11 + b + 10
  Accumulator acc{a, 3};
  io[t * 8 + 3] = acc.run(t);
  io[t * 8 + 4] = acc.base;                                  // a + 3
  io[t * 8 + 5] = applyTwice([k = b](int x) { return x + k; }, t);   // t + 2b
  auto counter = [count = 0]() mutable { return ++count; };
  counter(); counter();
  io[t * 8 + 6] = counter();                                 // 3
  io[t * 8 + 7] = [&] { return [=] { return a + b + c; }(); }();
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 5) % 17 - 8;
  int *din, *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 8 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  lambdasMore<<<1, T>>>(din, di);
  int hi[T * 8];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int a = hin[t], b = hin[(t + 3) % 32];
    // run(t): viaThis(t) = a + 3t; viaCopy(2) = 2a + 3; base becomes a + 3; nested = 3t + a + 3
    int run = (a + 3 * t) + (2 * a + 3) + (3 * t + a + 3);
    int e[8] = {4 * a + b, a + 4, 21 + b, run, a + 3, t + 2 * b, 3, a + b + a + 4};
    for (int k = 0; k < 8; k++) if (hi[t * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_lambdas_more: [%d][%d] = %d, expected %d\n", t, k, hi[t * 8 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_lambdas_more\n");
  return 0;
}
