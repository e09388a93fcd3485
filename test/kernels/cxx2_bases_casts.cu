// Conversions between a class and its bases at non-zero offsets: implicit derived-to-base pointer and
// reference conversions, static_cast back to the derived class (pointer and reference), a C-style cast,
// null pointers staying null both ways, comparisons of converted pointers, and objects with virtual
// destructors in two bases deleted through the second base (a this-adjusting thunk to the deleting
// destructor) and destroyed through the first.
#include <cstdio>

struct Head { int h[2]; };
struct Tail { long long t; __device__ int low() const { return (int)(t & 0xff); } };
struct Both : Head, Tail {
  int b;
  __device__ int sum() const { return h[0] + h[1] + (int)t + b; }
};

struct Log {
  int *log;
  __device__ explicit Log(int *l) : log(l) {}
  __device__ virtual ~Log() { *log = *log * 10 + 1; }
  __device__ virtual int who() const { return 1; }
};
struct Counter {
  int n;
  __device__ Counter() : n(5) {}
  __device__ virtual ~Counter() { n = 0; }
  __device__ virtual int count() const { return n; }
};
struct Job : Log, Counter {
  int id;
  __device__ Job(int *l, int i) : Log(l), id(i) { n = i; }
  __device__ ~Job() override { *log = *log * 10 + 2; }
  __device__ int who() const override { return 2; }
  __device__ int count() const override { return n * 3; }
};

__device__ __noinline__ Tail *tailOf(Both *b) { return b; }            // null stays null
__device__ __noinline__ Both *backFrom(Tail *t) { return static_cast<Both *>(t); }
__device__ __noinline__ const Tail &tailRef(const Both &b) { return b; }
__device__ __noinline__ int fromCounter(Counter *c) { Job *j = static_cast<Job *>(c); return j ? j->id * 100 + j->who() * 10 + c->count() % 10 : -1; }
__device__ __noinline__ void drop(Counter *c) { delete c; }

__global__ void basesCasts(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[t];
  int *o = out + t * 10;
  Both b;
  b.h[0] = v; b.h[1] = 2 * v; b.t = 1000 + v; b.b = 7;
  Tail *tp = tailOf(&b);
  o[0] = (int)((char *)tp - (char *)&b);
  o[1] = backFrom(tp)->sum();
  o[2] = tailOf(nullptr) == nullptr && backFrom(nullptr) == nullptr;
  const Tail &tr = tailRef(b);
  const Both &br = static_cast<const Both &>(tr);
  o[3] = br.b + tr.low();
  Both *viaC = (Both *)tp;
  o[4] = viaC == &b;
  Tail *maybe = (v & 1) ? tp : nullptr;
  Both *back = static_cast<Both *>(maybe);
  o[5] = back ? back->h[1] : -1;
  int log = 0;
  Job *j = new Job(&log, t);
  Counter *c = j;
  o[6] = fromCounter(c);
  o[7] = fromCounter(nullptr);
  drop(c);
  o[8] = log;
  int log2 = 0;
  Job *k = new Job(&log2, v);
  Log *l = k;
  o[9] = l->who() + static_cast<Counter *>(k)->count();
  delete l;
  o[9] = o[9] * 1000 + log2;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int t = 0; t < T; t++) hin[t] = (t * 11) % 7 - 2;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, T * 10 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  basesCasts<<<1, T>>>(din, dout);
  int h[T * 10];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int e[10] = {8, v + 2 * v + 1000 + v + 7, 1, 7 + ((1000 + v) & 0xff), 1, (v & 1) ? 2 * v : -1,
                 t * 100 + 20 + (t * 3) % 10, -1, 21, (2 + v * 3) * 1000 + 21};
    for (int k = 0; k < 10; k++) if (h[t * 10 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_bases_casts: [%d][%d] = %d, expected %d\n", t, k, h[t * 10 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_bases_casts\n");
  return 0;
}
