// Unit tests of the PTX emulator on hand-written PTX. Expected values come from IEEE-754 and integer
// arithmetic facts (worked out by hand in the comments), not from the emulator.

import { describe, it, expect } from 'vitest';
import { Machine } from './machine';
import { formatPrintf } from './printf';

/** A kernel `k(u64 out)` whose body sees %rd2 = out (global), %rd4 = out + 4*tid.x, %r1 = tid.x. */
function kernel(body: string, extraDecl = ''): string {
  return `.version 8.0
.target sm_90
.address_size 64
${extraDecl}
.visible .entry k(.param .u64 k_param_0)
{
  .reg .b32 %r<40>;
  .reg .b64 %rd<20>;
  .reg .pred %p<8>;
  .reg .f32 %f<20>;
  ld.param.u64 %rd1, [k_param_0];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
${body}
  ret;
}
`;
}

function run(ptx: string, threads: number, words: number) {
  const m = new Machine(ptx);
  const out = m.alloc(words * 4);
  const params = new Uint8Array(8);
  new DataView(params.buffer).setBigUint64(0, BigInt(out), true);
  const r = m.launch('k', { grid: { x: 1, y: 1, z: 1 }, block: { x: threads, y: 1, z: 1 }, params });
  const bytes = m.read(out, words * 4);
  const dv = new DataView(bytes.buffer);
  return { r, u32: (i: number) => dv.getUint32(i * 4, true), i32: (i: number) => dv.getInt32(i * 4, true) };
}

const MALLOC_DECL = `.extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);
.extern .func free(.param .b64 free_param_0);`;
/** `%rd<dst> = malloc(bytes)` and `free(%rd<src>)` as cicc writes the calls. */
const mallocCall = (dst: number, bytes: number): string => `
  { .param .b64 param0; st.param.b64 [param0+0], ${bytes}; .param .b64 retval0;
    call.uni (retval0), malloc, (param0); ld.param.b64 %rd${dst}, [retval0+0]; }`;
const freeCall = (src: number): string => `
  { .param .b64 param0; st.param.b64 [param0+0], %rd${src}; call.uni free, (param0); }`;

describe('PTX emulator', () => {
  it('device malloc gives each call its own 16-byte aligned block; free accepts null and live blocks only', () => {
    // each thread: two blocks, writes through both, reads back; the second block's address is 16-aligned and
    // differs from the first; free(0) is a no-op
    const body = `${mallocCall(10, 12)}${mallocCall(11, 4)}
  st.u32 [%rd10+8], %r1;
  add.u32 %r2, %r1, 100;
  st.u32 [%rd11], %r2;
  ld.u32 %r3, [%rd10+8];
  ld.u32 %r4, [%rd11];
  add.u32 %r5, %r3, %r4;
  st.global.u32 [%rd4], %r5;
  and.b64 %rd12, %rd11, 15;
  setp.ne.s64 %p1, %rd10, %rd11;
  setp.eq.s64 %p2, %rd12, 0;
  and.pred %p3, %p1, %p2;
  selp.u32 %r6, 1, 0, %p3;
  st.global.u32 [%rd4+128], %r6;
  mov.u64 %rd13, 0;${freeCall(13)}${freeCall(10)}${freeCall(11)}`;
    const o = run(kernel(body, MALLOC_DECL), 32, 64);
    for (let t = 0; t < 32; t++) { expect(o.u32(t)).toBe(2 * t + 100); expect(o.u32(32 + t)).toBe(1); }
    // freeing a block twice is a program error, reported rather than ignored
    expect(() => run(kernel(`${mallocCall(10, 8)}${freeCall(10)}${freeCall(10)}`, MALLOC_DECL), 1, 1)).toThrow(/free of 0x[0-9a-f]+, not a live device-heap block/);
  });

  it('names an unknown instruction instead of ignoring it', () => {
    expect(() => new Machine(kernel('  frobnicate.b32 %r2, %r1;'))).toThrow(/unsupported PTX instruction 'frobnicate\.b32'/);
  });

  it('fns.b32 finds the n-th set bit from a base, both directions (the PTX ISA examples)', () => {
    // 0xaaaaaaaa has the odd bits set: base 3 offset ±1 is bit 3 itself; base 2 goes up to 3 or down to 1;
    // offset 0 tests the base bit (2: clear → 0xffffffff); the 20th set bit up from 0 does not exist.
    const cases: [number, number][] = [[3, 1], [3, -1], [2, 1], [2, -1], [2, 0], [5, 0], [0, 20], [1, 16]];
    const body = cases.map(([base, off], k) => `
  fns.b32 %r2, 0xaaaaaaaa, ${base}, ${off};
  st.global.u32 [%rd2+${k * 4}], %r2;`).join('');
    const o = run(kernel(body), 1, cases.length);
    expect(cases.map((_, k) => o.u32(k))).toEqual([3, 3, 3, 1, 0xffffffff, 5, 0xffffffff, 31]);
  });

  it('redux.sync reduces over the warp: add wraps, min/max by signedness, and/or/xor', () => {
    // lane values v = tid - 5 (-5 .. 26): sum = 32 * 10.5 = 336; s32 min -5, max 26; as u32 the negatives are
    // the largest, so u32 min is 0 and u32 max is 0xffffffff (-1); and of -5..26 is 0 (0 is among them), or is
    // -1 (-1 is among them); xor is computed from the same values below.
    const ops = ['add.s32', 'min.s32', 'max.s32', 'min.u32', 'max.u32', 'and.b32', 'or.b32', 'xor.b32'];
    const body = `
  sub.s32 %r2, %r1, 5;` + ops.map((op, k) => `
  redux.sync.${op} %r3, %r2, -1;
  st.global.u32 [%rd4+${k * 128}], %r3;`).join('');
    const o = run(kernel(body), 32, 32 * ops.length);
    let x = 0;
    for (let v = -5; v <= 26; v++) x ^= v;
    const expected = [336, -5, 26, 0, -1, 0, -1, x].map(v => v >>> 0);
    expect(ops.map((_, k) => o.u32(k * 32))).toEqual(expected);
    expect(ops.map((_, k) => o.u32(k * 32 + 31))).toEqual(expected);   // every lane gets the same result
  });

  it('reads the cluster registers of an implicit one-block cluster, and names barrier.cluster as not modelled', () => {
    const o = run(kernel(`
  mov.u32 %r2, %cluster_nctarank;
  st.global.u32 [%rd2], %r2;
  mov.u32 %r3, %cluster_ctarank;
  st.global.u32 [%rd2+4], %r3;`), 1, 2);
    expect([o.u32(0), o.u32(1)]).toEqual([1, 0]);
    expect(() => run(kernel('  barrier.cluster.arrive;\n  barrier.cluster.wait;'), 1, 1)).toThrow(/barrier\.cluster is not modelled/);
  });

  it('cvt.rmi/rpi/rzi/rni.f16.f16 round to an integer (hfloor, hceil, htrunc, hrint)', () => {
    // -2.84375 is 0xc1b0 in binary16 (sign, exponent 16 = 2^1, mantissa 0.421875 * 1024 = 432 = 0x1b0);
    // floor -3 = 0xc200, ceil -2 = 0xc000, trunc -2, rint -3; 2.5 = 0x4100 rounds to even: 2 = 0x4000
    const { u32 } = run(kernel(`
  .reg .b16 %h<8>;
  mov.b16 %h1, 0xc1b0;
  mov.b16 %h6, 0x4100;
  cvt.rmi.f16.f16 %h2, %h1;
  cvt.rpi.f16.f16 %h3, %h1;
  cvt.rzi.f16.f16 %h4, %h1;
  cvt.rni.f16.f16 %h5, %h1;
  cvt.rni.f16.f16 %h7, %h6;
  cvt.u32.u16 %r2, %h2; st.global.u32 [%rd2], %r2;
  cvt.u32.u16 %r3, %h3; st.global.u32 [%rd2+4], %r3;
  cvt.u32.u16 %r4, %h4; st.global.u32 [%rd2+8], %r4;
  cvt.u32.u16 %r5, %h5; st.global.u32 [%rd2+12], %r5;
  cvt.u32.u16 %r6, %h7; st.global.u32 [%rd2+16], %r6;`), 1, 5);
    expect([u32(0), u32(1), u32(2), u32(3), u32(4)]).toEqual([0xc200, 0xc000, 0xc000, 0xc200, 0x4000]);
  });

  it('vote.sync and match.sync: each thread votes with its membermask (tiles of a warp apart)', () => {
    // tiles of 8: membermask 0xff << (laneid & ~7); predicate lane & 1; ballot of tile t = 0xaa << 8t
    const { u32 } = run(kernel(`
  and.b32 %r2, %r1, -8;
  mov.u32 %r3, 255;
  shl.b32 %r4, %r3, %r2;
  and.b32 %r5, %r1, 1;
  setp.eq.u32 %p1, %r5, 1;
  vote.sync.ballot.b32 %r6, %p1, %r4;
  vote.sync.all.pred %p2, %p1, %r4;
  selp.u32 %r7, 1, 0, %p2;
  add.u32 %r8, %r6, %r7;
  st.global.u32 [%rd4], %r8;
  match.any.sync.b32 %r9, %r5, %r4;
  st.global.u32 [%rd4+128], %r9;`), 32, 64);
    for (let t = 0; t < 32; t++) expect(u32(t)).toBe((0xaa << (8 * (t >> 3))) >>> 0);
    // match.any of lane & 1 within each tile: the lanes of the same parity in that tile
    for (let t = 0; t < 32; t++) expect(u32(32 + t)).toBe(((t & 1 ? 0xaa : 0x55) << (8 * (t >> 3))) >>> 0);
  });

  it('rounds f32 add in all four modes', () => {
    // 1 + 2^-30: nearest and toward zero/minus give 1.0 (0x3f800000); toward plus gives the next float 0x3f800001.
    // -1 - 2^-30: toward minus gives 0xbf800001, the others -1.0 (0xbf800000).
    const body = ['rn', 'rz', 'rm', 'rp'].map((m, k) => `
  add.${m}.f32 %f1, 0f3F800000, 0f30800000;
  st.global.f32 [%rd2+${k * 4}], %f1;
  add.${m}.f32 %f2, 0fBF800000, 0fB0800000;
  st.global.f32 [%rd2+${16 + k * 4}], %f2;`).join('');
    const o = run(kernel(body), 1, 8);
    expect([0, 1, 2, 3].map(o.u32)).toEqual([0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001]);
    expect([4, 5, 6, 7].map(o.u32)).toEqual([0xbf800000, 0xbf800000, 0xbf800001, 0xbf800000]);
  });

  it('fma rounds once; mul then add rounds twice', () => {
    // (1+2^-23)(1-2^-23) - 1 = -2^-46 exactly (0xa8800000); the rounded product is 1.0, so mul+add gives 0.
    const o = run(kernel(`
  fma.rn.f32 %f1, 0f3F800001, 0f3F7FFFFE, 0fBF800000;
  st.global.f32 [%rd2], %f1;
  mul.rn.f32 %f2, 0f3F800001, 0f3F7FFFFE;
  add.rn.f32 %f3, %f2, 0fBF800000;
  st.global.f32 [%rd2+4], %f3;`), 1, 2);
    expect(o.u32(0)).toBe(0xa8800000);
    expect(o.u32(1)).toBe(0);
  });

  it('computes wide and high integer products and 64-bit division exactly', () => {
    // 0xffffffff^2 = 0xfffffffe_00000001; mul.hi.s32(-7, 3) = -1 (the product -21 fits in the low word);
    // -9876543210123 / 1000 = -9876543210 (truncated), remainder -123.
    const o = run(kernel(`
  mul.wide.u32 %rd5, -1, -1;
  st.global.u64 [%rd2], %rd5;
  mul.hi.s32 %r2, -7, 3;
  st.global.u32 [%rd2+8], %r2;
  div.s64 %rd6, -9876543210123, 1000;
  st.global.u64 [%rd2+12], %rd6;
  rem.s64 %rd7, -9876543210123, 1000;
  st.global.u32 [%rd2+20], %rd7;`.replace('st.global.u32 [%rd2+20], %rd7;', 'cvt.u32.u64 %r3, %rd7;\n  st.global.u32 [%rd2+20], %r3;')), 1, 6);
    expect(o.u32(0)).toBe(1);
    expect(o.u32(1)).toBe(0xfffffffe);
    expect(o.i32(2)).toBe(-1);
    const q = BigInt.asIntN(64, (BigInt(o.u32(4)) << 32n) | BigInt(o.u32(3)));
    expect(q).toBe(-9876543210n);
    expect(o.i32(5)).toBe(-123);
  });

  it('sees only the converged lanes in a divergent branch, and all lanes after it', () => {
    // lanes 0..4 take the branch: activemask there is 0x1f; after reconvergence it is 0xffffffff.
    const o = run(kernel(`
  setp.ge.u32 %p1, %r1, 5;
  @%p1 bra $L_skip;
  activemask.b32 %r2;
  st.global.u32 [%rd4], %r2;
$L_skip:
  activemask.b32 %r3;
  st.global.u32 [%rd4+128], %r3;`), 32, 64);
    for (let t = 0; t < 5; t++) expect(o.u32(t)).toBe(0x1f);
    for (let t = 5; t < 32; t++) expect(o.u32(t)).toBe(0);
    for (let t = 0; t < 32; t++) expect(o.u32(32 + t)).toBe(0xffffffff);
  });

  it('shuffles and votes across a warp', () => {
    // shfl.idx from lane 7 of tid*10 gives 70 everywhere; ballot of (tid odd) is 0xaaaaaaaa.
    const o = run(kernel(`
  mul.lo.s32 %r2, %r1, 10;
  shfl.sync.idx.b32 %r3, %r2, 7, 31, -1;
  st.global.u32 [%rd4], %r3;
  and.b32 %r4, %r1, 1;
  setp.eq.u32 %p1, %r4, 1;
  vote.sync.ballot.b32 %r5, %p1, -1;
  st.global.u32 [%rd4+128], %r5;`), 32, 64);
    for (let t = 0; t < 32; t++) { expect(o.u32(t)).toBe(70); expect(o.u32(32 + t)).toBe(0xaaaaaaaa); }
  });

  it('match.sync groups lanes by value', () => {
    // value = tid % 3: lanes with equal values form the groups 0x49249249, 0x92492492, 0x24924924.
    // match.all over a non-uniform value gives 0 with p false; over a uniform value the full mask with p true.
    const o = run(kernel(`
  rem.u32 %r2, %r1, 3;
  match.any.sync.b32 %r3, %r2, -1;
  st.global.u32 [%rd4], %r3;
  match.all.sync.b32 %r4|%p1, %r2, -1;
  selp.u32 %r5, 1, 0, %p1;
  add.s32 %r6, %r4, %r5;
  st.global.u32 [%rd4+128], %r6;
  match.all.sync.b32 %r7|%p2, 5, -1;
  selp.u32 %r8, 1, 0, %p2;
  st.global.u32 [%rd4+256], %r8;`), 32, 96);
    const groups = [0x49249249, 0x92492492, 0x24924924];
    for (let t = 0; t < 32; t++) {
      expect(o.u32(t)).toBe(groups[t % 3]);
      expect(o.u32(32 + t)).toBe(0);
      expect(o.u32(64 + t)).toBe(1);
    }
  });

  it('makes bar.sync order shared-memory writes of one warp before reads of another', () => {
    // 64 threads: thread t writes t+1 to s[t], then reads s[63-t] after the barrier.
    const o = run(kernel(`
  mov.u32 %r10, sbuf;
  shl.b32 %r11, %r1, 2;
  add.s32 %r12, %r10, %r11;
  add.s32 %r13, %r1, 1;
  st.shared.u32 [%r12], %r13;
  bar.sync 0;
  sub.s32 %r14, 63, %r1;
  shl.b32 %r15, %r14, 2;
  add.s32 %r16, %r10, %r15;
  ld.shared.u32 %r17, [%r16];
  st.global.u32 [%rd4], %r17;`, '.shared .align 4 .b8 sbuf[256];'), 64, 64);
    for (let t = 0; t < 64; t++) expect(o.u32(t)).toBe(64 - t);
  });

  it('reports trap and stops the launch', () => {
    const o = run(kernel(`
  setp.eq.u32 %p1, %r1, 3;
  @%p1 trap;
  st.global.u32 [%rd4], 1;`), 8, 8);
    expect(o.r.trap).toMatch(/trap in k .*thread 3,0,0/);
  });

  it('formats vprintf arguments at their natural alignment', () => {
    // int at 0, long long at 8, double at 16, unsigned at 24, double at 32
    const buf = new DataView(new ArrayBuffer(40));
    buf.setFloat64(32, 2.5, true);
    buf.setInt32(0, -42, true);
    buf.setBigInt64(8, 123456789012n, true);
    buf.setFloat64(16, 2.5, true);
    buf.setUint32(24, 255, true);
    const reader = {
      u32: (o: number) => buf.getUint32(o, true), u64: (o: number) => buf.getBigUint64(o, true),
      f64: (o: number) => buf.getFloat64(o, true), str: () => '',
    };
    expect(formatPrintf('%d %lld %f %x %5.1f%%', reader)).toBe('-42 123456789012 2.500000 ff   2.5%');
  });
});
