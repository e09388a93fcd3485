// A header's device variable template named by non-template code: libcu++'s `views::empty<T>`
// (`template <class T> __device__ constexpr empty_view<T> empty{};`). EDG instantiates the specialisation
// where a non-template declaration names it, used or not (a kernel's body, an inline function nobody
// calls), and cicc emits each one as a device object of internal linkage, in the order first named, and
// registers it in the stub; a member template names it with its own parameter only when instantiated.
#include <cstdio>
#include <cuda/std/ranges>

#define N 64

namespace views = cuda::std::ranges::views;

// never called: its specialisation is emitted all the same
inline __host__ __device__ auto no_shorts() { return views::empty<short>; }

struct holder {
  // a member template of a plain class: empty<T> for the T it is instantiated with (double, below)
  template <class T> __device__ static int size_of() { return (int)sizeof(views::empty<T>); }
};

__global__ void empty_kernel(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto a = views::empty<int>;
  auto b = views::empty<float>;
  (void)a; (void)b;
  out[i * 2 + 0] = in[i] + (int)sizeof(a) + 10 * (int)sizeof(b);
  out[i * 2 + 1] = in[i] * holder::size_of<double>();
}

int main() {
  int h[N], r[N * 2];
  for (int i = 0; i < N; i++) h[i] = (i * 37) % 101 - 50;
  int *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  empty_kernel<<<N / 32, 32>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int e[2] = {h[i] + 11, h[i]};
    for (int k = 0; k < 2; k++)
      if (r[i * 2 + k] != e[k] && bad++ < 5) printf("FAIL cuda_std_ranges_empty: [%d][%d] = %d, expected %d\n", i, k, r[i * 2 + k], e[k]);
  }
  if (bad) return 1;
  printf("PASS cuda_std_ranges_empty\n");
  return 0;
}
