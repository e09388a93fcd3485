// A parameter's name may stand in parentheses: `H h(int(a[3]))` in a block declares a function taking `int *a`
// ([dcl.ambig.res]: what can be a declaration is one), and `int (x)` in a parameter list is a parameter named x.
// ptxd read the parentheses as a function type's parameter list and reported "expected a type specifier" where
// cicc accepts the unit (a false error); a name that is a type keeps the function-type reading (`int (T)`).
// The same in other declarations: `int (x) = 1;`, `int (arr)[3]`, `int ((w))`, a member function `int (m)()`.
#include <cstdio>
#include <cuda_runtime.h>

struct H { int v; __device__ H(int x) : v(x) {} };
typedef int T;

__device__ int twice(int (x)) { return 2 * x; }
__device__ int sum3(const int (v[3])) { return v[0] + v[1] + v[2]; }
__device__ int apply(int (f)(T), int y) { return f(y); }
__device__ int inc(int y) { return y + 1; }
struct S { static __device__ int (m)() { return 4; } };

__global__ void paren_names(int *out, const int *a) {
  H h(int(a[3]));           // a function declaration: nothing is constructed
  int g(int(a[2]));         // the same, returning int
  H k(int(threadIdx.x));    // an object: a member access cannot be in a declarator
  int i = threadIdx.x;
  int (x) = a[i], (arr)[3] = {1, 2, 3}, ((w)) = S::m();
  out[i] = twice(x) + sum3(a) * 10 + apply(inc, i) * 100 + k.v * 1000 + (arr[1] + w) * 10000;
}

int main() {
  int ha[4] = {1, 2, 3, 4}, ho[4], *da, *dout;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&dout, sizeof ho);
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  paren_names<<<1, 4>>>(dout, da);
  cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < 4; i++) ok = ok && ho[i] == 2 * ha[i] + 60 + (i + 1) * 100 + i * 1000 + 60000;
  if (!ok) { printf("FAIL cxx2_paren_param_names %d %d\n", ho[0], ho[3]); return 1; }
  printf("PASS cxx2_paren_param_names\n");
  return 0;
}
