// Texture and surface objects in the emulator. Hand-written PTX against facts of the PTX ISA / CUDA
// programming guide (worked out in the comments), then the real cicc's PTX of the tex/surf test programs
// against the checks their host main() makes (re-implemented here from the .cu source).

import { describe, it, expect } from 'vitest';
import { Machine } from './machine';
import type { TexDesc, SurfDesc } from './texsurf';
import { skipReason } from '../helpers/tools';
import { SPECS } from '../diff/specs';
import { referencePtx, runSpec, type RunOutput } from '../diff/harness';

/** A kernel `k(u64 out, u64 obj)`: %rd2 = out (global), %rd5 = the object handle, %r1 = tid.x. */
function kernel(body: string): string {
  return `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)
{
  .reg .b16 %rs<20>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<20>;
  .reg .f32 %f<40>;
  ld.param.u64 %rd1, [k_param_0];
  ld.param.u64 %rd5, [k_param_1];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
${body}
  ret;
}
`;
}

/** Run `body` with a resource over `data` (bytes); returns the output words, the resource bytes after, the trap. */
function run(body: string, data: Uint8Array, obj: { tex?: Omit<TexDesc, 'addr'>; surf?: Omit<SurfDesc, 'addr'> }, words = 16, threads = 1) {
  const m = new Machine(kernel(body));
  const out = m.alloc(words * 4);
  const res = m.alloc(data.length);
  m.write(res, data);
  const h = obj.tex ? m.createTexture({ ...obj.tex, addr: res }) : m.createSurface({ ...obj.surf!, addr: res });
  const params = new Uint8Array(16);
  const pv = new DataView(params.buffer);
  pv.setBigUint64(0, BigInt(out), true);
  pv.setBigUint64(8, h, true);
  const r = m.launch('k', { grid: { x: 1, y: 1, z: 1 }, block: { x: threads, y: 1, z: 1 }, params });
  const dv = new DataView(m.read(out, words * 4).buffer);
  return { trap: r.trap, i32: (i: number) => dv.getInt32(i * 4, true), f32: (i: number) => dv.getFloat32(i * 4, true), after: m.read(res, data.length) };
}

const f32s = (xs: number[]): Uint8Array => new Uint8Array(new Float32Array(xs).buffer);
const i32s = (xs: number[]): Uint8Array => new Uint8Array(new Int32Array(xs).buffer);
/** `tex.2d.v4.f32.f32` at (x, y) (f32 immediates as hex), first component stored to word k. */
const tex2d = (x: number, y: number, k: number): string => {
  const hx = (v: number) => `0f${new DataView(new Float32Array([v]).buffer).getUint32(0, true).toString(16).padStart(8, '0').toUpperCase()}`;
  return `  mov.f32 %f1, ${hx(x)};\n  mov.f32 %f2, ${hx(y)};\n  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd5, {%f1, %f2}];\n  st.global.f32 [%rd2+${4 * k}], %f3;\n`;
};

// A 4x3 float texture, texel (x, y) = 10 * y + x.
const GRID = f32s(Array.from({ length: 12 }, (_, i) => 10 * Math.floor(i / 4) + (i % 4)));
const grid = (extra: Partial<TexDesc>): Omit<TexDesc, 'addr'> => ({ kind: 'array', format: 'f32', channels: 1, width: 4, height: 3, ...extra });

describe('emulator: texture objects', () => {
  it('point sampling picks texel floor(x), floor(y); clamp repeats the edge texels', () => {
    // (1.5, 2.9) -> texel (1, 2) = 21; (-3, 0.2) -> (0, 0) = 0; (4.0, 5) -> (3, 2) = 23; (3.999, 0.999) -> (3, 0) = 3
    const o = run(tex2d(1.5, 2.9, 0) + tex2d(-3, 0.2, 1) + tex2d(4.0, 5, 2) + tex2d(3.999, 0.999, 3), GRID, { tex: grid({ address: 'clamp' }) });
    expect([0, 1, 2, 3].map(o.f32)).toEqual([21, 0, 23, 3]);
  });

  it('border addressing reads zero outside, wrap and mirror repeat normalised coordinates', () => {
    const b = run(tex2d(-0.5, 1.5, 0) + tex2d(2.5, 1.5, 1) + tex2d(2.5, 3.0, 2), GRID, { tex: grid({ address: 'border' }) });
    expect([0, 1, 2].map(b.f32)).toEqual([0, 12, 0]);
    // normalised: u = 1.125 -> 4.5 texels -> wrap to texel 0; v = -0.5 -> -1.5 texels -> wrap to texel 1 (row 3 - 2)
    const w = run(tex2d(1.125, -0.5, 0), GRID, { tex: grid({ address: 'wrap', normalizedCoords: true }) });
    expect(w.f32(0)).toBe(10);
    // mirror: u = -0.125 -> -0.5 texels -> texel -1 -> mirrored to 0; u = 1.2 -> 4.8 -> texel 4 -> 3; v = 1.5 -> 4.5 -> 4 -> 1
    const m = run(tex2d(-0.125, 0.5, 0) + tex2d(1.2, 1.5, 1), GRID, { tex: grid({ address: 'mirror', normalizedCoords: true }) });
    expect([0, 1].map(m.f32)).toEqual([10, 13]);
  });

  it('wrap and mirror with unnormalised coordinates are refused, not guessed', () => {
    expect(() => run(tex2d(0.5, 0.5, 0), GRID, { tex: grid({ address: 'wrap' }) })).toThrow(/normalised coordinates/);
  });

  it('a pitched 2-D texture steps rows by the pitch', () => {
    // width 2, pitch 12 bytes (3 floats): texel (1, 2) is float 2 * 3 + 1 = 7; (5, 1) clamps to (1, 1) = float 4
    const o = run(tex2d(1.5, 2.5, 0) + tex2d(5, 1.5, 1), f32s([0, 1, 2, 3, 4, 5, 6, 7]), { tex: { kind: 'array', format: 'f32', channels: 1, width: 2, height: 3, pitch: 12 } });
    expect([0, 1].map(o.f32)).toEqual([7, 4]);
  });

  it('tld4 returns the 2x2 footprint counter-clockwise from the lower left', () => {
    // at (2.0, 1.0): x - 0.5 = 1.5 -> i0 = 1, y - 0.5 = 0.5 -> j0 = 0: (1,1) (2,1) (2,0) (1,0) = 11 12 2 1
    const o = run(`  mov.f32 %f1, 0f40000000;\n  mov.f32 %f2, 0f3F800000;\n  tld4.r.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd5, {%f1, %f2}];\n  st.global.v4.f32 [%rd2], {%f3, %f4, %f5, %f6};\n`,
      GRID, { tex: grid({ address: 'clamp' }) });
    expect([0, 1, 2, 3].map(o.f32)).toEqual([11, 12, 2, 1]);
  });

  it('tex1Dfetch on linear memory: integer index, zero past the end; missing channels read 0 and alpha 1', () => {
    const body = [0, 2, 3, -1].map((i, k) => `  mov.u32 %r2, ${i};\n  tex.1d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd5, {%r2}];\n  st.global.v2.u32 [%rd2+${8 * k}], {%r3, %r4};\n`).join('')
      + `  mov.u32 %r2, 1;\n  tex.1d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd5, {%r2}];\n  st.global.v2.u32 [%rd2+32], {%r5, %r6};\n`;
    const o = run(body, i32s([5, -6, 7, -8, 9, -10]), { tex: { kind: 'linear', format: 'i32', channels: 2, width: 3 } });
    expect(Array.from({ length: 10 }, (_, k) => o.i32(k))).toEqual([5, -6, 9, -10, 0, 0, 0, 0, 0, 1]);
  });

  it('8-bit texels: element type sign-extends, normalised float divides by 127 / 255', () => {
    const data = new Uint8Array([0x80, 0xff, 0x7f, 0x00]);
    const body = `  mov.u32 %r2, 0;\n  tex.1d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd5, {%r2}];\n  st.global.v4.u32 [%rd2], {%r3, %r4, %r5, %r6};\n`;
    const e = run(body, data, { tex: { kind: 'linear', format: 'i8', channels: 4, width: 1 } });
    expect([0, 1, 2, 3].map(e.i32)).toEqual([-128, -1, 127, 0]);
    const bodyF = `  mov.u32 %r2, 0;\n  tex.1d.v4.f32.s32 {%f3, %f4, %f5, %f6}, [%rd5, {%r2}];\n  st.global.v4.f32 [%rd2], {%f3, %f4, %f5, %f6};\n`;
    const s = run(bodyF, data, { tex: { kind: 'linear', format: 'i8', channels: 4, width: 1, normalizedFloat: true } });
    expect([0, 1, 2, 3].map(s.f32)).toEqual([-1, Math.fround(-1 / 127), 1, 0]);   // -128/127 clamps to -1
    const u = run(bodyF, data, { tex: { kind: 'linear', format: 'u8', channels: 4, width: 1, normalizedFloat: true } });
    expect([0, 1, 2, 3].map(u.f32)).toEqual([Math.fround(128 / 255), 1, Math.fround(127 / 255), 0]);
  });

  it('a float fetch from an integer texture is an error', () => {
    expect(() => run(tex2d(0.5, 0.5, 0), i32s([1]), { tex: { kind: 'array', format: 'i32', channels: 1, width: 1, height: 1 } })).toThrow(/texture of i32/);
  });
});

describe('emulator: surface objects', () => {
  const surf = { elemSize: 4, width: 4, height: 2 };
  const data = i32s([0, 1, 2, 3, 10, 11, 12, 13]);
  const ld = (x: number, y: number, mode: string, k: number) => `  mov.u32 %r2, ${x};\n  mov.u32 %r3, ${y};\n  suld.b.2d.b32.${mode} {%r4}, [%rd5, {%r2, %r3}];\n  st.global.u32 [%rd2+${4 * k}], %r4;\n`;

  it('suld: x is a byte offset; clamp reads the nearest element, zero reads 0', () => {
    const o = run(ld(8, 1, 'trap', 0) + ld(16, 1, 'clamp', 1) + ld(-4, 5, 'clamp', 2) + ld(16, 0, 'zero', 3) + ld(4, -1, 'zero', 4), data, { surf });
    expect([0, 1, 2, 3, 4].map(o.i32)).toEqual([12, 13, 10, 0, 0]);
  });

  it('suld.trap traps out of bounds and on a misaligned x', () => {
    expect(run(ld(16, 0, 'trap', 0), data, { surf }).trap).toMatch(/surface access out of bounds/);
    expect(run(ld(2, 0, 'zero', 0), data, { surf }).trap).toMatch(/misaligned surface access/);
  });

  it('sust: zero drops an out-of-bounds store, clamp moves it to the edge; v2.b16 stores two halves', () => {
    const st = (x: number, y: number, mode: string, v: number) => `  mov.u32 %r2, ${x};\n  mov.u32 %r3, ${y};\n  mov.u32 %r4, ${v};\n  sust.b.2d.b32.${mode} [%rd5, {%r2, %r3}], {%r4};\n`;
    const o = run(st(4, 0, 'trap', 99) + st(20, 0, 'zero', 98) + st(20, 3, 'clamp', 97)
      + `  mov.u32 %r2, 8;\n  mov.u32 %r3, 0;\n  mov.u16 %rs1, 0xabcd;\n  mov.u16 %rs2, 0x1234;\n  sust.b.2d.v2.b16.trap [%rd5, {%r2, %r3}], {%rs1, %rs2};\n`, data, { surf });
    expect(Array.from(new Int32Array(o.after.buffer, o.after.byteOffset, 8))).toEqual([0, 99, 0x1234abcd, 3, 10, 11, 12, 97]);
  });

  it('layered surfaces take the layer first', () => {
    const o = run(`  mov.u32 %r2, 1;\n  mov.u32 %r3, 4;\n  suld.b.a1d.b32.trap {%r4}, [%rd5, {%r2, %r3}];\n  st.global.u32 [%rd2], %r4;\n`, data, { surf: { elemSize: 4, width: 4, layers: 2 } });
    expect(o.i32(0)).toBe(11);
  });
});

// ─────────────────────────────────────────────────────────────────────────── the programs' own checks

const skip = skipReason('nvcc');
const spec = (name: string) => SPECS.find(s => s.name === name)!;
const runRef = (name: string): RunOutput => runSpec(spec(name), referencePtx(name));
const view = (r: RunOutput, b: string) => { const u = r.buffers.get(b)!; return new DataView(u.buffer, u.byteOffset, u.byteLength); };
const floats = (r: RunOutput, b: string) => { const d = view(r, b); return Array.from({ length: d.byteLength / 4 }, (_, i) => d.getFloat32(i * 4, true)); };
const ints = (r: RunOutput, b: string) => { const d = view(r, b); return Array.from({ length: d.byteLength / 4 }, (_, i) => d.getInt32(i * 4, true)); };
const clampTo = (v: number, n: number) => Math.max(0, Math.min(n - 1, v));

describe.skipIf(skip !== undefined)(`the emulator running the real cicc's PTX meets the tex/surf programs' checks ${skip ?? ''}`, () => {
  it('cuda_tex_fetch', () => {
    const r = runRef('cuda_tex_fetch');
    const hf = Array.from({ length: 300 }, (_, i) => Math.fround((i % 37) * 0.25 - 3));
    expect(floats(r, 'fout')).toEqual(Array.from({ length: 308 }, (_, i) => Math.fround((hf[i] ?? 0) * 2 + 1)));
    const hi = Array.from({ length: 400 }, (_, i) => ((i * 7919) % 2001) - 1000);
    expect(ints(r, 'iout')).toEqual(Array.from({ length: 100 }, (_, i) => hi[4 * i]! - hi[4 * i + 1]! + 3 * hi[4 * i + 2]! + (hi[4 * i + 3]! ^ 0x55)));
  });

  it('cuda_tex_2d_clamp', () => {
    const r = runRef('cuda_tex_2d_clamp');
    const W = 13, H = 9, OW = W + 4;
    const f = floats(r, 'dof'), c = ints(r, 'doc').map(v => v >>> 0), u = floats(r, 'dou');
    for (let y = -2; y < H + 2; y++) {
      for (let x = -2; x < W + 2; x++) {
        expect(f[(y + 2) * OW + x + 2]).toBe(clampTo(y, H) * 100 + clampTo(x, W) + 0.5);
        const inside = x >= 0 && x < W && y >= 0 && y < H;
        expect(c[(y + 2) * OW + x + 2]).toBe(inside ? (((x * 11 + 1) | (y * 13 + 2) << 8 | ((x * y) & 255) << 16) + (200 + x) * 2 ** 24) >>> 0 : 0);
      }
    }
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) expect(Math.abs(u[y * W + x]! - ((x * 17 + y * 5) & 255))).toBeLessThan(0.001);
  });

  it('cuda_surf_roundtrip', () => {
    const r = runRef('cuda_surf_roundtrip');
    const W = 20, H = 6, OW = W + 3, OH = H + 2;
    const val = (x: number, y: number) => Math.fround(y * 1000 + x * 0.5);
    expect(floats(r, 'a2')).toEqual(Array.from({ length: W * H }, (_, i) => val(i % W, Math.floor(i / W))));
    const c = floats(r, 'dc'), z = floats(r, 'dz');
    for (let y = 0; y < OH; y++) {
      for (let x = 0; x < OW; x++) {
        expect(c[y * OW + x]).toBe(val(Math.min(x, W - 1), Math.min(y, H - 1)));
        expect(z[y * OW + x]).toBe(Math.fround((x < W && y < H ? val(x, y) : 0) + 1));
      }
    }
    expect([...floats(r, 'dm'), ...floats(r, 'dm3')]).toEqual([val(W - 2, 1), val(W - 1, 1), val(W - 1, 1), val(W - 2, 1), val(W - 1, 1), 0]);
    expect(ints(r, 'd1')).toEqual(Array.from({ length: 40 }, (_, i) => { const j = (i + 1) % 40; return (j * 3 - 50) * 100 - j; }));
  });

  it('cuda_tex_stencil', () => {
    const r = runRef('cuda_tex_stencil');
    const W = 40, H = 24;
    const at = (x: number, y: number) => ((clampTo(x, W) * 7 + clampTo(y, H) * 3) % 16) * 0.125;
    const out = floats(r, 'out');
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const c = at(x, y);
        expect(out[y * W + x]).toBe(c + 0.125 * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) - 4 * c));
      }
    }
  });

  it('cuda_tex_layered', () => {
    const r = runRef('cuda_tex_layered');
    const W = 12, H = 10, L = 3;
    const v = (l: number, x: number, y: number) => Math.fround(l * 1000 + y * 10 + x);
    const dl = floats(r, 'dl');
    for (let l = 0; l < L; l++) for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const a = v(l, x, y), b = v((l + 1) % L, x, y);
      expect(dl[(l * H + y) * W + x]).toBe(Math.fround(Math.fround(Math.fround(a * 4) + b) + Math.fround(a * 0.5)));
    }
    const dg = ints(r, 'dg');
    for (let y = 0; y <= H; y++) for (let x = 0; x <= W; x++) {
      const at = (i: number, j: number) => { i = clampTo(i, W); j = clampTo(j, H); return (x + y) % 2 ? -(i * 7 + j) | 0 : j * 100 + i; };
      expect(dg.slice((y * (W + 1) + x) * 4, (y * (W + 1) + x) * 4 + 4)).toEqual([at(x - 1, y), at(x, y), at(x, y - 1), at(x - 1, y - 1)]);
    }
  });

  it('cuda_tex_layered: gather with a run-time component', () => {
    const r = runRef('cuda_tex_layered');
    const tex = (i: number, j: number, c: number) => (c ? -(i * 7 + j) | 0 : j * 100 + i);
    const want = (x: number, c: number) => [tex(x - 1, 2, c), tex(x, 2, c), tex(x, 1, c), tex(x - 1, 1, c)];
    expect(ints(r, 'dc')).toEqual([...want(3, 1), ...want(4, 1)]);
    expect(ints(r, 'dc2')).toEqual([...want(3, 0), ...want(4, 0)]);
  });

  it('cuda_tex_normalized', () => {
    const r = runRef('cuda_tex_normalized');
    const d2 = floats(r, 'd2');
    for (let k = 0; k < 3; k++) for (let y = 0; y < 8; y++) for (let x = 0; x < 16; x++) expect(d2[(k * 8 + y) * 16 + x]).toBe((k === 1 ? y : 7 - y) * 16 + x);
    expect(floats(r, 'd1')).toEqual(Array.from({ length: 48 }, (_, i) => Math.fround(clampTo(i - 8, 32) * 1.5 - 7)));
  });
});
