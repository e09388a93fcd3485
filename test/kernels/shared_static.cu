// Static __shared__ arrays (1D and 2D, several in one kernel, a shared struct): a tile transpose
// through shared memory with padding, and a block-wide neighbour exchange.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL shared_static: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define TILE 16

struct Stats { int count; int maxv; };

__global__ void transpose(const int *in, int *out, int w, int h) {
  __shared__ int tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void neighbours(const int *in, int *out, int n) {
  __shared__ int buf[128];
  __shared__ Stats st;
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  buf[t] = g < n ? in[g] : 0;
  if (t == 0) { st.count = 0; st.maxv = -2147483647; }
  __syncthreads();
  if (t == 0) for (int i = 0; i < 128; i++) { st.count += buf[i] > 0; if (buf[i] > st.maxv) st.maxv = buf[i]; }
  __syncthreads();
  int left = buf[(t + 127) % 128], right = buf[(t + 1) % 128];
  if (g < n) out[g] = left - right + st.count * 1000 + st.maxv;
}

int main() {
  const int w = 37, h = 50, n = w * h;
  int *hin = new int[n], *hout = new int[n];
  for (int i = 0; i < n; i++) hin[i] = (i * 7919) % 1000 - 500;
  int *din, *dout;
  CK(cudaMalloc(&din, n * sizeof(int))); CK(cudaMalloc(&dout, n * sizeof(int)));
  CK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
  transpose<<<dim3((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), dim3(TILE, TILE)>>>(din, dout, w, h);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++) for (int x = 0; x < w; x++)
    if (hout[x * h + y] != hin[y * w + x]) { printf("FAIL shared_static: transpose (%d,%d)\n", x, y); return 1; }
  neighbours<<<(n + 127) / 128, 128>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b * 128 < n; b++) {
    int buf[128], cnt = 0, mx = -2147483647;
    for (int i = 0; i < 128; i++) { int g = b * 128 + i; buf[i] = g < n ? hin[g] : 0; cnt += buf[i] > 0; if (buf[i] > mx) mx = buf[i]; }
    for (int i = 0; i < 128 && b * 128 + i < n; i++) {
      int want = buf[(i + 127) % 128] - buf[(i + 1) % 128] + cnt * 1000 + mx;
      if (hout[b * 128 + i] != want) { printf("FAIL shared_static: neighbours %d got %d want %d\n", b * 128 + i, hout[b * 128 + i], want); return 1; }
    }
  }
  printf("PASS shared_static\n");
  return 0;
}
