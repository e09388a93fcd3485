// Prelude test input: the standard headers a typical host program includes, and one trivial kernel.
#include <vector>
#include <iostream>
#include <chrono>
#include <random>
#include <algorithm>
#include <map>
#include <string>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cassert>

__global__ void prelude_std_kernel(int *out) { out[threadIdx.x] = (int)threadIdx.x * 2; }

int main() {
  std::vector<int> h(32);
  int *d = nullptr;
  if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess) { printf("FAIL prelude_std: malloc\n"); return 1; }
  prelude_std_kernel<<<1, 32>>>(d);
  if (cudaMemcpy(h.data(), d, 32 * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) { printf("FAIL prelude_std: copy\n"); return 1; }
  for (int i = 0; i < 32; i++) if (h[i] != 2 * i) { printf("FAIL prelude_std: h[%d] = %d\n", i, h[i]); return 1; }
  std::cout << "PASS prelude_std" << std::endl;
  return 0;
}
