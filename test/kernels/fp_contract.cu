// Which float multiply-adds become one fma (-fmad=true): cicc contracts an fmul into an fadd (same block,
// single use) but never into an fsub; a*b - C with a constant C counts as an fadd (LLVM writes it a*b + -C),
// a*b + -c and c + (-a)*b count as fsubs. The differential spec compares bitwise, so each contraction ptxd
// makes where cicc does not (or the reverse) shows as a 1-ulp difference. The host check allows either.
#include <cstdio>
#include <cmath>

#define N 64
#define OUTS 12

// every expression has operands of its own: a product shared by two expressions has two uses and is contracted
// into neither, which would hide the rule
__global__ void contract(const float *p, const double *q, float *o, double *od) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float *v = p + 4 * OUTS * t;
  float *r = o + OUTS * t;
  r[0] = v[0] * v[1] - v[2] * v[3];
  r[1] = v[4] * v[5] + v[6] * v[7];
  r[2] = v[8] * v[9] - v[10];
  r[3] = v[14] - v[12] * v[13];
  r[4] = v[16] * v[17] - 1.5f;
  r[5] = v[20] * v[21] + -v[22];
  r[6] = -v[26] + v[24] * v[25];
  r[7] = v[30] + (-v[28]) * v[29];
  r[8] = -(v[32] * v[33]) + v[34];
  r[9] = (-v[36]) * (-v[37]) + v[38];
  r[10] = v[40] * 2.5f - v[42];
  r[11] = v[46] * v[47] + 0.75f;
  const double *w = q + 9 * t;
  od[3 * t] = w[0] * w[1] - w[2];
  od[3 * t + 1] = w[3] * w[4] - 2.0;
  od[3 * t + 2] = w[8] - w[6] * w[7];
}

int main() {
  float hp[4 * OUTS * N], ho[OUTS * N];
  double hq[9 * N], hod[3 * N];
  unsigned s = 12345;
  for (int i = 0; i < 4 * OUTS * N; i++) { s = s * 1664525u + 1013904223u; hp[i] = ((s >> 8) * (1.0f / 16777216.0f)) * 4.f - 2.f; }
  for (int i = 0; i < 9 * N; i++) { s = s * 1664525u + 1013904223u; hq[i] = ((s >> 8) * (1.0 / 16777216.0)) * 4.0 - 2.0; }
  float *dp, *dout; double *dq, *dod;
  cudaMalloc(&dp, sizeof(hp)); cudaMalloc(&dout, sizeof(ho)); cudaMalloc(&dq, sizeof(hq)); cudaMalloc(&dod, sizeof(hod));
  cudaMemcpy(dp, hp, sizeof(hp), cudaMemcpyHostToDevice);
  cudaMemcpy(dq, hq, sizeof(hq), cudaMemcpyHostToDevice);
  contract<<<2, N / 2>>>(dp, dq, dout, dod);
  if (cudaMemcpy(ho, dout, sizeof(ho), cudaMemcpyDeviceToHost) != cudaSuccess || cudaMemcpy(hod, dod, sizeof(hod), cudaMemcpyDeviceToHost) != cudaSuccess) {
    printf("FAIL fp_contract: %s\n", cudaGetErrorString(cudaGetLastError())); return 1;
  }
  int bad = 0;
  for (int t = 0; t < N; t++) {
    const float *v = hp + 4 * OUTS * t;
    auto m = [&](int i, int j) { return (double)v[i] * v[j]; };
    double want[OUTS] = {m(0, 1) - m(2, 3), m(4, 5) + m(6, 7), m(8, 9) - v[10], v[14] - m(12, 13), m(16, 17) - 1.5, m(20, 21) - v[22],
                         m(24, 25) - v[26], v[30] - m(28, 29), v[34] - m(32, 33), m(36, 37) + v[38], v[40] * 2.5 - v[42], m(46, 47) + 0.75};
    for (int k = 0; k < OUTS; k++)
      if (std::fabs(ho[OUTS * t + k] - want[k]) > 1e-6 * 16) { if (bad++ < 5) printf("FAIL fp_contract: [%d][%d] = %g, expected %g\n", t, k, ho[OUTS * t + k], want[k]); }
    const double *w = hq + 9 * t;
    double wd[3] = {w[0] * w[1] - w[2], w[3] * w[4] - 2.0, w[8] - w[6] * w[7]};
    for (int k = 0; k < 3; k++)
      if (std::fabs(hod[3 * t + k] - wd[k]) > 1e-14 * 16) { if (bad++ < 5) printf("FAIL fp_contract: double [%d][%d] = %g, expected %g\n", t, k, hod[3 * t + k], wd[k]); }
  }
  if (bad) return 1;
  printf("PASS fp_contract\n");
  return 0;
}
