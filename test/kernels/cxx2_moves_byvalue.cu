// Classes with user move (and copy) constructors passed and returned by value: a move-only buffer on the
// device heap returned from a factory and passed by value with std::move and static_cast<T&&>, a
// parameter returned by name (moved, never elided), a type with both copy and move constructors where
// lvalues copy and xvalues move, move assignment chosen over copy assignment for an xvalue, and std::forward.
#include <cstdio>
#include <utility>

struct Buf {
  int *p; int n;
  __device__ explicit Buf(int k) : p(new int[k]), n(k) { for (int i = 0; i < k; i++) p[i] = i + 1; }
  __device__ Buf(Buf &&o) : p(o.p), n(o.n) { o.p = nullptr; o.n = 0; }
  Buf(const Buf &) = delete;
  __device__ Buf &operator=(Buf &&o) { int *t = p; p = o.p; o.p = t; int m = n; n = o.n; o.n = m; return *this; }
  __device__ ~Buf() { delete[] p; }
  __device__ int sum() const { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
};

struct Track {
  int v, copies, moves;
  __device__ explicit Track(int x) : v(x), copies(0), moves(0) {}
  __device__ Track(const Track &o) : v(o.v), copies(o.copies + 1), moves(o.moves) {}
  __device__ Track(Track &&o) : v(o.v), copies(o.copies), moves(o.moves + 1) { o.v = -1; }
  __device__ Track &operator=(const Track &o) { v = o.v; copies = o.copies + 10; moves = o.moves; return *this; }
  __device__ Track &operator=(Track &&o) { v = o.v; copies = o.copies; moves = o.moves + 10; o.v = -2; return *this; }
  __device__ int code() const { return v * 100 + copies * 10 + moves; }
};

__device__ __noinline__ Buf make(int k) { Buf b(k); b.p[0] = 10; return b; }
__device__ __noinline__ int consume(Buf b) { return b.sum() * 10 + b.n; }
__device__ __noinline__ Track pass(Track t) { t.v += 1; return t; }          // a parameter: always moved out
__device__ __noinline__ int look(Track t) { return t.code(); }
template <class T> __device__ int relay(T &&x) { return look(std::forward<T>(x)); }

__global__ void movesByValue(const int *in, int *out) {
  int t = threadIdx.x;
  int k = in[t];
  int *o = out + t * 10;
  Buf a = make(k);
  o[0] = a.sum();
  Buf c(static_cast<Buf &&>(a));
  o[1] = a.n * 100 + c.n;
  o[2] = consume(std::move(c)) * 10 + c.n;
  o[3] = consume(make(2));
  Buf d(3);
  d = make(k + 1);
  o[4] = d.sum();
  Track x(k);
  o[5] = look(x);                 // copied
  o[6] = look(std::move(x)) * 10 + (x.v == -1);   // moved
  Track y(k + 2);
  Track z = pass(y);              // copied in, moved out
  o[7] = z.code();
  Track w(0);
  w = y;                          // copy assignment
  o[8] = w.code();
  w = std::move(z);               // move assignment
  o[9] = w.code() * 10 + (z.v == -2) + relay(y) * 0 + relay(Track(5)) * 1000;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int t = 0; t < T; t++) hin[t] = t % 5 + 1;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, T * 10 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  movesByValue<<<1, T>>>(din, dout);
  int h[T * 10];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int k = hin[t];
    int s = 10;                                   // p[0] = 10, p[i] = i + 1
    for (int i = 1; i < k; i++) s += i + 1;
    int s1 = 10;
    for (int i = 1; i < k + 1; i++) s1 += i + 1;
    int e[10] = {s, k, (s * 10 + k) * 10, 12 * 10 + 2, s1,
                 k * 100 + 10, (k * 100 + 1) * 10 + 1, (k + 3) * 100 + 10 + 1, (k + 2) * 100 + 10 * 10,
                 ((k + 3) * 100 + 10 + 11) * 10 + 1 + (5 * 100 + 0 + 1) * 1000};
    for (int j = 0; j < 10; j++) if (h[t * 10 + j] != e[j]) { if (bad++ < 5) printf("FAIL cxx2_moves_byvalue: [%d][%d] = %d, expected %d\n", t, j, h[t * 10 + j], e[j]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_moves_byvalue\n");
  return 0;
}
