// PTX module -> pre-decoded functions. Each instruction is decoded once into an Inst (opcode enum, types,
// modifier flags, resolved operands); the machine (machine.ts) never looks at text again.

import { statements, type Stmt } from './lex';
import { T, Space, parseType, parseSpace, typeSize, is64 } from './types';
import { parseTexSurfModifiers, coordCount, type TexSurfInfo } from './texsurf';

export const enum Op {
  MOV, ADD, SUB, MUL, MAD, MUL24, MAD24, DIV, REM, ABS, NEG, MIN, MAX, AND, OR, XOR, NOT, CNOT, SHL, SHR,
  SETP, SELP, CVT, CVTA, LD, ST, ATOM, RED, BRA, CALL, RET, EXIT, BAR, BARRED, BARWARP, NOP, SHFL, VOTE,
  MATCH, ACTIVEMASK, POPC, CLZ, BREV, BFIND, BFE, BFI, PRMT, SHF, SAD, FMA, RCP, SQRT, RSQRT, EX2, LG2,
  SIN, COS, TANH, COPYSIGN, TESTP, TRAP, ADDC, SUBC, MADC, LOP3, DP4A, DP2A, SET, BARCLUSTER, FNS, REDUX,
  TEX, TLD4, SULD, SUST, WMMA,
}

const OPS: Record<string, Op> = {
  mov: Op.MOV, add: Op.ADD, sub: Op.SUB, mul: Op.MUL, mad: Op.MAD, mul24: Op.MUL24, mad24: Op.MAD24,
  div: Op.DIV, rem: Op.REM, abs: Op.ABS, neg: Op.NEG, min: Op.MIN, max: Op.MAX, and: Op.AND, or: Op.OR,
  xor: Op.XOR, not: Op.NOT, cnot: Op.CNOT, shl: Op.SHL, shr: Op.SHR, setp: Op.SETP, set: Op.SET, selp: Op.SELP,
  cvt: Op.CVT, cvta: Op.CVTA, ld: Op.LD, ldu: Op.LD, st: Op.ST, atom: Op.ATOM, red: Op.RED, bra: Op.BRA,
  call: Op.CALL, ret: Op.RET, exit: Op.EXIT, bar: Op.BAR, barrier: Op.BAR, membar: Op.NOP, fence: Op.NOP,
  wmma: Op.WMMA, prefetch: Op.NOP, prefetchu: Op.NOP, shfl: Op.SHFL, vote: Op.VOTE, match: Op.MATCH, activemask: Op.ACTIVEMASK,
  popc: Op.POPC, clz: Op.CLZ, brev: Op.BREV, bfind: Op.BFIND, bfe: Op.BFE, bfi: Op.BFI, prmt: Op.PRMT,
  shf: Op.SHF, sad: Op.SAD, fma: Op.FMA, rcp: Op.RCP, sqrt: Op.SQRT, rsqrt: Op.RSQRT, ex2: Op.EX2,
  lg2: Op.LG2, sin: Op.SIN, cos: Op.COS, tanh: Op.TANH, copysign: Op.COPYSIGN, testp: Op.TESTP, trap: Op.TRAP,
  addc: Op.ADDC, subc: Op.SUBC, madc: Op.MADC, lop3: Op.LOP3, dp4a: Op.DP4A, dp2a: Op.DP2A,
  pmevent: Op.NOP, nanosleep: Op.NOP, fns: Op.FNS, redux: Op.REDUX,
  tex: Op.TEX, tld4: Op.TLD4, suld: Op.SULD, sust: Op.SUST,
};

/** Operand kinds. */
export const enum K {
  REG, IMM, SREG, GADDR, DEPOT, KPARAM, FPARAM, RETVAL, LPARAM, VEC, LABEL, FUNC, SINK,
}

export interface Opnd {
  k: K;
  /** Register slot (REG), special register id (SREG), formal param index (FPARAM), frame param offset (LPARAM). */
  r: number;
  /** IMM bits / constant address (GADDR, KPARAM offset). */
  lo: number;
  hi: number;
  /** Constant byte offset of an address operand `[x+off]`. */
  off: number;
  neg: boolean;
  /** Vector operand elements. */
  regs: Opnd[] | null;
  name: string;
}

// Flag bits
export const F = {
  RN: 1, RZ: 2, RM: 4, RP: 8, RNI: 16, RZI: 32, RMI: 64, RPI: 128, FTZ: 256, SAT: 512, APPROX: 1024,
  HI: 2048, LO: 4096, WIDE: 8192, CLAMP: 16384, WRAP: 32768, LEFT: 65536, SHIFTAMT: 131072, UNI: 262144,
  VOLATILE: 524288, FULL: 1 << 20, CC: 1 << 21,
} as const;
export const ROUND_MASK = F.RN | F.RZ | F.RM | F.RP;
export const IROUND_MASK = F.RNI | F.RZI | F.RMI | F.RPI;

export const enum Cmp { EQ, NE, LT, LE, GT, GE, LO, LS, HI, HS, EQU, NEU, LTU, LEU, GTU, GEU, NUM, NAN }
const CMPS: Record<string, Cmp> = {
  eq: Cmp.EQ, ne: Cmp.NE, lt: Cmp.LT, le: Cmp.LE, gt: Cmp.GT, ge: Cmp.GE, lo: Cmp.LO, ls: Cmp.LS, hi: Cmp.HI,
  hs: Cmp.HS, equ: Cmp.EQU, neu: Cmp.NEU, ltu: Cmp.LTU, leu: Cmp.LEU, gtu: Cmp.GTU, geu: Cmp.GEU, num: Cmp.NUM, nan: Cmp.NAN,
};

/** Sub-modes in Inst.m: boolean combine of setp, shfl mode, vote mode, atom op, bar.red op, testp class. */
export const enum M { NONE, AND, OR, XOR, UP, DOWN, BFLY, IDX, ALL, ANY, UNI, BALLOT, ADD, INC, DEC, EXCH, CAS, MIN, MAX, POPC, ANY_MATCH, ALL_MATCH, FINITE, INFINITE, NUMBER, NOTANUMBER, NORMAL, SUBNORMAL }

/**
 * A wmma instruction: the shape, which fragment a load/store moves (a, b, c; d) and its layout, the
 * layouts of a and b for mma, and each fragment's element type (f16, bf16, tf32, f32, s8, u8, s32, f64).
 */
export interface MmaInfo {
  kind: 'load' | 'store' | 'mma';
  which: 'a' | 'b' | 'c' | 'd';
  m: number; n: number; k: number;
  layout: 'row' | 'col';
  alayout: 'row' | 'col';
  blayout: 'row' | 'col';
  sp: Space;
  types: { a: string; b: string; c: string; d: string };
  satf: boolean;
}

export interface Inst {
  op: Op;
  /** Full opcode text, for error messages. */
  text: string;
  t: T;
  /** Second type: cvt source type, setp/selp operand type when the first is pred, etc. */
  t2: T;
  f: number;
  cmp: Cmp;
  m: M;
  sp: Space;
  vec: number;
  /** Guard predicate register slot, or -1. */
  g: number;
  gneg: boolean;
  o: Opnd[];
  /** Branch target pc (BRA) or callee function index (CALL). */
  target: number;
  /** Conditional branch: pc where diverged lanes reconverge (its immediate post-dominator), -1 for function exit. */
  rpc: number;
  line: number;
  /** tex / tld4 / suld / sust: geometry, mode, types, handle and coordinates (texsurf.ts). */
  ts?: TexSurfInfo;
  /** wmma.load / wmma.store / wmma.mma (machine.ts wmma()). */
  mma?: MmaInfo;
}

export interface ParamDecl { name: string; size: number; align: number; t: T }

export interface Func {
  name: string;
  isEntry: boolean;
  params: ParamDecl[];
  /** Return parameter (func_retval0), if any. */
  ret: ParamDecl | null;
  code: Inst[];
  nregs: number;
  /** Register class of each slot: true for 64-bit (used only for diagnostics). */
  depotSize: number;
  depotAlign: number;
  /** Bytes of `.param` declared inside the body (call arguments and return values). */
  paramAreaSize: number;
  external: boolean;
  /** Parsed but not decoded yet (decoding needs every function's name). */
  body: Stmt[] | null;
}

export interface GlobalVar {
  name: string;
  space: Space;
  size: number;
  align: number;
  init: Uint8Array | null;
  /** Byte offset within its space (global: from GLOBAL_BASE). Filled in by the machine's layout. */
  addr: number;
  /** Dynamic `extern .shared` array. */
  dynamic: boolean;
  /** Initialiser elements that are addresses of other variables (`generic(sym)+4`), patched at layout. */
  relocs: { off: number; sym: string; addend: number }[];
}

export interface PtxModule {
  funcs: Func[];
  funcIndex: Map<string, number>;
  globals: GlobalVar[];
  globalIndex: Map<string, GlobalVar>;
}

export class PtxError extends Error {}

// Special registers: id = index in this list (with .x/.y/.z variants).
export const SREGS = [
  '%tid.x', '%tid.y', '%tid.z', '%ntid.x', '%ntid.y', '%ntid.z', '%ctaid.x', '%ctaid.y', '%ctaid.z',
  '%nctaid.x', '%nctaid.y', '%nctaid.z', '%laneid', '%warpid', '%nwarpid', '%lanemask_eq', '%lanemask_lt',
  '%lanemask_le', '%lanemask_gt', '%lanemask_ge', '%clock', '%clock64', '%globaltimer', '%smid', '%nsmid',
  '%gridid', 'WARP_SZ', '%tid', '%ntid', '%dynamic_smem_size', '%total_smem_size', '%globaltimer_lo',
  '%reserved_smem_offset_begin', '%reserved_smem_offset_end', '%reserved_smem_offset_cap', '%reserved_smem_offset_0',
  '%reserved_smem_offset_1', '%cluster_nctarank', '%cluster_ctarank',
];
const SREG_ID = new Map(SREGS.map((s, i) => [s, i]));

function parseIntBits(s: string): { lo: number; hi: number } | undefined {
  let v: bigint;
  try {
    let t = s;
    let neg = false;
    if (t.startsWith('-')) { neg = true; t = t.slice(1); }
    if (/^0[xX][0-9a-fA-F]+U?$/.test(t)) v = BigInt(t.replace(/U$/, ''));
    else if (/^0[0-7]+U?$/.test(t)) v = BigInt('0o' + t.slice(1).replace(/U$/, ''));
    else if (/^0[bB][01]+U?$/.test(t)) v = BigInt(t.replace(/U$/, ''));
    else if (/^[0-9]+U?$/.test(t)) v = BigInt(t.replace(/U$/, ''));
    else return undefined;
    if (neg) v = -v;
  } catch {
    return undefined;
  }
  const u = BigInt.asUintN(64, v);
  return { lo: Number(u & 0xffffffffn) | 0, hi: Number(u >> 32n) | 0 };
}

const f64buf = new Float64Array(1);
const f64i = new Int32Array(f64buf.buffer);
const f32buf = new Float32Array(1);
const f32i = new Int32Array(f32buf.buffer);

/** Literal -> bits for an operand of type t. */
function literal(s: string, t: T): { lo: number; hi: number } | undefined {
  if (/^0[fF][0-9a-fA-F]{8}$/.test(s)) {
    const bits = parseInt(s.slice(2), 16) | 0;
    if (t === T.F64) { f32i[0] = bits; f64buf[0] = f32buf[0]!; return { lo: f64i[0]!, hi: f64i[1]! }; }
    return { lo: bits, hi: 0 };
  }
  if (/^0[dD][0-9a-fA-F]{16}$/.test(s)) {
    const hi = parseInt(s.slice(2, 10), 16) | 0;
    const lo = parseInt(s.slice(10), 16) | 0;
    if (t === T.F32) { f64i[0] = lo; f64i[1] = hi; f32buf[0] = f64buf[0]!; return { lo: f32i[0]!, hi: 0 }; }
    return { lo, hi };
  }
  const b = parseIntBits(s);
  if (b) {
    if (t === T.F32 || t === T.F64) {
      // Integer literal for a float operand: its value.
      const v = Number(BigInt.asIntN(64, (BigInt(b.hi) << 32n) | BigInt(b.lo >>> 0)));
      if (t === T.F32) { f32buf[0] = v; return { lo: f32i[0]!, hi: 0 }; }
      f64buf[0] = v; return { lo: f64i[0]!, hi: f64i[1]! };
    }
    return b;
  }
  if (/^-?[0-9]*\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s)) {
    const v = parseFloat(s);
    if (t === T.F32) { f32buf[0] = v; return { lo: f32i[0]!, hi: 0 }; }
    f64buf[0] = v; return { lo: f64i[0]!, hi: f64i[1]! };
  }
  return undefined;
}

function opnd(k: K, name = ''): Opnd {
  return { k, r: 0, lo: 0, hi: 0, off: 0, neg: false, regs: null, name };
}

/** Split `{1, 2, 3}` or a single value into the bytes of an initialised variable of element type t. */
function initBytes(toks: string[], t: T, size: number, name: string, module: PtxModule, relocs: GlobalVar['relocs']): Uint8Array {
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  const es = typeSize(t);
  let off = 0;
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok === '{' || tok === '}' || tok === ',') continue;
    const v = literal(tok, t);
    if (!v) {
      // An address: `generic(sym)`, `sym`, optionally `+ n`.
      let sym = tok;
      if (tok === 'generic' && toks[i + 1] === '(') { sym = toks[i + 2]!; i += 3; }
      let addend = 0;
      if (toks[i + 1] === '+') { addend = Number(toks[i + 2]); i += 2; }
      if (!/^[A-Za-z_$%][\w$]*$/.test(sym)) throw new PtxError(`unsupported initialiser '${tok}' for ${name}`);
      relocs.push({ off, sym, addend });
      off += es;
      continue;
    }
    if (off + es > size) break;
    if (es === 1) dv.setUint8(off, v.lo & 0xff);
    else if (es === 2) dv.setUint16(off, v.lo & 0xffff, true);
    else if (es === 4) dv.setInt32(off, v.lo, true);
    else { dv.setInt32(off, v.lo, true); dv.setInt32(off + 4, v.hi, true); }
    off += es;
  }
  void module;
  return out;
}

/** Parse `.global .align 4 .b8 name[12] = {...}` (tokens after linkage words). */
function parseVar(toks: string[], module: PtxModule): GlobalVar {
  let i = 0;
  let space: Space | undefined;
  let align = 0;
  let t: T | undefined;
  let dynamic = false;
  while (i < toks.length && toks[i]!.startsWith('.')) {
    const w = toks[i]!.slice(1);
    if (w === 'extern') dynamic = true;
    else if (w === 'attribute' && toks[i + 1] === '(') { while (i < toks.length && toks[i] !== ')') i++; }   // .attribute(.managed)
    else if (parseSpace(w) !== undefined) space = parseSpace(w);
    else if (w === 'align') { align = Number(toks[++i]); }
    else if (parseType(w) !== undefined) t = parseType(w);
    i++;
  }
  if (space === undefined || t === undefined) throw new PtxError(`cannot parse variable: ${toks.join(' ')}`);
  const name = toks[i++]!;
  let count = 1;
  let unsized = false;
  while (toks[i] === '[') {
    if (toks[i + 1] === ']') { unsized = true; i += 2; continue; }
    count *= Number(toks[i + 1]);
    i += 3;
  }
  const es = typeSize(t);
  const size = unsized ? 0 : count * es;
  let init: Uint8Array | null = null;
  const relocs: GlobalVar['relocs'] = [];
  if (toks[i] === '=') init = initBytes(toks.slice(i + 1), t, size, name, module, relocs);
  return { name, space, size, align: align || es, init, addr: 0, dynamic: dynamic && unsized, relocs };
}

/** Parse a parameter list `( .param .u64 a, .param .align 8 .b8 b[16] )` starting at toks[i] === '('. */
function parseParams(toks: string[], i: number): { params: ParamDecl[]; next: number } {
  const params: ParamDecl[] = [];
  if (toks[i] !== '(') return { params, next: i };
  i++;
  let cur: string[] = [];
  const flush = () => {
    if (cur.length === 0) return;
    let align = 0;
    let t: T = T.B8;
    let name = '';
    let count = 1;
    for (let j = 0; j < cur.length; j++) {
      const w = cur[j]!;
      if (w === '.align') { align = Number(cur[++j]); continue; }
      if (w.startsWith('.')) { const pt = parseType(w.slice(1)); if (pt !== undefined) t = pt; continue; }
      if (w === '[') { count *= Number(cur[j + 1]); j += 2; continue; }
      name = w;
    }
    const size = typeSize(t) * count;
    params.push({ name, size, align: align || typeSize(t), t });
    cur = [];
  };
  while (i < toks.length && toks[i] !== ')') {
    if (toks[i] === ',') flush();
    else cur.push(toks[i]!);
    i++;
  }
  flush();
  return { params, next: i + 1 };
}

export function parseModule(src: string): PtxModule {
  const st = statements(src);
  const module: PtxModule = { funcs: [], funcIndex: new Map(), globals: [], globalIndex: new Map() };
  let i = 0;
  while (i < st.length) {
    const s = st[i]!;
    const toks = s.toks;
    i++;
    if (toks.length === 0) continue;
    const head = toks[0]!;
    if (head === '.version' || head === '.target' || head === '.address_size' || head === '.file' || head === '.pragma') continue;
    const words = toks.filter(w => w.startsWith('.'));
    const fi = toks.findIndex(w => w === '.entry' || w === '.func');
    if (fi >= 0) {
      const isEntry = toks[fi] === '.entry';
      let j = fi + 1;
      let ret: ParamDecl | null = null;
      if (!isEntry && toks[j] === '(') {
        const r = parseParams(toks, j);
        ret = r.params[0] ?? null;
        j = r.next;
      }
      const name = toks[j++]!;
      const { params } = parseParams(toks, j);
      const external = toks.includes('.extern');
      const f: Func = {
        name, isEntry, params, ret, code: [], nregs: 0, depotSize: 0, depotAlign: 1, paramAreaSize: 0,
        external, body: null,
      };
      // A definition follows as `{ ... }`; a declaration ends here.
      if (st[i]?.toks[0] === '{' && st[i]!.toks.length === 1) {
        let depth = 0;
        const body: Stmt[] = [];
        for (; i < st.length; i++) {
          const b = st[i]!;
          if (b.toks.length === 1 && b.toks[0] === '{') { depth++; if (depth === 1) continue; }
          if (b.toks.length === 1 && b.toks[0] === '}') { depth--; if (depth === 0) { i++; break; } }
          body.push(b);
        }
        f.body = body;
        f.external = false;
      }
      const prev = module.funcIndex.get(name);
      if (prev !== undefined) {
        if (f.body) module.funcs[prev] = f; // a definition replaces an earlier prototype
      } else {
        module.funcIndex.set(name, module.funcs.length);
        module.funcs.push(f);
      }
      continue;
    }
    if (words.some(w => w === '.global' || w === '.const' || w === '.shared')) {
      const v = parseVar(toks.filter(w => w !== '.visible' && w !== '.weak' && w !== '.common'), module);
      if (!module.globalIndex.has(v.name)) {
        module.globals.push(v);
        module.globalIndex.set(v.name, v);
      }
      continue;
    }
    throw new PtxError(`line ${s.line}: unexpected module-level statement: ${toks.join(' ')}`);
  }
  for (const f of module.funcs) if (f.body) decodeFunction(f, module);
  return module;
}

// ------------------------------------------------------------------------------------------------
// Function bodies

/** Names visible at a point of a body: `{ }` blocks (call sequences, inline asm) open inner scopes. */
class Scope {
  regLayers: Map<string, number>[] = [new Map()];
  /** name -> frame param area offset */
  paramLayers: Map<string, number>[] = [new Map()];
  reg(name: string): number | undefined {
    for (let i = this.regLayers.length - 1; i >= 0; i--) { const v = this.regLayers[i]!.get(name); if (v !== undefined) return v; }
    return undefined;
  }
  param(name: string): number | undefined {
    for (let i = this.paramLayers.length - 1; i >= 0; i--) { const v = this.paramLayers[i]!.get(name); if (v !== undefined) return v; }
    return undefined;
  }
  open(): void { this.regLayers.push(new Map()); this.paramLayers.push(new Map()); }
  close(): void { if (this.regLayers.length > 1) { this.regLayers.pop(); this.paramLayers.pop(); } }
}

function decodeFunction(f: Func, module: PtxModule): void {
  const body = f.body!;
  const sc = new Scope();
  let nregs = 0;
  let paramTop = 0;
  const depots = new Map<string, number>();
  let localTop = 0;
  let localAlign = 1;
  // Pass 1: labels -> pc.
  const labels = new Map<string, number>();
  let pc = 0;
  for (const s of body) {
    const t = s.toks;
    if (t.length === 2 && t[1] === ':') labels.set(t[0]!, pc);
    else if (t.length > 0 && !t[0]!.startsWith('.') && t[0] !== '{' && t[0] !== '}') pc++;
  }
  // Every declaration gets its own slot: an inner block's `%r1` is not the function's `%r1`.
  const addReg = (name: string) => { sc.regLayers[sc.regLayers.length - 1]!.set(name, nregs++); };
  for (const s of body) {
    const t = s.toks;
    if (t.length === 0) continue;
    if (t.length === 1 && t[0] === '{') { sc.open(); continue; }
    if (t.length === 1 && t[0] === '}') { sc.close(); continue; }
    if (t.length === 2 && t[1] === ':') continue;
    const h = t[0]!;
    if (h === '.reg' || h.startsWith('.reg.')) {   // `.reg.b32 f;` (no space) in the fp16 header's asm
      // .reg .b32 %r<16>;  .reg .b64 %SP;  .reg .pred p, q;
      let j = 1;
      while (j < t.length && t[j]!.startsWith('.')) j++;
      for (; j < t.length; j++) {
        const name = t[j]!;
        if (name === ',') continue;
        if (t[j + 1] === '<') {
          const n = Number(t[j + 2]);
          for (let k = 0; k < n; k++) addReg(`${name}${k}`);
          j += 3;
        } else addReg(name);
      }
      continue;
    }
    if (h === '.local') {
      const v = parseVar(t, module);
      const a = v.align;
      localTop = Math.ceil(localTop / a) * a;
      depots.set(v.name, localTop);
      localTop += v.size;
      localAlign = Math.max(localAlign, a);
      continue;
    }
    if (h === '.shared' || h === '.global' || h === '.const' || (h === '.extern' && t[1] === '.shared')) {
      const v = parseVar(t, module);
      if (!module.globalIndex.has(v.name)) { module.globals.push(v); module.globalIndex.set(v.name, v); }
      continue;
    }
    if (h === '.param') {
      const { params } = parseParams(['(', ...t, ')'], 0);
      const p = params[0]!;
      paramTop = Math.ceil(paramTop / p.align) * p.align;
      sc.paramLayers[sc.paramLayers.length - 1]!.set(p.name, paramTop);
      paramTop += p.size;
      continue;
    }
    if (h.startsWith('.')) continue; // .pragma, .loc, .maxntid ...
    f.code.push(decodeInst(t, s.line, f, module, sc, labels, depots));
  }
  computeReconvergence(f.code);
  f.nregs = nregs;
  f.depotSize = localTop;
  f.depotAlign = localAlign;
  f.paramAreaSize = paramTop;
  f.body = null;
}

function decodeInst(toks: string[], line: number, f: Func, module: PtxModule, sc: Scope, labels: Map<string, number>, depots: Map<string, number>): Inst {
  let i = 0;
  let g = -1;
  let gneg = false;
  if (toks[0] === '@') {
    i = 1;
    if (toks[i] === '!') { gneg = true; i++; }
    const slot = sc.reg(toks[i]!);
    if (slot === undefined) throw new PtxError(`line ${line}: unknown guard predicate ${toks[i]}`);
    g = slot;
    i++;
  }
  const text = toks[i++]!;
  const parts = text.split('.');
  const base = parts[0]!;
  let pi = 1;
  const op = OPS[base];
  if (op === undefined) throw new PtxError(`line ${line}: unsupported PTX instruction '${text}'`);
  const inst: Inst = { op, text, t: T.NONE, t2: T.NONE, f: 0, cmp: Cmp.EQ, m: M.NONE, sp: Space.GENERIC, vec: 1, g, gneg, o: [], target: -1, rpc: -1, line };
  if (op === Op.WMMA) return decodeWmma(inst, parts.slice(1), toks.slice(i), w => decodeOperand(w, T.B32, line, f, module, sc, depots, inst));
  if (op === Op.TEX || op === Op.TLD4 || op === Op.SULD || op === Op.SUST) {
    return decodeTexSurf(inst, base, parts.slice(1), toks.slice(i), w => decodeOperand(w, T.B32, line, f, module, sc, depots, inst));
  }
  const types: T[] = [];
  for (; pi < parts.length; pi++) {
    const p = parts[pi]!;
    const ty = parseType(p);
    if (ty !== undefined) { types.push(ty); continue; }
    const spc = parseSpace(p);
    if (spc !== undefined && (op === Op.LD || op === Op.ST || op === Op.ATOM || op === Op.RED || op === Op.CVTA)) { inst.sp = spc; continue; }
    if ((op === Op.SETP || op === Op.SET) && CMPS[p] !== undefined && inst.m === M.NONE && !types.length) { inst.cmp = CMPS[p]!; continue; }
    switch (p) {
      case 'rn': inst.f |= F.RN; continue; case 'rz': inst.f |= F.RZ; continue;
      case 'rm': inst.f |= F.RM; continue; case 'rp': inst.f |= F.RP; continue;
      case 'rni': inst.f |= F.RNI; continue; case 'rzi': inst.f |= F.RZI; continue;
      case 'rmi': inst.f |= F.RMI; continue; case 'rpi': inst.f |= F.RPI; continue;
      case 'ftz': inst.f |= F.FTZ; continue; case 'sat': inst.f |= F.SAT; continue;
      case 'approx': inst.f |= F.APPROX; continue; case 'full': inst.f |= F.FULL; continue;
      case 'hi': inst.f |= F.HI; continue; case 'lo': inst.f |= F.LO; continue; case 'wide': inst.f |= F.WIDE; continue;
      case 'clamp': inst.f |= F.CLAMP; continue; case 'wrap': inst.f |= F.WRAP; continue;
      case 'l': inst.f |= F.LEFT; continue; case 'r': continue;
      case 'shiftamt': inst.f |= F.SHIFTAMT; continue;
      case 'uni': inst.f |= F.UNI; continue;
      case 'volatile': case 'relaxed': case 'acquire': case 'release': case 'acq_rel': case 'weak': case 'mmio':
        inst.f |= F.VOLATILE; continue;
      case 'cc': inst.f |= F.CC; continue;
      case 'v2': inst.vec = 2; continue; case 'v4': inst.vec = 4; continue; case 'v8': inst.vec = 8; continue;
      case 'to': continue;
      case 'sync': case 'aligned': case 'nc': case 'ca': case 'cg': case 'cs': case 'lu': case 'cv': case 'wb': case 'wt':
      case 'cta': case 'gpu': case 'sys': case 'cluster': case 'gl': case 'L1': case 'L2': case 'warp': case 'arrive': case 'noftz': case 'wait':
      case 'sc': case 'acq': case 'proxy': case 'mode': case 'b': case 'c':
        continue;
      case 'and': inst.m = M.AND; continue; case 'or': inst.m = M.OR; continue; case 'xor': inst.m = M.XOR; continue;
      case 'up': inst.m = M.UP; continue; case 'down': inst.m = M.DOWN; continue; case 'bfly': inst.m = M.BFLY; continue;
      case 'idx': inst.m = M.IDX; continue;
      case 'all': inst.m = op === Op.MATCH ? M.ALL_MATCH : M.ALL; continue;
      case 'any': inst.m = op === Op.MATCH ? M.ANY_MATCH : M.ANY; continue;
      case 'ballot': inst.m = M.BALLOT; continue;
      case 'add': inst.m = M.ADD; continue; case 'inc': inst.m = M.INC; continue; case 'dec': inst.m = M.DEC; continue;
      case 'exch': inst.m = M.EXCH; continue; case 'cas': inst.m = M.CAS; continue;
      case 'min': inst.m = M.MIN; continue; case 'max': inst.m = M.MAX; continue; case 'popc': inst.m = M.POPC; continue;
      case 'red': if (op === Op.BAR) { inst.op = Op.BARRED; continue; } break;
      case 'finite': inst.m = M.FINITE; continue; case 'infinite': inst.m = M.INFINITE; continue;
      case 'number': inst.m = M.NUMBER; continue; case 'notanumber': inst.m = M.NOTANUMBER; continue;
      case 'normal': inst.m = M.NORMAL; continue; case 'subnormal': inst.m = M.SUBNORMAL; continue;
    }
    if (op === Op.VOTE && p === 'uni') { inst.m = M.UNI; continue; }
    throw new PtxError(`line ${line}: unsupported modifier '.${p}' in '${text}'`);
  }
  if (op === Op.BAR && parts[1] === 'warp') inst.op = Op.BARWARP;
  if (op === Op.BAR && parts[1] === 'cluster') inst.op = Op.BARCLUSTER;
  if (op === Op.SETP && inst.m !== M.NONE && (inst.m !== M.AND && inst.m !== M.OR && inst.m !== M.XOR)) {
    throw new PtxError(`line ${line}: bad setp combine in '${text}'`);
  }
  if (op === Op.CVT) { inst.t = types[0] ?? T.NONE; inst.t2 = types[1] ?? T.NONE; }
  else if (op === Op.SETP || op === Op.SELP) { inst.t = types[types.length - 1] ?? T.NONE; }
  else if (op === Op.SET) { inst.t = types[1] ?? T.NONE; inst.t2 = types[0] ?? T.NONE; }   // set.cmp.dtype.stype: t compares, t2 is written
  else if (op === Op.MATCH) { inst.t = types[types.length - 1] ?? T.NONE; }
  else { inst.t = types[0] ?? T.NONE; inst.t2 = types[1] ?? T.NONE; }
  if (op === Op.BAR && parts[1] === 'warp') inst.t = T.NONE;
  // Operands
  const ops = splitOperands(toks.slice(i));
  if (inst.op === Op.CALL) return decodeCall(inst, ops, f, module, sc, line);
  if (inst.op === Op.BRA) {
    const l = ops[0]?.[0] ?? '';
    const pc = labels.get(l);
    if (pc === undefined) throw new PtxError(`line ${line}: unknown label ${l}`);
    inst.target = pc;
    return inst;
  }
  // The value type of each operand: setp sources use inst.t, dsts pred; cvt dst t, src t2 ...
  for (let k = 0; k < ops.length; k++) {
    const o = ops[k]!;
    let ot = inst.t;
    if (inst.op === Op.CVT && k === 1) ot = inst.t2;
    inst.o.push(decodeOperand(o, ot, line, f, module, sc, depots, inst));
  }
  // setp with a `p|q` destination
  if (inst.op === Op.SETP && inst.o[0]?.k === K.VEC) { /* handled in decodeOperand */ }
  return inst;
}

/** Top-level comma-separated operand token lists. */
function splitOperands(rest: string[]): string[][] {
  const ops: string[][] = [];
  let cur: string[] = [];
  let depth = 0;
  for (const w of rest) {
    if (w === '{' || w === '[' || w === '(') depth++;
    if (w === '}' || w === ']' || w === ')') depth--;
    if (w === ',' && depth === 0) { ops.push(cur); cur = []; continue; }
    cur.push(w);
  }
  if (cur.length) ops.push(cur);
  return ops;
}

/** tex / tld4 / suld `d, [h, {coords}]{, extra}` and sust `[h, {coords}], {values}`: inst.o holds the data operands. */
/** wmma.load.{a,b,c}.sync.aligned.layout.shape[.space].type, wmma.store.d..., wmma.mma.sync.aligned.alayout.blayout.shape.types[.satfinite]. */
function decodeWmma(inst: Inst, mods: string[], rest: string[], dec: (w: string[]) => Opnd): Inst {
  const bad = (): never => { throw new PtxError(`line ${inst.line}: unsupported wmma form '${inst.text}'`); };
  const kind = mods[0];
  if (kind !== 'load' && kind !== 'store' && kind !== 'mma') return bad();
  const info: MmaInfo = { kind, which: 'd', m: 0, n: 0, k: 0, layout: 'row', alayout: 'row', blayout: 'row', sp: Space.GENERIC, types: { a: '', b: '', c: '', d: '' }, satf: false };
  const layouts: ('row' | 'col')[] = [];
  const types: string[] = [];
  for (const p of mods.slice(1)) {
    const shape = /^m(\d+)n(\d+)k(\d+)$/.exec(p);
    if (shape) { info.m = Number(shape[1]); info.n = Number(shape[2]); info.k = Number(shape[3]); continue; }
    if (p === 'a' || p === 'b' || p === 'c' || p === 'd') { info.which = p; continue; }
    if (p === 'row' || p === 'col') { layouts.push(p); continue; }
    if (p === 'sync' || p === 'aligned' || p === 'rn') continue;   // f64 mma rounds to nearest (the only mode emulated)
    if (p === 'satfinite') { info.satf = true; continue; }
    const spc = parseSpace(p);
    if (spc !== undefined) { info.sp = spc; continue; }
    if (/^(f16|bf16|tf32|f32|s8|u8|s32|f64)$/.test(p)) { types.push(p); continue; }
    return bad();
  }
  if (!info.m || layouts.length !== (kind === 'mma' ? 2 : 1) || types.length === 0) return bad();
  if (kind === 'mma') {
    info.alayout = layouts[0]!; info.blayout = layouts[1]!;
    // f16 forms name d and c; the others d, a, b, c
    if (types.length === 2) info.types = { d: types[0]!, c: types[1]!, a: 'f16', b: 'f16' };
    else if (types.length === 4) info.types = { d: types[0]!, a: types[1]!, b: types[2]!, c: types[3]! };
    else return bad();
  } else {
    info.layout = layouts[0]!;
    const t = types[0]!;
    info.types = { a: t, b: t, c: t, d: t };
  }
  inst.mma = info;
  inst.o = splitOperands(rest).map(dec);
  if (inst.o.length !== (kind === 'mma' ? 4 : 3)) return bad();
  return inst;
}

function decodeTexSurf(inst: Inst, base: string, mods: string[], rest: string[], dec: (w: string[]) => Opnd): Inst {
  let info: Omit<TexSurfInfo, 'handle' | 'coords'>;
  try { info = parseTexSurfModifiers(base, mods); } catch (e) { throw new PtxError(`line ${inst.line}: ${(e as Error).message}`); }
  const ops = splitOperands(rest);
  const vecOf = (w: string[]): Opnd => { const o = dec(w); if (o.k === K.VEC) return o; const v = opnd(K.VEC); v.regs = [o]; return v; };
  const addrAt = inst.op === Op.SUST ? 0 : 1;
  const a = ops[addrAt];
  if (!a || a[0] !== '[' || a[a.length - 1] !== ']') throw new PtxError(`line ${inst.line}: ${inst.text} needs a [handle, {coordinates}] operand`);
  const inner = splitOperands(a.slice(1, -1));
  if (inner.length !== 2) throw new PtxError(`line ${inst.line}: ${inst.text}: only the unified [handle, {coordinates}] form is emulated`);
  const handle = dec(inner[0]!);
  const coords = vecOf(inner[1]!).regs!;
  if (coords.length < coordCount(info.geom)) throw new PtxError(`line ${inst.line}: ${inst.text} needs ${coordCount(info.geom)} coordinates`);
  inst.ts = { ...info, handle, coords };
  inst.o = ops.filter((_, k) => k !== addrAt).map(vecOf);
  return inst;
}

function decodeOperand(o: string[], t: T, line: number, f: Func, module: PtxModule, sc: Scope, depots: Map<string, number>, inst: Inst): Opnd {
  if (o.length === 0) throw new PtxError(`line ${line}: empty operand in ${inst.text}`);
  if (o[0] === '{') {
    const v = opnd(K.VEC);
    v.regs = [];
    for (const w of o.slice(1, -1)) if (w !== ',') v.regs.push(decodeOperand([w], t, line, f, module, sc, depots, inst));
    return v;
  }
  if (o[0] === '[') {
    // [base], [base+off], [off]
    const inner = o.slice(1, -1);
    let off = 0;
    let baseTok: string | undefined;
    for (let k = 0; k < inner.length; k++) {
      const w = inner[k]!;
      if (w === '+') continue;
      const lit = parseIntBits(w);
      if (lit && (k > 0 || inner.length === 1)) { off += lit.lo; continue; }
      baseTok = w;
    }
    const b = baseTok === undefined ? opnd(K.IMM) : decodeOperand([baseTok], T.U64, line, f, module, sc, depots, inst);
    b.off = off;
    return b;
  }
  if (o.length === 3 && o[1] === '|') {
    // setp dual destination p|q
    const v = opnd(K.VEC);
    v.regs = [decodeOperand([o[0]!], T.PRED, line, f, module, sc, depots, inst), decodeOperand([o[2]!], T.PRED, line, f, module, sc, depots, inst)];
    return v;
  }
  let neg = false;
  let w = o[0]!;
  if (w === '!') { neg = true; w = o[1]!; }
  if (w === '_') return opnd(K.SINK);
  const slot = sc.reg(w);
  if (slot !== undefined) { const r = opnd(K.REG, w); r.r = slot; r.neg = neg; return r; }
  const sid = SREG_ID.get(w);
  if (sid !== undefined) { const r = opnd(K.SREG, w); r.r = sid; return r; }
  const lit = literal(w, t);
  if (lit) { const r = opnd(K.IMM, w); r.lo = lit.lo; r.hi = lit.hi; return r; }
  const d = depots.get(w);
  if (d !== undefined) { const r = opnd(K.DEPOT, w); r.lo = d; return r; }
  const lp = sc.param(w);
  if (lp !== undefined) { const r = opnd(K.LPARAM, w); r.r = lp; return r; }
  const fp = f.params.findIndex(p => p.name === w);
  if (fp >= 0) {
    if (f.isEntry) {
      const r = opnd(K.KPARAM, w);
      r.lo = kernelParamOffsets(f)[fp]!;
      return r;
    }
    const r = opnd(K.FPARAM, w); r.r = fp; return r;
  }
  if (f.ret && f.ret.name === w) return opnd(K.RETVAL, w);
  const gv = module.globalIndex.get(w);
  if (gv) { const r = opnd(K.GADDR, w); return r; }
  const fn = module.funcIndex.get(w);
  if (fn !== undefined) { const r = opnd(K.FUNC, w); r.r = fn; return r; }
  // A register used before its `.reg` (cannot happen in valid PTX) or an unknown symbol.
  throw new PtxError(`line ${line}: unknown operand '${w}' in ${inst.text}`);
}

const paramOffsetCache = new WeakMap<Func, number[]>();
export function kernelParamOffsets(f: Func): number[] {
  let c = paramOffsetCache.get(f);
  if (c) return c;
  c = [];
  let off = 0;
  for (const p of f.params) {
    off = Math.ceil(off / p.align) * p.align;
    c.push(off);
    off += p.size;
  }
  paramOffsetCache.set(f, c);
  return c;
}

export function kernelParamSize(f: Func): number {
  const offs = kernelParamOffsets(f);
  if (offs.length === 0) return 0;
  const last = f.params[f.params.length - 1]!;
  return offs[offs.length - 1]! + last.size;
}

/**
 * call[.uni] (ret), fname, (a, b); — or without the return/args parts. An indirect call names a register
 * and ends with its `.callprototype` label: `call (ret), %rd5, (a), prototype_3;` (target -1, the callee
 * register last in o).
 */
function decodeCall(inst: Inst, ops: string[][], f: Func, module: PtxModule, sc: Scope, line: number): Inst {
  let k = 0;
  let ret: Opnd | null = null;
  if (ops[0]?.[0] === '(') {
    const name = ops[0][1]!;
    const lp = sc.param(name);
    if (lp === undefined) throw new PtxError(`line ${line}: call return ${name} is not a declared .param`);
    ret = opnd(K.LPARAM, name); ret.r = lp;
    k = 1;
  }
  const fname = ops[k]?.[0] ?? '';
  const fi = module.funcIndex.get(fname);
  let argToks = ops.slice(k + 1);
  let calleeReg: Opnd | null = null;
  if (fi === undefined) {
    const slot = sc.reg(fname);
    if (slot === undefined) throw new PtxError(`line ${line}: call to unknown function ${fname}`);
    calleeReg = opnd(K.REG, fname); calleeReg.r = slot;
    const last = argToks[argToks.length - 1];
    if (!last || last.length !== 1 || !/^[A-Za-z_$][\w$]*$/.test(last[0]!)) throw new PtxError(`line ${line}: indirect call without a prototype`);
    argToks = argToks.slice(0, -1);
    inst.target = -1;
  } else inst.target = fi;
  const args: Opnd[] = [];
  for (const a of argToks) {
    for (const w of a) {
      if (w === '(' || w === ')' || w === ',') continue;
      const lp = sc.param(w);
      if (lp === undefined) throw new PtxError(`line ${line}: call argument ${w} is not a declared .param`);
      const o = opnd(K.LPARAM, w); o.r = lp;
      args.push(o);
    }
  }
  // o[0] = return param (or SINK), o[1..] = args
  inst.o = [ret ?? opnd(K.SINK), ...args, ...(calleeReg ? [calleeReg] : [])];
  void f;
  return inst;
}

export { is64 };

/**
 * Reconvergence points: for each conditional branch, the first pc of the immediate post-dominator of
 * its block (hardware reconverges diverged lanes there; ptxas places its BSYNC the same way).
 */
function computeReconvergence(code: Inst[]): void {
  const n = code.length;
  if (n === 0) return;
  const isLeader = new Uint8Array(n + 1);
  isLeader[0] = 1;
  for (let pc = 0; pc < n; pc++) {
    const i = code[pc]!;
    if (i.op === Op.BRA) { isLeader[i.target] = 1; isLeader[pc + 1] = 1; }
    if (i.op === Op.RET || i.op === Op.EXIT || i.op === Op.TRAP) isLeader[pc + 1] = 1;
  }
  const blockOf = new Int32Array(n);
  const starts: number[] = [];
  for (let pc = 0; pc < n; pc++) { if (isLeader[pc]) starts.push(pc); blockOf[pc] = starts.length - 1; }
  const nb = starts.length;
  const EXIT = nb;
  const succ: number[][] = [];
  for (let b = 0; b < nb; b++) {
    const end = (b + 1 < nb ? starts[b + 1]! : n) - 1;
    const last = code[end]!;
    const ss: number[] = [];
    const next = end + 1 < n ? blockOf[end + 1]! : EXIT;
    if (last.op === Op.BRA) {
      ss.push(last.target < n ? blockOf[last.target]! : EXIT);
      if (last.g >= 0) ss.push(next);
    } else if ((last.op === Op.RET || last.op === Op.EXIT || last.op === Op.TRAP) && last.g < 0) ss.push(EXIT);
    else { ss.push(next); if (last.op === Op.RET || last.op === Op.EXIT) ss.push(EXIT); }
    succ.push(ss);
  }
  // Post-dominator sets as bitsets would be simplest; functions are small, so iterate on ipdom with the
  // Cooper-Harvey-Kennedy intersection over a reverse post-order of the reversed CFG.
  const preds: number[][] = Array.from({ length: nb + 1 }, () => []);
  for (let b = 0; b < nb; b++) for (const s2 of succ[b]!) preds[s2]!.push(b);
  const order: number[] = [];
  const seen = new Uint8Array(nb + 1);
  const stack: [number, number][] = [[EXIT, 0]];
  seen[EXIT] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const ps = preds[top[0]]!;
    if (top[1] < ps.length) {
      const p = ps[top[1]++]!;
      if (!seen[p]) { seen[p] = 1; stack.push([p, 0]); }
    } else { order.push(top[0]); stack.pop(); }
  }
  const rpo = order.reverse();
  const num = new Int32Array(nb + 1).fill(-1);
  rpo.forEach((b, k) => { num[b] = k; });
  const ipdom = new Int32Array(nb + 1).fill(-1);
  ipdom[EXIT] = EXIT;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (num[a]! > num[b]!) a = ipdom[a]!;
      while (num[b]! > num[a]!) b = ipdom[b]!;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const b of rpo) {
      if (b === EXIT) continue;
      let nd = -1;
      for (const s2 of succ[b]!) {
        if (ipdom[s2] === -1 || num[s2] === -1) continue;
        nd = nd === -1 ? s2 : intersect(s2, nd);
      }
      if (nd !== -1 && ipdom[b] !== nd) { ipdom[b] = nd; changed = true; }
    }
  }
  for (let pc = 0; pc < n; pc++) {
    const i = code[pc]!;
    if (i.op !== Op.BRA || i.g < 0) continue;
    const d = ipdom[blockOf[pc]!]!;
    i.rpc = d === -1 || d === EXIT ? -1 : starts[d]!;
  }
}
