// Policy-based design: a reduction class template parameterised by load, combine and store policies
// (static member function templates and stateful policy objects), policies chosen by traits, and a
// block-wide reduction in shared memory driven by them.
#include <cstdio>

struct LoadDirect { template <typename T> __device__ static T load(const T *p, int i) { return p[i]; } };
struct LoadSquared { template <typename T> __device__ static T load(const T *p, int i) { return p[i] * p[i]; } };
struct Plus { template <typename T> __device__ static T apply(T a, T b) { return a + b; } template <typename T> __device__ static T identity() { return T(0); } };
struct Max { template <typename T> __device__ static T apply(T a, T b) { return a > b ? a : b; } template <typename T> __device__ static T identity() { return T(-1000000); } };
struct Scaled { int factor; template <typename T> __device__ T finish(T v) const { return v * factor; } };
struct Identity { template <typename T> __device__ T finish(T v) const { return v; } };

template <typename T, typename Load, typename Op, typename Finish = Identity>
struct BlockReducer {
  Finish fin;
  __device__ explicit BlockReducer(Finish f = Finish()) : fin(f) {}
  __device__ T run(const T *data, int n, T *scratch) const {
    int t = threadIdx.x;
    T acc = Op::template identity<T>();
    for (int i = t; i < n; i += blockDim.x) acc = Op::apply(acc, Load::load(data, i));
    scratch[t] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (t < s) scratch[t] = Op::apply(scratch[t], scratch[t + s]);
      __syncthreads();
    }
    T r = fin.finish(scratch[0]);
    __syncthreads();
    return r;
  }
};

template <typename T> struct DefaultOp { typedef Plus type; };
template <> struct DefaultOp<unsigned> { typedef Max type; };

__global__ void policyClasses(const int *in, int n, int *out) {
  __shared__ int scratch[64];
  __shared__ unsigned uscratch[64];
  BlockReducer<int, LoadDirect, Plus> sum;
  BlockReducer<int, LoadSquared, Plus, Scaled> sumSq(Scaled{2});
  BlockReducer<int, LoadDirect, Max> mx;
  BlockReducer<unsigned, LoadDirect, DefaultOp<unsigned>::type> umx;
  int a = sum.run(in, n, scratch);
  int b = sumSq.run(in, n, scratch);
  int c = mx.run(in, n, scratch);
  unsigned d = umx.run(reinterpret_cast<const unsigned *>(in), n, uscratch);
  if (threadIdx.x == 0) { out[0] = a; out[1] = b; out[2] = c; out[3] = (int)d; }
}

int main() {
  const int N = 200;
  int hin[N];
  for (int j = 0; j < N; j++) hin[j] = (j * 37) % 101 - 50;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, 4 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  policyClasses<<<1, 64>>>(din, N, dout);
  int h[4];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int s = 0, sq = 0, mx = -1000000; unsigned umx = 0;
  for (int j = 0; j < N; j++) { s += hin[j]; sq += hin[j] * hin[j]; if (hin[j] > mx) mx = hin[j]; if ((unsigned)hin[j] > umx) umx = (unsigned)hin[j]; }
  int e[4] = {s, 2 * sq, mx, (int)umx};
  int bad = 0;
  for (int k = 0; k < 4; k++) if (h[k] != e[k]) { bad++; printf("FAIL cxx2_policy_classes: [%d] = %d, expected %d\n", k, h[k], e[k]); }
  if (bad) return 1;
  printf("PASS cxx2_policy_classes\n");
  return 0;
}
