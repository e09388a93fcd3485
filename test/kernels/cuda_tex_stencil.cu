// A 5-point stencil (one explicit heat-equation step) that reads its input grid through a 2-D float texture
// object with clamp addressing, so the edges need no bounds checks: out = c + k * (n + s + e + w - 4c).
// Inputs are multiples of 1/8 and k = 1/8, so every step is exact and the host compares exactly.
#include <cstdio>

#define W 40
#define H 24

__global__ void tex_stencil(cudaTextureObject_t t, float *out, int w, int h, float k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float fx = x + 0.5f, fy = y + 0.5f;
  float c = tex2D<float>(t, fx, fy);
  float lap = tex2D<float>(t, fx - 1, fy) + tex2D<float>(t, fx + 1, fy) + tex2D<float>(t, fx, fy - 1) + tex2D<float>(t, fx, fy + 1) - 4 * c;
  out[y * w + x] = c + k * lap;
}

int main() {
  static float in[H][W], out[H * W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) in[y][x] = ((x * 7 + y * 3) % 16) * 0.125f;
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMallocArray(&a, &d, W, H);
  cudaMemcpy2DToArray(a, 0, 0, in, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  float *dout;
  cudaMalloc(&dout, sizeof(out));
  tex_stencil<<<dim3((W + 15) / 16, (H + 7) / 8), dim3(16, 8)>>>(t, dout, W, H, 0.125f);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      auto at = [&](int i, int j) { i = i < 0 ? 0 : i >= W ? W - 1 : i; j = j < 0 ? 0 : j >= H ? H - 1 : j; return in[j][i]; };
      float c = at(x, y);
      float e = c + 0.125f * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) - 4 * c);
      if (out[y * W + x] != e) { if (bad++ < 5) printf("FAIL cuda_tex_stencil: (%d,%d) = %g, expected %g\n", x, y, out[y * W + x], e); }
    }
  cudaDestroyTextureObject(t);
  if (bad) return 1;
  printf("PASS cuda_tex_stencil\n");
  return 0;
}
