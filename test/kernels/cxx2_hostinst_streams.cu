// Host classes with virtual bases beside kernels: a class with a std::ofstream member (libstdc++'s streams
// inherit basic_ios virtually) and the user's own virtual inheritance, read for the kernel template a member of
// a class template launches (GPUMD's MC_Ensemble, read_xyz). Such classes have no device layout of ours; host
// code naming them is read all the same, and members found through a std::stringstream are looked up.
#include <cstdio>
#include <fstream>
#include <sstream>

template <typename T> __global__ void fillKernel(int n, T value, T *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

template <typename T> class Buf {
public:
  Buf() : n_(0), d_(nullptr) {}
  ~Buf() { if (d_) cudaFree(d_); }
  void resize(int n, T v) { if (d_) cudaFree(d_); n_ = n; cudaMalloc(&d_, n * sizeof(T)); fill(v); }
  void fill(T v) { fillKernel<<<(n_ + 31) / 32, 32>>>(n_, v, d_); }
  T *data() { return d_; }
private:
  int n_;
  T *d_;
};

struct Named { const char *name = "report"; virtual ~Named() {} };
struct Counter : virtual Named { int count = 0; };
struct Report : public Counter {
  std::ofstream out;
  Buf<double> values;
  void run(int n) { values.resize(n, 0.25); count++; }
};

__global__ void iota(int *p) { p[threadIdx.x] = threadIdx.x * 3; }

int main() {
  Report r;
  r.run(40);
  int *di;
  cudaMalloc(&di, 32 * sizeof(int));
  iota<<<1, 32>>>(di);
  double hd[40]; int hi[32];
  cudaMemcpy(hd, r.values.data(), sizeof(hd), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  std::stringstream ss;
  ss << r.name << ' ' << r.count;
  int bad = ss.str() != "report 1";
  for (int i = 0; i < 40; i++) if (hd[i] != 0.25) { if (bad++ < 5) printf("FAIL cxx2_hostinst_streams: [%d] = %f\n", i, hd[i]); }
  for (int i = 0; i < 32; i++) if (hi[i] != i * 3) { if (bad++ < 5) printf("FAIL cxx2_hostinst_streams: iota[%d] = %d\n", i, hi[i]); }
  if (bad) return 1;
  printf("PASS cxx2_hostinst_streams\n");
  return 0;
}
