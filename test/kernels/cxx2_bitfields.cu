// Bitfields: packed flags and small counters in one word (signed and unsigned, bool, a field that must
// start a new unit), read, assigned, compound-assigned and incremented (wrapping within their width),
// aggregate initialisation, access through pointers, and sizes/layout as the ABI gives them.
#include <cstdio>

struct Packed {
  unsigned kind : 3;
  unsigned count : 5;
  int delta : 4;
  bool valid : 1;
  unsigned short wide : 9;
  char tag;
  int big : 20;
  int next : 14;     // does not fit after big in the same int: starts the next one
};
struct Header { unsigned char version : 4, flags : 4; unsigned short length; };

__device__ int summary(const Packed *p) { return p->kind + p->count * 10 + p->delta * 100 + p->valid * 1000; }

__global__ void bitfields(const int *in, int *io) {
  int t = threadIdx.x;
  int v = in[t];
  Packed x = {5, 17, -3, true, 300, 'q', -12345, 100};
  io[t * 8 + 0] = summary(&x);
  x.delta = v;                  // wraps to 4 signed bits
  x.count += 20;                // wraps to 5 bits
  x.kind++;
  x.big = v * 1000;
  io[t * 8 + 1] = x.delta * 1000 + x.count;
  io[t * 8 + 2] = x.kind + x.big;
  Packed *p = &x;
  p->wide = 511;
  int r = (p->next = -v);
  io[t * 8 + 3] = p->wide + r * 1000 + x.tag;
  Header h = {(unsigned char)(t & 15), 9, 1500};
  h.flags ^= 5;
  io[t * 8 + 4] = h.version * 100 + h.flags + h.length * 1000;
  io[t * 8 + 5] = (int)sizeof(Packed) * 100 + (int)sizeof(Header);
  x.valid = v > 0;
  io[t * 8 + 6] = x.valid + 2 * (x.next < 0);
  unsigned u = 0;
  for (int k = 0; k < t; k++) { x.kind++; u += x.kind; }
  io[t * 8 + 7] = (int)u;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 7) % 19 - 9;
  int *din, *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 8 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  bitfields<<<1, T>>>(din, di);
  int hi[T * 8];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    Packed x = {5, 17, -3, true, 300, 'q', -12345, 100};   // the host compiler's bitfields: the same ABI
    int e0 = x.kind + x.count * 10 + x.delta * 100 + x.valid * 1000;
    x.delta = v; x.count += 20; x.kind++; x.big = v * 1000;
    int e1 = x.delta * 1000 + x.count, e2 = x.kind + x.big;
    x.wide = 511;
    int r = (x.next = -v);
    int e3 = x.wide + r * 1000 + x.tag;
    Header h = {(unsigned char)(t & 15), 9, 1500};
    h.flags ^= 5;
    int e4 = h.version * 100 + h.flags + h.length * 1000;
    x.valid = v > 0;
    int e6 = x.valid + 2 * (x.next < 0);
    unsigned u = 0;
    for (int k = 0; k < t; k++) { x.kind++; u += x.kind; }
    int e[8] = {e0, e1, e2, e3, e4, (int)sizeof(Packed) * 100 + (int)sizeof(Header), e6, (int)u};
    for (int k = 0; k < 8; k++) if (hi[t * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_bitfields: [%d][%d] = %d, expected %d\n", t, k, hi[t * 8 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_bitfields\n");
  return 0;
}
