// Anonymous struct and union members: a vector type viewable as x/y/z/w or as an array, a tagged value
// with an anonymous union, nesting, access through pointers and from member functions, aggregate
// initialisation and sizes/offsets as the ABI lays them out; a constructor's mem-initializer naming an
// anonymous union's member, and a delegating constructor.
#include <cstdio>
#include <cstddef>

struct Vec4 {
  union {
    float v[4];
    struct { float x, y, z, w; };
  };
  __device__ float sum() const { return x + y + z + w; }
  __device__ void scale(float s) { for (int i = 0; i < 4; i++) v[i] *= s; }
};
struct Value {
  int kind;
  union { int i; float f; unsigned char bytes[4]; };
  short extra;
};
struct Tagged {
  int kind;
  union { int i; float f; };
  __device__ explicit Tagged(int v) : kind(1), i(v) {}
  __device__ Tagged() : Tagged(-5) {}
};
struct Packet {
  char tag;
  struct {
    short lo;
    union { int word; struct { short a, b; }; };
  };
  double d;
};

__global__ void anonymousMembers(const float *in, int *io, float *fo) {
  int t = threadIdx.x;
  Vec4 p;
  p.x = in[t]; p.y = 2.0f; p.v[2] = in[(t + 1) % 32]; p.w = 0.5f;
  p.scale(2.0f);
  fo[t * 3 + 0] = p.sum() + p.v[0];
  Vec4 *pp = &p;
  pp->z = 1.0f;
  fo[t * 3 + 1] = pp->v[2] + pp->x;
  Value val = {1, {t * 3}, 7};
  io[t * 6 + 0] = val.i + val.extra + val.kind;
  val.f = in[t];
  fo[t * 3 + 2] = val.f;
  val.i = 0x01020304 + t;
  io[t * 6 + 1] = val.bytes[0] + val.bytes[3] * 1000;
  Packet k;
  k.tag = 'p'; k.lo = (short)t; k.word = 0; k.a = 3; k.b = (short)-t; k.d = 1.5;
  io[t * 6 + 2] = k.lo + k.a * 100 + k.b + Tagged(t).i * 1000 + Tagged().i * 10 + Tagged().kind;
  io[t * 6 + 3] = (int)sizeof(Vec4) * 100 + (int)sizeof(Value) * 10000 + (int)sizeof(Packet);
  io[t * 6 + 4] = (int)offsetof(Value, extra) * 100 + (int)offsetof(Packet, d);
  const Vec4 c = p;
  io[t * 6 + 5] = (int)(c.sum() * 4.0f);
}

int main() {
  const int T = 32;
  float hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j % 7) * 0.5f - 1.0f;
  float *din, *df; int *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 6 * sizeof(int)); cudaMalloc(&df, T * 3 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  anonymousMembers<<<1, T>>>(din, di, df);
  int hi[T * 6]; float hf[T * 3];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    float x = hin[t] * 2.0f, y = 4.0f, z = hin[(t + 1) % 32] * 2.0f, w = 1.0f;
    float ef[3] = {x + y + z + w + x, 1.0f + x, hin[t]};
    int e[6] = {3 * t + 7 + 1, 4 + t + 1000, t + 300 - t + t * 1000 - 50 + 1, 16 * 100 + 12 * 10000 + 24, 8 * 100 + 16, (int)((x + y + 1.0f + w) * 4.0f)};
    for (int k = 0; k < 3; k++) if (hf[t * 3 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_anonymous_members: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 3 + k], ef[k]); }
    for (int k = 0; k < 6; k++) if (hi[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_anonymous_members: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 6 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_anonymous_members\n");
  return 0;
}
