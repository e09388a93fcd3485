// LLVM bitcode → our IR. Written for the libdevice bitcode NVIDIA ships (LLVM 3.8-7 era, module version 1:
// relative value ids, names in the module value symbol table, typed pointers). Typed pointers map to our
// opaque pointers: pointer-to-pointer bitcasts vanish (their uses take the operand), explicit types on
// load/GEP/call/alloca give what opaque pointers need. Metadata, use lists and debug locations are skipped.

import {
  type Type, type Value, type Const, type Func, type Global, type Inst, type Block, type Module, type InlineAsm,
  type BinOp, type CastOp, type ICmpPred, type FCmpPred,
  T, intTy, ptrTy, arrayTy, vectorTy, structTy, funcTy, newModule, newFunc, newGlobal, cInt, cFP, cNull, normInt,
} from '../ir';
import { BitstreamReader, BitcodeError, bitcodeStart, type BitRecord, type BlockVisitor } from './bitstream';

export { BitcodeError };

const BLK = { MODULE: 8, PARAMATTR: 9, PARAMATTR_GROUP: 10, CONSTANTS: 11, FUNCTION: 12, VST: 14, TYPE: 17, STRTAB: 23 } as const;

const BINOPS: BinOp[] = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor'];
const FP_BINOP: Partial<Record<BinOp, BinOp>> = { add: 'fadd', sub: 'fsub', mul: 'fmul', sdiv: 'fdiv', srem: 'frem' };
const CASTS: CastOp[] = ['trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast'];
const FCMP: FCmpPred[] = ['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'uno', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'true'];
const ICMP: ICmpPred[] = ['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle'];
const FMF: [number, string][] = [[1, 'fast'], [2, 'nnan'], [4, 'ninf'], [8, 'nsz'], [16, 'arcp'], [32, 'contract'], [64, 'afn'], [128, 'reassoc']];

function linkageOf(code: number): Func['linkage'] & Global['linkage'] | 'internal' {
  switch (code) {
    case 3: return 'internal';
    case 9: case 13: case 14: return 'private';
    case 1: case 16: case 10: case 17: return 'weak';
    case 4: case 18: case 11: case 19: return 'linkonce_odr';
    default: return 'external';
  }
}
const decodeAlign = (v: number): number => (v === 0 ? 0 : 2 ** (v - 1));
// sign-rotated: (|v| << 1) | sign; a lone sign bit (1, "-0") is INT64_MIN (LLVM's decodeSignRotatedValue)
const signedVbr = (v: number): number => ((v & 1) === 0 ? Math.floor(v / 2) : v === 1 ? -(2 ** 63) : -Math.floor(v / 2));
function chars(ops: readonly number[], from = 0, to = ops.length): string {
  let s = '';
  for (let i = from; i < to; i += 4096) s += String.fromCharCode(...ops.slice(i, Math.min(to, i + 4096)));
  return s;
}

function fail(msg: string): never { throw new BitcodeError(msg); }

/** A value id referenced before its definition inside a function body; replaced when the function ends. */
interface Fwd { readonly kind: 'inst'; op: 'unreachable'; ty: Type; ops: Value[]; targets: Block[]; parent: null; name: string; fwdId: number }

/** The result of reading a module: the IR plus per-function counts used by tests (instructions in the bitcode). */
export interface BitcodeModule {
  module: Module;
  /** Instruction records read per defined function (pointer bitcasts included, though they produce no IR). */
  recordCount: Map<string, number>;
}

class Reader {
  readonly m = newModule();
  // ---- types: raw records resolved on demand (named structs may be referenced before they are defined)
  private typeRecs: BitRecord[] = [];
  private typeNames = new Map<number, string>();
  private types: (Type | undefined)[] = [];
  /** For pointer types: the pointee type index (needed for inline asm and old-style records). */
  private pointee = new Map<number, number>();
  private attrGroups = new Map<number, { idx: number; fn: Func['attrs']; param: string[] }>();
  /** Attribute lists: function attributes and, per parameter (1-based), the ABI extension attributes. */
  private attrLists: { fn: Func['attrs']; params: Map<number, string[]> }[] = [];
  // ---- values
  private vals: (Value | undefined)[] = [];
  private moduleValueCount = 0;
  private bodies: Func[] = [];           // defined functions, in the order their blocks appear
  private globalInits: [Global, number][] = [];
  private names = new Map<number, string>();
  // ---- constants block state
  private cstTy: Type = T.i32;
  private cstTyId = -1;
  private pendingCst = new Map<number, { rec: BitRecord; ty: Type; tyId: number }>();
  // ---- function state
  private fn: Func | null = null;
  private blocks: Block[] = [];
  private cur = 0;                       // current block index
  private fwd = new Map<number, Fwd>();
  private localNames = new Map<number, string>();
  private bbNames = new Map<number, string>();
  private records = 0;
  readonly recordCount = new Map<Func, number>();
  private stack: number[] = [];
  private nextTypeIdForStructName = '';

  // ------------------------------------------------------------ driver
  private bs: BitstreamReader | null = null;
  private version = 1;
  private strtab: Uint8Array | null = null;
  private strtabRefs: [Global | Func, number, number][] = [];
  /** Lazy mode: function bodies are skipped on the first pass and read on demand from their block position. */
  private lazy = false;
  private bodyAt = new Map<Func, number>();
  private materializing: Func | null = null;

  read(bytes: Uint8Array, lazy: boolean): BitcodeModule {
    const { start, end } = bitcodeStart(bytes);
    this.bs = new BitstreamReader(bytes, start, end);
    this.lazy = lazy;
    this.bs.walk(this.visitor());
    this.finishNames();
    return { module: this.m, recordCount: this.namedCounts() };
  }

  /** After the whole stream (the string table comes after the module block). */
  private finishNames(): void {
    if (this.strtabRefs.length > 0) {
      const tab = this.strtab ?? fail('bitcode without its string table');
      for (const [v, off, size] of this.strtabRefs) {
        if (off + size > tab.length) fail('string table reference out of range');
        v.name = new TextDecoder('latin1').decode(tab.subarray(off, off + size));
      }
    }
    // typed-pointer intrinsic manglings (llvm.memcpy.p0i8.p0i8.i64) → opaque-pointer ones (llvm.memcpy.p0.p0.i64)
    for (const f of this.m.funcs) if (f.name.startsWith('llvm.')) f.name = f.name.replace(/\.p(\d+)i8(?=\.|$)/g, '.p$1');
  }

  hasBody(f: Func): boolean { return f.blocks.length > 0 || this.bodyAt.has(f); }

  /** Read the body of `f` if it was skipped (lazy mode). */
  materialize(f: Func): void {
    const at = this.bodyAt.get(f);
    if (at === undefined) return;
    this.bodyAt.delete(f);
    this.materializing = f;
    this.stack = [BLK.MODULE];
    try { this.bs!.walkBlockAt(at, this.visitor()); } finally { this.materializing = null; this.stack = []; }
  }

  namedCounts(): Map<string, number> {
    const byName = new Map<string, number>();
    for (const [f, n] of this.recordCount) byName.set(f.name, n);
    return byName;
  }

  private visitor(): BlockVisitor {
    return {
      enter: (id, _body, header) => {
        // skip what we do not model: identification, metadata, metadata kinds/attachments, use lists, bundle tags, strtab
        if (id !== BLK.MODULE && id !== BLK.PARAMATTR && id !== BLK.PARAMATTR_GROUP && id !== BLK.CONSTANTS
          && id !== BLK.FUNCTION && id !== BLK.VST && id !== BLK.TYPE && id !== BLK.STRTAB) return false;
        if (id === BLK.FUNCTION && !this.materializing && this.lazy) {
          const f = this.bodies.shift() ?? fail('function body without a defined function');
          if (this.moduleValueCount === 0) this.moduleValueCount = this.vals.length;
          this.bodyAt.set(f, header);
          return false;
        }
        this.stack.push(id);
        if (id === BLK.FUNCTION) this.beginFunction();
        if (id === BLK.CONSTANTS) { this.cstTy = T.i32; this.cstTyId = -1; }
        return true;
      },
      exit: (id) => {
        if (id === BLK.CONSTANTS) this.resolveConstants();
        if (id === BLK.TYPE) for (let i = 0; i < this.typeRecs.length; i++) this.type(i);
        if (id === BLK.FUNCTION) this.endFunction();
        if (id === BLK.MODULE) this.endModule();
        this.stack.pop();
      },
      record: (id, rec) => {
        switch (id) {
          case BLK.MODULE: this.moduleRecord(rec); break;
          case BLK.TYPE: this.typeRecord(rec); break;
          case BLK.PARAMATTR_GROUP: this.attrGroup(rec); break;
          case BLK.PARAMATTR: if (rec.code === 2) this.attrList(rec); break;
          case BLK.CONSTANTS: this.constRecord(rec); break;
          case BLK.FUNCTION: this.instRecord(rec); break;
          case BLK.VST: this.vstRecord(rec); break;
          case BLK.STRTAB: if (rec.code === 1 && rec.blob) this.strtab = rec.blob; break;
        }
      },
    };
  }

  // ------------------------------------------------------------ types
  private typeRecord(rec: BitRecord): void {
    if (rec.code === 1) return; // NUMENTRY
    if (rec.code === 19) { this.nextTypeIdForStructName = chars(rec.ops); return; } // STRUCT_NAME
    if (rec.code === 20 || rec.code === 6) { this.typeNames.set(this.typeRecs.length, this.nextTypeIdForStructName); this.nextTypeIdForStructName = ''; }
    this.typeRecs.push(rec);
  }
  private typesInProgress = new Set<number>();
  type(i: number): Type {
    const have = this.types[i];
    if (have) return have;
    const rec = this.typeRecs[i] ?? fail(`bad type id ${i}`);
    if (this.typesInProgress.has(i)) fail('recursive type'); // (named recursive structs need pointers, which are opaque here)
    this.typesInProgress.add(i);
    try { return this.buildType(i, rec); } finally { this.typesInProgress.delete(i); }
  }
  private buildType(i: number, rec: BitRecord): Type {
    const o = rec.ops;
    let t: Type;
    switch (rec.code) {
      case 2: t = T.void; break;
      case 3: t = T.f32; break;
      case 4: t = T.f64; break;
      case 5: t = T.label; break;
      case 7: t = intTy(o[0]!); break;
      case 8: t = ptrTy(o[1] ?? 0); this.pointee.set(i, o[0]!); break;
      case 25: t = ptrTy(o[0] ?? 0); break;
      case 10: t = T.half; break;
      case 23: t = T.bfloat; break;
      case 11: t = arrayTy(o[0]!, this.type(o[1]!)); break;
      case 12: t = vectorTy(o[0]!, this.type(o[1]!)); break;
      case 18: case 20: t = structTy(o.slice(1).map(x => this.type(x)), o[0] === 1); break;
      case 21: t = funcTy(this.type(o[1]!), o.slice(2).map(x => this.type(x)), o[0] === 1); break;
      case 9: t = funcTy(this.type(o[2]!), o.slice(3).map(x => this.type(x)), o[0] === 1); break;
      case 16: t = T.void; break; // metadata type: only appears on metadata-as-value operands, which we drop
      default: return fail(`unsupported type record ${rec.code}`);
    }
    this.types[i] = t;
    return t;
  }
  private fnType(i: number): Type & { k: 'func' } {
    let t = this.type(i);
    if (t.k === 'ptr') t = this.type(this.pointee.get(i) ?? fail('opaque pointer where a function type is needed'));
    if (t.k !== 'func') fail('expected a function type');
    return t;
  }

  // ------------------------------------------------------------ attributes
  private attrGroup(rec: BitRecord): void {
    if (rec.code !== 3) return;
    const o = rec.ops;
    const grp = o[0]!, idx = o[1]!;
    const a: Func['attrs'] = {};
    const param: string[] = [];
    for (let i = 2; i < o.length;) {
      const kind = o[i++]!;
      if (kind === 0 || kind === 1) {
        const id = o[i++]!;
        if (kind === 1) i++;
        if (idx === 0xffffffff) {
          if (id === 2) a.alwaysinline = true;
          else if (id === 14) a.noinline = true;
          else if (id === 20) a.readnone = true;
          else if (id === 43) a.convergent = true;
        } else if (id === 34) param.push('zeroext');
        else if (id === 24) param.push('signext');
      } else if (kind === 3 || kind === 4) {
        while (i < o.length && o[i] !== 0) i++;
        i++;
        if (kind === 4) { while (i < o.length && o[i] !== 0) i++; i++; }
      } else if (kind === 5) i++;            // type attribute without a type (newer bitcode)
      else if (kind === 6) i += 2;            // type attribute: kind id + type id
      else fail(`bad attribute kind ${kind}`);
    }
    this.attrGroups.set(grp, { idx, fn: a, param });
  }
  private attrList(rec: BitRecord): void {
    const fn: Func['attrs'] = {};
    const params = new Map<number, string[]>();
    for (const id of rec.ops) {
      const g = this.attrGroups.get(id);
      if (!g) continue;
      if (g.idx === 0xffffffff) Object.assign(fn, g.fn);
      else if (g.idx > 0 && g.param.length > 0) params.set(g.idx, [...(params.get(g.idx) ?? []), ...g.param]);
    }
    this.attrLists.push({ fn, params });
  }

  // ------------------------------------------------------------ module records
  private moduleRecord(rec: BitRecord): void {
    const o = rec.ops;
    switch (rec.code) {
      case 1: if (o[0]! > 2) fail(`unsupported bitcode module version ${o[0]}`); if (o[0] === 0) fail('bitcode with absolute value ids is not supported'); this.version = o[0]!; break;
      case 7: case 8: {
        // version 2 (LLVM 5+): names live in the string table, records start with [offset, size]
        if (this.version < 2) { this.globalValue(rec.code, o); break; }
        const v = this.globalValue(rec.code, o.slice(2));
        this.strtabRefs.push([v, o[0]!, o[1]!]);
        break;
      }
      case 2: this.m.triple = chars(o); break;
      case 3: this.m.dataLayout = chars(o); break;
      case 14: fail('global aliases are not supported');
      default: break; // VSTOFFSET, SOURCE_FILENAME, HASH, METADATA_VALUES_UNUSED, ...
    }
  }

  private globalValue(code: number, o: readonly number[]): Global | Func {
    switch (code) {
      case 7: { // GLOBALVAR: [type, isconst|explicit<<1|as<<2, initid, linkage, align, section, visibility, tls, unnamed_addr, ext_init, ...]
        const explicit = (o[1]! & 2) !== 0;
        let valueTy: Type, as: number;
        if (explicit) { valueTy = this.type(o[0]!); as = o[1]! >>> 2; } else {
          const pt = this.type(o[0]!);
          as = pt.k === 'ptr' ? pt.as : 0;
          valueTy = this.type(this.pointee.get(o[0]!) ?? fail('global of unknown type'));
        }
        const g = newGlobal('', valueTy, as, null, {
          isConstant: (o[1]! & 1) !== 0, linkage: linkageOf(o[3]!) as Global['linkage'], align: decodeAlign(o[4] ?? 0) || 1,
          unnamedAddr: (o[8] ?? 0) !== 0 || undefined, externallyInitialized: (o[9] ?? 0) !== 0 || undefined,
        });
        if (o[2]! !== 0) this.globalInits.push([g, o[2]! - 1]);
        this.m.globals.push(g);
        this.vals.push(g);
        return g;
      }
      case 8: { // FUNCTION: [type, cc, isproto, linkage, paramattr, align, section, visibility, gc, unnamed_addr, ...]
        const fnTy = this.fnType(o[0]!);
        const f = newFunc('', fnTy, linkageOf(o[3]!) as Func['linkage']);
        const attrs = o[4]! > 0 ? this.attrLists[o[4]! - 1] : undefined;
        if (attrs) {
          f.attrs = { ...attrs.fn };
          for (const [k, list] of attrs.params) { const p = f.params[k - 1]; if (p) p.attrs.push(...list); }
        }
        if (o[2] === 0) this.bodies.push(f);
        this.m.funcs.push(f);
        this.vals.push(f);
        return f;
      }
      default: return fail(`bad global value record ${code}`);
    }
  }

  private vstRecord(rec: BitRecord): void {
    const inFn = this.fn !== null && this.stack[this.stack.length - 2] === BLK.FUNCTION;
    const o = rec.ops;
    if (rec.code === 1) (inFn ? this.localNames : this.names).set(o[0]!, chars(o, 1));
    else if (rec.code === 2 && inFn) this.bbNames.set(o[0]!, chars(o, 1));
    else if (rec.code === 3 && !inFn && o.length > 2) this.names.set(o[0]!, chars(o, 2)); // FNENTRY: [valueid, offset, name]
  }

  private endModule(): void {
    for (const [g, id] of this.globalInits) {
      const c = this.vals[id];
      if (!c || (c.kind !== 'int' && c.kind !== 'fp' && c.kind !== 'null' && c.kind !== 'undef' && c.kind !== 'zero'
        && c.kind !== 'agg' && c.kind !== 'bytes' && c.kind !== 'cexpr' && c.kind !== 'poison')) fail('bad global initialiser');
      g.init = c;
    }
    for (let i = 0; i < this.moduleValueCount || i < this.m.globals.length + this.m.funcs.length; i++) {
      const v = this.vals[i];
      const n = this.names.get(i);
      if (n !== undefined && v && (v.kind === 'global' || v.kind === 'func')) v.name = n;
    }
    if (this.bodies.length !== 0) fail(`${this.bodies.length} function bodies missing`);
  }

  // ------------------------------------------------------------ constants
  private constRecord(rec: BitRecord): void {
    if (rec.code === 1) { this.cstTyId = rec.ops[0]!; this.cstTy = this.type(this.cstTyId); return; }
    this.pendingCst.set(this.vals.length, { rec, ty: this.cstTy, tyId: this.cstTyId });
    this.vals.push(undefined);
  }
  private resolveConstants(): void {
    for (const id of [...this.pendingCst.keys()]) this.constant(id);
    if (!this.fn) this.moduleValueCount = this.vals.length;
  }
  /** Value by absolute id, resolving a pending constant on demand. */
  private constant(id: number): Value {
    const have = this.vals[id];
    if (have) return have;
    const p = this.pendingCst.get(id) ?? fail(`constant refers to unknown value ${id}`);
    this.pendingCst.delete(id);
    const v = this.buildConstant(p.rec, p.ty, p.tyId);
    this.vals[id] = v;
    return v;
  }
  private asConst(v: Value): Const | Global | Func {
    if (v.kind === 'arg' || v.kind === 'inst' || v.kind === 'asm') fail('constant refers to a non-constant');
    return v;
  }
  private buildConstant(rec: BitRecord, ty: Type, tyId: number): Value {
    const o = rec.ops;
    switch (rec.code) {
      case 2: // NULL
        if (ty.k === 'ptr') return cNull(ty.as);
        if (ty.k === 'int') return cInt(ty, 0);
        if (ty.k === 'float' || ty.k === 'double' || ty.k === 'half') return cFP(ty, 0);
        return { kind: 'zero', ty };
      case 3: return { kind: 'undef', ty };
      case 26: return { kind: 'poison', ty };
      case 4: { // INTEGER (sign-rotated vbr)
        const big = rec.big?.get(0);
        if (big !== undefined) { const v = (big & 1n) === 0n ? big >> 1n : big === 1n ? -(1n << 63n) : -(big >> 1n); return { kind: 'int', ty, value: normInt((ty as { bits: number }).bits, v) }; }
        if (o.length === 0 || ty.k !== 'int') fail('bad integer constant');
        return cInt(ty, signedVbr(o[0]!));
      }
      case 5: fail('wide integer constants are not supported');
      case 6: return this.fpConst(ty, rec, 0);
      case 7: { // AGGREGATE
        const elems = o.map(x => this.asConst(this.constant(x)) as Const);
        return { kind: 'agg', ty, elems };
      }
      case 8: case 9: { // STRING / CSTRING
        const bytes = new Uint8Array(o.length + (rec.code === 9 ? 1 : 0));
        for (let i = 0; i < o.length; i++) bytes[i] = o[i]!;
        return { kind: 'bytes', ty, bytes };
      }
      case 22: { // DATA: elements of an array/vector of ints or fps
        const elt = ty.k === 'array' || ty.k === 'vector' ? ty.elem : fail('DATA constant of non-sequential type');
        const elems: Const[] = o.map((_, i) => elt.k === 'int' ? { kind: 'int', ty: elt, value: normInt(elt.bits, rec.big?.get(i) ?? BigInt(o[i]!)) } as Const : this.fpConst(elt, rec, i));
        return { kind: 'agg', ty, elems };
      }
      case 11: { // CE_CAST [opc, opty, opval]
        const op = CASTS[o[0]!] ?? fail('bad cast opcode');
        const base = this.asConst(this.constant(o[2]!));
        if (op === 'bitcast' && ty.k === 'ptr' && base.ty.k === 'ptr' && (base.ty as { as: number }).as === ty.as) return base;
        if (op !== 'bitcast' && op !== 'addrspacecast' && op !== 'ptrtoint') fail(`constant ${op} not supported`);
        return { kind: 'cexpr', ty, op, base };
      }
      case 12: case 20: case 24: { // CE_GEP / CE_INBOUNDS_GEP: [pointee ty]? then (type, value) pairs; 24: [pointee, inrange|inbounds, pairs]
        let i = 0;
        let srcTy: Type | undefined;
        if (rec.code === 24) { srcTy = this.type(o[i++]!); i++; }
        else if (o.length % 2 === 1) srcTy = this.type(o[i++]!);
        const baseTyId = o[i]!;
        const base = this.asConst(this.constant(o[i + 1]!));
        if (!srcTy) srcTy = this.type(this.pointee.get(baseTyId) ?? fail('GEP constant of unknown element type'));
        const indices: Const[] = [];
        for (i += 2; i < o.length; i += 2) indices.push(this.asConst(this.constant(o[i + 1]!)) as Const);
        return { kind: 'cexpr', ty, op: 'gep', base, srcTy, indices };
      }
      case 23: case 30: { // INLINEASM [flags, asmlen, asm..., conslen, cons...] (30: [fnty, flags, ...])
        let i = 0;
        let fnTy: Type & { k: 'func' };
        if (rec.code === 30) fnTy = this.fnType(o[i++]!); else fnTy = this.fnType(tyId);
        const flags = o[i++]!;
        const alen = o[i++]!; const text = chars(o, i, i + alen); i += alen;
        const clen = o[i++]!; const constraints = chars(o, i, i + clen);
        const ia: InlineAsm = { kind: 'asm', ty: T.ptr, fnTy, text, constraints, sideEffects: (flags & 1) !== 0 };
        return ia;
      }
      default: fail(`unsupported constant record ${rec.code}`);
    }
  }
  private fpConst(ty: Type, rec: BitRecord, i: number): Const {
    if (i >= rec.ops.length) fail('floating-point constant without a value');
    const raw = rec.big?.get(i) ?? BigInt(rec.ops[i]!);
    const dv = new DataView(new ArrayBuffer(8));
    if (ty.k === 'float') { dv.setUint32(0, Number(raw)); return cFP(ty, dv.getFloat32(0)); }
    if (ty.k === 'double') { dv.setBigUint64(0, raw); return cFP(ty, dv.getFloat64(0)); }
    fail(`floating-point constant of type ${ty.k} not supported`);
  }

  // ------------------------------------------------------------ functions
  private beginFunction(): void {
    const f = this.materializing ?? this.bodies.shift() ?? fail('function body without a defined function');
    if (this.moduleValueCount === 0) this.moduleValueCount = this.vals.length;
    this.vals.length = this.moduleValueCount;
    this.fn = f;
    this.blocks = [];
    this.cur = 0;
    this.fwd.clear();
    this.localNames.clear();
    this.bbNames.clear();
    this.records = 0;
    for (const a of f.params) this.vals.push(a);
  }

  private endFunction(): void {
    const f = this.fn!;
    // patch forward references
    for (const b of this.blocks) for (const i of b.insts) for (let k = 0; k < i.ops.length; k++) {
      const op = i.ops[k] as Value & { fwdId?: number };
      if (op.kind === 'inst' && (op as Fwd).fwdId !== undefined) i.ops[k] = this.resolved(op as Fwd);
    }
    // names from the function's value symbol table
    for (const [id, n] of this.localNames) { const v = this.vals[id]; if (v && (v.kind === 'arg' || v.kind === 'inst')) v.name = n; }
    for (let k = 0; k < this.blocks.length; k++) this.blocks[k]!.name = this.bbNames.get(k) ?? `bb${k}`;
    f.blocks = this.blocks;
    this.recordCount.set(f, this.records);
    this.fn = null;
    this.vals.length = this.moduleValueCount;
  }
  private resolved(p: Fwd): Value {
    let v = this.vals[p.fwdId];
    while (v && v.kind === 'inst' && (v as Fwd).fwdId !== undefined && v !== p) v = this.vals[(v as Fwd).fwdId];
    if (!v || v === p) fail(`unresolved forward reference to value ${p.fwdId}`);
    if (v.kind === 'inst' && v.op === 'unreachable') fail('forward reference to a non-value');
    return v;
  }

  /** A value by absolute id in the current function; a placeholder if not yet defined. */
  private value(id: number, ty?: Type): Value {
    if (id < this.vals.length) {
      const v = this.vals[id];
      if (v) return v;
      if (this.pendingCst.has(id)) return this.constant(id);
    }
    let p = this.fwd.get(id);
    if (!p) {
      if (!ty) fail(`forward reference to value ${id} without a type`);
      p = { kind: 'inst', op: 'unreachable', ty, ops: [], targets: [], parent: null, name: `fwd${id}`, fwdId: id };
      this.fwd.set(id, p);
    }
    return p as unknown as Value;
  }
  private define(v: Value): void { this.vals.push(v); }

  /** Operand cursor over a record: relative ids, with an explicit type for forward references. */
  private valueAndType(o: readonly number[], at: { i: number }): Value {
    const rel = o[at.i++]!;
    const id = (this.vals.length - rel) >>> 0; // ids are unsigned 32-bit: forward references wrap around
    if (id >= this.vals.length) { const ty = this.type(o[at.i++]!); return this.value(id, ty); }
    return this.value(id);
  }
  private relValue(o: readonly number[], at: { i: number }, ty: Type): Value {
    const rel = o[at.i++]!;
    return this.value((this.vals.length - rel) >>> 0, ty);
  }

  private emit(i: Partial<Inst> & { op: Inst['op']; ty: Type; ops: Value[] }): Inst {
    const b = this.blocks[this.cur] ?? fail('instruction after the last basic block');
    const inst: Inst = { kind: 'inst', targets: [], parent: b, name: '', ...i };
    b.insts.push(inst);
    if (i.ty.k !== 'void') this.define(inst);
    if (inst.op === 'ret' || inst.op === 'br' || inst.op === 'condbr' || inst.op === 'switch' || inst.op === 'unreachable') this.cur++;
    return inst;
  }
  private bb(n: number): Block { return this.blocks[n] ?? fail(`bad basic block id ${n}`); }

  private instRecord(rec: BitRecord): void {
    const o = rec.ops;
    const at = { i: 0 };
    const code = rec.code;
    if (code === 1) { // DECLAREBLOCKS
      if (!(o[0]! <= 1_000_000)) fail('bad basic block count');
      for (let k = 0; k < o[0]!; k++) this.blocks.push({ name: '', insts: [], parent: this.fn });
      return;
    }
    if (code === 33 || code === 35 || code === 55 || code === 60) return; // debug locations, operand bundles, blockaddr users
    this.records++;
    if (this.valueRecord(code, o, at) || this.controlRecord(code, o, at) || this.memoryRecord(code, o, at)) return;
    fail(`unsupported instruction record ${code}`);
  }

  /** Arithmetic, casts, compares and selects. False when the record is none of them. */
  private valueRecord(code: number, o: readonly number[], at: { i: number }): boolean {
    switch (code) {
      case 2: { // BINOP [lhs(vt), rhs, opcode, flags?]
        const a = this.valueAndType(o, at);
        const b = this.relValue(o, at, a.ty);
        let op = BINOPS[o[at.i++]!] ?? fail('bad binop');
        const fp = a.ty.k === 'float' || a.ty.k === 'double' || a.ty.k === 'half' || (a.ty.k === 'vector' && a.ty.elem.k !== 'int');
        if (fp) op = FP_BINOP[op] ?? fail(`bad FP binop ${op}`);
        const inst: Partial<Inst> & { op: BinOp; ty: Type; ops: Value[] } = { op, ty: a.ty, ops: [a, b] };
        if (at.i < o.length) {
          const fl = o[at.i]!;
          if (fp) { const f = fmf(fl); if (f) inst.fmf = f; }
          else if (op === 'add' || op === 'sub' || op === 'mul' || op === 'shl') { if (fl & 1) inst.nuw = true; if (fl & 2) inst.nsw = true; }
          else if (fl & 1) inst.exact = true;
        }
        this.emit(inst);
        return true;
      }
      case 56: { // UNOP [op(vt), opcode]  (0 = fneg)
        const a = this.valueAndType(o, at);
        if (o[at.i] !== 0) fail('bad unary opcode');
        this.emit({ op: 'fneg', ty: a.ty, ops: [a] });
        return true;
      }
      case 3: { // CAST [op(vt), destty, opc]
        const a = this.valueAndType(o, at);
        const ty = this.type(o[at.i++]!);
        const op = CASTS[o[at.i++]!] ?? fail('bad cast opcode');
        if (op === 'bitcast' && a.ty.k === 'ptr' && ty.k === 'ptr' && a.ty.as === ty.as) { this.define(a); return true; } // typed-pointer cast: no-op
        this.emit({ op, ty, ops: [a] });
        return true;
      }
      case 9: case 28: { // CMP/CMP2 [lhs(vt), rhs, pred, fmf?]
        const a = this.valueAndType(o, at);
        const b = this.relValue(o, at, a.ty);
        const p = o[at.i++]!;
        const isF = p < 32;
        const pred = isF ? FCMP[p] : ICMP[p - 32];
        if (!pred) fail(`bad compare predicate ${p}`);
        const ty = a.ty.k === 'vector' ? vectorTy(a.ty.n, T.i1) : T.i1;
        const inst: Partial<Inst> & { op: 'fcmp' | 'icmp'; ty: Type; ops: Value[] } = { op: isF ? 'fcmp' : 'icmp', ty, ops: [a, b], pred };
        if (isF && at.i < o.length) { const f = fmf(o[at.i]!); if (f) inst.fmf = f; }
        this.emit(inst);
        return true;
      }
      case 29: { // VSELECT [t(vt), f, cond(vt)]
        const t = this.valueAndType(o, at);
        const f = this.relValue(o, at, t.ty);
        const c = this.valueAndType(o, at);
        this.emit({ op: 'select', ty: t.ty, ops: [c, t, f] });
        return true;
      }
    }
    return false;
  }

  /** Terminators, phis and calls. False when the record is none of them. */
  private controlRecord(code: number, o: readonly number[], at: { i: number }): boolean {
    switch (code) {
      case 10: { // RET
        if (o.length === 0) { this.emit({ op: 'ret', ty: T.void, ops: [] }); return true; }
        const v = this.valueAndType(o, at);
        this.emit({ op: 'ret', ty: T.void, ops: [v] });
        return true;
      }
      case 11: { // BR [bb] | [true, false, cond]
        if (o.length === 1) { this.emit({ op: 'br', ty: T.void, ops: [], targets: [this.bb(o[0]!)] }); return true; }
        const t = this.bb(o[0]!), f = this.bb(o[1]!);
        at.i = 2;
        const c = this.relValue(o, at, T.i1);
        this.emit({ op: 'condbr', ty: T.void, ops: [c], targets: [t, f] });
        return true;
      }
      case 12: { // SWITCH [opty, cond, default, (caseval absolute, bb)*]
        const ty = this.type(o[0]!);
        at.i = 1;
        const cond = this.relValue(o, at, ty);
        const def = this.bb(o[2]!);
        const ops: Value[] = [cond]; const targets: Block[] = [def];
        for (let k = 3; k < o.length; k += 2) { ops.push(this.value(o[k]!, ty)); targets.push(this.bb(o[k + 1]!)); }
        this.emit({ op: 'switch', ty: T.void, ops, targets });
        return true;
      }
      case 15: this.emit({ op: 'unreachable', ty: T.void, ops: [] }); return true;
      case 16: { // PHI [ty, (signed rel val, bb)*]
        const ty = this.type(o[0]!);
        const ops: Value[] = []; const targets: Block[] = [];
        for (let k = 1; k + 1 < o.length; k += 2) {
          const id = this.vals.length - signedVbr(o[k]!);
          ops.push(this.value(id, ty));
          targets.push(this.bb(o[k + 1]!));
        }
        this.emit({ op: 'phi', ty, ops, targets });
        return true;
      }
      case 34: { // CALL [attrs, cc, fmf?, fnty?, callee(vt), args...]
        at.i = 1;
        const cc = o[at.i++]!;
        let flags: string[] | undefined;
        if (cc & (1 << 17)) flags = fmf(o[at.i++]!);
        let fnTy: (Type & { k: 'func' }) | undefined;
        if (cc & (1 << 15)) fnTy = this.fnType(o[at.i++]!);
        const callee = this.valueAndType(o, at);
        if (!fnTy) fnTy = callee.kind === 'func' || callee.kind === 'asm' ? callee.fnTy : fail('indirect call without an explicit function type');
        const args: Value[] = [];
        for (const pt of fnTy.params) {
          if (pt.k === 'label') fail('label arguments are not supported');
          args.push(this.relValue(o, at, pt));
        }
        if (fnTy.varargs) while (at.i < o.length) args.push(this.valueAndType(o, at));
        if (at.i !== o.length) fail('call record has extra operands');
        const inst: Partial<Inst> & { op: 'call'; ty: Type; ops: Value[] } = { op: 'call', ty: fnTy.ret, ops: [callee, ...args], fnTy };
        if (cc & 1) inst.tail = true;
        if (flags) inst.fmf = flags;
        this.emit(inst);
        return true;
      }
    }
    return false;
  }

  /** Allocas, loads, stores, geps and aggregate members. False when the record is none of them. */
  private memoryRecord(code: number, o: readonly number[], at: { i: number }): boolean {
    switch (code) {
      case 19: { // ALLOCA [instty, opty, op (absolute), align]
        const flags = o[3]!;
        let srcTy = this.type(o[0]!);
        if ((flags & 64) === 0) srcTy = this.type(this.pointee.get(o[0]!) ?? fail('alloca of unknown type'));
        const count = this.value(o[2]!, this.type(o[1]!));
        this.emit({ op: 'alloca', ty: T.ptr, ops: [count], srcTy, align: decodeAlign(flags & 31) });
        return true;
      }
      case 20: { // LOAD [ptr(vt), ty, align, vol]
        const p = this.valueAndType(o, at);
        const ty = at.i + 3 === o.length ? this.type(o[at.i++]!) : fail('load without an explicit type');
        const align = decodeAlign(o[at.i++]!);
        const vol = o[at.i++] === 1;
        this.emit({ op: 'load', ty, ops: [p], align, volatile: vol || undefined });
        return true;
      }
      case 44: case 24: { // STORE [ptr(vt), val(vt), align, vol]; STORE_OLD [ptr(vt), val, align, vol]
        const p = this.valueAndType(o, at);
        const v = code === 44 ? this.valueAndType(o, at) : fail('old-style store records are not supported');
        const align = decodeAlign(o[at.i++]!);
        const vol = o[at.i++] === 1;
        this.emit({ op: 'store', ty: T.void, ops: [v, p], align, volatile: vol || undefined });
        return true;
      }
      case 26: { // EXTRACTVAL [agg(vt), idx...]
        const agg = this.valueAndType(o, at);
        const idx = o.slice(at.i);
        let ty = agg.ty;
        for (const k of idx) ty = (ty.k === 'struct' ? ty.fields[k] : ty.k === 'array' && k < ty.n ? ty.elem : undefined) ?? fail('bad extractvalue index');
        this.emit({ op: 'extractvalue', ty, ops: [agg], idx });
        return true;
      }
      case 27: { // INSERTVAL [agg(vt), val(vt), idx...]
        const agg = this.valueAndType(o, at);
        const v = this.valueAndType(o, at);
        this.emit({ op: 'insertvalue', ty: agg.ty, ops: [agg, v], idx: o.slice(at.i) });
        return true;
      }
      case 43: { // GEP [inbounds, ty, base(vt), idx(vt)...]
        const inbounds = o[0] === 1;
        const srcTy = this.type(o[1]!);
        at.i = 2;
        const ops: Value[] = [];
        while (at.i < o.length) ops.push(this.valueAndType(o, at));
        this.emit({ op: 'gep', ty: ops[0]!.ty, ops, srcTy, inbounds });
        return true;
      }
    }
    return false;
  }
}

function fmf(bits: number): string[] | undefined {
  const out: string[] = [];
  if (bits & 1) return ['fast'];
  for (const [b, n] of FMF) if (bits & b) out.push(n);
  return out.length ? out : undefined;
}

/** Read an LLVM bitcode module (libdevice) into our IR. Throws BitcodeError on malformed or unsupported input. */
export function readBitcode(bytes: Uint8Array): BitcodeModule {
  return malformedAsBitcodeError(() => new Reader().read(bytes, false));
}

/** Malformed input can trip any of the reader's assumptions: whatever the failure, it is a BitcodeError. */
function malformedAsBitcodeError<R>(f: () => R): R {
  try { return f(); } catch (e) {
    if (e instanceof BitcodeError) throw e;
    throw new BitcodeError(`malformed bitcode (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

/** A module whose function bodies are read on first use (for linking a few functions out of a large library). */
export interface LazyBitcodeModule {
  module: Module;
  /** True if `f` has a body, read or not yet read. */
  hasBody(f: Func): boolean;
  /** Read `f`'s body into `f.blocks` if not done yet. Throws BitcodeError on malformed input. */
  materialize(f: Func): void;
}

export function readBitcodeLazy(bytes: Uint8Array): LazyBitcodeModule {
  const r = new Reader();
  const { module } = malformedAsBitcodeError(() => r.read(bytes, true));
  return { module, hasBody: f => r.hasBody(f), materialize: f => malformedAsBitcodeError(() => r.materialize(f)) };
}
