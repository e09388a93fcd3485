// Dynamic partitions: tiled_partition(block, n) returns a thread_group whose size, thread_rank and type follow the
// runtime tile size (4, 8 and 32 here), with group.sync(); the thread_block seen as a thread_group too.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define N 256

__device__ void describe(const cg::thread_group &g, unsigned *out) {
  out[0] = g.size();
  out[1] = g.thread_rank();
  out[2] = g.get_type();
  g.sync();
}

__global__ void dynamic_tile(unsigned *out, int n1, int n2) {
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cg::thread_group t1 = cg::tiled_partition(b, n1);
  cg::thread_group t2 = cg::tiled_partition(b, n2);
  cg::thread_group t3 = cg::tiled_partition(b, 32);
  describe(t1, out + i * 12);
  describe(t2, out + i * 12 + 3);
  describe(t3, out + i * 12 + 6);
  describe(b, out + i * 12 + 9);
}

int main() {
  unsigned r[N * 12];
  unsigned *dout;
  cudaMalloc(&dout, sizeof(r));
  dynamic_tile<<<N / 64, 64>>>(dout, 4, 8);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int t = i % 64;
    // get_type(): a tiled thread_group is a coalesced group (id 1), the block keeps its own id (4)
    unsigned e[12] = {4, (unsigned)(t % 4), 1, 8, (unsigned)(t % 8), 1, 32, (unsigned)(t % 32), 1, 64, (unsigned)t, 4};
    for (int k = 0; k < 12; k++)
      if (r[i * 12 + k] != e[k]) { if (bad++ < 5) printf("FAIL cuda_coop_dynamic_tile: [%d][%d] = %u, expected %u\n", i, k, r[i * 12 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_coop_dynamic_tile\n");
  return 0;
}
