// Virtual calls in a loop over objects of several derived types chosen per thread, a template base with
// a virtual member, a non-virtual base member that calls a virtual one (template method), and virtual
// calls made during construction and destruction (they bind to the class being built or torn down).
#include <cstdio>

struct Op {
  int calls;
  __device__ Op() : calls(0) {}
  __device__ virtual int apply(int x) = 0;
  __device__ virtual int rank() const { return 1; }
  // the template method: fixed steps around a virtual one
  __device__ int run(int x, int n) { for (int k = 0; k < n; k++) { x = apply(x); calls++; } return x * rank(); }
};
struct Add : Op { int d; __device__ explicit Add(int v) : d(v) {} __device__ int apply(int x) override { return x + d; } };
struct Mul : Op { int m; __device__ explicit Mul(int v) : m(v) {} __device__ int apply(int x) override { return x * m % 1000; } __device__ int rank() const override { return 2; } };
struct Xor final : Op { __device__ int apply(int x) override { return x ^ 0x55; } __device__ int rank() const override { return 3; } };

template <typename T> struct Source {
  __device__ virtual T next() = 0;
};
template <typename T> struct Ramp : Source<T> {
  T v, step;
  __device__ Ramp(T a, T s) : v(a), step(s) {}
  __device__ T next() override { T r = v; v += step; return r; }
};

// records which class's hook ran while an object was built and destroyed
struct Logged {
  int *log;
  __device__ explicit Logged(int *l) : log(l) { hook(); }
  __device__ virtual ~Logged() { hook(); }
  __device__ virtual void hook() { *log = *log * 10 + 1; }
  __device__ void poke() { hook(); }
};
struct LoggedMore : Logged {
  __device__ explicit LoggedMore(int *l) : Logged(l) { hook(); }
  __device__ ~LoggedMore() override { hook(); }
  __device__ void hook() override { *log = *log * 10 + 2; }
};

__device__ __noinline__ int drive(Op *op, int x, int n) { return op->run(x, n); }
template <typename T> __device__ __noinline__ T sum3(Source<T> &s) { T a = s.next(); T b = s.next(); return a + b + s.next(); }
__device__ __noinline__ void pokeAll(Logged *l) { l->poke(); }

__global__ void virtualLoop(const int *in, int *out) {
  int t = threadIdx.x;
  int x = in[t];
  Add add(t);
  Mul mul(3);
  Xor xo;
  Op *ops[3] = {&add, &mul, &xo};
  int acc = x;
  for (int k = 0; k < 6; k++) {
    Op *op = ops[(k + t) % 3];
    acc = op->apply(acc) + op->rank();
  }
  out[t * 6 + 0] = acc;
  out[t * 6 + 1] = drive(ops[t % 3], x, 1 + t % 4) + add.calls + mul.calls * 10 + xo.calls * 100;
  Ramp<int> ri(x, t);
  Ramp<float> rf(0.5f * x, 0.25f);
  out[t * 6 + 2] = sum3(ri);
  out[t * 6 + 3] = (int)(sum3(rf) * 4.0f);
  int log = 0;
  { LoggedMore lm(&log); pokeAll(&lm); }
  out[t * 6 + 4] = log;
  int log2 = 0;
  { Logged l(&log2); pokeAll(&l); }
  out[t * 6 + 5] = log2;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 7) % 13 - 6;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 6 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  virtualLoop<<<1, T>>>(din, dout);
  int h[T * 6];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int x = hin[t];
    int acc = x;
    for (int k = 0; k < 6; k++) {
      int w = (k + t) % 3;
      if (w == 0) acc = acc + t + 1;
      else if (w == 1) acc = acc * 3 % 1000 + 2;
      else acc = (acc ^ 0x55) + 3;
    }
    int n = 1 + t % 4, w = t % 3, y = x;
    for (int k = 0; k < n; k++) y = w == 0 ? y + t : w == 1 ? y * 3 % 1000 : y ^ 0x55;
    int drv = y * (w + 1) + (w == 0 ? n : w == 1 ? n * 10 : n * 100);
    int si = x + (x + t) + (x + 2 * t);
    float a = 0.5f * x;
    int sf = (int)((a + (a + 0.25f) + (a + 0.5f)) * 4.0f);
    int e[6] = {acc, drv, si, sf, 12221, 111};
    for (int k = 0; k < 6; k++) if (h[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_virtual_loop: [%d][%d] = %d, expected %d\n", t, k, h[t * 6 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_virtual_loop\n");
  return 0;
}
