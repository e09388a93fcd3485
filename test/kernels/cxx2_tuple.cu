// A tuple built from a variadic class template: the empty specialisation and the recursive partial
// specialisation `Tuple<T, Rest...>`, element access by index through partial specialisations returning
// `auto &`, a variadic factory deducing the element types, sizeof... in a class, and function templates
// deducing a pack from a Tuple<Ts...> argument.
#include <cstdio>

template <typename... Ts> struct Tuple;
template <> struct Tuple<> {
  static const int size = 0;
  __device__ float total() const { return 0.0f; }
};
template <typename T, typename... Rest> struct Tuple<T, Rest...> {
  static const int size = 1 + sizeof...(Rest);
  T head;
  Tuple<Rest...> tail;
  __device__ float total() const { return (float)head + tail.total(); }
};

template <int I, typename Tup> struct Element;
template <typename T, typename... Rest> struct Element<0, Tuple<T, Rest...> > {
  __device__ static T &get(Tuple<T, Rest...> &t) { return t.head; }
};
template <int I, typename T, typename... Rest> struct Element<I, Tuple<T, Rest...> > {
  __device__ static auto &get(Tuple<T, Rest...> &t) { return Element<I - 1, Tuple<Rest...> >::get(t.tail); }
};
template <int I, typename... Ts> __device__ auto &get(Tuple<Ts...> &t) { return Element<I, Tuple<Ts...> >::get(t); }

__device__ Tuple<> makeTuple() { return Tuple<>(); }
template <typename T, typename... Rest> __device__ Tuple<T, Rest...> makeTuple(T first, Rest... rest) {
  Tuple<T, Rest...> t;
  t.head = first;
  t.tail = makeTuple(rest...);
  return t;
}
template <typename... Ts> __device__ __noinline__ int countOf(const Tuple<Ts...> &) { return sizeof...(Ts); }

__global__ void tuples(const int *in, int *io, float *fo) {
  int t = threadIdx.x;
  int v = in[t];
  auto tup = makeTuple(v, 0.5f * v, (short)3, 2.25);
  get<2>(tup) = (short)(get<2>(tup) + 4);
  get<0>(tup) += 1;
  io[t * 4 + 0] = get<0>(tup) * 100 + get<2>(tup);
  io[t * 4 + 1] = Tuple<int, float, short, double>::size * 10 + Tuple<>::size + countOf(tup) * 100;
  io[t * 4 + 2] = (int)sizeof(tup) + (int)sizeof(Tuple<char, char>) * 100;
  Tuple<char> one = makeTuple('x');
  io[t * 4 + 3] = get<0>(one);
  fo[t * 2 + 0] = tup.total();
  fo[t * 2 + 1] = get<1>(tup) + (float)get<3>(tup);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 3) % 16 - 8;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 4 * sizeof(int)); cudaMalloc(&df, T * 2 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  tuples<<<1, T>>>(din, di, df);
  int hi[T * 4]; float hf[T * 2];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    // Tuple<> is an empty class of size 1: Tuple<double> = 16, Tuple<short, double> = 24, Tuple<float, ...> = 32,
    // Tuple<int, float, short, double> = 40; Tuple<char> = 2, Tuple<char, char> = 3
    int e[4] = {(v + 1) * 100 + 7, 40 + 0 + 400, 40 + 3 * 100, 'x'};
    float ef[2] = {(float)(v + 1) + ((0.5f * v) + ((float)7 + ((float)2.25 + 0.0f))), 0.5f * v + 2.25f};
    for (int k = 0; k < 4; k++) if (hi[t * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_tuple: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 4 + k], e[k]); }
    for (int k = 0; k < 2; k++) if (hf[t * 2 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_tuple: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 2 + k], ef[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_tuple\n");
  return 0;
}
