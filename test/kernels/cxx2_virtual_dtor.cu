// Virtual destructors: objects of several derived classes built with placement new in a thread's local
// buffer and destroyed through a base-class pointer (the derived destructor, its members' and the base's
// run, in that order), a derived class with only an implicit destructor, and local objects with virtual
// destructors leaving their scope.
#include <cstdio>
#include <new>

struct Note {
  int *log; int id;
  __device__ Note(int *l, int i) : log(l), id(i) { *log = *log * 10 + id; }
  __device__ ~Note() { *log = *log * 10 + id + 5; }
};
struct Res {
  int *log;
  __device__ explicit Res(int *l) : log(l) { *log = *log * 10 + 1; }
  __device__ virtual ~Res() { *log = *log * 10 + 6; }
  __device__ virtual int kind() const { return 1; }
};
struct File : Res {
  Note n;
  __device__ explicit File(int *l) : Res(l), n(l, 2) {}
  __device__ ~File() override { *log = *log * 10 + 9; }
  __device__ int kind() const override { return 2; }
};
struct Sock : Res {           // implicit destructor: still virtual, destroys the member then the base
  Note n;
  __device__ explicit Sock(int *l) : Res(l), n(l, 3) {}
  __device__ int kind() const override { return 3; }
};
struct Pipe final : File {
  __device__ explicit Pipe(int *l) : File(l) {}
  __device__ ~Pipe() { *log = *log * 10 + 4; }
  __device__ int kind() const override { return 4; }
};

__device__ __noinline__ void destroy(Res *r) { r->~Res(); }

__global__ void virtualDtor(int *out) {
  int t = threadIdx.x;
  alignas(16) unsigned char buf[64];
  int log = 0;
  Res *r;
  switch (t % 4) {
    case 0: r = new (buf) File(&log); break;
    case 1: r = new (buf) Sock(&log); break;
    case 2: r = new (buf) Pipe(&log); break;
    default: r = new (buf) Res(&log); break;
  }
  out[t * 4 + 0] = r->kind();
  destroy(r);
  out[t * 4 + 1] = log;
  int log2 = 0;
  { File f(&log2); Sock s(&log2); }
  out[t * 4 + 2] = log2;
  int log3 = 0;
  Pipe *p = new (buf) Pipe(&log3);
  p->~Pipe();
  out[t * 4 + 3] = log3;
}

int main() {
  const int T = 32;
  int *dout;
  cudaMalloc(&dout, T * 4 * sizeof(int));
  virtualDtor<<<1, T>>>(dout);
  int h[T * 4];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  // File: 1 2 | 9 7 6; Sock: 1 3 | 8 6; Pipe: 1 2 | 4 9 7 6; Res: 1 | 6
  const int kinds[4] = {2, 3, 4, 1};
  const int logs[4] = {12976, 1386, 124976, 16};
  int bad = 0;
  for (int t = 0; t < T; t++) {
    // f then s built, s destroyed first: 1 2 1 3 8 6 9 7 6
    int e[4] = {kinds[t % 4], logs[t % 4], 121386976, 124976};
    for (int k = 0; k < 4; k++) if (h[t * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_virtual_dtor: [%d][%d] = %d, expected %d\n", t, k, h[t * 4 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_virtual_dtor\n");
  return 0;
}
