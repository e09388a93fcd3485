// Layered textures and surfaces, and the LOD / gradient / gather forms: a kernel writes every layer of a
// 2-D layered float surface (surf2DLayeredwrite), a second reads it back through a layered texture over the
// same array with tex2DLayered, tex2DLayeredLod (level 0) and tex2DLayeredGrad (no mipmaps: level 0 too),
// and tex2Dgather on a 2-D gather-enabled array returns the 2x2 footprint (counter-clockwise from the
// lower left) of one component of an int2 texture (also with the component as a run-time value).
#include <cstdio>

#define W 12
#define H 10
#define L 3

__global__ void surf_fill_layers(cudaSurfaceObject_t s, int w, int h, int layers) {
  int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
  if (x < w && y < h && l < layers) surf2DLayeredwrite(l * 1000.0f + y * 10.0f + x, s, x * 4, y, l);
}

__global__ void tex_layered_read(cudaTextureObject_t t, float *out, int w, int h, int layers) {
  int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
  if (x >= w || y >= h || l >= layers) return;
  float fx = x + 0.5f, fy = y + 0.5f;
  float a = tex2DLayered<float>(t, fx, fy, l);
  float b = tex2DLayeredLod<float>(t, fx, fy, (l + 1) % layers, 0.0f);
  float c = tex2DLayeredGrad<float>(t, fx, fy, l, make_float2(0.0f, 0.0f), make_float2(0.0f, 0.0f));
  out[(l * h + y) * w + x] = a * 4.0f + b + c * 0.5f;
}

__global__ void tex_gather(cudaTextureObject_t t, int4 *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x > w || y > h) return;
  int4 v = (x + y) % 2 ? tex2Dgather<int4>(t, (float)x, (float)y, 1) : tex2Dgather<int4>(t, (float)x, (float)y, 0);
  out[y * (w + 1) + x] = v;
}

// the gather component as a run-time value
__global__ void tex_gather_comp(cudaTextureObject_t t, int4 *out, int comp) {
  out[threadIdx.x] = tex2Dgather<int4>(t, 3.0f + threadIdx.x, 2.0f, comp);
}

int main() {
  cudaChannelFormatDesc df = cudaCreateChannelDesc<float>(), di = cudaCreateChannelDesc<int2>();
  cudaArray_t al, ag;
  cudaMalloc3DArray(&al, &df, make_cudaExtent(W, H, L), cudaArrayLayered | cudaArraySurfaceLoadStore);
  cudaMallocArray(&ag, &di, W, H, cudaArrayTextureGather);
  static int2 hg[H][W];
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) hg[y][x] = make_int2(y * 100 + x, -(x * 7 + y));
  cudaMemcpy2DToArray(ag, 0, 0, hg, W * sizeof(int2), W * sizeof(int2), H, cudaMemcpyHostToDevice);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = al;
  cudaSurfaceObject_t s = 0;
  cudaCreateSurfaceObject(&s, &r);
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tl = 0, tg = 0;
  cudaCreateTextureObject(&tl, &r, &td, nullptr);
  r.res.array.array = ag;
  cudaCreateTextureObject(&tg, &r, &td, nullptr);
  float *dl; int4 *dg;
  cudaMalloc(&dl, L * H * W * sizeof(float)); cudaMalloc(&dg, (H + 1) * (W + 1) * sizeof(int4));
  surf_fill_layers<<<L, dim3(16, 16)>>>(s, W, H, L);
  tex_layered_read<<<L, dim3(16, 16)>>>(tl, dl, W, H, L);
  tex_gather<<<1, dim3(16, 16)>>>(tg, dg, W, H);
  int4 *dc;
  cudaMalloc(&dc, 4 * sizeof(int4));
  tex_gather_comp<<<1, 2>>>(tg, dc, 1);
  tex_gather_comp<<<1, 2>>>(tg, dc + 2, 0);
  int4 rcomp[4];
  cudaMemcpy(rcomp, dc, sizeof(rcomp), cudaMemcpyDeviceToHost);
  static float rl[L * H * W]; static int4 rg[(H + 1) * (W + 1)];
  cudaMemcpy(rl, dl, sizeof(rl), cudaMemcpyDeviceToHost);
  cudaMemcpy(rg, dg, sizeof(rg), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int l = 0; l < L; l++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        float a = l * 1000.0f + y * 10.0f + x, b = ((l + 1) % L) * 1000.0f + y * 10.0f + x;
        float e = a * 4.0f + b + a * 0.5f, g = rl[(l * H + y) * W + x];
        if (g != e) { if (bad++ < 5) printf("FAIL cuda_tex_layered: layer %d (%d,%d) = %g, expected %g\n", l, x, y, g, e); }
      }
  for (int y = 0; y <= H; y++)
    for (int x = 0; x <= W; x++) {
      // footprint of (x, y): texels i0 = x - 1, i1 = x, j0 = y - 1, j1 = y, clamped to the array
      auto at = [&](int i, int j) { i = i < 0 ? 0 : i >= W ? W - 1 : i; j = j < 0 ? 0 : j >= H ? H - 1 : j; return (x + y) % 2 ? hg[j][i].y : hg[j][i].x; };
      int e[4] = {at(x - 1, y), at(x, y), at(x, y - 1), at(x - 1, y - 1)};
      int4 g = rg[y * (W + 1) + x];
      if (g.x != e[0] || g.y != e[1] || g.z != e[2] || g.w != e[3]) {
        if (bad++ < 5) printf("FAIL cuda_tex_layered: gather (%d,%d) = %d %d %d %d, expected %d %d %d %d\n", x, y, g.x, g.y, g.z, g.w, e[0], e[1], e[2], e[3]);
      }
    }
  for (int k = 0; k < 4; k++) {
    int x = 3 + k % 2, c = k < 2;   // footprint of (x, 2): texels x-1..x, rows 1..2
    auto at = [&](int i, int j) { return c ? hg[j][i].y : hg[j][i].x; };
    int4 g = rcomp[k];
    if (g.x != at(x - 1, 2) || g.y != at(x, 2) || g.z != at(x, 1) || g.w != at(x - 1, 1)) {
      if (bad++ < 5) printf("FAIL cuda_tex_layered: gather comp %d at x=%d = %d %d %d %d\n", c, x, g.x, g.y, g.z, g.w);
    }
  }
  cudaDestroyTextureObject(tl); cudaDestroyTextureObject(tg); cudaDestroySurfaceObject(s);
  if (bad) return 1;
  printf("PASS cuda_tex_layered\n");
  return 0;
}
