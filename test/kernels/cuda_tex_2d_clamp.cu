// tex2D point sampling of 2-D CUDA arrays through texture objects with unnormalised coordinates: a float
// texture with clamp addressing sampled at texel centres shifted by up to two texels past every edge, a
// uchar4 texture with border addressing (texels outside read as zero), and an unsigned char texture read
// in normalised-float mode (v / 255).
#include <cstdio>

#define W 13
#define H 9

__global__ void tex2d_clamp(cudaTextureObject_t t, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x - 2, y = blockIdx.y * blockDim.y + threadIdx.y - 2;
  if (x < w + 2 && y < h + 2) out[(y + 2) * (w + 4) + x + 2] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void tex2d_border(cudaTextureObject_t t, unsigned *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x - 2, y = blockIdx.y * blockDim.y + threadIdx.y - 2;
  if (x < w + 2 && y < h + 2) {
    uchar4 v = tex2D<uchar4>(t, x + 0.75f, y + 0.25f);
    out[(y + 2) * (w + 4) + x + 2] = v.x | v.y << 8 | v.z << 16 | (unsigned)v.w << 24;
  }
}

__global__ void tex2d_unorm(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f) * 255.0f;
}

static cudaTextureObject_t arrayTex(cudaArray_t a, cudaTextureAddressMode m, cudaTextureReadMode rm) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = m;
  td.filterMode = cudaFilterModePoint;
  td.readMode = rm;
  td.normalizedCoords = 0;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  return t;
}

int main() {
  static float hf[H][W]; static uchar4 hc[H][W]; static unsigned char hu[H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      hf[y][x] = y * 100 + x + 0.5f;
      hc[y][x] = make_uchar4(x * 11 + 1, y * 13 + 2, (x * y) & 255, 200 + x);
      hu[y][x] = (unsigned char)(x * 17 + y * 5);
    }
  cudaChannelFormatDesc df = cudaCreateChannelDesc<float>(), dc = cudaCreateChannelDesc<uchar4>(), du = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t af, ac, au;
  cudaMallocArray(&af, &df, W, H); cudaMallocArray(&ac, &dc, W, H); cudaMallocArray(&au, &du, W, H);
  cudaMemcpy2DToArray(af, 0, 0, hf, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaMemcpy2DToArray(ac, 0, 0, hc, W * sizeof(uchar4), W * sizeof(uchar4), H, cudaMemcpyHostToDevice);
  cudaMemcpy2DToArray(au, 0, 0, hu, W, W, H, cudaMemcpyHostToDevice);
  cudaTextureObject_t tf = arrayTex(af, cudaAddressModeClamp, cudaReadModeElementType);
  cudaTextureObject_t tc = arrayTex(ac, cudaAddressModeBorder, cudaReadModeElementType);
  cudaTextureObject_t tu = arrayTex(au, cudaAddressModeClamp, cudaReadModeNormalizedFloat);
  const int OW = W + 4, OH = H + 4;
  float *dof, *dou; unsigned *doc;
  cudaMalloc(&dof, OW * OH * sizeof(float)); cudaMalloc(&doc, OW * OH * sizeof(unsigned)); cudaMalloc(&dou, W * H * sizeof(float));
  dim3 block(8, 8), grid((OW + 7) / 8, (OH + 7) / 8);
  tex2d_clamp<<<grid, block>>>(tf, dof, W, H);
  tex2d_border<<<grid, block>>>(tc, doc, W, H);
  tex2d_unorm<<<1, dim3(16, 16)>>>(tu, dou, W, H);
  static float rf[OH * OW], ru[H * W]; static unsigned rc[OH * OW];
  cudaMemcpy(rf, dof, sizeof(rf), cudaMemcpyDeviceToHost);
  cudaMemcpy(rc, doc, sizeof(rc), cudaMemcpyDeviceToHost);
  cudaMemcpy(ru, dou, sizeof(ru), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = -2; y < H + 2; y++)
    for (int x = -2; x < W + 2; x++) {
      int cx = x < 0 ? 0 : x >= W ? W - 1 : x, cy = y < 0 ? 0 : y >= H ? H - 1 : y;
      float e = hf[cy][cx];
      float g = rf[(y + 2) * OW + x + 2];
      if (g != e) { if (bad++ < 5) printf("FAIL cuda_tex_2d_clamp: clamp (%d,%d) = %g, expected %g\n", x, y, g, e); }
      unsigned ec = 0;
      if (x >= 0 && x < W && y >= 0 && y < H) { uchar4 v = hc[y][x]; ec = v.x | v.y << 8 | v.z << 16 | (unsigned)v.w << 24; }
      unsigned gc = rc[(y + 2) * OW + x + 2];
      if (gc != ec) { if (bad++ < 5) printf("FAIL cuda_tex_2d_clamp: border (%d,%d) = %08x, expected %08x\n", x, y, gc, ec); }
    }
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      float g = ru[y * W + x], e = (float)hu[y][x];
      if (g < e - 0.001f || g > e + 0.001f) { if (bad++ < 5) printf("FAIL cuda_tex_2d_clamp: unorm (%d,%d) = %g, expected %g\n", x, y, g, e); }
    }
  cudaDestroyTextureObject(tf); cudaDestroyTextureObject(tc); cudaDestroyTextureObject(tu);
  if (bad) return 1;
  printf("PASS cuda_tex_2d_clamp\n");
  return 0;
}
