// Kernel templates: the specialisations host code names (k<float, 4><<<...>>>), explicit
// instantiation, default template arguments, a namespace, class-template parameters, and device
// function templates called with dependent arguments; a launch with deduced arguments. The stub
// registers each specialisation.
#include <cstdio>

template <typename T> struct Acc { T sum; int n; };

template <typename T> __device__ T square(T v) { return v * v; }

template <typename T, int N>
__global__ void scaleN(T *p, T add) {
  int i = threadIdx.x;
  p[i] = p[i] * N + add;
}

template <typename T, int Block = 32>
__global__ void accumulate(const T *in, Acc<T> *out) {
  __shared__ T buf[Block];
  buf[threadIdx.x] = square(in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    Acc<T> a; a.sum = 0; a.n = 0;
    for (int i = 0; i < Block; i++) { a.sum += buf[i]; a.n++; }
    *out = a;
  }
}

template <typename T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v + (T)threadIdx.x; }

namespace ops {
template <typename T> __global__ void negate(T *p) { p[threadIdx.x] = -p[threadIdx.x]; }
template __global__ void negate<double>(double *);
}

int main() {
  const int T = 32;
  float hf[T]; int hi[T]; double hd[T];
  for (int i = 0; i < T; i++) { hf[i] = 0.5f * i; hi[i] = i; hd[i] = 1.0 * i; }
  float *df; int *di; double *dd; Acc<float> *acc;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&di, sizeof(hi)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&acc, sizeof(Acc<float>));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  accumulate<float><<<1, T>>>(df, acc);
  scaleN<float, 4><<<1, T>>>(df, 1.0f);
  scaleN<int, 3><<<1, T>>>(di, -1);
  ops::negate<double><<<1, T>>>(dd);
  int *dfill; int hfill[T];
  cudaMalloc(&dfill, sizeof(hfill));
  fill<<<1, T>>>(dfill, 7);                       // T deduced as int
  cudaMemcpy(hfill, dfill, sizeof(hfill), cudaMemcpyDeviceToHost);
  Acc<float> ha;
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost);
  cudaMemcpy(&ha, acc, sizeof(ha), cudaMemcpyDeviceToHost);
  int bad = 0;
  float ref = 0;
  for (int i = 0; i < T; i++) ref += (0.5f * i) * (0.5f * i);
  for (int i = 0; i < T; i++) {
    if (hf[i] != 2.0f * i + 1.0f) { if (bad++ < 5) printf("FAIL cxx_template_kernels: f[%d] = %f\n", i, hf[i]); }
    if (hi[i] != 3 * i - 1) { if (bad++ < 5) printf("FAIL cxx_template_kernels: i[%d] = %d\n", i, hi[i]); }
    if (hfill[i] != 7 + i) { if (bad++ < 5) printf("FAIL cxx_template_kernels: fill[%d] = %d\n", i, hfill[i]); }
    if (hd[i] != -1.0 * i) { if (bad++ < 5) printf("FAIL cxx_template_kernels: d[%d] = %f\n", i, hd[i]); }
  }
  if (ha.n != T || ha.sum != ref) { bad++; printf("FAIL cxx_template_kernels: acc = %f/%d, expected %f/%d\n", ha.sum, ha.n, ref, T); }
  if (bad) return 1;
  printf("PASS cxx_template_kernels\n");
  return 0;
}
