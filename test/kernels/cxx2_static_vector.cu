// A fixed-capacity vector class template: variadic emplace_back forwarding to the element's initializer,
// member templates taking any predicate or functor, out-of-line members, and algorithms written as
// function templates over it.
#include <cstdio>

struct Item { int key; float weight; };

template <typename T, int Cap>
class StaticVector {
  T data_[Cap];
  int size_;
public:
  __device__ StaticVector() : size_(0) {}
  __device__ int size() const { return size_; }
  __device__ T &operator[](int i) { return data_[i]; }
  __device__ const T &operator[](int i) const { return data_[i]; }
  template <typename... Args> __device__ bool emplace_back(Args... args);
  __device__ bool push_back(const T &v) { if (size_ == Cap) return false; data_[size_++] = v; return true; }
  template <typename Pred> __device__ int countIf(Pred p) const { int n = 0; for (int i = 0; i < size_; i++) if (p(data_[i])) n++; return n; }
  template <typename F> __device__ auto sumOf(F f) const { decltype(f(data_[0])) s = 0; for (int i = 0; i < size_; i++) s += f(data_[i]); return s; }
  template <typename Pred> __device__ void eraseIf(Pred p);
};
template <typename T, int Cap> template <typename... Args>
__device__ bool StaticVector<T, Cap>::emplace_back(Args... args) {
  if (size_ == Cap) return false;
  data_[size_++] = T{args...};
  return true;
}
template <typename T, int Cap> template <typename Pred>
__device__ void StaticVector<T, Cap>::eraseIf(Pred p) {
  int w = 0;
  for (int r = 0; r < size_; r++) if (!p(data_[r])) data_[w++] = data_[r];
  size_ = w;
}

template <typename V> __device__ int maxKey(const V &v) { int m = -1000000; for (int i = 0; i < v.size(); i++) if (v[i].key > m) m = v[i].key; return m; }

struct HeavierThan { float limit; __device__ bool operator()(const Item &it) const { return it.weight > limit; } };

__global__ void staticVector(const int *in, int *io, float *fo) {
  int t = threadIdx.x;
  StaticVector<Item, 6> v;
  for (int k = 0; k < 4; k++) v.emplace_back(in[(t + k) % 32], 0.5f * k);
  v.emplace_back(in[(t + 9) % 32]);                         // Item{key}: weight 0
  v.emplace_back();                                          // Item{}: key 0
  bool full = !v.emplace_back(99, 9.0f);
  io[t * 5 + 0] = v.size() * 10 + full;
  io[t * 5 + 1] = v.countIf(HeavierThan{0.75f}) + 10 * v.countIf([](const Item &it) { return it.key < 0; });
  io[t * 5 + 2] = maxKey(v);
  fo[t * 2 + 0] = v.sumOf([](const Item &it) { return it.weight * it.key; });
  int limit = in[t];
  v.eraseIf([limit](const Item &it) { return it.key > limit; });
  io[t * 5 + 3] = v.size();
  io[t * 5 + 4] = v.sumOf([](const Item &it) { return it.key; });
  StaticVector<int, 3> ints;
  ints.push_back(t); ints.emplace_back(2 * t);
  fo[t * 2 + 1] = ints.sumOf([](int x) { return x * 0.5f; });
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 7) % 15 - 7;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 5 * sizeof(int)); cudaMalloc(&df, T * 2 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  staticVector<<<1, T>>>(din, di, df);
  int hi[T * 5]; float hf[T * 2];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int keys[6]; float w[6];
    for (int k = 0; k < 4; k++) { keys[k] = hin[(t + k) % 32]; w[k] = 0.5f * k; }
    keys[4] = hin[(t + 9) % 32]; w[4] = 0.0f; keys[5] = 0; w[5] = 0.0f;
    int heavy = 0, neg = 0, mx = -1000000; float ws = 0;
    for (int k = 0; k < 6; k++) { heavy += w[k] > 0.75f; neg += keys[k] < 0; if (keys[k] > mx) mx = keys[k]; ws += w[k] * keys[k]; }
    int kept = 0, ks = 0;
    for (int k = 0; k < 6; k++) if (!(keys[k] > hin[t])) { kept++; ks += keys[k]; }
    int e[5] = {61, heavy + 10 * neg, mx, kept, ks};
    float ef[2] = {ws, t * 0.5f + 2 * t * 0.5f};
    for (int k = 0; k < 5; k++) if (hi[t * 5 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_static_vector: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 5 + k], e[k]); }
    for (int k = 0; k < 2; k++) if (hf[t * 2 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_static_vector: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 2 + k], ef[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_static_vector\n");
  return 0;
}
