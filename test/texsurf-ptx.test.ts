// Texture and surface objects: for every geometry and access form of texture_indirect_functions.h /
// surface_indirect_functions.h, ptxd's tex / tld4 / suld / sust instructions are the real cicc's (same
// opcode with all modifiers and the same operand shapes, registers aside), and ptxas accepts the PTX.
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { compileUnit } from '../compiler/compile';
import { parseCiccArgs } from '../cicc/args';
import { ciccArgv, libdeviceBytes, prepareUnits, requireTool, run, skipReason } from './helpers/tools';

const SRC = `
__global__ void t_fetch(cudaTextureObject_t t, float *f, int4 *i, char *c, int x) { f[0] = tex1Dfetch<float>(t, x); i[0] = tex1Dfetch<int4>(t, x); c[0] = tex1Dfetch<char>(t, x); }
__global__ void t_1d(cudaTextureObject_t t, float *o, uchar4 *u, float x, int l, float lv, float a, float b) {
  o[0] = tex1D<float>(t, x); u[0] = tex1D<uchar4>(t, x); o[1] = tex1DLayered<float>(t, x, l); o[2] = tex1DLod<float>(t, x, lv);
  o[3] = tex1DGrad<float>(t, x, a, b); o[4] = tex1DLayeredLod<float>(t, x, l, lv); o[5] = tex1DLayeredGrad<float>(t, x, l, a, b); }
__global__ void t_2d(cudaTextureObject_t t, float2 *o, short4 *s, float x, float y, int l, float lv, float2 g) {
  o[0] = tex2D<float2>(t, x, y); s[0] = tex2D<short4>(t, x, y); o[1] = tex2DLayered<float2>(t, x, y, l); o[2] = tex2DLod<float2>(t, x, y, lv);
  o[3] = tex2DGrad<float2>(t, x, y, g, g); o[4] = tex2DLayeredLod<float2>(t, x, y, l, lv); o[5] = tex2DLayeredGrad<float2>(t, x, y, l, g, g); }
__global__ void t_3d(cudaTextureObject_t t, float4 *o, uint4 *u, float x, float y, float z, int l, float lv, float4 g) {
  o[0] = tex3D<float4>(t, x, y, z); u[0] = tex3D<uint4>(t, x, y, z); o[1] = tex3DLod<float4>(t, x, y, z, lv); o[2] = tex3DGrad<float4>(t, x, y, z, g, g);
  o[3] = texCubemap<float4>(t, x, y, z); o[4] = texCubemapLayered<float4>(t, x, y, z, l); o[5] = texCubemapLod<float4>(t, x, y, z, lv);
  o[6] = texCubemapGrad<float4>(t, x, y, z, g, g); o[7] = texCubemapLayeredLod<float4>(t, x, y, z, l, lv); o[8] = texCubemapLayeredGrad<float4>(t, x, y, z, l, g, g); }
__global__ void t_gather(cudaTextureObject_t t, float4 *o, int4 *i, float x, float y, int c) {
  o[0] = tex2Dgather<float4>(t, x, y); o[1] = tex2Dgather<float4>(t, x, y, 3); i[0] = tex2Dgather<int4>(t, x, y, 2); o[2] = tex2Dgather<float4>(t, x, y, c); }
__global__ void s_rw(cudaSurfaceObject_t s, int x, int y, int z, cudaSurfaceBoundaryMode m) {
  surf1Dwrite(surf1Dread<char>(s, x), s, x + 1); surf1Dwrite(surf1Dread<ushort2>(s, x, cudaBoundaryModeZero), s, x + 4, cudaBoundaryModeClamp);
  surf2Dwrite(surf2Dread<float4>(s, x, y), s, x, y + 1); surf2Dwrite(surf2Dread<longlong2>(s, x, y, m), s, x, y + 2, m);
  surf3Dwrite(surf3Dread<int>(s, x, y, z, cudaBoundaryModeClamp), s, x, y, z + 1, cudaBoundaryModeZero);
  surf1DLayeredwrite(surf1DLayeredread<ulonglong2>(s, x, z), s, x, z + 1); surf2DLayeredwrite(surf2DLayeredread<uchar2>(s, x, y, z), s, x, y, z + 1);
  surfCubemapwrite(surfCubemapread<float2>(s, x, y, z), s, x, y, 5); surfCubemapLayeredwrite(surfCubemapLayeredread<short>(s, x, y, z), s, x, y, z + 6); }
`;

/** The texture/surface instructions of a PTX text, registers replaced by their class, sorted. */
function texSurfLines(ptx: string): string[] {
  return ptx.split('\n').map(l => l.trim()).filter(l => /^(tex|tld4|suld|sust)\./.test(l))
    .map(l => l.replace(/%([a-z]+)\d+/g, '%$1').replace(/\s+/g, ' ')).sort();
}

const skip = skipReason('nvcc', 'ptxas');

describe.skipIf(skip !== undefined)(`texture/surface objects: instruction choice equals cicc's ${skip ?? ''}`, () => {
  it('every geometry, access form and element type', () => {
    const dir = path.join(os.tmpdir(), `ptxd-texsurf-ptx-${process.getuid?.() ?? 'u'}`);
    fs.mkdirSync(dir, { recursive: true });
    const cu = path.join(dir, 'texsurf.cu');
    fs.writeFileSync(cu, SRC);
    const u = prepareUnits(cu, [90]).get(90)!;
    const args = parseCiccArgs(ciccArgv(u, dir));
    args.options.moduleId = u.moduleId;
    const r = compileUnit(fs.readFileSync(u.ii, 'utf8'), args.options, { libdevice: libdeviceBytes() });
    expect(r.unsupported).toBeUndefined();
    expect(r.ok).toBe(true);
    const ref = texSurfLines(u.refPtx);
    expect(ref.length).toBeGreaterThan(40);
    expect(texSurfLines(r.ptx)).toEqual(ref);
    const ptxFile = path.join(dir, 'texsurf.ptx');
    fs.writeFileSync(ptxFile, r.ptx);
    const p = run(requireTool('ptxas'), ['-arch=sm_90', ptxFile, '-o', path.join(dir, 'texsurf.cubin')]);
    expect(p.status, p.stderr).toBe(0);
  });
});
