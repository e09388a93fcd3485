// Inline PTX with every operand constraint the CUDA headers use: "h" (16-bit), "r" (32-bit), "l" (64-bit and
// pointers), "f" (f32), "d" (f64), read-write "+r", and "memory" clobbers on a load and a fence.
#include <cstdio>

#define N 64

__global__ void asm_constraints(unsigned short *hs, unsigned long long *ls, double *ds, float *fs, int *is) {
  int i = threadIdx.x;
  if (i >= N) return;
  unsigned short h; unsigned long long l; double d; float f; int r, acc = i;
  asm volatile("add.u16 %0, %1, %2;" : "=h"(h) : "h"(hs[i]), "h"((unsigned short)3));
  asm("add.u64 %0, %1, 1;" : "=l"(l) : "l"(ls[i]));
  asm("mul.f64 %0, %1, %1;" : "=d"(d) : "d"(ds[i]));
  asm("neg.f32 %0, %1;" : "=f"(f) : "f"(fs[i]));
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(r) : "l"(is + i) : "memory");
  asm("add.s32 %0, %0, %1;" : "+r"(acc) : "r"(r));
  asm volatile("membar.gl;" ::: "memory");
  hs[i] = h; ls[i] = l; ds[i] = d; fs[i] = f; is[i] = acc * 2;
}

int main() {
  unsigned short hh[N]; unsigned long long hl[N]; double hd[N]; float hf[N]; int hi[N];
  for (int i = 0; i < N; i++) { hh[i] = (unsigned short)(65530 + i); hl[i] = 0xfffffffffull + i * 1000003ull; hd[i] = i * 0.5 - 7; hf[i] = i * 1.25f; hi[i] = i * i - 100; }
  unsigned short *dh; unsigned long long *dl; double *dd; float *df; int *di;
  cudaMalloc(&dh, sizeof(hh)); cudaMalloc(&dl, sizeof(hl)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&df, sizeof(hf)); cudaMalloc(&di, sizeof(hi));
  cudaMemcpy(dh, hh, sizeof(hh), cudaMemcpyHostToDevice); cudaMemcpy(dl, hl, sizeof(hl), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice); cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice);
  asm_constraints<<<1, N>>>(dh, dl, dd, df, di);
  unsigned short rh[N]; unsigned long long rl[N]; double rd[N]; float rf[N]; int ri[N];
  cudaMemcpy(rh, dh, sizeof(rh), cudaMemcpyDeviceToHost); cudaMemcpy(rl, dl, sizeof(rl), cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, dd, sizeof(rd), cudaMemcpyDeviceToHost); cudaMemcpy(rf, df, sizeof(rf), cudaMemcpyDeviceToHost);
  cudaMemcpy(ri, di, sizeof(ri), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    if (rh[i] != (unsigned short)(hh[i] + 3) || rl[i] != hl[i] + 1 || rd[i] != hd[i] * hd[i] || rf[i] != -hf[i] || ri[i] != (i + hi[i]) * 2) {
      if (bad++ < 5) printf("FAIL cuda_asm_constraints: [%d] %u %llu %g %g %d\n", i, rh[i], rl[i], rd[i], rf[i], ri[i]);
    }
  }
  if (bad) return 1;
  printf("PASS cuda_asm_constraints\n");
  return 0;
}
