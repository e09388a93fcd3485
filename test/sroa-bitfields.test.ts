// Bitfields in a local struct (compiler/middle/passes/sroa-words.ts, sroa.ts; instcombine.ts lowBitsOf),
// against the shape of cicc's PTX for the same unit. The front end lays a run of bitfields out as bytes and
// reads and writes it as one integer: SROA keeps that integer a register (cicc keeps the word and masks
// it), instead of four byte registers put together and taken apart at each access; and a field incremented
// in an unrolled loop is `(w + c) & mask` from the word, as LLVM's demanded bits make it, not a chain of
// masks. What the code computes is checked by the differential tests (cxx2_bitfields, cxx2_unnamed_bitfields
// run in the emulator against cicc's PTX).
import { describe, it, expect } from 'vitest';
import { skipReason } from './helpers/tools';
import { compileWithReference } from './helpers/snippet';
import { kernelLines, loopBodies, loopCounts, ptxas } from './helpers/ptx';

const SRC = `
struct Packed { unsigned kind : 3; unsigned count : 5; int delta : 4; bool valid : 1; unsigned short wide : 9; char tag; int big : 20; };
__global__ void fields(const int *in, int *out) {
  int t = threadIdx.x, v = in[t];
  Packed x = {5, 17, -3, true, 300, 'q', -12345};
  x.delta = v;
  x.count += 3;
  unsigned u = 0;
  for (int k = 0; k < v; k++) { x.kind++; u += x.kind; }
  out[t] = (int)u + x.count * 10 + x.delta * 100 + x.tag + x.big;
}
`;

const skip = skipReason('nvcc');

describe.skipIf(skip !== undefined)(`SROA of bitfield words, as cicc ${skip ?? ''}`, () => {
  const { r, refPtx } = skip === undefined ? compileWithReference('sroa-bitfields', SRC) : { r: null, refPtx: '' };
  const K = '_Z6fieldsPKiPi';
  const both = (re: RegExp): number[][] => [refPtx, r!.ptx].map(p => loopCounts(kernelLines(p, K), re));

  it('the unit compiles and ptxas accepts it', () => {
    expect(r!.ok, r!.diagnostics.join('\n') + (r!.unsupported ?? '')).toBe(true);
    expect(ptxas(r!.ptx, 90)).toBe('');
  });
  it('the loops carry the word in 32-bit registers: no bytes converted, shifted or or-ed together', () => {
    const [cicc, ours] = both(/^(cvt\.|shl\.|shr\.|mov\.b16|\S+\.[bu]16\b)/);
    expect(cicc!.length).toBe(2);
    expect(cicc).toEqual([0, 0]);
    expect(ours).toEqual(cicc);
  });
  it('each unrolled increment is (w + c) & 7 from the word: as many ands and adds as cicc in both loops', () => {
    const [cicc, ours] = both(/^and\.b32/);
    expect(ours).toEqual(cicc);
    const main = (p: string): string[] => loopBodies(kernelLines(p, K))[0]!.filter(l => /^add\.s32\s+%r\d+, %r\d+, [1-3];$/.test(l)).map(l => l.replace(/%r\d+/g, 'R'));
    expect(main(r!.ptx)).toEqual(main(refPtx));
  });
});
