// __managed__ aggregates: a managed array of structs updated by a kernel (particles moved by their velocity),
// a managed parameter struct with a static initialiser read by every thread, and a managed step counter.
#include <cstdio>

struct Particle { float x, y; float vx, vy; int hits; };
struct Params { float dt; float lo, hi; int steps; };

#define NP 200

__managed__ Particle particles[NP];
__managed__ Params params = {0.5f, -10.0f, 10.0f, 0};
__managed__ unsigned int bounces;

__global__ void managed_step(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) params.steps += 1;
  if (i >= n) return;
  Particle p = particles[i];
  p.x += p.vx * params.dt;
  p.y += p.vy * params.dt;
  if (p.x < params.lo || p.x > params.hi) { p.vx = -p.vx; p.hits++; atomicAdd(&bounces, 1u); }
  if (p.y < params.lo || p.y > params.hi) { p.vy = -p.vy; p.hits++; atomicAdd(&bounces, 1u); }
  particles[i] = p;
}

int main() {
  Particle ref[NP];
  for (int i = 0; i < NP; i++) {
    Particle p = {(i % 20) - 9.5f, (i / 20) - 4.5f, ((i * 7) % 11 - 5) * 0.75f, ((i * 3) % 13 - 6) * 0.5f, 0};
    particles[i] = p; ref[i] = p;
  }
  bounces = 0;
  unsigned want_bounces = 0;
  for (int s = 0; s < 3; s++) {
    managed_step<<<(NP + 63) / 64, 64>>>(NP);
    cudaDeviceSynchronize();
    for (int i = 0; i < NP; i++) {
      Particle &p = ref[i];
      p.x += p.vx * 0.5f; p.y += p.vy * 0.5f;
      if (p.x < -10.0f || p.x > 10.0f) { p.vx = -p.vx; p.hits++; want_bounces++; }
      if (p.y < -10.0f || p.y > 10.0f) { p.vy = -p.vy; p.hits++; want_bounces++; }
    }
  }
  int bad = 0;
  if (params.steps != 3) { printf("FAIL cuda_managed_struct: steps = %d\n", params.steps); bad++; }
  if (bounces != want_bounces) { printf("FAIL cuda_managed_struct: bounces = %u, expected %u\n", bounces, want_bounces); bad++; }
  for (int i = 0; i < NP; i++) {
    const Particle &a = particles[i], &b = ref[i];
    if (a.x != b.x || a.y != b.y || a.vx != b.vx || a.vy != b.vy || a.hits != b.hits) { if (bad++ < 5) printf("FAIL cuda_managed_struct: particle %d\n", i); }
  }
  if (bad) return 1;
  printf("PASS cuda_managed_struct\n");
  return 0;
}
