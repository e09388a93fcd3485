// Partial specialisation of class templates: type traits on pointers, const, references and arrays
// (with the bound deduced), two-parameter patterns (Same<T, T>), a bool policy parameter, and a storage
// class specialised for small sizes.
#include <cstdio>

template <typename T> struct IsPointer { static const bool value = false; };
template <typename T> struct IsPointer<T *> { static const bool value = true; };
template <typename T> struct RemoveConst { typedef T type; };
template <typename T> struct RemoveConst<const T> { typedef T type; };
template <typename T> struct RemoveRef { typedef T type; };
template <typename T> struct RemoveRef<T &> { typedef T type; };
template <typename T> struct Extent { static const int value = 0; };
template <typename T, int N> struct Extent<T[N]> { static const int value = N; };
template <typename T, typename U> struct Same { static const bool value = false; };
template <typename T> struct Same<T, T> { static const bool value = true; };
template <typename T> struct PointeeSize { static const int value = 0; };
template <typename T> struct PointeeSize<T *> { static const int value = sizeof(T); };
template <typename T> struct PointeeSize<const T *> { static const int value = 100 + sizeof(T); };

template <bool Saturate, typename T> struct Adder {
  __device__ static T add(T a, T b, T lim) { return a + b; }
};
template <typename T> struct Adder<true, T> {
  __device__ static T add(T a, T b, T lim) { T s = a + b; return s > lim ? lim : s; }
};

template <typename T, int N> struct Storage {
  T v[N];
  __device__ int kind() const { return 0; }
  __device__ T total() const { T s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; }
};
template <typename T> struct Storage<T, 1> {
  T v[1];
  __device__ int kind() const { return 1; }
  __device__ T total() const { return v[0]; }
};

template <typename T> __device__ int describe(T) {
  return IsPointer<T>::value * 1 + Same<typename RemoveConst<T>::type, T>::value * 2 + PointeeSize<T>::value * 4;
}

__global__ void partialSpec(const int *in, int *io) {
  int i = threadIdx.x;
  int x = in[i];
  const int *cp = in;
  double *dp = nullptr;
  RemoveConst<const int>::type y = x;       // int
  y += 1;
  RemoveRef<int &>::type z = y * 2;
  io[i * 6 + 0] = describe(x) * 1000 + describe(cp) * 10 + describe(dp);
  io[i * 6 + 1] = Extent<int[7]>::value + Extent<float[3][5]>::value * 10 + Extent<int>::value;
  io[i * 6 + 2] = Adder<true, int>::add(x, 50, 45) + Adder<false, int>::add(x, 50, 45) * 100;
  Storage<int, 3> s3 = {{x, 2 * x, 3}};
  Storage<int, 1> s1 = {{x + 7}};
  io[i * 6 + 3] = s3.total() * 10 + s3.kind() + s1.kind() * 1000 + s1.total() * 10000;
  io[i * 6 + 4] = z + Same<int, signed int>::value + Same<int, unsigned>::value * 2 + IsPointer<const int *>::value * 4;
  io[i * 6 + 5] = sizeof(Storage<char, 1>) + sizeof(Storage<short, 3>) * 10;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 5) % 11 - 3;
  int *din, *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 6 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  partialSpec<<<1, T>>>(din, di);
  int hi[T * 6];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int x = hin[i];
    int sat = x + 50 > 45 ? 45 : x + 50;
    int e[6] = {2 * 1000 + (1 + 2 + 104 * 4) * 10 + (1 + 2 + 32), 7 + 30, sat + (x + 50) * 100,
                (3 * x + 3) * 10 + 0 + 1000 + (x + 7) * 10000, 2 * (x + 1) + 1 + 4, 1 + 60};
    for (int k = 0; k < 6; k++) if (hi[i * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_partial_spec: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 6 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_partial_spec\n");
  return 0;
}
