// A class's own operator new/delete (and new[]/delete[]) in device code: objects carved from a per-thread
// arena by the class's allocator, its operator delete counting releases, the array forms receiving the size
// with the cookie, a derived class inheriting them and deleted through a virtual destructor (the deleting
// destructor calls the class's operator delete), and direct malloc/free with placement new.
#include <cstdio>
#include <new>

__device__ unsigned char arena[32][256];
__device__ int released[32];
__device__ int arenaUsed[32];

struct Pooled {
  int v;
  __device__ explicit Pooled(int x) : v(x) {}
  __device__ Pooled() : v(-1) {}
  __device__ virtual ~Pooled() { v = 0; }
  __device__ virtual int get() const { return v; }
  __device__ static void *operator new(unsigned long n) {
    int t = threadIdx.x;
    void *p = arena[t] + arenaUsed[t];
    arenaUsed[t] += (int)((n + 15) & ~15ul);
    return p;
  }
  __device__ static void operator delete(void *) { released[threadIdx.x] += 1; }
  __device__ static void *operator new[](unsigned long n) { arenaUsed[threadIdx.x] += 1000 * (int)n; return malloc(n); }
  __device__ static void operator delete[](void *p) { released[threadIdx.x] += 100; free(p); }
};
struct Big : Pooled {
  int w[3];
  __device__ explicit Big(int x) : Pooled(x) { w[0] = w[1] = w[2] = x; }
  __device__ ~Big() override { w[0] = 0; }
  __device__ int get() const override { return v + w[0] + w[1] + w[2]; }
};
struct Raw { int a, b; __device__ Raw(int x) : a(x), b(2 * x) {} };

__global__ void newOperators(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[t];
  int *o = out + t * 8;
  arenaUsed[t] = 0; released[t] = 0;
  Pooled *p = new Pooled(v);
  Pooled *q = new Big(v + 1);
  o[0] = p->get() + q->get() * 100;
  o[1] = arenaUsed[t];                      // 16 (Pooled: 16 bytes) + 32 (Big: 32 bytes)
  o[2] = (int)((unsigned char *)q - (unsigned char *)p);
  delete p;
  delete q;                                 // through the virtual destructor: Big's D0, Pooled::operator delete
  o[3] = released[t];
  Pooled *arr = new Pooled[3];
  arr[2].v = v;
  o[4] = arr[0].v + arr[1].v + arr[2].v;
  delete[] arr;
  o[5] = released[t] * 100000 + arenaUsed[t];  // new[] got 3 * 16 + 8 (the cookie) bytes
  void *mem = malloc(sizeof(Raw) * 2);
  Raw *r = new (mem) Raw(v);
  Raw *r2 = new (static_cast<Raw *>(mem) + 1) Raw(v + 3);
  o[6] = r->a + r->b + r2->a * 10;
  free(mem);
  o[7] = arenaUsed[t] - 56048;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int t = 0; t < T; t++) hin[t] = (t * 9) % 14 - 6;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, T * 8 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  newOperators<<<1, T>>>(din, dout);
  int h[T * 8];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int e[8] = {v + (4 * (v + 1)) * 100, 48, 16, 2, -2 + v, 102 * 100000 + 48 + 56000, 3 * v + (v + 3) * 10, 0};
    for (int k = 0; k < 8; k++) if (h[t * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_new_operators: [%d][%d] = %d, expected %d\n", t, k, h[t * 8 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_new_operators\n");
  return 0;
}
