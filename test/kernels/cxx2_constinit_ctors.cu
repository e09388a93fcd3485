// Device variables of class type constant-initialised by constexpr constructors, as cicc lays out their bytes:
// mem-initializers, a base class and an empty base, default member initialisers (an implicit constexpr default
// constructor), a member initialised from an earlier one, a constexpr function in an initialiser, bitfields,
// an enum member, nested class members and an array member, a copy constructor from a constexpr object,
// arrays of class objects (listed and default-initialised), a __constant__ object, and CUDA's "empty
// constructor" (no initialisation: the object stays zero). Every class has a default constructor: nvcc's host
// side declares each device variable's shadow default-initialised.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_constinit_ctors: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Pair { int a; float b; Pair() = default; constexpr Pair(int x, float y) : a(x), b(y) {} };
struct Tag {};
struct Base { short id; Base() = default; constexpr Base(short i) : id(i) {} };
struct Derived : Tag, Base {
  char c = 'q';
  long long big;
  unsigned flags : 5;
  unsigned mode : 3;
  Derived() = default;
  constexpr Derived(long long v) : Base(11), big(v * 3), flags(9), mode(5) {}
};
struct Defaults { int x = 7; double d{-2.5}; bool on = true; };
struct Holder { Pair p; int arr[3]; Defaults def; constexpr Holder() : p(4, 0.25f), arr{1, 2, 3}, def() {} };
struct Empty { int v; __device__ Empty() {} };
struct Copyable { int k; Copyable() = default; constexpr Copyable(int v) : k(v * 2) {} constexpr Copyable(const Copyable &o) : k(o.k + 1) {} };
struct Chained { int first; int second; Chained() = default; constexpr Chained(int v) : first(v), second(first * 4 + 1) {} };
enum class Color : unsigned char { red = 3, blue = 200 };
struct WithEnum { Color c; short s; constexpr WithEnum() : c(Color::blue), s(-5) {} };
constexpr int triple(int v) { return v * 3; }
struct UsesFn { int t; UsesFn() = default; constexpr UsesFn(int v) : t(triple(v) + 1) {} };

constexpr Copyable source{5};

__device__ Pair gPair{5, 1.5f};
__device__ Pair gPairEq = Pair(-8, 3.0f);
__constant__ Derived cDerived{100};
__device__ Derived gDerivedArr[2] = {Derived(1), Derived(-2)};
__device__ Defaults gDefaults;
__device__ Defaults gDefaultsArr[3];
__device__ Holder gHolder;
__device__ Empty gEmpty;
__device__ Copyable gCopy{source};
__device__ Chained gChained{6};
__device__ WithEnum gEnum;
__device__ UsesFn gFn{4};

__global__ void readGlobals(int *out) {
  int i = 0;
  out[i++] = gPair.a; out[i++] = (int)(gPair.b * 4);
  out[i++] = gPairEq.a; out[i++] = (int)(gPairEq.b * 4);
  out[i++] = cDerived.id; out[i++] = cDerived.c; out[i++] = (int)cDerived.big; out[i++] = cDerived.flags; out[i++] = cDerived.mode;
  out[i++] = gDerivedArr[0].id; out[i++] = (int)gDerivedArr[0].big; out[i++] = (int)gDerivedArr[1].big; out[i++] = gDerivedArr[1].c;
  out[i++] = gDefaults.x; out[i++] = (int)(gDefaults.d * 4); out[i++] = gDefaults.on;
  out[i++] = gDefaultsArr[2].x; out[i++] = (int)(gDefaultsArr[1].d * 4); out[i++] = gDefaultsArr[0].on;
  out[i++] = gHolder.p.a; out[i++] = (int)(gHolder.p.b * 8); out[i++] = gHolder.arr[0] + 10 * gHolder.arr[1] + 100 * gHolder.arr[2];
  out[i++] = gHolder.def.x; out[i++] = (int)(gHolder.def.d * 4);
  out[i++] = gEmpty.v;
  out[i++] = gCopy.k;
  out[i++] = gChained.first; out[i++] = gChained.second;
  out[i++] = (int)gEnum.c; out[i++] = gEnum.s;
  out[i++] = gFn.t;
}

int main() {
  const int n = 31;
  const int want[n] = {5, 6, -8, 12, 11, 'q', 300, 9, 5, 11, 3, -6, 'q', 7, -10, 1, 7, -10, 1, 4, 2, 321, 7, -10, 0, 11, 6, 25, 200, -5, 13};
  int *dout, hout[n];
  CK(cudaMalloc(&dout, sizeof(hout)));
  readGlobals<<<1, 1>>>(dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (hout[i] != want[i]) { printf("FAIL cxx2_constinit_ctors: out[%d] = %d, want %d\n", i, hout[i], want[i]); return 1; }
  printf("PASS cxx2_constinit_ctors\n");
  return 0;
}
