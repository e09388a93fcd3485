// <cuda/std/array> in device code: brace initialisation with the inner braces elided (the array member of
// the aggregate), range-based for over the class (begin()/end(), by value and by reference), size(),
// operator[], front()/back(), data(), iterators, copies, ==, and arrays passed to and returned from device
// functions; brace elision in a plain aggregate with array members (one- and two-dimensional) as well.
#include <cstdio>
#include <cuda/std/array>

#define N 128

struct Coeffs { int w[3]; float scale; int m[2][2]; };

__device__ cuda::std::array<int, 4> twice(cuda::std::array<int, 4> a) {
  for (int &v : a) v *= 2;
  return a;
}

__device__ int dot(const cuda::std::array<int, 4> &a, const cuda::std::array<int, 4> &b) {
  int s = 0;
  for (cuda::std::size_t k = 0; k < a.size(); k++) s += a[k] * b[k];
  return s;
}

__global__ void array_kernel(const int *in, int *out, float *fout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  cuda::std::array<int, 4> a = {x, x + 1, x * 3, -x};
  cuda::std::array<float, 3> f = {0.5f * x, 1.25f, -2.0f};
  cuda::std::array<int, 4> b{1, -2, 3, -4};
  int sum = 0;
  for (int v : a) sum += v;
  float fs = 0.0f;
  for (const float &v : f) fs += v;
  cuda::std::array<int, 4> t = twice(a);
  int it = 0;
  for (auto p = b.begin(); p != b.end(); ++p) it = it * 3 + *p;
  cuda::std::array<int, 4> c = a;
  c[2] = 7;
  Coeffs k = {x, 2, 3, 0.75f, 1, x, -1, 4};
  int ks = 0;
  for (int v : k.w) ks += v;
  out[i * 10 + 0] = sum;
  out[i * 10 + 1] = dot(a, b);
  out[i * 10 + 2] = t.front() + t.back() + t[1];
  out[i * 10 + 3] = it;
  out[i * 10 + 4] = (a == c) + 2 * (a == a) + 4 * (c != a);
  out[i * 10 + 5] = (int)a.size() + (int)f.size() * 10 + a.empty();
  out[i * 10 + 6] = a.data()[2] + *(b.data() + 3);
  out[i * 10 + 7] = ks + k.m[0][1] * 10;
  out[i * 10 + 8] = k.m[1][0] * 100 + k.m[1][1] + k.m[0][0];
  out[i * 10 + 9] = c[2] + c[0];
  fout[i] = fs + k.scale;
}

int main() {
  int h[N], r[N * 10];
  float fr[N];
  for (int i = 0; i < N; i++) h[i] = (i * 37) % 101 - 50;
  int *din, *dout; float *dfout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r)); cudaMalloc(&dfout, sizeof(fr));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  array_kernel<<<N / 64, 64>>>(din, dout, dfout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(fr, dfout, sizeof(fr), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int x = h[i];
    int a[4] = {x, x + 1, x * 3, -x}, b[4] = {1, -2, 3, -4};
    int it = 0;
    for (int k = 0; k < 4; k++) it = it * 3 + b[k];
    int e[10] = {x + x + 1 + x * 3 - x, a[0] - 2 * a[1] + 3 * a[2] - 4 * a[3], 2 * a[0] + 2 * a[3] + 2 * a[1], it,
                 (x * 3 == 7 ? 1 : 0) + 2 + 4 * (x * 3 != 7 ? 1 : 0), 4 + 30, a[2] - 4, x + 5 + x * 10, -100 + 4 + 1, 7 + x};
    for (int k = 0; k < 10; k++)
      if (r[i * 10 + k] != e[k] && bad++ < 5) printf("FAIL cuda_std_array: [%d][%d] = %d, expected %d\n", i, k, r[i * 10 + k], e[k]);
    float ef = 0.5f * x + 1.25f + -2.0f + 0.75f;
    if (fr[i] != ef && bad++ < 5) printf("FAIL cuda_std_array: f[%d] = %g, expected %g\n", i, fr[i], ef);
  }
  if (bad) return 1;
  printf("PASS cuda_std_array\n");
  return 0;
}
