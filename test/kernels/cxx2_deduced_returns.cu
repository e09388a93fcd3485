// Deduced and trailing return types: `auto` functions and function templates (plain and __noinline__),
// trailing return types naming template parameters, decltype(auto) forwarding a reference or a value,
// and decltype of names and expressions for variables.
#include <cstdio>

__device__ auto addi(int a, int b) -> int { return a + b; }
template <typename T> __device__ auto twice(T a) -> T { return a + a; }
template <typename T> __device__ __noinline__ auto halfOf(T a) { return a / 2; }
template <typename T> __device__ __noinline__ decltype(auto) at(T *p, int i) { return p[i]; }   // T &
template <typename T> __device__ decltype(auto) pick(T &a, T &b, bool first) { T &r = first ? a : b; return r; }
template <typename T> __device__ decltype(auto) plusOne(T a) { return a + 1; }                  // T
struct Grid {
  int cells[4];
  __device__ auto size() const { return 4; }
  __device__ auto cell(int i) -> int & { return cells[i]; }
};

__global__ void deducedReturns(const int *in, int *io, float *fo) {
  int i = threadIdx.x;
  int v = in[i];
  int buf[3] = {v, v + 1, v + 2};
  io[i * 6 + 0] = addi(v, 3) + twice(v);
  at(buf, 1) = 40;                              // writes through the returned reference
  io[i * 6 + 1] = buf[1] + halfOf(v * 4);
  int a = v, b = -v;
  pick(a, b, v > 0) = 7;
  io[i * 6 + 2] = a * 10 + b;
  decltype(v) c = plusOne(v);
  decltype((c)) cref = c;                       // int &
  cref += 100;
  io[i * 6 + 3] = c;
  Grid g{{1, 2, 3, 4}};
  g.cell(2) = v;
  io[i * 6 + 4] = g.cells[2] * g.size();
  io[i * 6 + 5] = sizeof(decltype(halfOf(1.0))) + sizeof(decltype(plusOne('a')));
  fo[i] = twice(0.75f * v) + halfOf(3.0f);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 7) % 12 - 5;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 6 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  deducedReturns<<<1, T>>>(din, di, df);
  int hi[T * 6]; float hf[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int v = hin[i];
    int a = v, b = -v;
    if (v > 0) a = 7; else b = 7;
    int e[6] = {v + 3 + 2 * v, 40 + (v * 4) / 2, a * 10 + b, v + 1 + 100, v * 4, 8 + 4};
    for (int k = 0; k < 6; k++) if (hi[i * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_deduced_returns: [%d][%d] = %d, expected %d\n", i, k, hi[i * 6 + k], e[k]); }
    float ef = (0.75f * v + 0.75f * v) + 1.5f;
    if (hf[i] != ef) { if (bad++ < 5) printf("FAIL cxx2_deduced_returns: f[%d] = %f, expected %f\n", i, hf[i], ef); }
  }
  if (bad) return 1;
  printf("PASS cxx2_deduced_returns\n");
  return 0;
}
