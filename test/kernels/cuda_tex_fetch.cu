// tex1Dfetch on texture objects over linear memory: a float texture scaled into an output (indices past the
// end read 0), and an int4 texture whose four components are combined. Out-of-range fetches of a linear
// texture return zero on the GPU; the host checks both.
#include <cstdio>

#define N 300
#define M 100

__global__ void tex_fetch_float(cudaTextureObject_t t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n + 8) out[i] = tex1Dfetch<float>(t, i) * 2.0f + 1.0f;
}

__global__ void tex_fetch_int4(cudaTextureObject_t t, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int4 v = tex1Dfetch<int4>(t, i);
    out[i] = v.x - v.y + 3 * v.z + (v.w ^ 0x55);
  }
}

static cudaTextureObject_t linearTex(void *p, size_t bytes, cudaChannelFormatDesc d) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = p;
  r.res.linear.desc = d;
  r.res.linear.sizeInBytes = bytes;
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  return t;
}

int main() {
  static float hf[N]; static int hi[4 * M];
  for (int i = 0; i < N; i++) hf[i] = (i % 37) * 0.25f - 3.0f;
  for (int i = 0; i < 4 * M; i++) hi[i] = (i * 7919) % 2001 - 1000;
  float *df, *dof; int *di, *doi;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dof, (N + 8) * sizeof(float));
  cudaMalloc(&di, sizeof(hi)); cudaMalloc(&doi, M * sizeof(int));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice);
  cudaTextureObject_t tf = linearTex(df, sizeof(hf), cudaCreateChannelDesc<float>());
  cudaTextureObject_t ti = linearTex(di, sizeof(hi), cudaCreateChannelDesc<int4>());
  tex_fetch_float<<<(N + 8 + 127) / 128, 128>>>(tf, dof, N);
  tex_fetch_int4<<<1, 128>>>(ti, doi, M);
  static float rf[N + 8]; static int ri[M];
  cudaMemcpy(rf, dof, sizeof(rf), cudaMemcpyDeviceToHost);
  cudaMemcpy(ri, doi, sizeof(ri), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N + 8; i++) {
    float e = (i < N ? hf[i] : 0.0f) * 2.0f + 1.0f;
    if (rf[i] != e) { if (bad++ < 5) printf("FAIL cuda_tex_fetch: float[%d] = %g, expected %g\n", i, rf[i], e); }
  }
  for (int i = 0; i < M; i++) {
    const int *v = &hi[4 * i];
    int e = v[0] - v[1] + 3 * v[2] + (v[3] ^ 0x55);
    if (ri[i] != e) { if (bad++ < 5) printf("FAIL cuda_tex_fetch: int4[%d] = %d, expected %d\n", i, ri[i], e); }
  }
  cudaDestroyTextureObject(tf); cudaDestroyTextureObject(ti);
  if (bad) return 1;
  printf("PASS cuda_tex_fetch\n");
  return 0;
}
