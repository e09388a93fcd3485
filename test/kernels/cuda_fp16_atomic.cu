// Atomic additions on 16-bit floats: atomicAdd on __half2 (atom.add.noftz.f16x2), __half and __nv_bfloat16
// (native, or the header's compare-and-swap loop on older GPUs). The inputs are multiples of 1/8 small enough
// that every partial sum is exact, so the totals do not depend on the order of the additions.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define N 128

__global__ void fp16_atomic(const float *in, __half2 *acc2, __half *acc, __nv_bfloat16 *bacc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float v = in[i];
  atomicAdd(acc2, __floats2half2_rn(v, -2.0f * v));
  __half old = atomicAdd(acc + (i & 3), __float2half(v));
  (void)old;
  atomicAdd(bacc, __float2bfloat16((i % 3 - 1) * 0.125f));
}

int main() {
  float h[N];
  double s = 0, parts[4] = {0, 0, 0, 0}, b = 0;
  for (int i = 0; i < N; i++) { h[i] = ((i * 5) % 9 - 4) / 8.0f; s += h[i]; parts[i & 3] += h[i]; b += (i % 3 - 1) * 0.125; }
  float *din; __half2 *d2; __half *d1; __nv_bfloat16 *db;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&d2, sizeof(__half2)); cudaMalloc(&d1, 4 * sizeof(__half)); cudaMalloc(&db, sizeof(__nv_bfloat16));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemset(d2, 0, sizeof(__half2)); cudaMemset(d1, 0, 4 * sizeof(__half)); cudaMemset(db, 0, sizeof(__nv_bfloat16));
  fp16_atomic<<<2, 64>>>(din, d2, d1, db);
  __half2 r2; __half r1[4]; __nv_bfloat16 rb;
  cudaMemcpy(&r2, d2, sizeof(r2), cudaMemcpyDeviceToHost);
  cudaMemcpy(r1, d1, sizeof(r1), cudaMemcpyDeviceToHost);
  cudaMemcpy(&rb, db, sizeof(rb), cudaMemcpyDeviceToHost);
  int bad = 0;
  float2 f2 = __half22float2(r2);
  if (f2.x != (float)s || f2.y != (float)(-2 * s)) { printf("FAIL cuda_fp16_atomic: half2 (%g, %g), expected (%g, %g)\n", f2.x, f2.y, s, -2 * s); bad++; }
  for (int k = 0; k < 4; k++) if (__half2float(r1[k]) != (float)parts[k]) { printf("FAIL cuda_fp16_atomic: half[%d] = %g, expected %g\n", k, __half2float(r1[k]), parts[k]); bad++; }
  if (__bfloat162float(rb) != (float)b) { printf("FAIL cuda_fp16_atomic: bf16 %g, expected %g\n", __bfloat162float(rb), b); bad++; }
  if (bad) return 1;
  printf("PASS cuda_fp16_atomic\n");
  return 0;
}
