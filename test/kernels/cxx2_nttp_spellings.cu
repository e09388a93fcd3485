// Kernel templates over non-type arguments of every integer type: the host stub names each specialisation in
// EDG's spelling (`(long)5l` in the cast, `5L`, `(-7LL)`, `((short)(-3))`, `((unsigned char)'\004')`, `'a'`
// in the wrapper) and must match the real cicc's stub byte for byte.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_nttp_spellings: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

template <long A, long long B, unsigned long C, short D, unsigned char E, char F>
__global__ void wide(long long *o) { o[threadIdx.x] = A + B + (long long)(C % 1000) + D + E + F + threadIdx.x; }

template <int A, unsigned B, signed char C, unsigned short D, bool E, char F>
__global__ void narrow(long long *o) { o[threadIdx.x] = A + (long long)B + C + D + E + F + threadIdx.x; }

int main() {
  long long *d, h[4];
  CK(cudaMalloc(&d, sizeof(h)));
  long long want[4] = {
    5 + -7 + 9 + 3 + 4 + 'a',
    -9000000000LL + 9000000000LL + (long long)(18000000000000000000UL % 1000) - 3 + 200 + (char)-5,
    -5 + 7 - 3 + 65535 + 1 + '\n',
    5 + 0 + 100 + 0 + 0 + ' ',
  };
  long long got[4];
  wide<5, -7, 9, 3, 4, 'a'><<<1, 1>>>(d);
  CK(cudaMemcpy(&got[0], d, 8, cudaMemcpyDeviceToHost));
  wide<-9000000000L, 9000000000LL, 18000000000000000000UL, -3, 200, -5><<<1, 1>>>(d);
  CK(cudaMemcpy(&got[1], d, 8, cudaMemcpyDeviceToHost));
  narrow<-5, 7u, -3, 65535, true, '\n'><<<1, 1>>>(d);
  CK(cudaMemcpy(&got[2], d, 8, cudaMemcpyDeviceToHost));
  narrow<5, 0u, 100, 0, false, ' '><<<1, 1>>>(d);
  CK(cudaMemcpy(&got[3], d, 8, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 4; i++) if (got[i] != want[i]) { printf("FAIL cxx2_nttp_spellings: [%d] = %lld, expected %lld\n", i, got[i], want[i]); return 1; }
  printf("PASS cxx2_nttp_spellings\n");
  return 0;
}
