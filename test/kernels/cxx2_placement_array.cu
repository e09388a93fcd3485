// Array placement new (`new (buf) T[n]`): the reserved placement form takes no array cookie, so the n
// elements start at buf. Classes with constructors (run once per element), value-initialised scalars
// (`new (buf) int[n]()` zeroes them), and a count known only at run time; then an explicit destructor loop.
#include <cstdio>
#include <new>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_placement_array: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Cell {
  int v, tag;
  __device__ Cell() : v(7), tag(1) {}
  __device__ ~Cell() { v = -1; }
};

__global__ void placementArray(const int *in, int *out) {
  int t = threadIdx.x;
  alignas(8) unsigned char raw[8 * sizeof(Cell)];
  int n = 2 + (in[t] & 3);                       // 2..5 elements
  Cell *cells = new (raw) Cell[n];
  for (int i = 0; i < n; i++) cells[i].v += i * in[t];
  int s = 0;
  for (int i = 0; i < n; i++) s += cells[i].v * cells[i].tag;
  out[t * 4 + 0] = s;
  out[t * 4 + 1] = (int)((unsigned char *)cells - raw);   // no cookie: the array starts at the buffer
  alignas(4) unsigned char ibuf[6 * sizeof(int)];
  for (int i = 0; i < 6; i++) ibuf[i * 4] = 0xff;
  int *z = new (ibuf) int[n]();                            // value-initialised: zeroes
  int zs = 0;
  for (int i = 0; i < n; i++) zs += z[i];
  out[t * 4 + 2] = zs;
  for (int i = 0; i < n; i++) cells[i].~Cell();
  out[t * 4 + 3] = cells[0].v;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int i = 0; i < T; i++) hin[i] = i * 13 + 5;
  int *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, T * 4 * sizeof(int)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  placementArray<<<1, T>>>(din, dout);
  CK(cudaGetLastError());
  int h[T * 4];
  CK(cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int n = 2 + (hin[t] & 3), s = 0;
    for (int i = 0; i < n; i++) s += 7 + i * hin[t];
    int e[4] = {s, 0, 0, -1};
    for (int k = 0; k < 4; k++) if (h[t * 4 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_placement_array: [%d][%d] = %d, expected %d\n", t, k, h[t * 4 + k], e[k]);
  }
  if (bad) return 1;
  printf("PASS cxx2_placement_array\n");
  return 0;
}
