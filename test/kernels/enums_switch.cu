// Enums (plain, with explicit values, negative values, enum class with an underlying type), typedefs of
// enums, enums in switch statements with default, enum arithmetic and comparisons.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL enums_switch: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

enum Color { RED, GREEN = 5, BLUE, ALPHA = -3 };
typedef enum { OP_NOP, OP_INC, OP_DBL, OP_NEG, OP_COUNT } Op;
enum class Level : unsigned char { Low = 1, Mid = 10, High = 200 };

__host__ __device__ int eval(Op op, Color c, Level lv, int x) {
  switch (op) {
    case OP_INC: x += 1; break;
    case OP_DBL: x *= 2; break;
    case OP_NEG: x = -x; break;
    default: break;
  }
  switch (c) {
    case RED: x += 100; break;
    case GREEN: x += 200; break;
    case BLUE: x += (int)BLUE; break;
    case ALPHA: x += ALPHA * 10; break;
  }
  switch (lv) {
    case Level::Low: return x;
    case Level::Mid: return x * 10;
    default: return x + (int)lv;
  }
}

__global__ void kernel(int *out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  Op op = (Op)(t % OP_COUNT);
  Color cs[4] = {RED, GREEN, BLUE, ALPHA};
  Color c = cs[(t / 4) % 4];
  Level lv = (t % 3 == 0) ? Level::Low : (t % 3 == 1 ? Level::Mid : Level::High);
  out[t] = eval(op, c, lv, t) + (c > GREEN) + (op == OP_DBL ? 1000 : 0);
}

int main() {
  const int n = 96;
  int *d, h[n];
  CK(cudaMalloc(&d, sizeof(h)));
  kernel<<<1, n>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  Color cs[4] = {RED, GREEN, BLUE, ALPHA};
  for (int t = 0; t < n; t++) {
    Op op = (Op)(t % OP_COUNT); Color c = cs[(t / 4) % 4];
    Level lv = (t % 3 == 0) ? Level::Low : (t % 3 == 1 ? Level::Mid : Level::High);
    int w = eval(op, c, lv, t) + (c > GREEN) + (op == OP_DBL ? 1000 : 0);
    if (h[t] != w) { printf("FAIL enums_switch: out[%d] = %d, want %d\n", t, h[t], w); return 1; }
  }
  printf("PASS enums_switch\n");
  return 0;
}
