// __constant__ variables with initializers: scalars of several types, arrays, a struct, an array of
// structs; one updated from the host with cudaMemcpyToSymbol; constant-indexed and thread-indexed reads.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL constant_vars: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Cfg { int mul; short add; double scale; char tag[4]; };

__constant__ int c_int = 42;
__constant__ unsigned long long c_u64 = 0xCAFEBABE12345678ULL;
__constant__ float c_float = 1.5f;
__constant__ double c_double = -0.25;
__constant__ int c_table[8] = {1, 1, 2, 3, 5, 8, 13, 21};
__constant__ short c_partial[6] = {-1, -2};                 // rest zero-initialised
__constant__ Cfg c_cfg = {3, -7, 2.0, {'a', 'b', 'c', 0}};
__constant__ Cfg c_cfgs[2] = {{1, 1, 0.5, "xy"}, {2, 2, 4.0, "zw"}};
__constant__ int c_runtime[4];                              // filled by the host

__global__ void kernel(long long *out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  long long v = c_int + c_table[t % 8] + c_partial[t % 6];
  v += (long long)(c_u64 >> (t % 16));
  v += (long long)(c_float * 2.0f) + (long long)(c_double * 8.0);
  v += c_cfg.mul * t + c_cfg.add + (long long)(c_cfg.scale * 3.0) + c_cfg.tag[t % 3];
  const Cfg *p = &c_cfgs[t & 1];
  v += p->mul * 100 + p->add + (long long)(p->scale * 2.0) + p->tag[1];
  v += c_runtime[t % 4] * 1000;
  out[t] = v;
}

int main() {
  const int n = 64;
  int rt[4] = {9, -9, 99, -99};
  CK(cudaMemcpyToSymbol(c_runtime, rt, sizeof(rt)));
  long long *d, h[n];
  CK(cudaMalloc(&d, sizeof(h)));
  kernel<<<1, n>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  int table[8] = {1, 1, 2, 3, 5, 8, 13, 21};
  short partial[6] = {-1, -2, 0, 0, 0, 0};
  const char *tags[2] = {"xy", "zw"};
  for (int t = 0; t < n; t++) {
    long long v = 42 + table[t % 8] + partial[t % 6];
    v += (long long)(0xCAFEBABE12345678ULL >> (t % 16));
    v += 3 + -2;
    v += 3 * t - 7 + 6 + "abc"[t % 3];
    int j = t & 1;
    v += (j + 1) * 100 + (j + 1) + (long long)((j ? 4.0 : 0.5) * 2.0) + tags[j][1];
    v += rt[t % 4] * 1000;
    if (h[t] != v) { printf("FAIL constant_vars: out[%d] = %lld want %lld\n", t, h[t], v); return 1; }
  }
  int back;
  CK(cudaMemcpyFromSymbol(&back, c_int, sizeof(int)));
  if (back != 42) { printf("FAIL constant_vars: c_int read back %d\n", back); return 1; }
  printf("PASS constant_vars\n");
  return 0;
}
