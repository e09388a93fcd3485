// Unnamed bitfields as padding: `int : 0` moves the next bitfield to a new unit of its type, `unsigned : 5`
// skips bits, in structs and a union; they take no initializer in aggregate initialisation and do not
// raise the class's alignment (GCC x86-64 layout, which cicc shares). Sizes and field values go out.
#include <cstdio>

struct Zero { int a : 3; int : 0; int b : 5; };
struct Skip { unsigned a : 4; unsigned : 5; unsigned b : 7; unsigned c : 16; };
struct Chars { char x; long long : 0; char y; };
struct Pad { char c; int : 4; char d; };
struct Tagged { unsigned flag : 1; unsigned type : 7, : 0; };
union U { unsigned w; struct { unsigned lo : 8; unsigned : 8; unsigned hi : 16; } parts; };

__global__ void kernel(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Zero z = {i & 3, -(i & 7)};
  Skip s = {(unsigned)i & 15, (unsigned)i * 3 & 127, (unsigned)i * 1000};
  Chars ch = {(char)i, (char)(i + 1)};
  Pad p = {(char)(i * 2), (char)(i * 3)};
  Tagged t;
  t.flag = i & 1; t.type = i % 100;
  U u;
  u.w = 0x12345678u * (unsigned)(i + 1);
  int *o = out + i * 16;
  o[0] = sizeof(Zero); o[1] = sizeof(Skip); o[2] = sizeof(Chars); o[3] = sizeof(Pad); o[4] = sizeof(Tagged); o[5] = sizeof(U);
  o[6] = z.a + z.b * 10; o[7] = s.a + s.b * 16 + s.c * 4096; o[8] = ch.x + ch.y * 256; o[9] = p.c + p.d * 256;
  o[10] = t.flag + t.type * 2; o[11] = u.parts.lo; o[12] = u.parts.hi;
  u.parts.hi = 0xbeef; o[13] = (int)u.w;
  o[14] = alignof(Chars); o[15] = alignof(Pad);
}

int main() {
  const int n = 64;
  int h[n * 16];
  int *d;
  cudaMalloc(&d, sizeof(h));
  kernel<<<1, n>>>(d, n);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    Zero z = {i & 3, -(i & 7)};
    Skip s = {(unsigned)i & 15, (unsigned)i * 3 & 127, (unsigned)i * 1000};
    Chars ch = {(char)i, (char)(i + 1)};
    Pad p = {(char)(i * 2), (char)(i * 3)};
    Tagged t;
    t.flag = i & 1; t.type = i % 100;
    U u;
    u.w = 0x12345678u * (unsigned)(i + 1);
    int e[16] = {(int)sizeof(Zero), (int)sizeof(Skip), (int)sizeof(Chars), (int)sizeof(Pad), (int)sizeof(Tagged), (int)sizeof(U),
                 z.a + z.b * 10, (int)(s.a + s.b * 16 + s.c * 4096), ch.x + ch.y * 256, p.c + p.d * 256, (int)(t.flag + t.type * 2),
                 (int)u.parts.lo, (int)u.parts.hi, 0, (int)alignof(Chars), (int)alignof(Pad)};
    u.parts.hi = 0xbeef; e[13] = (int)u.w;
    for (int k = 0; k < 16; k++) if (h[i * 16 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_unnamed_bitfields: [%d][%d] = %d, expected %d\n", i, k, h[i * 16 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_unnamed_bitfields\n");
  return 0;
}
