// SIMD-within-a-word "video" builtins (__vadd2, __vcmpgtu4, __vsads2, ...): per-halfword (2) or per-byte (4)
// operations on a 32-bit word. Lowered to the PTX SIMD video instructions (vadd2/vsub2/vavrg2/vabsdiff2/
// vmin2/vmax2/vset2 and the 4-lane forms), which ptxas accepts on every target and whose per-lane semantics
// are exactly the CUDA functions'. The few with no direct instruction are plain IR.
import { T, cInt } from '../middle/ir';
import type { Builder, Value } from '../middle/ir';
import { emitAsm, i32 } from './builtins-util';

type Sig = 's' | 'u';
/** op → [PTX opcode, signedness, saturate, kind] where kind: 'bin' a,b; 'una' 0,a or a,0; 'acc' accumulate. */
interface SimdDef { ptx: string; sign: Sig; sat: boolean; form: 'bin' | 'negate' | 'abs' | 'acc' | 'set' | 'cmp' | 'hadd' }
const CMPS = ['eq', 'ne', 'ges', 'geu', 'gts', 'gtu', 'les', 'leu', 'lts', 'ltu'];

function simdDef(op: string): SimdDef | null {
  switch (op) {
    case 'add': return { ptx: 'vadd', sign: 'u', sat: false, form: 'bin' };
    case 'addss': return { ptx: 'vadd', sign: 's', sat: true, form: 'bin' };
    case 'addus': return { ptx: 'vadd', sign: 'u', sat: true, form: 'bin' };
    case 'sub': return { ptx: 'vsub', sign: 'u', sat: false, form: 'bin' };
    case 'subss': return { ptx: 'vsub', sign: 's', sat: true, form: 'bin' };
    case 'subus': return { ptx: 'vsub', sign: 'u', sat: true, form: 'bin' };
    case 'avgs': return { ptx: 'vavrg', sign: 's', sat: false, form: 'bin' };
    case 'avgu': return { ptx: 'vavrg', sign: 'u', sat: false, form: 'bin' };
    case 'absdiffs': return { ptx: 'vabsdiff', sign: 's', sat: false, form: 'bin' };
    case 'absdiffu': return { ptx: 'vabsdiff', sign: 'u', sat: false, form: 'bin' };
    case 'maxs': return { ptx: 'vmax', sign: 's', sat: false, form: 'bin' };
    case 'maxu': return { ptx: 'vmax', sign: 'u', sat: false, form: 'bin' };
    case 'mins': return { ptx: 'vmin', sign: 's', sat: false, form: 'bin' };
    case 'minu': return { ptx: 'vmin', sign: 'u', sat: false, form: 'bin' };
    case 'abs': return { ptx: 'vabsdiff', sign: 's', sat: false, form: 'abs' };
    case 'absss': return { ptx: 'vabsdiff', sign: 's', sat: true, form: 'abs' };
    case 'neg': return { ptx: 'vsub', sign: 's', sat: false, form: 'negate' };
    case 'negss': return { ptx: 'vsub', sign: 's', sat: true, form: 'negate' };
    case 'sads': return { ptx: 'vabsdiff', sign: 's', sat: false, form: 'acc' };
    case 'sadu': return { ptx: 'vabsdiff', sign: 'u', sat: false, form: 'acc' };
    case 'haddu': return { ptx: '', sign: 'u', sat: false, form: 'hadd' };
  }
  for (const c of CMPS) {
    if (op === 'set' + c) return { ptx: c.slice(0, 2), sign: c.length === 3 ? (c[2] as Sig) : 'u', sat: false, form: 'set' };
    if (op === 'cmp' + c) return { ptx: c.slice(0, 2), sign: c.length === 3 ? (c[2] as Sig) : 'u', sat: false, form: 'cmp' };
  }
  return null;
}

const SIMD_RE = /^__v([a-z]+)([24])$/;

/** True if `name` is one of the SIMD video builtins. */
export function isSimdBuiltin(name: string): boolean {
  const m = SIMD_RE.exec(name);
  return !!m && simdDef(m[1]!) !== null;
}

/** Lower a SIMD video builtin; null if `name` is not one. */
export function lowerSimd(b: Builder, name: string, args: Value[]): Value | null {
  const m = SIMD_RE.exec(name);
  if (!m) return null;
  const d = simdDef(m[1]!);
  if (!d) return null;
  const n = m[2]!;
  const a = i32(b, args[0]!, false);
  const bb = args.length > 1 ? i32(b, args[1]!, false) : cInt(T.i32, 0);
  const zero = cInt(T.i32, 0);
  const ty = d.sign === 's' ? 's32' : 'u32';
  const sat = d.sat ? '.sat' : '';
  const op3 = (x: Value, y: Value, text: string): Value => emitAsm(b, text, [T.i32], [x, y, zero], false);
  switch (d.form) {
    case 'bin': return op3(a, bb, `${d.ptx}${n}.${ty}.${ty}.${ty}${sat} $0, $1, $2, $3;`);
    case 'abs': return op3(a, zero, `${d.ptx}${n}.${ty}.${ty}.${ty}${sat} $0, $1, $2, $3;`);
    case 'negate': return op3(zero, a, `${d.ptx}${n}.${ty}.${ty}.${ty}${sat} $0, $1, $2, $3;`);
    case 'acc': return op3(a, bb, `${d.ptx}${n}.${ty}.${ty}.${ty}.add $0, $1, $2, $3;`);
    case 'set': return op3(a, bb, `vset${n}.${ty}.${ty}.${d.ptx} $0, $1, $2, $3;`);
    case 'cmp': {
      const s = op3(a, bb, `vset${n}.${ty}.${ty}.${d.ptx} $0, $1, $2, $3;`);
      return b.bin('mul', s, cInt(T.i32, n === '2' ? 0xffff : 0xff));
    }
    case 'hadd': {
      // truncating unsigned per-lane average: (a & b) + (((a ^ b) & ~lowbit-of-each-lane) >> 1)
      const keep = n === '2' ? 0xfffefffe : 0xfefefefe;
      const x = b.bin('and', b.bin('xor', a, bb), cInt(T.i32, keep));
      return b.bin('add', b.bin('and', a, bb), b.bin('lshr', x, cInt(T.i32, 1)));
    }
  }
}
