// sizeof of scalar types, structs (with padding), arrays and expressions; explicit casts between
// pointer types, integer<->pointer casts, casts in expressions, reinterpreting bytes through char*.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL sizeof_casts: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Padded { char c; double d; short s; };
struct Packed4 { int a; char b[3]; };
typedef struct { long long x; int y; } Pair;

__global__ void sizes(int *out) {
  int arr[7];
  arr[0] = 1;
  out[0] = sizeof(char); out[1] = sizeof(short); out[2] = sizeof(int); out[3] = sizeof(long);
  out[4] = sizeof(long long); out[5] = sizeof(float); out[6] = sizeof(double); out[7] = sizeof(void *);
  out[8] = sizeof(struct Padded); out[9] = sizeof(Packed4); out[10] = sizeof(Pair);
  out[11] = sizeof(arr); out[12] = sizeof arr[0]; out[13] = sizeof(arr) / sizeof(arr[0]);
  out[14] = sizeof(bool); out[15] = sizeof(out[0] + 1LL);
  Padded pd;
  out[16] = __alignof__(Padded); out[17] = (int)((char *)&pd.s - (char *)&pd) + arr[0] - 1;
}

__global__ void casts(const unsigned *in, int *out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  const unsigned char *bytes = (const unsigned char *)(in + i);
  out[i * 4 + 0] = bytes[0] + (bytes[3] << 8);          // little-endian byte view
  unsigned long long addr = (unsigned long long)(in + i);
  const unsigned *back = (const unsigned *)(addr);
  out[i * 4 + 1] = (int)(*back == in[i]);
  out[i * 4 + 2] = (int)(short)in[i] + (int)(unsigned short)(in[i] >> 16);
  out[i * 4 + 3] = (int)((long long)(int)in[i] >> 40) + (int)(long long)(void *)0 == 0;
}

int main() {
  int *d, h[18];
  CK(cudaMalloc(&d, 64 * sizeof(int)));
  sizes<<<1, 1>>>(d);
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  int arr[7];
  int want[18] = {(int)sizeof(char), (int)sizeof(short), (int)sizeof(int), (int)sizeof(long), (int)sizeof(long long),
                  (int)sizeof(float), (int)sizeof(double), (int)sizeof(void *), (int)sizeof(Padded), (int)sizeof(Packed4),
                  (int)sizeof(Pair), (int)sizeof(arr), (int)sizeof(int), 7, (int)sizeof(bool), 8, (int)__alignof__(Padded), 16};
  for (int k = 0; k < 18; k++)
    if (h[k] != want[k]) { printf("FAIL sizeof_casts: sizes[%d] = %d, want %d\n", k, h[k], want[k]); return 1; }
  const int n = 16;
  unsigned hin[n];
  for (int i = 0; i < n; i++) hin[i] = 0x89ABCDEFu * (i + 1) + 0x1234567u;
  unsigned *din; int *dout, hout[n * 4];
  CK(cudaMalloc(&din, sizeof(hin)));
  CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  casts<<<1, 32>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    const unsigned char *b = (const unsigned char *)&hin[i];
    int w[4] = {b[0] + (b[3] << 8), 1, (int)(short)hin[i] + (int)(unsigned short)(hin[i] >> 16),
                (int)((long long)(int)hin[i] >> 40) + (int)(long long)(void *)0 == 0};
    for (int k = 0; k < 4; k++)
      if (hout[i * 4 + k] != w[k]) { printf("FAIL sizeof_casts: casts[%d][%d] = %d, want %d\n", i, k, hout[i * 4 + k], w[k]); return 1; }
  }
  printf("PASS sizeof_casts\n");
  return 0;
}
