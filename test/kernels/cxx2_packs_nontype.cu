// Non-type template parameter packs: an index sequence built by recursion through a partial specialisation,
// deduced back from a function parameter (`Seq<Is...>`), expanded in folds, braced lists, call arguments and
// template argument lists, counted with sizeof... (into a `static constexpr auto` member), and given explicitly to a __noinline__ function (mangled J...E).
#include <cstdio>

template <int... Is> struct Seq { static constexpr auto size = sizeof...(Is); };
template <int N, int... Is> struct MakeSeq { using type = typename MakeSeq<N - 1, N - 1, Is...>::type; };
template <int... Is> struct MakeSeq<0, Is...> { using type = Seq<Is...>; };

template <unsigned... Ms> struct MaskOr { static constexpr unsigned value = (Ms | ... | 0u); };

template <int... Is> __device__ int sumAt(Seq<Is...>, const int *a) { return (a[Is] + ... + 0); }
template <int... Is> __device__ int weighted(const int *a) {
  const int w[] = {Is...};
  int s = 0;
  for (int k = 0; k < (int)sizeof...(Is); k++) s += w[k] * a[k];
  return s;
}
template <int Last> __device__ int maxOf() { return Last; }
template <int First, int Second, int... Rest> __device__ int maxOf() {
  int m = maxOf<Second, Rest...>();
  return First > m ? First : m;
}
__device__ int add3(int x, int y, int z) { return x * 100 + y * 10 + z; }
template <int... Is> __device__ int spread(const int *a) { return add3(a[Is * 2]...); }
template <int... Is> __device__ __noinline__ int dotSeq(const int *a) { return ((Is * a[Is]) + ...); }
template <int... Is> __device__ int shifted(Seq<Is...>) { return Seq<(Is + 1)...>::size + maxOf<(Is * 3)...>(); }

__global__ void packsNontype(const int *in, int *out) {
  int t = threadIdx.x;
  const int *a = in + (t % 8);
  int *o = out + t * 8;
  o[0] = sumAt(typename MakeSeq<4>::type{}, a);
  o[1] = weighted<3, -1, 2>(a);
  o[2] = maxOf<4, 9, -2, 7>() + (int)MakeSeq<6>::type::size;
  o[3] = spread<0, 1, 2>(a);
  o[4] = dotSeq<1, 2, 3>(a);
  o[5] = (int)MaskOr<1u, 4u, 16u>::value + (int)MaskOr<>::value;
  o[6] = shifted(Seq<2, 5>{});
  o[7] = sumAt(Seq<>{}, a) + sumAt(Seq<7>{}, a);
}

int main() {
  const int n = 32;
  int hin[n + 16], hout[n * 8];
  for (int j = 0; j < n + 16; j++) hin[j] = (j * 7) % 13 - 6;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, sizeof(hout));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  packsNontype<<<1, n>>>(din, dout);
  cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
  for (int t = 0; t < n; t++) {
    const int *a = hin + (t % 8);
    int e[8] = {a[0] + a[1] + a[2] + a[3], 3 * a[0] - a[1] + 2 * a[2], 9 + 6, a[0] * 100 + a[2] * 10 + a[4],
                a[1] + 2 * a[2] + 3 * a[3], 21, 2 + 15, a[7]};
    for (int k = 0; k < 8; k++)
      if (hout[t * 8 + k] != e[k]) { printf("FAIL cxx2_packs_nontype: t=%d k=%d got %d want %d\n", t, k, hout[t * 8 + k], e[k]); return 1; }
  }
  printf("PASS cxx2_packs_nontype\n");
  return 0;
}
