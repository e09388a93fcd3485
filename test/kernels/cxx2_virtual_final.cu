// A pure virtual interface with final implementations: calls through the final class (or a final
// member function) are bound statically and inlined, calls through the interface go through the vtable;
// an abstract class in the middle of the hierarchy, and a virtual function declared in the middle class.
#include <cstdio>

struct Sampler {
  __device__ virtual float sample(int i) const = 0;
  __device__ virtual int size() const = 0;
};
struct Scaled : Sampler {
  float k;
  __device__ explicit Scaled(float s) : k(s) {}
  __device__ virtual float scale() const { return k; }
  __device__ int size() const override { return 8; }
};
struct Linear final : Scaled {
  float b;
  __device__ Linear(float s, float o) : Scaled(s), b(o) {}
  __device__ float sample(int i) const override { return scale() * i + b; }
};
struct Square : Scaled {
  __device__ explicit Square(float s) : Scaled(s) {}
  __device__ float sample(int i) const final { return scale() * i * i; }
  __device__ float scale() const override { return 2.0f * k; }
};
struct Const : Sampler {
  float v;
  __device__ explicit Const(float x) : v(x) {}
  __device__ float sample(int) const override { return v; }
  __device__ int size() const override { return 3; }
};

__device__ __noinline__ float integrate(const Sampler &s) {
  float acc = 0.0f;
  for (int i = 0; i < s.size(); i++) acc += s.sample(i);
  return acc;
}
__device__ float viaFinal(const Linear *l, int i) { return l->sample(i) + l->scale(); }
__device__ float viaFinalMember(const Square *q, int i) { return q->sample(i); }

__global__ void virtualFinal(const float *in, float *out) {
  int t = threadIdx.x;
  float x = in[t];
  Linear lin(x, 1.0f);
  Square sq(x);
  Const c(x + 2.0f);
  out[t * 5 + 0] = viaFinal(&lin, t);
  out[t * 5 + 1] = viaFinalMember(&sq, t % 5);
  out[t * 5 + 2] = integrate(lin);
  const Sampler *pick = (t & 1) ? (const Sampler *)&sq : (t & 2) ? (const Sampler *)&c : (const Sampler *)&lin;
  out[t * 5 + 3] = integrate(*pick);
  out[t * 5 + 4] = pick->sample(t) + (float)pick->size();
}

int main() {
  const int T = 32;
  float hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j % 7) * 0.25f - 0.5f;
  float *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 5 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  virtualFinal<<<1, T>>>(din, dout);
  float h[T * 5];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    float x = hin[t];
    float lin8 = 0.0f, sq8 = 0.0f;
    for (int i = 0; i < 8; i++) { lin8 += x * i + 1.0f; sq8 += 2.0f * x * i * i; }
    int kind = (t & 1) ? 1 : (t & 2) ? 2 : 0;
    float integ = kind == 0 ? lin8 : kind == 1 ? sq8 : 3.0f * (x + 2.0f);
    float s = kind == 0 ? x * t + 1.0f + 8.0f : kind == 1 ? 2.0f * x * t * t + 8.0f : x + 2.0f + 3.0f;
    float e[5] = {x * t + 1.0f + x, 2.0f * x * (t % 5) * (t % 5), lin8, integ, s};
    for (int k = 0; k < 5; k++) {
      float d = h[t * 5 + k] - e[k];
      if (d > 1e-3f || d < -1e-3f) { if (bad++ < 5) printf("FAIL cxx2_virtual_final: [%d][%d] = %f, expected %f\n", t, k, h[t * 5 + k], e[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cxx2_virtual_final\n");
  return 0;
}
