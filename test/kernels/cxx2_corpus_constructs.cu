// Constructs from third-party units (GPUMD, ccminer, FasterTransformer) that ptxd once refused or rejected
// with a false error: a function-pointer typedef whose return type is a typedef name (`typedef U(*fp)(U *)`),
// brace elision into class members and array elements (`pair2 a[2] = {1, 2, 3, ...}`), anonymous unions
// in a block, and a kernel template launched with deduced arguments from a class template's member
// functions (only the specialisations whose members host code calls exist: Buf<int>::fill is never called),
// and a kernel whose parameter's type names its non-type template parameter (mangled `1TIXT_EE`).
#include <cstdio>
#include <cstdint>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_corpus_constructs: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

typedef uint32_t(*testFn)(uint32_t *v);
__device__ uint32_t isOdd(uint32_t *v) { return v[0] & 1; }
__device__ uint32_t isEven(uint32_t *v) { return (v[0] & 1) == 0; }
__device__ testFn d_odd = isOdd, d_even = isEven;

struct pair2 { uint32_t x, y; };
struct quad2 { pair2 a, b; };

__device__ int splitWords(int32_t w) {
  union { int32_t whole; int16_t half[2]; };
  whole = w;
  return half[0] * 3 + half[1];
}

__device__ int lowByte(int16_t h) {
  union { int16_t word; int8_t bytes[2]; };
  word = h;
  return bytes[0] - bytes[1];
}

__global__ void kernel(uint32_t *in, uint32_t *out, int n) {
  const int t = threadIdx.x;
  const quad2 table[2] = { 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u };
  const pair2 flat[3] = { 10u, 20u, 30u, 40u, 50u };
  if (t < n) {
    uint32_t v = in[t];
    testFn f = (t & 1) ? d_odd : d_even;
    out[6 * t] = f(&v);
    const quad2 &q = table[t & 1];
    out[6 * t + 1] = q.a.x + 10 * q.a.y + 100 * q.b.x + 1000 * q.b.y;
    const pair2 &p = flat[t % 3];
    out[6 * t + 2] = p.x + p.y;
    out[6 * t + 3] = (uint32_t)splitWords((int32_t)(v * 40503u));
    out[6 * t + 4] = (uint32_t)lowByte((int16_t)(v * 977u));
    out[6 * t + 5] = 0;
  }
}

template <typename T> __global__ void fillK(const int n, const T value, T *data) {
  const int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) data[i] = value;
}

template <int N> struct Tag { int base; };
template <int N, bool Neg> struct Flag { int v; };
template <int N, bool Neg> __global__ void tagged(Tag<N> t, Flag<N, Neg> f, int *out) {
  out[threadIdx.x] = (t.base + N * (int)threadIdx.x) * (Neg ? -f.v : f.v);
}

template <typename T> class Buf {
public:
  Buf() : n_(0), d_(nullptr) {}
  ~Buf() { if (d_) cudaFree(d_); }
  bool resize(int n) { n_ = n; return cudaMalloc((void **)&d_, n * sizeof(T)) == cudaSuccess; }
  bool resize(int n, T v) { if (!resize(n)) return false; fill(v); return true; }
  void fill(T v) { fillK<<<(n_ + 31) / 32, 32>>>(n_, v, d_); }
  bool toHost(T *h) { return cudaMemcpy(h, d_, n_ * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess; }
private:
  int n_;
  T *d_;
};

static int splitWordsHost(int32_t w) { return (int16_t)(w & 0xffff) * 3 + (int16_t)((uint32_t)w >> 16); }
static int lowByteHost(int16_t h) { return (int8_t)(h & 0xff) - (int8_t)((uint16_t)h >> 8); }

int main() {
  const int n = 32;
  uint32_t hin[n], hout[6 * n];
  for (int i = 0; i < n; i++) hin[i] = i * 2654435761u;
  uint32_t *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin)));
  CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<1, n>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  const uint32_t quads[2] = {1 + 20 + 300 + 4000, 5 + 60 + 700 + 8000}, pairs[3] = {30, 70, 50};
  for (int i = 0; i < n; i++) {
    const uint32_t want[5] = {(i & 1) ? (hin[i] & 1) : (uint32_t)((hin[i] & 1) == 0), quads[i & 1], pairs[i % 3],
      (uint32_t)splitWordsHost((int32_t)(hin[i] * 40503u)), (uint32_t)lowByteHost((int16_t)(hin[i] * 977u))};
    for (int j = 0; j < 5; j++)
      if (hout[6 * i + j] != want[j]) { printf("FAIL cxx2_corpus_constructs: out[%d][%d] = %u, want %u\n", i, j, hout[6 * i + j], want[j]); return 1; }
  }
  Buf<float> bf;
  Buf<double> bd;
  Buf<int> bi;
  if (!bf.resize(40, 1.5f) || !bd.resize(40) || !bi.resize(8)) { printf("FAIL cxx2_corpus_constructs: cudaMalloc\n"); return 1; }
  bd.fill(-2.25);
  CK(cudaDeviceSynchronize());
  float hf[40];
  double hd[40];
  if (!bf.toHost(hf) || !bd.toHost(hd)) { printf("FAIL cxx2_corpus_constructs: cudaMemcpy\n"); return 1; }
  for (int i = 0; i < 40; i++)
    if (hf[i] != 1.5f || hd[i] != -2.25) { printf("FAIL cxx2_corpus_constructs: fill[%d] = %g, %g\n", i, hf[i], hd[i]); return 1; }
  int *dtag, htag[8];
  CK(cudaMalloc(&dtag, sizeof(htag)));
  tagged<5, true><<<1, 8>>>(Tag<5>{7}, Flag<5, true>{3}, dtag);
  CK(cudaGetLastError());
  CK(cudaMemcpy(htag, dtag, sizeof(htag), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; i++)
    if (htag[i] != -(7 + 5 * i) * 3) { printf("FAIL cxx2_corpus_constructs: tagged[%d] = %d\n", i, htag[i]); return 1; }
  printf("PASS cxx2_corpus_constructs\n");
  return 0;
}
