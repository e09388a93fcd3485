// Members of class templates defined out of line: constructors, operators, const and static members,
// members returning the class, a nested class's member, and member templates of a class template.
#include <cstdio>

template <typename T, int N>
class RingBuffer {
public:
  __device__ RingBuffer();
  __device__ explicit RingBuffer(T fill);
  __device__ void push(T v);
  __device__ T &operator[](int i);
  __device__ const T &operator[](int i) const;
  __device__ T sum() const;
  __device__ int count() const { return n; }
  __device__ RingBuffer merged(const RingBuffer &o) const;
  __device__ static int capacity();
  template <typename U> __device__ U weighted(const U *w) const;
private:
  T buf[N];
  int head, n;
};

template <typename T, int N> __device__ RingBuffer<T, N>::RingBuffer() : head(0), n(0) { for (int i = 0; i < N; i++) buf[i] = T(); }
template <typename T, int N> __device__ RingBuffer<T, N>::RingBuffer(T fill) : head(0), n(N) { for (int i = 0; i < N; i++) buf[i] = fill; }
template <typename T, int N> __device__ void RingBuffer<T, N>::push(T v) { buf[head] = v; head = (head + 1) % N; if (n < N) n++; }
template <typename T, int N> __device__ T &RingBuffer<T, N>::operator[](int i) { return buf[(head + N - n + i) % N]; }
template <typename T, int N> __device__ const T &RingBuffer<T, N>::operator[](int i) const { return buf[(head + N - n + i) % N]; }
template <typename T, int N> __device__ __noinline__ T RingBuffer<T, N>::sum() const { T s = T(); for (int i = 0; i < n; i++) s += (*this)[i]; return s; }
template <typename T, int N> __device__ RingBuffer<T, N> RingBuffer<T, N>::merged(const RingBuffer &o) const {
  RingBuffer r;
  for (int i = 0; i < n; i++) r.push((*this)[i]);
  for (int i = 0; i < o.n; i++) r.push(o[i]);
  return r;
}
template <typename T, int N> __device__ int RingBuffer<T, N>::capacity() { return N; }
template <typename T, int N> template <typename U>
__device__ U RingBuffer<T, N>::weighted(const U *w) const { U s = U(); for (int i = 0; i < n; i++) s += w[i] * static_cast<U>((*this)[i]); return s; }

template <typename T> struct Stats {
  T lo, hi;
  __device__ Stats(T a, T b);
  __device__ T range() const;
  __device__ Stats widen(T by) const;
};
template <typename A> __device__ Stats<A>::Stats(A a, A b) : lo(a < b ? a : b), hi(a < b ? b : a) {}
template <typename A> __device__ A Stats<A>::range() const { return hi - lo; }
template <typename A> __device__ Stats<A> Stats<A>::widen(A by) const { return Stats(lo - by, hi + by); }

__global__ void outOfLine(const int *in, int *io, float *fo) {
  int i = threadIdx.x;
  RingBuffer<int, 4> r;
  for (int k = 0; k < 6; k++) r.push(in[(i + k) % 32]);     // keeps the last four
  RingBuffer<int, 4> full(i);
  const RingBuffer<int, 4> &cr = r;
  io[i * 6 + 0] = r.sum();
  io[i * 6 + 1] = cr[0] * 100 + r.count();
  io[i * 6 + 2] = full.sum() + RingBuffer<int, 4>::capacity();
  RingBuffer<int, 4> m = r.merged(full);                    // the last four of r then full: full's four
  io[i * 6 + 3] = m.sum() + m[3];
  const float w[4] = {0.5f, 0.25f, 2.0f, 1.0f};
  fo[i * 2 + 0] = r.weighted(w);
  Stats<int> s(in[i], in[(i + 5) % 32]);
  io[i * 6 + 4] = s.range();
  io[i * 6 + 5] = s.widen(3).range();
  Stats<float> sf(0.5f * i, 1.0f);
  fo[i * 2 + 1] = sf.widen(0.25f).range();
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 13) % 17 - 8;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 6 * sizeof(int)); cudaMalloc(&df, T * 2 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  outOfLine<<<1, T>>>(din, di, df);
  int hi[T * 6]; float hf[T * 2];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int last[4], s = 0;
    for (int k = 0; k < 4; k++) { last[k] = hin[(i + 2 + k) % 32]; s += last[k]; }
    const float w[4] = {0.5f, 0.25f, 2.0f, 1.0f};
    float ws = 0; for (int k = 0; k < 4; k++) ws += w[k] * (float)last[k];
    int a = hin[i], b = hin[(i + 5) % 32], range = a < b ? b - a : a - b;
    float lo = 0.5f * i < 1.0f ? 0.5f * i : 1.0f, hiF = 0.5f * i < 1.0f ? 1.0f : 0.5f * i;
    float er = (hiF + 0.25f) - (lo - 0.25f);
    int e[6] = {s, last[0] * 100 + 4, 4 * i + 4, 4 * i + i, range, range + 6};
    for (int k = 0; k < 6; k++) if (hi[i * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_out_of_line: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 6 + k], e[k]); }
    if (hf[i * 2] != ws) { if (bad++ < 5) printf("FAIL cxx2_out_of_line: weighted[%d] = %f, expected %f\n", i, hf[i * 2], ws); }
    if (hf[i * 2 + 1] != er) { if (bad++ < 5) printf("FAIL cxx2_out_of_line: range[%d] = %f, expected %f\n", i, hf[i * 2 + 1], er); }
  }
  if (bad) return 1;
  printf("PASS cxx2_out_of_line\n");
  return 0;
}
