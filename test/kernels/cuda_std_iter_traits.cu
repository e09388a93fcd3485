// Iterator traits as CUB and Thrust read them (cub::detail::it_value_t, thrust's lazy_trait): libcu++'s
// iterator_traits<T*> partial specialisation, whose primary takes a defaulted second parameter (declared in a
// forward declaration); __iterator_traits' specialisations chosen by enable_if_t over variable templates of the
// parameter (a non-deduced context); an alias template passed as a template template argument.
#include <cstdio>
#include <cub/util_type.cuh>

struct Iter {   // a class iterator with its five member types
  using iterator_category = cuda::std::random_access_iterator_tag;
  using value_type = short;
  using difference_type = int;
  using pointer = short *;
  using reference = short &;
};

// a void_t partial specialisation over a member type of a class whose bases declare nothing of that name
// (thrust's iterator_system_impl over iterator_traits<long>): a substitution failure, the primary is chosen
template <class T> struct base_traits {};
template <> struct base_traits<Iter> { using category = int; };
template <class T> struct traits : base_traits<T> { using marker = traits; };
template <class T, class = void> struct has_category { static constexpr int v = 1; };
template <class T> struct has_category<T, cuda::std::void_t<typename traits<T>::category>> { static constexpr int v = 2; };

template <template <typename...> class Trait, typename... Args>
struct lazy { using type = Trait<Args...>; };

template <typename It>
using value_of = typename cuda::std::iterator_traits<It>::value_type;

__global__ void traits_kernel(const int *in, long long *out, int *flags) {
  int t = threadIdx.x;
  long long v = in[t];
  out[t * 8 + 0] = v * (long long)sizeof(cuda::std::iterator_traits<double *>::value_type);
  out[t * 8 + 1] = v + (long long)sizeof(cuda::std::iterator_traits<const char *>::difference_type);
  out[t * 8 + 2] = v - (long long)sizeof(cub::detail::it_value_t<float *>);
  out[t * 8 + 3] = (long long)sizeof(typename lazy<value_of, short *>::type) + v;
  out[t * 8 + 4] = v * (long long)sizeof(cuda::std::iterator_traits<Iter>::value_type);
  out[t * 8 + 5] = (long long)sizeof(cuda::std::iterator_traits<Iter>::difference_type) - v;
  out[t * 8 + 6] = cuda::std::is_same_v<cuda::std::iterator_traits<int *>::iterator_category, cuda::std::random_access_iterator_tag> ? v : -v;
  out[t * 8 + 7] = cuda::std::is_same_v<cuda::std::iterator_traits<Iter>::reference, short &> ? 2 * v : -v;
  flags[t] = has_category<long>::v * 10 + has_category<Iter>::v + t;
}

int main() {
  const int N = 64;
  int h[N];
  long long r[N * 8];
  for (int i = 0; i < N; i++) h[i] = (i * 37) % 101 - 50;
  int *din, *dflags; long long *dout;
  cudaMalloc(&din, sizeof h); cudaMalloc(&dout, sizeof r); cudaMalloc(&dflags, N * sizeof(int));
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  traits_kernel<<<1, N>>>(din, dout, dflags);
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) printf("%lld\n", r[i]);
  return 0;
}
