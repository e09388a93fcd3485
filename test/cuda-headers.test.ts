// Units that include the CUDA C++ library headers (cuda/std, thrust, cub, cooperative groups, textures,
// pipelines, fp8) with a small kernel each. Every unit must either compile (then ptxas accepts our PTX and
// its symbols equal the real cicc's) or fall back with a reason that names the missing feature: never a
// diagnostic (the real nvcc compiles every one of them) and never an internal error. Each entry says what
// still stops it today; a unit that starts compiling keeps passing (the checks above then apply).
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { compileUnit } from '../compiler/compile';
import { formatDiagnostic } from '../compiler/diagnostics';
import { parseCiccArgs } from '../cicc/args';
import { ciccArgv, libdeviceBytes, prepareUnits, requireTool, run, skipReason } from './helpers/tools';

/** name, source, what is missing (null: compiles today, and must keep compiling), extra nvcc flags. */
const UNITS: [string, string, RegExp | null, string[]?][] = [
  // constexpr host functions of the C++ library (std::min/max) in device code under --expt-relaxed-constexpr
  ['relaxed_constexpr_std_minmax', `#include <algorithm>
__global__ void k(float *f, int *o) { int i = threadIdx.x; f[i] = std::max(f[i], 1.0f) + std::min(f[i], 2.0f); o[i] = std::max(o[i], 3) + std::min(o[i], -4); }`,
  null, ['--expt-relaxed-constexpr']],
  ['cuda_std_cmath', `#include <cuda/std/cmath>
__global__ void k(float *f, double *d) { f[threadIdx.x] = cuda::std::sqrt(f[threadIdx.x]) + cuda::std::fabs(f[threadIdx.x]); d[threadIdx.x] = cuda::std::exp(d[threadIdx.x]); }`, null],
  ['cuda_fp8', `#include <cuda_fp8.h>
__global__ void k(float *o) { __nv_fp8_e4m3 x(o[threadIdx.x]); o[threadIdx.x] = float(x); }`, null],
  ['cuda_std_array', `#include <cuda/std/array>
__global__ void k(int *o) { cuda::std::array<int, 4> a = {1, 2, 3, 4}; int s = 0; for (int i = 0; i < 4; i++) s += a[i]; o[threadIdx.x] = s + (int)a.size(); }`,
  null],
  // dynamic_extent is size_t(-1): its partial specialisation must be found (it once read as a template
  // parameter and the unit failed with false errors); the constructors are constrained by libcu++'s concept emulation
  ['cuda_std_span', `#include <cuda/std/span>
__global__ void k(int *p, int n) { cuda::std::span<int> s(p, n); s[0] = (int)s.size(); }`, /constructor template of span/],
  ['cuda_std_bit', `#include <cuda/std/bit>
__global__ void k(unsigned *o) { o[threadIdx.x] = cuda::std::popcount(o[threadIdx.x]) + cuda::std::countl_zero(o[threadIdx.x]) + cuda::std::bit_width(o[threadIdx.x]); }`, null],
  ['cuda_std_addressof', `#include <cuda/std/memory>
__global__ void k(int *o) { o[0] = *cuda::std::addressof(o[1]); }`, null],
  ['cuda_ptx_laneid', `#include <cuda/ptx>
__global__ void k(unsigned *o) { o[threadIdx.x] = cuda::ptx::get_sreg_laneid(); }`, null],
  ['cuda_functional_minmax', `#include <cuda/functional>
__global__ void k(int *o) { o[threadIdx.x] = cuda::maximum<int>{}(o[threadIdx.x], 2) + cuda::minimum<>{}(o[0], 1); }`, null],
  ['cuda_std_common_type', `#include <cuda/std/type_traits>
__global__ void k(int *o) { cuda::std::common_type_t<int, short> x = 3; o[0] = x + (int)sizeof(cuda::std::common_type_t<char, double>); }`, null],
  // libcu++'s __apply_cvref: variable templates declared `extern` without an initializer, used only in decltype
  ['cuda_cmath_round', `#include <cuda/cmath>
__global__ void k(int *o, int n) { o[threadIdx.x] = cuda::ceil_div(n, 32) + cuda::round_up(n, 8) + cuda::round_down(n, 4); }`, null],
  ['cuda_std_numeric', `#include <cuda/std/numeric>
__global__ void k(int *o, int n) { o[threadIdx.x] = cuda::std::gcd(n, 12) + cuda::std::lcm(n, 4); }`, null],
  ['wmma_f16', `#include <mma.h>
using namespace nvcuda;
__global__ void k(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}`, null],
  // sub-byte fragments are not lowered: the unit falls back naming them
  ['wmma_s4', `#include <mma.h>
using namespace nvcuda;
__global__ void k(const int *a, const int *b, int *c) {
  wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::s4, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
  wmma::fill_fragment(acc, 0);
  wmma::load_matrix_sync(fa, a, 32); wmma::load_matrix_sync(fb, b, 32);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 8, wmma::mem_row_major);
}`, /4-bit WMMA fragments/],
  ['cuda_std_type_traits', `#include <cuda/std/type_traits>
template <typename T> __device__ T twice(T v) { static_assert(cuda::std::is_arithmetic<T>::value, "arith"); return cuda::std::is_floating_point<T>::value ? v * 2 : v + v; }
__global__ void k(int *o, float *f) { o[threadIdx.x] = twice(3); f[threadIdx.x] = twice(1.5f); }`, null],
  ['cuda_std_limits', `#include <cuda/std/limits>
__global__ void k(float *f, int *o) { f[threadIdx.x] = cuda::std::numeric_limits<float>::max(); o[threadIdx.x] = cuda::std::numeric_limits<int>::min(); }`,
  null],
  ['cuda_std_utility', `#include <cuda/std/utility>
__global__ void k(int *o) { cuda::std::pair<int, float> p(1, 2.0f); int a = 1, b = 2; cuda::std::swap(a, b); o[threadIdx.x] = p.first + a; }`,
  null],
  ['cuda_std_tuple', `#include <cuda/std/tuple>
__global__ void k(int *o) { cuda::std::tuple<int, int> t(1, 2); o[threadIdx.x] = cuda::std::get<0>(t) + cuda::std::get<1>(t); }`, /variadic template|template|sizeof\.\.\.|member declaration without a type|parameter pack .* used other than in an expansion/],
  ['cuda_std_functional', `#include <cuda/std/functional>
__global__ void k(int *o) { cuda::std::plus<int> p; o[threadIdx.x] = p(o[threadIdx.x], 2); }`, null],
  ['cuda_std_complex', `#include <cuda/std/complex>
__global__ void k(float *o) { cuda::std::complex<float> c(1.0f, 2.0f); c = c * c; o[threadIdx.x] = c.real() + c.imag(); }`, /partial specialization|template|overload resolution among header declarations/],
  ['cuda_barrier_init', `#include <cuda/barrier>
__global__ void k(int *o) { __shared__ cuda::barrier<cuda::thread_scope_block> b; if (threadIdx.x == 0) init(&b, blockDim.x); __syncthreads(); b.arrive_and_wait(); }`, /hidden friend init|__barrier\/barrier\.h:\d+/],
  ['cuda_std_atomic', `#include <cuda/std/atomic>
__global__ void k(int *o) { cuda::std::atomic_ref<int> r(o[0]); r.fetch_add(1); }`, /template|dependent type name|cuda\/std\/atomic:\d+/],
  ['thrust_functional', `#include <thrust/functional.h>
__global__ void k(int *o) { thrust::plus<int> p; thrust::maximum<int> m; o[threadIdx.x] = m(p(o[threadIdx.x], 2), 5); }`, null],
  // host code that reaches no Thrust or CUB algorithm (the runtime API, iostream, std:: algorithms and a user
  // kernel, next to Thrust's headers) compiles: only the library's own code carries the reach to its kernels.
  // Member names are still read by name alone: `h.data()` on a std::vector is Thrust's `data` as far as we know
  ['thrust_headers_host_helpers', `#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <iostream>
#include <vector>
#include <algorithm>
__global__ void k(int *o, int n) { if (threadIdx.x < n) o[threadIdx.x] = threadIdx.x; }
int main() { int *p = 0; cudaMalloc(&p, 64 * sizeof(int)); k<<<1, 64>>>(p, 64);
  std::vector<int> h(64); cudaMemcpy(&h[0], p, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  std::sort(&h[0], &h[0] + 64); std::swap(h[0], h[1]); std::cout << h[0] << std::endl; cudaFree(p); return 0; }`, null],
  // a Thrust algorithm or device_vector in host code stays a fallback naming it (cicc emits CUB's kernels for it)
  ['thrust_reduce', `#include <thrust/device_vector.h>
#include <thrust/reduce.h>
int main() { thrust::device_vector<int> v(100, 1); return thrust::reduce(v.begin(), v.end()) == 100 ? 0 : 1; }`, /host code calls (device_vector|reduce), which may instantiate the library's kernel template/],
  ['cub_device_reduce_sum', `#include <cub/device/device_reduce.cuh>
void f(const int *in, int *out, int n) { void *t = 0; size_t b = 0; cub::DeviceReduce::Sum(t, b, in, out, n); }`,
  /host code calls (DeviceReduce|Sum), which may instantiate the library's kernel template/],
  ['thrust_transform', `#include <thrust/device_vector.h>
#include <thrust/transform.h>
struct sq { __host__ __device__ int operator()(int x) const { return x * x; } };
int main() { thrust::device_vector<int> v(10, 3); thrust::transform(v.begin(), v.end(), v.begin(), sq()); return 0; }`, /may instantiate the library's kernel template/],
  // the whole of CUB: libcu++'s and Thrust's device objects (customization points, tags, placeholders, `seq`) are
  // constant-initialised by their constructors, and emitted as cicc emits them (the symbols below)
  ['cub_all_block_reduce', `#include <cub/cub.cuh>
__global__ void k(const int *in, int *out) { typedef cub::BlockReduce<int, 128> R; __shared__ typename R::TempStorage t; int v = R(t).Sum(in[threadIdx.x]); if (threadIdx.x == 0) out[blockIdx.x] = v; }`, null],
  // host code calling Thrust's algorithms makes cicc instantiate CUB's kernels there, which we do not find yet
  ['thrust_device_vector_fill', `#include <thrust/device_vector.h>
thrust::device_vector<int> f(int n) { return thrust::device_vector<int>(n, 7); }`, /may instantiate the library's kernel template/],
  ['thrust_execution_policy', `#include <thrust/execution_policy.h>
#include <thrust/transform.h>
#include <thrust/reduce.h>
#include <thrust/functional.h>
int f(int *a, int n) { thrust::transform(thrust::device, a, a + n, a, thrust::negate<int>()); return thrust::reduce(thrust::device, a, a + n); }`,
  /cannot parse declaration of device_t|may instantiate the library's kernel template/],
  ['cub_warp_reduce', `#include <cub/warp/warp_reduce.cuh>
__global__ void k(int *o) { typedef cub::WarpReduce<int> WR; __shared__ typename WR::TempStorage t; o[threadIdx.x] = WR(t).Sum(threadIdx.x); }`,
  null],
  ['cub_block_reduce', `#include <cub/block/block_reduce.cuh>
__global__ void k(int *o) { typedef cub::BlockReduce<int, 128> BR; __shared__ typename BR::TempStorage t; int s = BR(t).Sum(threadIdx.x); if (threadIdx.x == 0) o[0] = s; }`,
  null],
  ['cub_block_scan', `#include <cub/block/block_scan.cuh>
__global__ void k(int *o) { typedef cub::BlockScan<int, 128> BS; __shared__ typename BS::TempStorage t; int v; BS(t).ExclusiveSum(1, v); o[threadIdx.x] = v; }`,
  null],
  ['cg_thread_block', `#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *o) { cg::thread_block b = cg::this_thread_block(); b.sync(); o[b.thread_rank()] = 1; }`, null],
  ['cg_tile_reduce', `#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int *o) { auto t = cg::tiled_partition<32>(cg::this_thread_block()); o[threadIdx.x] = cg::reduce(t, (int)threadIdx.x, cg::plus<int>()); }`,
  /template template parameter|reduce with a signature we cannot read/],
  ['cg_tile_scan', `#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void k(int *o) { auto t = cg::tiled_partition<8>(cg::this_thread_block()); o[threadIdx.x] = cg::inclusive_scan(t, o[threadIdx.x]) + cg::exclusive_scan(t, 1, cg::bit_or<int>()); }`,
  null],
  ['texture_object', `__global__ void k(cudaTextureObject_t t, float *o) { o[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x); }`, null],
  ['surface_object', `__global__ void k(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, threadIdx.x * 4, 0); }`, null],
  ['texture_object_geometries', `__global__ void k(cudaTextureObject_t t, float4 *o, float x, float y, float z, int l, float2 g, float4 h) {
  o[0] = tex3D<float4>(t, x, y, z); o[1] = tex2DLayered<float4>(t, x, y, l); o[2] = texCubemap<float4>(t, x, y, z);
  o[3] = texCubemapLayered<float4>(t, x, y, z, l); o[4] = tex2DGrad<float4>(t, x, y, g, g); o[5] = tex3DGrad<float4>(t, x, y, z, h, h);
  o[6] = tex1DLayeredLod<float4>(t, x, l, y); o[7] = tex2Dgather<float4>(t, x, y, 2); }`, null],
  ['surface_object_geometries', `__global__ void k(cudaSurfaceObject_t s, int x, int y, int z, cudaSurfaceBoundaryMode m) {
  surf3Dwrite(surf3Dread<int2>(s, x, y, z), s, x, y, z + 1); surf2DLayeredwrite(surf2DLayeredread<uchar4>(s, x, y, z, m), s, x, y, z, m);
  surfCubemapwrite(surfCubemapread<short>(s, x, y, z), s, x, y, 5); surf1DLayeredwrite(surf1DLayeredread<unsigned long long>(s, x, z), s, x, z); }`, null],
  ['texture_object_sparse', `__global__ void k(cudaTextureObject_t t, float *o) { bool r; o[0] = tex2D<float>(t, 0.5f, 0.5f, &r); o[1] = r; }`, /sparse texture fetch/],
  // long double declarations are fine where device code does not use them (cuda_long_double_decl.cu); used, they fall back
  ['long_double_in_device_code', `__device__ long double f(long double x) { return x * 3; }
__global__ void k(double *d) { d[threadIdx.x] = f(d[threadIdx.x]); }`, /long double/],
  ['cuda_pipeline', `#include <cuda_pipeline.h>
__global__ void k(const int *g, int *o) { __shared__ int s[128]; __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(int)); __pipeline_commit(); __pipeline_wait_prior(0); o[threadIdx.x] = s[threadIdx.x]; }`,
  null],
];

const symbols = (ptx: string): string[] =>
  [...ptx.matchAll(/^\s*(?:\.visible\s+|\.weak\s+|\.extern\s+)?\.(?:entry|global|const|shared)\s+(?:\.attribute\(\.\w+\)\s+)?(?:\.align\s+\d+\s+)?(?:\.\w+\s+)?([A-Za-z_$][\w$]*)/gm)]
    .map(m => m[1]!).filter(n => !n.startsWith('$str')).sort();

const skip = skipReason('nvcc', 'ptxas');

describe.skipIf(skip !== undefined)(`CUDA library headers in device code ${skip ?? ''}`, () => {
  // a fixed directory, so that prepareUnits' cache (keyed by path and content) is reused between runs
  const dir = path.join(os.tmpdir(), `ptxd-cuda-headers-${process.getuid?.() ?? 'u'}`);
  for (const [name, src, missing, flags] of UNITS) {
    it(name, () => {
      fs.mkdirSync(dir, { recursive: true });
      const cu = path.join(dir, `${name}.cu`);
      fs.writeFileSync(cu, src + '\n');
      const u = prepareUnits(cu, [90], { nvccFlags: flags ?? [] }).get(90)!;   // the real nvcc compiles it: the unit is valid CUDA
      const args = parseCiccArgs(ciccArgv(u, dir));
      args.options.moduleId = u.moduleId;
      const r = compileUnit(fs.readFileSync(u.ii, 'utf8'), args.options, { libdevice: libdeviceBytes() });
      expect(r.diagnostics.filter(d => d.severity !== 'warning').map(d => formatDiagnostic(d, false)), `${name}: diagnostics`).toEqual([]);
      if (r.ok) {
        const ptxFile = path.join(dir, `${name}.ptx`);
        fs.writeFileSync(ptxFile, r.ptx);
        const p = run(requireTool('ptxas'), ['-arch=sm_90', ptxFile, '-o', path.join(dir, `${name}.cubin`)]);
        expect(p.status, `ptxas on ${name}:\n${p.stderr}`).toBe(0);
        expect(symbols(r.ptx), `${name}: symbols`).toEqual(symbols(u.refPtx));
        return;
      }
      expect(missing, `${name} no longer compiles: ${r.unsupported}`).not.toBeNull();
      expect(r.unsupported, `${name}: a fallback names its reason`).toBeDefined();
      expect(r.unsupported!, `${name}: not an internal error`).not.toMatch(/internal error/);
      // the feature, or the header line whose construct we could not read (`…/pair.h:119: expected a ">"`)
      const named = missing!.test(r.unsupported!) || /\.(h|hpp|cuh|inl)?:\d+: \S/.test(r.unsupported!) || /\/include\/[^:]+:\d+: \S/.test(r.unsupported!);
      expect(named, `${name}: the reason names the missing feature or the header line: ${r.unsupported}`).toBe(true);
    });
  }
});
