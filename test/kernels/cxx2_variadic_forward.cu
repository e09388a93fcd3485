// Forwarding parameter packs: a factory constructing any class from its arguments, forwarding references
// `Ts &&...` with static_cast<Ts &&>, a functor applied to a pack, variadic member function templates,
// explicit pack arguments `f<Ts...>` and a pack of pointers.
#include <cstdio>

struct Point { int x, y; __device__ Point(int a, int b) : x(a), y(b) {} };
struct Box3 { float w, h, d; __device__ Box3(float a, float b, float c) : w(a), h(b), d(c) {} __device__ float volume() const { return w * h * d; } };

template <typename T, typename... Args> __device__ T make(Args... args) { return T(args...); }

__device__ void bump(int &r) { r += 10; }
__device__ int bumpC(const int &r) { return r + 1000; }
template <typename F, typename... Ts> __device__ void forwardTo(F f, Ts &&... xs) { f(static_cast<Ts &&>(xs)...); }
struct AddAll { int *out; template <typename... Ts> __device__ void operator()(Ts... xs) const { *out = (xs + ... + 0); } };

struct Recorder {
  int n, total;
  template <typename... Ts> __device__ Recorder &put(Ts... xs) { n += sizeof...(xs); total += (0 + ... + xs); return *this; }
};

template <typename... Ts> __device__ int sizes() { return (0 + ... + (int)sizeof(Ts)); }
template <typename... Ts> __device__ int sizesOf(Ts...) { return sizes<Ts...>(); }
template <typename... Ts> __device__ int sumThrough(Ts *... ps) { return (*ps + ...); }

__global__ void variadicForward(const int *in, int *io, float *fo) {
  int i = threadIdx.x;
  int a = in[i], b = in[(i + 4) % 32];
  Point p = make<Point>(a, b);
  io[i * 8 + 0] = p.x * 100 + p.y;
  int r = a;
  forwardTo([](int &v) { bump(v); }, r);               // r += 10
  io[i * 8 + 1] = r;
  int s = 0;
  forwardTo(AddAll{&s}, a, b, 3);
  io[i * 8 + 2] = s;
  Recorder rec{0, 0};
  rec.put(a).put(b, 1, 2).put();
  io[i * 8 + 3] = rec.n * 1000 + rec.total;
  io[i * 8 + 4] = sizesOf('c', 1, 2.0, (short)3);       // 1 + 4 + 8 + 2
  io[i * 8 + 5] = sizes<>() + sizes<int, char>();
  int x = a, y = b, z = 5;
  io[i * 8 + 6] = sumThrough(&x, &y, &z);
  io[i * 8 + 7] = bumpC(static_cast<const int &>(a));
  fo[i] = make<Box3>(0.5f * a, 2.0f, 1.5f).volume();
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 9) % 14 - 6;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 8 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  variadicForward<<<1, T>>>(din, di, df);
  int hi[T * 8]; float hf[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int a = hin[i], b = hin[(i + 4) % 32];
    int e[8] = {a * 100 + b, a + 10, a + b + 3, 4 * 1000 + a + b + 3, 15, 5, a + b + 5, a + 1000};
    for (int k = 0; k < 8; k++) if (hi[i * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_variadic_forward: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 8 + k], e[k]); }
    float ef = 0.5f * a * 2.0f * 1.5f;
    if (hf[i] != ef) { if (bad++ < 5) printf("FAIL cxx2_variadic_forward: f[%d] = %f, expected %f\n", i, hf[i], ef); }
  }
  if (bad) return 1;
  printf("PASS cxx2_variadic_forward\n");
  return 0;
}
