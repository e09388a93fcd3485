// Nested structs, arrays of structs in global memory, struct members that are arrays, struct assignment
// and copy, pointers to struct members, structs returned from device functions.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL structs_nested: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Vec3 { int x, y, z; };
struct Box { struct Vec3 lo, hi; short tag; char name[6]; };
struct Particle { Box bounds; Vec3 vel[2]; long long id; };

__host__ __device__ Vec3 add(Vec3 a, Vec3 b) { Vec3 r = {a.x + b.x, a.y + b.y, a.z + b.z}; return r; }
__host__ __device__ int volume(const Box *b) { return (b->hi.x - b->lo.x) * (b->hi.y - b->lo.y) * (b->hi.z - b->lo.z); }

__host__ __device__ void step(Particle *p) {
  Vec3 v = add(p->vel[0], p->vel[1]);
  p->bounds.lo = add(p->bounds.lo, v);
  p->bounds.hi = add(p->bounds.hi, v);
  int *py = &p->bounds.hi.y;
  *py += 1;
  p->vel[1] = p->vel[0];                  // struct assignment
  p->bounds.tag = (short)volume(&p->bounds);
  p->bounds.name[p->id % 5] = (char)('A' + p->id % 26);
  p->id = p->id * 3 + p->bounds.name[0];
}

__global__ void kernel(Particle *ps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { Particle p = ps[i]; step(&p); step(&p); ps[i] = p; }
}

int main() {
  const int n = 100;
  Particle *h = new Particle[n], *r = new Particle[n];
  for (int i = 0; i < n; i++) {
    Particle p;
    p.bounds.lo = Vec3{i, -i, 2 * i}; p.bounds.hi = Vec3{i + 3, 4 - i, 2 * i + 5};
    p.bounds.tag = 0;
    for (int k = 0; k < 6; k++) p.bounds.name[k] = (char)('a' + k);
    p.vel[0] = Vec3{1, 2, -1}; p.vel[1] = Vec3{i % 3, -(i % 4), i % 5};
    p.id = 1000 + i;
    h[i] = p; r[i] = p;
  }
  Particle *d;
  CK(cudaMalloc(&d, n * sizeof(Particle)));
  CK(cudaMemcpy(d, h, n * sizeof(Particle), cudaMemcpyHostToDevice));
  kernel<<<2, 64>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    step(&r[i]); step(&r[i]);
    const Particle &a = h[i], &b = r[i];
    bool ok = a.id == b.id && a.bounds.tag == b.bounds.tag && a.bounds.lo.x == b.bounds.lo.x && a.bounds.lo.y == b.bounds.lo.y &&
              a.bounds.lo.z == b.bounds.lo.z && a.bounds.hi.x == b.bounds.hi.x && a.bounds.hi.y == b.bounds.hi.y &&
              a.bounds.hi.z == b.bounds.hi.z && a.vel[1].x == b.vel[1].x && a.vel[1].z == b.vel[1].z;
    for (int k = 0; k < 6; k++) ok = ok && a.bounds.name[k] == b.bounds.name[k];
    if (!ok) { printf("FAIL structs_nested: particle %d differs (id %lld vs %lld, tag %d vs %d)\n", i, a.id, b.id, a.bounds.tag, b.bounds.tag); return 1; }
  }
  printf("PASS structs_nested\n");
  return 0;
}
