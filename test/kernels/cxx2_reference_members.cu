// Classes with reference members, as CUB's block-wide primitives hold their shared-memory storage
// (`_TempStorage &temp_storage`): bound in mem-initializers and aggregate initialisation, read, written and
// compound-assigned through, passed on to constructors of other classes (in templates too), copied with the
// object, and taking the size of an address in the class layout (and in a kernel parameter).
#include <cstdio>

struct Storage { int v[4]; };

struct Counter {
  int &count;
  const int &step;
  __device__ Counter(int &c, const int &s) : count(c), step(s) {}
  __device__ void bump() { count += step; ++count; }
};

struct Reducer {
  Storage &s;
  __device__ explicit Reducer(Storage &st) : s(st) {}
  __device__ int sum() const { return s.v[0] + s.v[1] + s.v[2] + s.v[3]; }
  __device__ void put(int i, int x) { s.v[i] = x; }
};

template <class Impl> struct Block {
  Storage &storage;
  int lane;
  __device__ Block(Storage &st, int l) : storage(st), lane(l) {}
  __device__ int run(int x) {
    Impl(storage).put(lane & 3, x);
    __syncthreads();
    Storage &r = storage;
    return Impl(r).sum() + lane;
  }
};

struct Pair { int &a; float &b; };   // an aggregate of references

struct ByValue { int &r; int k; };

__global__ void referenceMembers(const int *in, int *out, ByValue bv) {
  __shared__ Storage sh;
  int t = threadIdx.x, x = in[t];
  int c = x, step = 3;
  Counter ctr(c, step);
  ctr.bump();
  Counter copy = ctr;   // copies the references, not the objects
  copy.bump();
  Block<Reducer> blk(sh, t);
  int total = t < 4 ? blk.run(x) : 0;
  float f = 1.5f;
  Pair p{c, f};
  p.a *= 2;
  p.b += 1.0f;
  out[t * 5 + 0] = c;
  out[t * 5 + 1] = total;
  out[t * 5 + 2] = (int)(f * 10);
  out[t * 5 + 3] = (int)sizeof(Counter) * 100 + (int)sizeof(Pair) * 10 + (int)sizeof(Block<Reducer>);
  out[t * 5 + 4] = bv.k;
}

int main() {
  const int T = 4;
  int h[T] = {5, -7, 11, 20}, r[T * 5];
  int *din, *dout, dummy = 0;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  referenceMembers<<<1, T>>>(din, dout, ByValue{dummy, 42});
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0, sum = h[0] + h[1] + h[2] + h[3];
  for (int t = 0; t < T; t++) {
    int e[5] = {((h[t] + 4) + 4) * 2, sum + t, 25, 16 * 100 + 16 * 10 + 16, 42};
    for (int k = 0; k < 5; k++)
      if (r[t * 5 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_reference_members: [%d][%d] = %d, expected %d\n", t, k, r[t * 5 + k], e[k]);
  }
  if (bad) return 1;
  printf("PASS cxx2_reference_members\n");
  return 0;
}
