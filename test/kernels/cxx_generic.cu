// Generic device code: a vector class template with operators (members and non-member templates),
// a class derived from a class template, __shared__ arrays of class type, enum class in a switch,
// references to arrays, and a kernel template whose body branches with if constexpr.
#include <cstdio>

template <typename T> struct Vec3 {
  T x, y, z;
  __device__ Vec3() : x(0), y(0), z(0) {}
  __device__ Vec3(T a, T b, T c) : x(a), y(b), z(c) {}
  __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
  __device__ Vec3 &operator*=(T s) { x *= s; y *= s; z *= s; return *this; }
  __device__ T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};
template <typename T> __device__ Vec3<T> operator*(T s, const Vec3<T> &v) { return Vec3<T>(s * v.x, s * v.y, s * v.z); }

template <typename T> struct Named { int tag; __device__ int tagged(T v) const { return tag + (int)v; } };
struct Particle : Named<float> { float mass; };

enum class Op { Add, Mul, Neg };
__device__ int apply(Op op, int a, int b) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Mul: return a * b;
    default: return -a;
  }
}

__device__ int sumArr(const int (&a)[4]) { int s = 0; for (int v : a) s += v; return s; }

struct Cell { int count; float weight; };

template <typename T>
__global__ void generic(T *out, int *iout) {
  __shared__ Cell cells[32];
  int i = threadIdx.x;
  cells[i].count = i; cells[i].weight = 0.5f;
  __syncthreads();
  Vec3<T> a(1, 2, 3), b((T)i, 0, 1);
  Vec3<T> c = a + b;                    // (1+i, 2, 4)
  c *= (T)2;                            // (2+2i, 4, 8)
  Vec3<T> d = (T)3 * a;                 // (3, 6, 9)
  Particle p; p.tag = 100; p.mass = 2.0f;
  int arr[4] = {i, 1, 2, 3};
  T extra;
  if constexpr (sizeof(T) == 8) extra = (T)0.25; else extra = (T)0.5;
  out[i * 2 + 0] = c.dot(d) + extra;    // 3(2+2i) + 24 + 72 + extra = 102 + 6i + extra
  out[i * 2 + 1] = (T)cells[(i + 1) % 32].count * cells[i].weight;   // ((i+1)%32) * 0.5
  iout[i * 4 + 0] = apply(Op::Add, i, 3) + apply(Op::Mul, i, 2) + apply(Op::Neg, 5, 0);  // 3i - 2
  iout[i * 4 + 1] = p.tagged(p.mass);   // 102
  iout[i * 4 + 2] = sumArr(arr);        // i + 6
  iout[i * 4 + 3] = sizeof(Vec3<T>);
}

int main() {
  const int T = 32;
  float *df; double *dd; int *di, *di2;
  cudaMalloc(&df, T * 2 * sizeof(float)); cudaMalloc(&dd, T * 2 * sizeof(double));
  cudaMalloc(&di, T * 4 * sizeof(int)); cudaMalloc(&di2, T * 4 * sizeof(int));
  generic<float><<<1, T>>>(df, di);
  generic<double><<<1, T>>>(dd, di2);
  float hf[T * 2]; double hd[T * 2]; int hi[T * 4], hi2[T * 4];
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi2, di2, sizeof(hi2), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    if (hf[i * 2] != 102.5f + 6 * i || hf[i * 2 + 1] != ((i + 1) % 32) * 0.5f) { if (bad++ < 5) printf("FAIL cxx_generic: f[%d] = %f %f\n", i, hf[i * 2], hf[i * 2 + 1]); }
    if (hd[i * 2] != 102.25 + 6 * i || hd[i * 2 + 1] != ((i + 1) % 32) * 0.5) { if (bad++ < 5) printf("FAIL cxx_generic: d[%d] = %f %f\n", i, hd[i * 2], hd[i * 2 + 1]); }
    int e[4] = {3 * i - 2, 102, i + 6, 12}, e2[4] = {3 * i - 2, 102, i + 6, 24};
    for (int k = 0; k < 4; k++) {
      if (hi[i * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_generic: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 4 + k], e[k]); }
      if (hi2[i * 4 + k] != e2[k]) { if (bad++ < 5) printf("FAIL cxx_generic: i2[%d][%d] = %d, expected %d\n", i, k, hi2[i * 4 + k], e2[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cxx_generic\n");
  return 0;
}
