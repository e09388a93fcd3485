// Block-wide inclusive prefix sum (Hillis-Steele in shared memory with double buffering), then a second
// kernel adding per-block offsets: a two-level scan of unsigned values.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL scan: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define BS 256

__global__ void block_scan(const unsigned *in, unsigned *out, unsigned *block_sums, int n) {
  __shared__ unsigned buf[2][BS];
  int t = threadIdx.x, g = blockIdx.x * BS + t;
  int cur = 0;
  buf[0][t] = g < n ? in[g] : 0u;
  __syncthreads();
  for (int off = 1; off < BS; off <<= 1) {
    unsigned v = buf[cur][t];
    if (t >= off) v += buf[cur][t - off];
    buf[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  if (g < n) out[g] = buf[cur][t];
  if (t == BS - 1) block_sums[blockIdx.x] = buf[cur][t];
}

__global__ void add_offsets(unsigned *out, const unsigned *block_sums, int n) {
  __shared__ unsigned offset;
  if (threadIdx.x == 0) { unsigned s = 0; for (int b = 0; b < (int)blockIdx.x; b++) s += block_sums[b]; offset = s; }
  __syncthreads();
  int g = blockIdx.x * BS + threadIdx.x;
  if (g < n) out[g] += offset;
}

int main() {
  const int n = 100003, nb = (n + BS - 1) / BS;
  unsigned *hin = new unsigned[n], *hout = new unsigned[n];
  for (int i = 0; i < n; i++) hin[i] = (i * 2654435761u) >> 20;
  unsigned *din, *dout, *dsums;
  CK(cudaMalloc(&din, n * sizeof(unsigned))); CK(cudaMalloc(&dout, n * sizeof(unsigned))); CK(cudaMalloc(&dsums, nb * sizeof(unsigned)));
  CK(cudaMemcpy(din, hin, n * sizeof(unsigned), cudaMemcpyHostToDevice));
  block_scan<<<nb, BS>>>(din, dout, dsums, n);
  add_offsets<<<nb, BS>>>(dout, dsums, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  unsigned acc = 0;
  for (int i = 0; i < n; i++) {
    acc += hin[i];
    if (hout[i] != acc) { printf("FAIL scan: out[%d] = %u want %u\n", i, hout[i], acc); return 1; }
  }
  printf("PASS scan\n");
  return 0;
}
