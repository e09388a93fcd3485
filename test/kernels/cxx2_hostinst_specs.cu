// Kernel specialisations host code asks for in TensorRT's shapes: explicit specialisations of a kernel template
// (one launched, one never used: cicc emits and registers both where they are defined), a host function template
// reached only through a table of function pointers (`launch<float, NCHW, true>` in an initialiser), whose
// kernel arguments name a local `const bool` and whose cudaFuncSetAttribute names another specialisation.
#include <cstdio>
#include <cuda_runtime.h>

enum Layout { NCHW = 0, NC4HW = 1 };

template <typename T> __global__ void fill(T *p, int n) {
  if ((int)threadIdx.x < n) p[threadIdx.x] = (T)(threadIdx.x + 1);
}
template <> __global__ void fill<int>(int *p, int n) {
  if ((int)threadIdx.x < n) p[threadIdx.x] = 100 + (int)threadIdx.x;
}
template <> __global__ void fill<double>(double *p, int n) {
  if ((int)threadIdx.x < n) p[threadIdx.x] = -1.0;
}

template <typename D, bool INF, bool SH> __global__ void scaled(int n, const D *in, D *out) {
  int i = threadIdx.x;
  if (i < n) out[i] = in[i] * (D)(INF ? 3 : 2) + (D)(SH ? 1 : 0);
}

typedef int (*launcher_t)(int, const void *, void *);

template <typename D, Layout L, bool INF> int launch(int n, const void *in, void *out) {
  const bool sh = false;
  int step = 1;
  switch (L) {
    case NCHW: step = 1; break;
    case NC4HW: step = 4; break;
  }
  if (n > 64) cudaFuncSetAttribute(&scaled<D, INF, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
  scaled<D, INF, sh><<<1, 32>>>(n / step, (const D *)in, (D *)out);
  return step;
}

struct LaunchConfig {
  int layout;
  bool inferOnly;
  launcher_t fn;
  LaunchConfig(int l, bool i, launcher_t f) : layout(l), inferOnly(i), fn(f) {}
};
static LaunchConfig table[] = {LaunchConfig(NCHW, true, launch<float, NCHW, true>), LaunchConfig(NC4HW, false, launch<int, NC4HW, false>)};

// the table is read here, away from the deduced launches in main (host code ptxd reads for those)
static bool runTable(float *df, int *di) {
  bool ok = true;
  float out[4];
  float *dout;
  cudaMalloc(&dout, 4 * sizeof(float));
  ok = ok && table[0].fn(4, df, dout) == 1;
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) ok = ok && out[i] == (float)(i + 1) * 3;
  int *dio, io[4] = {0, 0, 0, 0};
  cudaMalloc(&dio, 4 * sizeof(int));
  cudaMemcpy(dio, io, sizeof io, cudaMemcpyHostToDevice);
  ok = ok && table[1].fn(8, di, dio) == 4;
  cudaMemcpy(io, dio, sizeof io, cudaMemcpyDeviceToHost);
  ok = ok && io[0] == 200 && io[1] == 202 && io[2] == 0;
  cudaFree(dout); cudaFree(dio);
  return ok;
}

int main() {
  bool ok = true;
  int *di, hi[4];
  float *df;
  cudaMalloc(&di, 4 * sizeof(int));
  cudaMalloc(&df, 4 * sizeof(float));
  fill<<<1, 4>>>(di, 4);
  cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) ok = ok && hi[i] == 100 + i;
  fill<<<1, 4>>>(df, 4);
  float hf[4];
  cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) ok = ok && hf[i] == (float)(i + 1);
  ok = ok && runTable(df, di);
  cudaFree(di); cudaFree(df);
  if (!ok) { printf("FAIL cxx2_hostinst_specs\n"); return 1; }
  printf("PASS cxx2_hostinst_specs\n");
  return 0;
}
