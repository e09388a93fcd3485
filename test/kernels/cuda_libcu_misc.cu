// Pieces of libcu++ that device code reaches for: <cuda/std/bit> (popcount, countl_zero, bit_width, has
// its __builtin_is_constant_evaluated and __builtin_clz paths), cuda::std::addressof (__builtin_addressof),
// cuda::ptx::get_sreg_laneid (a ::-qualified local and `asm(... : : :)`), cuda::maximum / cuda::minimum<>
// (an operator template returning cuda::std::common_type_t, found through declval's partial specialisation),
// and common_type_t itself.
#include <cstdio>
#include <cuda/std/bit>
#include <cuda/std/memory>
#include <cuda/std/type_traits>
#include <cuda/functional>
#include <cuda/ptx>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cuda_libcu_misc: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Odd { int v; __device__ Odd *operator&() { return nullptr; } };   // addressof must not call this

static_assert(cuda::std::is_same_v<cuda::std::common_type_t<int, short>, int>, "int");
static_assert(cuda::std::is_same_v<cuda::std::common_type_t<char, double>, double>, "double");
static_assert(cuda::std::is_same_v<cuda::std::common_type_t<unsigned, long long>, long long>, "long long");

__global__ void libcuMisc(const unsigned *in, long long *out) {
  int t = threadIdx.x;
  unsigned x = in[t];
  long long *o = out + t * 8;
  o[0] = cuda::std::popcount(x);
  o[1] = cuda::std::countl_zero(x) * 100 + cuda::std::countr_zero(x | 0x80000000u);
  o[2] = cuda::std::bit_width(x) + 1000 * (int)cuda::std::has_single_bit(x);
  Odd odd{(int)x};
  o[3] = cuda::std::addressof(odd)->v;
  o[4] = cuda::ptx::get_sreg_laneid();
  o[5] = cuda::maximum<int>{}((int)x, 77) + cuda::minimum<>{}((int)x, 33);
  cuda::std::common_type_t<short, long long> w = (short)x;
  o[6] = (long long)sizeof(w) * 1000 + (w & 0xff);
  o[7] = cuda::maximum<>{}(0.5f * (int)(x % 100), 10.0f) * 4;
}

int main() {
  const int T = 64;
  unsigned hin[T];
  long long hout[T * 8];
  for (int i = 0; i < T; i++) hin[i] = (i * 2654435761u) >> (i % 29);
  hin[3] = 0; hin[5] = 64; hin[7] = 0xffffffffu;
  unsigned *din; long long *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  libcuMisc<<<1, T>>>(din, dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < T; i++) {
    unsigned x = hin[i];
    int pop = __builtin_popcount(x), clz = x ? __builtin_clz(x) : 32, ctz = __builtin_ctz(x | 0x80000000u);
    int width = 32 - clz;
    float m = 0.5f * (int)(x % 100);
    long long want[8] = {pop, clz * 100LL + ctz, width + 1000LL * (pop == 1), (int)x, i % 32,
      ((int)x > 77 ? (int)x : 77) + ((int)x < 33 ? (int)x : 33), 8000 + (long long)((short)x & 0xff), (long long)((m > 10.0f ? m : 10.0f) * 4)};
    for (int k = 0; k < 8; k++)
      if (hout[i * 8 + k] != want[k]) { printf("FAIL cuda_libcu_misc: [%d][%d] = %lld, expected %lld\n", i, k, hout[i * 8 + k], want[k]); return 1; }
  }
  printf("PASS cuda_libcu_misc\n");
  return 0;
}
