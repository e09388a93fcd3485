// A kernel template launched from a converting constructor of a class template: the host functions that take
// the class (`compute(Buf<double> &, double)`) may call it, and a data member that only shares such a function's
// name (`int compute = 0;`) is no default member initialiser constructing the class (GPUMD's GPU_Vector beside
// HNEMD's members).
#include <cstdio>

template <typename T> __global__ void fillKernel(int n, T value, T *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

template <typename T> class Buf {
public:
  Buf() : n_(0), d_(nullptr) {}
  Buf(int n, T v = T(1)) : n_(n) { cudaMalloc(&d_, n * sizeof(T)); fill(v); }
  ~Buf() { cudaFree(d_); }
  void fill(T v) { fillKernel<<<(n_ + 31) / 32, 32>>>(n_, v, d_); }
  void resize(int n, T v) { cudaFree(d_); n_ = n; cudaMalloc(&d_, n * sizeof(T)); fill(v); }
  T *data() { return d_; }
  int size() const { return n_; }
private:
  int n_;
  T *d_;
};

void compute(Buf<double> &b, double v) { b.fill(v); }

class Measure {
public:
  int compute = 0;
  double scale = 2.0;
  Buf<float> out;
  void run(Buf<double> &b) { ::compute(b, scale); out.resize(40, 0.5f); compute++; }
};

int main() {
  Buf<double> b(40, 3.0);
  Measure m;
  m.run(b);
  double hd[40]; float hf[40];
  cudaMemcpy(hd, b.data(), sizeof(hd), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, m.out.data(), sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 40; i++)
    if (hd[i] != 2.0 || hf[i] != 0.5f) { if (bad++ < 5) printf("FAIL cxx2_hostinst_member_names: [%d] = %f %f\n", i, hd[i], hf[i]); }
  if (bad || m.compute != 1) return 1;
  printf("PASS cxx2_hostinst_member_names\n");
  return 0;
}
