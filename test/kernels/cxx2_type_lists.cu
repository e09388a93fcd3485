// Compile-time type lists over parameter packs: Length, At<N>, IndexOf<T>, Contains and a maximum of
// sizeof over the list, all by partial specialisation; results used as array bounds, template
// arguments and values.
#include <cstdio>

template <typename... Ts> struct TypeList {};

template <typename L> struct Length;
template <typename... Ts> struct Length<TypeList<Ts...> > { static const int value = sizeof...(Ts); };

template <int N, typename L> struct At;
template <typename T, typename... Ts> struct At<0, TypeList<T, Ts...> > { typedef T type; };
template <int N, typename T, typename... Ts> struct At<N, TypeList<T, Ts...> > { typedef typename At<N - 1, TypeList<Ts...> >::type type; };

template <typename X, typename L> struct IndexOf;
template <typename X> struct IndexOf<X, TypeList<> > { static const int value = -1; };
template <typename X, typename... Ts> struct IndexOf<X, TypeList<X, Ts...> > { static const int value = 0; };
template <typename X, typename T, typename... Ts> struct IndexOf<X, TypeList<T, Ts...> > {
  static const int rest = IndexOf<X, TypeList<Ts...> >::value;
  static const int value = rest < 0 ? -1 : rest + 1;
};

template <typename L> struct MaxSize;
template <> struct MaxSize<TypeList<> > { static const int value = 0; };
template <typename T, typename... Ts> struct MaxSize<TypeList<T, Ts...> > {
  static const int rest = MaxSize<TypeList<Ts...> >::value;
  static const int value = (int)sizeof(T) > rest ? (int)sizeof(T) : rest;
};

typedef TypeList<char, short, double, int, float> Types;

__global__ void typeLists(const int *in, int *io) {
  int t = threadIdx.x;
  unsigned char storage[MaxSize<Types>::value];
  At<2, Types>::type d = in[t] * 0.5;                       // double
  At<4, Types>::type f = (float)in[t];                       // float
  for (int k = 0; k < MaxSize<Types>::value; k++) storage[k] = (unsigned char)(t + k);
  io[t * 6 + 0] = Length<Types>::value * 10 + Length<TypeList<> >::value;
  io[t * 6 + 1] = IndexOf<double, Types>::value * 10 + IndexOf<float, Types>::value;
  io[t * 6 + 2] = IndexOf<long, Types>::value;
  io[t * 6 + 3] = (int)sizeof(d) * 10 + (int)sizeof(f) + (int)sizeof(At<0, Types>::type) * 100;
  io[t * 6 + 4] = (int)(d * 4.0) + (int)f;
  io[t * 6 + 5] = storage[7] + (int)sizeof(storage) * 1000;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = j - 10;
  int *din, *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 6 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  typeLists<<<1, T>>>(din, di);
  int hi[T * 6];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int e[6] = {50, 24, -1, 84 + 100, (int)(v * 0.5 * 4.0) + v, t + 7 + 8000};
    for (int k = 0; k < 6; k++) if (hi[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_type_lists: [%d][%d] = %d, expected %d\n", t, k, hi[t * 6 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_type_lists\n");
  return 0;
}
