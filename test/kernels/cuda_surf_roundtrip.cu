// Surface objects: one kernel writes a 2-D float surface with surf2Dwrite (byte x-coordinates), including
// writes past the right and bottom edges that cudaBoundaryModeZero drops; a second kernel reads it back with
// surf2Dread, clamping reads past the edges (cudaBoundaryModeClamp) and zeroing them (cudaBoundaryModeZero).
// A 1-D short2 surface does the same round trip with surf1Dwrite / surf1Dread, and a kernel takes the
// boundary mode as a run-time argument.
#include <cstdio>

#define W 20
#define H 6
#define L 40

__global__ void surf_write2d(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w + 3 && y < h + 2) surf2Dwrite(y * 1000.0f + x * 0.5f, s, x * (int)sizeof(float), y, cudaBoundaryModeZero);
}

__global__ void surf_read2d(cudaSurfaceObject_t s, float *clamped, float *zeroed, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w + 3 && y < h + 2) {
    clamped[y * (w + 3) + x] = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
    zeroed[y * (w + 3) + x] = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeZero) + 1.0f;
  }
}

__global__ void surf_1d(cudaSurfaceObject_t s, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) surf1Dwrite(make_short2(i * 3 - 50, -i), s, i * 4);
  __syncthreads();
  if (i < n) {
    short2 v = surf1Dread<short2>(s, ((i + 1) % n) * 4);
    out[i] = v.x * 100 + v.y;
  }
}

// the boundary mode as a run-time value: reads one element past the right edge of row 1
__global__ void surf_mode(cudaSurfaceObject_t s, float *out, int w, cudaSurfaceBoundaryMode m) {
  out[threadIdx.x] = surf2Dread<float>(s, (w - 2 + (int)threadIdx.x) * 4, 1, m);
}

static cudaSurfaceObject_t surfaceOf(cudaArray_t a) {
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  cudaCreateSurfaceObject(&s, &r);
  return s;
}

int main() {
  cudaChannelFormatDesc df = cudaCreateChannelDesc<float>(), ds = cudaCreateChannelDesc<short2>();
  cudaArray_t a2, a1;
  cudaMallocArray(&a2, &df, W, H, cudaArraySurfaceLoadStore);
  cudaMallocArray(&a1, &ds, L, 0, cudaArraySurfaceLoadStore);
  cudaSurfaceObject_t s2 = surfaceOf(a2), s1 = surfaceOf(a1);
  const int OW = W + 3, OH = H + 2;
  float *dc, *dz; int *d1;
  cudaMalloc(&dc, OW * OH * sizeof(float)); cudaMalloc(&dz, OW * OH * sizeof(float)); cudaMalloc(&d1, L * sizeof(int));
  dim3 block(8, 4), grid((OW + 7) / 8, (OH + 3) / 4);
  surf_write2d<<<grid, block>>>(s2, W, H);
  surf_read2d<<<grid, block>>>(s2, dc, dz, W, H);
  surf_1d<<<1, 64>>>(s1, d1, L);
  float *dm;
  cudaMalloc(&dm, 6 * sizeof(float));
  surf_mode<<<1, 3>>>(s2, dm, W, cudaBoundaryModeClamp);
  surf_mode<<<1, 3>>>(s2, dm + 3, W, cudaBoundaryModeZero);
  static float rc[OW * OH], rz[OW * OH], img[H][W], rm[6]; static int r1[L];
  cudaMemcpy(rm, dm, sizeof(rm), cudaMemcpyDeviceToHost);
  const float em[6] = {1000.0f + (W - 2) * 0.5f, 1000.0f + (W - 1) * 0.5f, 1000.0f + (W - 1) * 0.5f, 1000.0f + (W - 2) * 0.5f, 1000.0f + (W - 1) * 0.5f, 0.0f};
  cudaMemcpy(rc, dc, sizeof(rc), cudaMemcpyDeviceToHost);
  cudaMemcpy(rz, dz, sizeof(rz), cudaMemcpyDeviceToHost);
  cudaMemcpy(r1, d1, sizeof(r1), cudaMemcpyDeviceToHost);
  cudaMemcpy2DFromArray(img, W * sizeof(float), a2, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (img[y][x] != y * 1000.0f + x * 0.5f) { if (bad++ < 5) printf("FAIL cuda_surf_roundtrip: img(%d,%d) = %g\n", x, y, img[y][x]); }
  for (int y = 0; y < OH; y++)
    for (int x = 0; x < OW; x++) {
      int cx = x < W ? x : W - 1, cy = y < H ? y : H - 1;
      float ec = cy * 1000.0f + cx * 0.5f, ez = (x < W && y < H ? y * 1000.0f + x * 0.5f : 0.0f) + 1.0f;
      if (rc[y * OW + x] != ec) { if (bad++ < 5) printf("FAIL cuda_surf_roundtrip: clamp (%d,%d) = %g, expected %g\n", x, y, rc[y * OW + x], ec); }
      if (rz[y * OW + x] != ez) { if (bad++ < 5) printf("FAIL cuda_surf_roundtrip: zero (%d,%d) = %g, expected %g\n", x, y, rz[y * OW + x], ez); }
    }
  for (int i = 0; i < 6; i++)
    if (rm[i] != em[i]) { if (bad++ < 5) printf("FAIL cuda_surf_roundtrip: mode read %d = %g, expected %g\n", i, rm[i], em[i]); }
  for (int i = 0; i < L; i++) {
    int j = (i + 1) % L, e = (j * 3 - 50) * 100 - j;
    if (r1[i] != e) { if (bad++ < 5) printf("FAIL cuda_surf_roundtrip: 1d[%d] = %d, expected %d\n", i, r1[i], e); }
  }
  cudaDestroySurfaceObject(s2); cudaDestroySurfaceObject(s1);
  if (bad) return 1;
  printf("PASS cuda_surf_roundtrip\n");
  return 0;
}
