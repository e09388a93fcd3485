// Cooperative-groups shuffles of class types: thread_block_tile<32>::shfl / shfl_down / shfl_xor of a
// 12-byte struct and a double, which the header slices into ints with a recursive helper class
// (`recursive_sliced_shuffle_helper<count - sizeof(int)> next;`), and a tile of 8.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cuda_coop_shfl_struct: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Rec { int a; float b; short c; };

__global__ void shflStruct(const int *in, int *out, double *dout) {
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  cg::thread_block_tile<8> e = cg::tiled_partition<8>(cg::this_thread_block());
  int t = threadIdx.x;
  Rec r = {in[t], 0.5f * in[t], (short)(t * 3)};
  Rec from5 = w.shfl(r, 5);
  Rec down = w.shfl_down(r, 3);
  Rec x = e.shfl_xor(r, 1);
  double d = w.shfl(1.25 * in[t], (t + 7) % 32);
  out[t * 6 + 0] = from5.a;
  out[t * 6 + 1] = (int)(from5.b * 4);
  out[t * 6 + 2] = down.a + down.c;
  out[t * 6 + 3] = x.a;
  out[t * 6 + 4] = x.c;
  out[t * 6 + 5] = (int)sizeof(Rec);
  dout[t] = d;
}

int main() {
  const int T = 64;
  int hin[T];
  for (int i = 0; i < T; i++) hin[i] = i * 11 - 300;
  int *din, *dout; double *dd;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, T * 6 * sizeof(int))); CK(cudaMalloc(&dd, T * sizeof(double)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  shflStruct<<<1, T>>>(din, dout, dd);
  CK(cudaGetLastError());
  int h[T * 6]; double hd[T];
  CK(cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int w0 = t & ~31, lane = t & 31;
    int s5 = w0 + 5, sd = lane + 3 < 32 ? t + 3 : t, sx = t ^ 1;
    int e[6] = {hin[s5], (int)(0.5f * hin[s5] * 4), hin[sd] + (short)(sd * 3), hin[sx], (short)(sx * 3), 12};
    for (int k = 0; k < 6; k++)
      if (h[t * 6 + k] != e[k] && bad++ < 5) printf("FAIL cuda_coop_shfl_struct: [%d][%d] = %d, expected %d\n", t, k, h[t * 6 + k], e[k]);
    double ed = 1.25 * hin[w0 + (t + 7) % 32];
    if (hd[t] != ed && bad++ < 5) printf("FAIL cuda_coop_shfl_struct: d[%d] = %f, expected %f\n", t, hd[t], ed);
  }
  if (bad) return 1;
  printf("PASS cuda_coop_shfl_struct\n");
  return 0;
}
