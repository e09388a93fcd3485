// Ordinary C++ from TensorRT's plugins that ptxd misread: a condition that starts with a functional cast
// (`if (float(b.xmax) < float(b.xmin))`, a false error "expected an identifier"), a conditional operator
// naming a namespace-scope constant (`v == 0 ? PILLARS_PER_BLOCK : v`), which must fold as cicc folds it
// rather than leave the constant behind as a variable, and assignments from braced lists
// (`pillarSumSM[i] = {0,0,0,0};` on a float4, a struct, a scalar).
#include <cstdio>
#include <cuda_runtime.h>

const int PILLARS_PER_BLOCK = 64;

template <typename T> struct Bbox { T xmin, ymin, xmax, ymax; };

template <typename T> __device__ float bboxSize(const Bbox<T> &b) {
  if (float(b.xmax) < float(b.xmin) || float(b.ymax) < float(b.ymin)) return 0;
  else return (float(b.xmax) - float(b.xmin)) * (float(b.ymax) - float(b.ymin));
}

__device__ int countDown(int n) {
  int steps = 0;
  while (int(n) > 0) { n -= 3; steps++; }
  return steps;
}

struct Pair { int a, b; };

__global__ void braces(float4 *o, Pair *q, int *r) {
  __shared__ float4 s[4];
  s[threadIdx.x] = {0, 0, 0, 0};
  s[threadIdx.x].y += (float)threadIdx.x;
  o[threadIdx.x] = s[threadIdx.x];
  Pair p;
  p = {3, (int)threadIdx.x};
  q[threadIdx.x] = p;
  int v;
  v = {7};
  r[2 * threadIdx.x] = v;
  v = {};
  r[2 * threadIdx.x + 1] = v;
}

__global__ void kernel(const Bbox<float> *boxes, float *sizes, const int *counts, int *out) {
  int i = threadIdx.x;
  sizes[i] = bboxSize(boxes[i]);
  int v = counts[i] % PILLARS_PER_BLOCK;
  v = (v == 0) ? PILLARS_PER_BLOCK : v;
  out[i] = v * 100 + countDown(counts[i]);
}

int main() {
  Bbox<float> hb[2] = {{0, 0, 2, 3}, {5, 0, 1, 1}};
  int hc[2] = {128, 70};
  Bbox<float> *db;
  float *ds, hs[2];
  int *dc, *dout, ho[2];
  cudaMalloc(&db, sizeof hb);
  cudaMalloc(&ds, sizeof hs);
  cudaMalloc(&dc, sizeof hc);
  cudaMalloc(&dout, sizeof ho);
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice);
  kernel<<<1, 2>>>(db, ds, dc, dout);
  cudaMemcpy(hs, ds, sizeof hs, cudaMemcpyDeviceToHost);
  cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost);
  float4 *d4, h4[2];
  Pair *dp, hp[2];
  int *dr, hr[4];
  cudaMalloc(&d4, sizeof h4);
  cudaMalloc(&dp, sizeof hp);
  cudaMalloc(&dr, sizeof hr);
  braces<<<1, 2>>>(d4, dp, dr);
  cudaMemcpy(h4, d4, sizeof h4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hp, dp, sizeof hp, cudaMemcpyDeviceToHost);
  cudaMemcpy(hr, dr, sizeof hr, cudaMemcpyDeviceToHost);
  bool braced = h4[1].x == 0 && h4[1].y == 1 && h4[1].w == 0 && hp[1].a == 3 && hp[1].b == 1 && hr[2] == 7 && hr[3] == 0;
  bool ok = braced && hs[0] == 6.0f && hs[1] == 0.0f && ho[0] == 64 * 100 + 43 && ho[1] == 6 * 100 + 24;
  if (!ok) { printf("FAIL cxx2_corpus_trt\n"); return 1; }
  printf("PASS cxx2_corpus_trt\n");
  return 0;
}
