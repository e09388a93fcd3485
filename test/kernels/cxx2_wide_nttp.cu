// Non-type template arguments at the top of the 64-bit range: a span-like class whose dynamic extent is
// `static_cast<size_t>(-1)` (cuda::std::span's dynamic_extent) with a partial specialisation for it, masks
// at 2^60 and above as template arguments (also of a kernel template, so their mangling meets the host's),
// and a constructor template whose mem-initializers are braced (`: d{p}, n{c}`).
#include <cstdio>
#include <cstddef>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_wide_nttp: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

inline constexpr size_t dyn = static_cast<size_t>(-1);

template <class T, size_t E = dyn> class Span {
public:
  __device__ explicit Span(T *p) : d{p} {}
  __device__ constexpr size_t size() const { return E; }
  __device__ T &operator[](size_t i) const { return d[i]; }
private:
  T *d;
};

template <class T> class Span<T, dyn> {
public:
  template <class It> __device__ Span(It first, size_t count) : d{first}, n{count} {}
  __device__ constexpr size_t size() const { return n; }
  __device__ T &operator[](size_t i) const { return d[i]; }
private:
  T *d;
  size_t n;
};

template <unsigned long long M> struct Mask { static constexpr unsigned long long value = M; };
template <unsigned long long M> __device__ unsigned long long apply(unsigned long long x) { return (x & M) >> 56; }

template <unsigned long long M>
__global__ void wideMask(const unsigned long long *in, unsigned long long *out) {
  int t = threadIdx.x;
  out[t] = apply<M>(in[t]) + (Mask<M>::value >> 60);
}

__global__ void spans(int *io, int n) {
  int t = threadIdx.x;
  Span<int> all(io, n);                 // the dynamic-extent specialisation
  Span<int, 4> four(io + 4 * (t / 4));  // the primary template
  int v = all[t] * 3 + (int)all.size() + (int)four.size() * 100 + four[t % 4];
  __syncthreads();
  all[t] = v;
}

int main() {
  const int T = 32;
  unsigned long long hin[T], hout[T];
  int hio[T];
  for (int i = 0; i < T; i++) { hin[i] = 0x0123456789abcdefull * (i + 1); hio[i] = i * 7 - 50; }
  unsigned long long *din, *dout; int *dio;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout))); CK(cudaMalloc(&dio, sizeof(hio)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dio, hio, sizeof(hio), cudaMemcpyHostToDevice));
  wideMask<0xff00000000000000ull><<<1, T>>>(din, dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < T; i++) {
    unsigned long long want = (hin[i] >> 56) + 0xf;
    if (hout[i] != want) { printf("FAIL cxx2_wide_nttp: mask %d got %llu want %llu\n", i, hout[i], want); return 1; }
  }
  wideMask<0x1000000000000000ull><<<1, T>>>(din, dout);
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < T; i++) {
    unsigned long long want = ((hin[i] & 0x1000000000000000ull) >> 56) + 1;
    if (hout[i] != want) { printf("FAIL cxx2_wide_nttp: bit60 %d got %llu want %llu\n", i, hout[i], want); return 1; }
  }
  spans<<<1, T>>>(dio, T);
  CK(cudaMemcpy(hio, dio, sizeof(hio), cudaMemcpyDeviceToHost));
  for (int i = 0; i < T; i++) {
    int x = i * 7 - 50, q = (i / 4) * 4 + i % 4;
    int want = x * 3 + T + 400 + (q * 7 - 50);
    if (hio[i] != want) { printf("FAIL cxx2_wide_nttp: span %d got %d want %d\n", i, hio[i], want); return 1; }
  }
  printf("PASS cxx2_wide_nttp\n");
  return 0;
}
