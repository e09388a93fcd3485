// __global__ kernels with many parameter kinds: bool, char, signed/unsigned char, short, unsigned short,
// int, unsigned, long, long long, unsigned long long, float, double, enum, pointers to const and non-const,
// pointer to struct, small and large structs by value, and a kernel with no parameters.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL kernel_params: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

enum Kind { K_A = 3, K_B = 9 };
struct Small { char c; short s; };
struct Big { int v[20]; double d; };

__device__ int g_flag;
__global__ void no_params() { g_flag = 77; }

__global__ void many(bool b, char c, signed char sc, unsigned char uc, short s, unsigned short us, int i,
                     unsigned u, long l, long long ll, unsigned long long ull, float f, double d, Kind k,
                     const int *src, long long *dst, Small sm, Big big, Big *pbig) {
  long long acc = 0;
  acc += b; acc = acc * 3 + c; acc = acc * 3 + sc; acc = acc * 3 + uc; acc = acc * 3 + s; acc = acc * 3 + us;
  acc = acc * 3 + i; acc = acc * 3 + u; acc = acc * 3 + l; acc ^= ll; acc += (long long)(ull >> 3);
  acc += (long long)(f * 8.0f) + (long long)(d * 16.0) + k + sm.c * 1000 + sm.s;
  int s2 = 0;
  for (int j = 0; j < 20; j++) s2 += big.v[j] * (j + 1) + src[j];
  dst[0] = acc; dst[1] = s2 + (long long)big.d; dst[2] = pbig->v[19]; pbig->v[0] = -1;
}

int main() {
  int hsrc[20]; Big big;
  for (int j = 0; j < 20; j++) { hsrc[j] = j * j; big.v[j] = 100 - j; }
  big.d = 12.5;
  int *dsrc; long long *ddst, hdst[3]; Big *dbig;
  CK(cudaMalloc(&dsrc, sizeof(hsrc))); CK(cudaMalloc(&ddst, sizeof(hdst))); CK(cudaMalloc(&dbig, sizeof(Big)));
  CK(cudaMemcpy(dsrc, hsrc, sizeof(hsrc), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dbig, &big, sizeof(Big), cudaMemcpyHostToDevice));
  Small sm = {'z', -1234};
  no_params<<<1, 1>>>();
  many<<<1, 1>>>(true, 'q', -100, 250, -30000, 65000, -123456789, 4000000000u, -9876543210L, 0x123456789ABCLL,
                 0xFEDCBA9876543210ULL, 2.25f, -3.0625, K_B, dsrc, ddst, sm, big, dbig);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hdst, ddst, sizeof(hdst), cudaMemcpyDeviceToHost));
  int flag; Big back;
  CK(cudaMemcpyFromSymbol(&flag, g_flag, sizeof(int)));
  CK(cudaMemcpy(&back, dbig, sizeof(Big), cudaMemcpyDeviceToHost));
  long long acc = 0;
  acc += 1; acc = acc * 3 + 'q'; acc = acc * 3 + -100; acc = acc * 3 + 250; acc = acc * 3 + -30000; acc = acc * 3 + 65000;
  acc = acc * 3 + -123456789; acc = acc * 3 + 4000000000u; acc = acc * 3 + -9876543210L; acc ^= 0x123456789ABCLL;
  acc += (long long)(0xFEDCBA9876543210ULL >> 3);
  acc += 18 + (long long)(-3.0625 * 16.0) + K_B + 'z' * 1000 + -1234;
  long long s2 = 0;
  for (int j = 0; j < 20; j++) s2 += big.v[j] * (j + 1) + hsrc[j];
  long long w[3] = {acc, s2 + 12, 81};
  for (int k = 0; k < 3; k++)
    if (hdst[k] != w[k]) { printf("FAIL kernel_params: dst[%d] = %lld want %lld\n", k, hdst[k], w[k]); return 1; }
  if (flag != 77 || back.v[0] != -1) { printf("FAIL kernel_params: flag %d v0 %d\n", flag, back.v[0]); return 1; }
  printf("PASS kernel_params\n");
  return 0;
}
