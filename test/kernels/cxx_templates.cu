// Templates in device code: function templates with deduction (values, pointers, references), explicit
// arguments and defaults; class templates with type and non-type parameters, member functions and
// operators; explicit specialisation; if constexpr and static_assert on template parameters.
#include <cstdio>

template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
template <typename T> __device__ T maxOf(const T &a, const T &b) { return a > b ? a : b; }
template <typename T> __device__ void swapT(T &a, T &b) { T t = a; a = b; b = t; }
template <typename T, int N> __device__ __noinline__ T sumN(const T *p) { T s = 0; for (int i = 0; i < N; i++) s += p[i]; return s; }
template <typename To, typename From> __device__ To convert(From f) { return static_cast<To>(f); }
template <int N = 3> __device__ int scaled(int v) { return v * N; }

template <typename T, int N>
struct Array {
  T data[N];
  __device__ T &operator[](int i) { return data[i]; }
  __device__ const T &operator[](int i) const { return data[i]; }
  __device__ int size() const { return N; }
  __device__ T total() const { T s = T(); for (int i = 0; i < N; i++) s += data[i]; return s; }
};

template <typename T> struct Traits { static const int id = 1; };
template <> struct Traits<double> { static const int id = 2; };

template <typename T> struct Pair {
  T first, second;
  __device__ Pair(T a, T b) : first(a), second(b) {}
  __device__ T diff() const { return first - second; }
};

template <typename T> __device__ int kindOf(T v) {
  if constexpr (sizeof(T) == 8) return 8;
  else return 4;
}

template <typename T> __device__ __noinline__ T addPair(Pair<T> p) { return p.first + p.second; }

__global__ void templates(int *iout, float *fout, double *dout) {
  int i = threadIdx.x;
  static_assert(sizeof(Array<float, 4>) == 16, "layout of a class template specialisation");
  int a = i, b = 100;
  swapT(a, b);                                   // a = 100, b = i
  Array<int, 5> arr;
  for (int k = 0; k < arr.size(); k++) arr[k] = k + i;
  const Array<int, 5> &carr = arr;
  Pair<float> pf(2.5f, 1.0f);
  Pair<int> pi(i, 3);
  iout[i * 8 + 0] = twice(i);                    // 2i
  iout[i * 8 + 1] = maxOf(a, b);                 // 100
  iout[i * 8 + 2] = sumN<int, 5>(arr.data);      // 10 + 5i
  iout[i * 8 + 3] = carr.total() + carr[0];      // 10 + 6i
  iout[i * 8 + 4] = convert<int>(3.75f) + scaled(i) + scaled<2>(1);  // 3 + 3i + 2
  iout[i * 8 + 5] = Traits<float>::id * 10 + Traits<double>::id;     // 12
  iout[i * 8 + 6] = kindOf(1.0) + kindOf(1.0f);  // 12
  iout[i * 8 + 7] = pi.diff() + addPair(pi);     // (i - 3) + (i + 3)
  fout[i] = twice(pf.diff()) + addPair(pf);      // 3 + 3.5
  dout[i] = twice(0.25 * i);
}

int main() {
  const int T = 32;
  int *di; float *df; double *dd;
  cudaMalloc(&di, T * 8 * sizeof(int)); cudaMalloc(&df, T * sizeof(float)); cudaMalloc(&dd, T * sizeof(double));
  templates<<<1, T>>>(di, df, dd);
  int hi[T * 8]; float hf[T]; double hd[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int e[8] = {2 * i, 100, 10 + 5 * i, 10 + 6 * i, 5 + 3 * i, 12, 12, 2 * i};
    for (int k = 0; k < 8; k++) if (hi[i * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_templates: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 8 + k], e[k]); }
    if (hf[i] != 6.5f) { if (bad++ < 5) printf("FAIL cxx_templates: f[%d] = %f\n", i, hf[i]); }
    if (hd[i] != 0.5 * i) { if (bad++ < 5) printf("FAIL cxx_templates: d[%d] = %f\n", i, hd[i]); }
  }
  if (bad) return 1;
  printf("PASS cxx_templates\n");
  return 0;
}
