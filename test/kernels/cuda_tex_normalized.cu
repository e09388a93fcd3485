// Normalised texture coordinates: a 2-D float texture sampled at u = (x + 0.5) / W + k for k in -1..1 with
// wrap addressing in x (the same texel every period) and mirror addressing in y; and a 1-D float CUDA array
// read with tex1D at normalised coordinates and clamp addressing. Point filtering throughout.
#include <cstdio>

#define W 16
#define H 8
#define N 32

__global__ void tex_wrap_mirror(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y, k = blockIdx.x;   // k = 0, 1, 2 -> periods -1, 0, 1
  float u = (x + 0.5f) / w + (k - 1), v = (y + 0.5f) / h + (k - 1);
  out[(k * h + y) * w + x] = tex2D<float>(t, u, v);
}

__global__ void tex_1d_norm(cudaTextureObject_t t, float *out, int n) {
  int i = threadIdx.x;   // samples from -0.25 to 1.25 of the texture
  out[i] = tex1D<float>(t, (i - n / 4 + 0.5f) / n);
}

static cudaTextureObject_t normTex(cudaArray_t a, cudaTextureAddressMode m0, cudaTextureAddressMode m1) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = m0; td.addressMode[1] = m1;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  return t;
}

int main() {
  static float img[H][W], line[N];
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) img[y][x] = y * 16 + x;
  for (int i = 0; i < N; i++) line[i] = i * 1.5f - 7;
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  cudaArray_t a2, a1;
  cudaMallocArray(&a2, &d, W, H); cudaMallocArray(&a1, &d, N, 0);
  cudaMemcpy2DToArray(a2, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaMemcpy2DToArray(a1, 0, 0, line, N * sizeof(float), N * sizeof(float), 1, cudaMemcpyHostToDevice);
  cudaTextureObject_t t2 = normTex(a2, cudaAddressModeWrap, cudaAddressModeMirror);
  cudaTextureObject_t t1 = normTex(a1, cudaAddressModeClamp, cudaAddressModeClamp);
  float *d2, *d1;
  cudaMalloc(&d2, 3 * H * W * sizeof(float)); cudaMalloc(&d1, 3 * N / 2 * sizeof(float));
  tex_wrap_mirror<<<3, dim3(W, H)>>>(t2, d2, W, H);
  tex_1d_norm<<<1, 3 * N / 2>>>(t1, d1, N);
  static float r2[3 * H * W], r1[3 * N / 2];
  cudaMemcpy(r2, d2, sizeof(r2), cudaMemcpyDeviceToHost);
  cudaMemcpy(r1, d1, sizeof(r1), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int k = 0; k < 3; k++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        int my = (k - 1) % 2 == 0 ? y : H - 1 - y;   // odd periods are mirrored
        float e = img[my][x], g = r2[(k * H + y) * W + x];
        if (g != e) { if (bad++ < 5) printf("FAIL cuda_tex_normalized: wrap/mirror k=%d (%d,%d) = %g, expected %g\n", k, x, y, g, e); }
      }
  for (int i = 0; i < 3 * N / 2; i++) {
    int j = i - N / 4; j = j < 0 ? 0 : j >= N ? N - 1 : j;
    if (r1[i] != line[j]) { if (bad++ < 5) printf("FAIL cuda_tex_normalized: 1d[%d] = %g, expected %g\n", i, r1[i], line[j]); }
  }
  cudaDestroyTextureObject(t2); cudaDestroyTextureObject(t1);
  if (bad) return 1;
  printf("PASS cuda_tex_normalized\n");
  return 0;
}
