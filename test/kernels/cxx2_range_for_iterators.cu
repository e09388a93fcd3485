// Range-based for over classes whose begin()/end() return class iterators: a strided view with a member
// operator!=, operator++ and operator*, a sentinel of another type compared by a free operator!=, an iterator
// whose operator* returns by value, and one over a const container (const begin()/end() overloads).
#include <cstdio>

struct Strided {
  const float *p;
  int step;
  struct It {
    const float *q;
    int step;
    __device__ bool operator!=(const It &o) const { return q != o.q; }
    __device__ It &operator++() { q += step; return *this; }
    __device__ const float &operator*() const { return *q; }
  };
  int n;
  __device__ It begin() const { return It{p, step}; }
  __device__ It end() const { return It{p + n * step, step}; }
};

struct Countdown {
  int from;
  struct Sentinel { int stop; };
  struct It {
    int v;
    __device__ It &operator++() { --v; return *this; }
    __device__ int operator*() const { return v * v; }
  };
  __device__ It begin() const { return It{from}; }
  __device__ Sentinel end() const { return Sentinel{0}; }
};
__device__ bool operator!=(const Countdown::It &a, const Countdown::Sentinel &s) { return a.v > s.stop; }

struct Bag {
  int items[4];
  struct It {
    int *p;
    __device__ bool operator!=(It o) const { return p != o.p; }
    __device__ void operator++() { ++p; }
    __device__ int &operator*() const { return *p; }
  };
  struct CIt {
    const int *p;
    __device__ bool operator!=(CIt o) const { return p != o.p; }
    __device__ void operator++() { ++p; }
    __device__ int operator*() const { return *p + 100; }
  };
  __device__ It begin() { return It{items}; }
  __device__ It end() { return It{items + 4}; }
  __device__ CIt begin() const { return CIt{items}; }
  __device__ CIt end() const { return CIt{items + 4}; }
};

__global__ void rangeForIterators(const float *in, float *fout, int *iout) {
  int t = threadIdx.x;
  Strided s{in + (t % 4), 4, 8};
  float acc = 0.0f;
  for (float x : s) acc += x;
  fout[t] = acc;
  int sq = 0;
  for (int v : Countdown{t % 6}) sq += v;
  iout[t * 3 + 0] = sq;
  Bag b{{t, t + 1, t + 2, t + 3}};
  for (int &v : b) v *= 2;
  int sum = 0;
  for (int v : b) sum += v;
  const Bag &cb = b;
  int csum = 0;
  for (auto v : cb) csum += v;
  iout[t * 3 + 1] = sum;
  iout[t * 3 + 2] = csum;
}

int main() {
  const int T = 32, N = 64;
  float hin[N];
  for (int j = 0; j < N; j++) hin[j] = (j % 9) * 0.5f - 1.0f;
  float *din, *dfo; int *dio;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dfo, T * sizeof(float)); cudaMalloc(&dio, T * 3 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  rangeForIterators<<<1, T>>>(din, dfo, dio);
  float hf[T]; int hi[T * 3];
  cudaMemcpy(hf, dfo, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, dio, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    float acc = 0.0f;
    for (int k = 0; k < 8; k++) acc += hin[t % 4 + 4 * k];
    int sq = 0;
    for (int v = t % 6; v > 0; v--) sq += v * v;
    int sum = 2 * (4 * t + 6);
    int e[3] = {sq, sum, sum + 400};
    if (hf[t] != acc) { if (bad++ < 5) printf("FAIL cxx2_range_for_iterators: f[%d] = %f, expected %f\n", t, hf[t], acc); }
    for (int k = 0; k < 3; k++)
      if (hi[t * 3 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_range_for_iterators: [%d][%d] = %d, expected %d\n", t, k, hi[t * 3 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_range_for_iterators\n");
  return 0;
}
