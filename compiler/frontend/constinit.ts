// Static initialisation of a device variable of class type (or an array of them) by constructors, as EDG
// decides it for a __device__, __constant__ or __managed__ variable: constexpr constructors with constant
// arguments are evaluated into the object's bytes (constant initialisation); an "empty" constructor (the CUDA
// rule: no parameters, no mem-initializers, an empty body, nothing non-empty below it) leaves the object zero;
// any other constructor that is not constexpr is dynamic initialisation, which cicc rejects. What we cannot
// evaluate and cannot prove dynamic is unsupported (the unit goes to cicc).

import type { Expr, Field, FuncSym, Init, RecordDecl, Stmt, VarSym } from './ast';
import { type Const, type Type as IRType, cInt, cFP, cNull, cZero, fieldOffset, sizeOf } from '../middle/ir';
import { Unsupported } from '../diagnostics';
import { type CType, Q, irType, isFloating, sizeOfC, unqual } from './ctype';
import { type CVal, type ConstEval, evalConst } from './consteval';
import { isNullConst } from './sema';
import { isDynamic } from './virtuals';
import { emptyClass } from './codegen-types';

/** The object's initial bytes, or 'dynamic' (cicc's "dynamic initialization is not supported"). */
export type StaticInit = { k: 'bytes'; bytes: Uint8Array } | { k: 'dynamic' };

/** Why an initialiser is not a constant to us (certain: the language says so, not our limits). */
class NotConstant { constructor(readonly why: string) {} }

const MAX_DEPTH = 512;

/** Whether the initialiser needs the object evaluator: it runs a constructor, copies a non-empty class object or default-initialises elements. */
export function initRunsConstructor(init: Init): boolean {
  switch (init.k) {
    case 'ctor': return true;
    case 'zero': return false;
    // (an empty class's object has no bytes to give: the plain path stores nothing, as cicc)
    case 'expr': return init.e.ty.k === 'record' && !emptyClass(init.e.ty.rec);
    case 'list': {
      const each = (init as { each?: Init }).each;
      // (default-initialised elements `each` only the evaluator places)
      return init.items.some(x => initRunsConstructor(x.init)) || !!each;
    }
  }
}

/** Evaluate a static object's initialiser (see the file comment); throws Unsupported when we cannot tell. */
export function staticObjectInit(init: Init, ty: CType, cx: ConstEval): StaticInit {
  const ev = new ObjectEval(cx);
  const bytes = new Uint8Array(sizeOfC(ty));
  try {
    ev.initInto(init, ty, bytes, 0);
    return { k: 'bytes', bytes };
  } catch (e) {
    if (!(e instanceof NotConstant)) throw e;
    if (emptyInit(init)) return { k: 'bytes', bytes: new Uint8Array(sizeOfC(ty)) };
    if (certainlyDynamic(init)) return { k: 'dynamic' };
    throw new Unsupported(`constant initialization of a device variable: ${e.why}`);
  }
}

/** The IR constant of an object's bytes, shaped as its IR type (the form the aggregate initialisers take). */
export function constOfBytes(ty: IRType, b: Uint8Array, off: number): Const {
  const n = sizeOf(ty);
  let zero = true;
  for (let i = 0; i < n && zero; i++) if (b[off + i] !== 0) zero = false;
  if (zero) return ty.k === 'ptr' ? cNull((ty as { as: number }).as) : cZero(ty);
  const dv = new DataView(b.buffer, b.byteOffset + off, n);
  switch (ty.k) {
    case 'int': {
      let v = 0n;
      for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(b[off + i]!);
      return cInt(ty, v);
    }
    case 'float': return cFP(ty, dv.getFloat32(0, true));
    case 'double': return cFP(ty, dv.getFloat64(0, true));
    case 'struct': return { kind: 'agg', ty, elems: ty.fields.map((f, i) => constOfBytes(f, b, off + fieldOffset(ty, i))) };
    case 'array': {
      const es = sizeOf(ty.elem);
      return { kind: 'agg', ty, elems: Array.from({ length: ty.n }, (_, i) => constOfBytes(ty.elem, b, off + i * es)) };
    }
    default: throw new Unsupported(`constant initialization of a device variable: bytes of a ${ty.k}`);
  }
}

/** A place in an object being built or read: its bytes and the offset of the subobject. */
interface Place { img: Uint8Array; off: number }

class ObjectEval {
  /** Class-type parameters of the constructors being evaluated, by value. */
  private readonly objs = new Map<VarSym, Uint8Array>();
  /** The object the innermost constructor builds. */
  private self: { thisVar: VarSym; at: Place } | null = null;
  private depth = 0;
  constructor(private readonly cx: ConstEval) {}

  initInto(init: Init, ty: CType, img: Uint8Array, off: number, fld?: Field): void {
    switch (init.k) {
      case 'zero': writeScalarOrZero(img, off, ty, 0n, fld); return;
      case 'ctor': this.construct(init.f, init.args, img, off); return;
      case 'expr': {
        const e = init.e;
        if (ty.k === 'record') { img.set(this.objectOf(e), off); return; }
        if (ty.k === 'array') {
          if (e.k !== 'str') throw new NotConstant('array initialised from an expression');
          img.set(e.bytes.subarray(0, sizeOfC(ty)), off);
          return;
        }
        writeScalarOrZero(img, off, ty, this.scalarOf(e, ty), fld);
        return;
      }
      case 'list': {
        if (ty.k === 'array') {
          const es = sizeOfC(ty.elem);
          const each = (init as { each?: Init }).each;
          const set = new Set<number>();
          for (const item of init.items) { set.add(item.path[0]!); this.initInto(item.init, ty.elem, img, off + item.path[0]! * es); }
          if (each) for (let j = 0; j < (ty.n ?? 0); j++) if (!set.has(j)) this.initInto(each, ty.elem, img, off + j * es);
          return;
        }
        if (ty.k === 'record') {
          for (const item of init.items) {
            const f = ty.rec.fields[item.path[0]!]!;
            this.initInto(item.init, f.ty, img, off + f.offset, f);
          }
          return;
        }
        if (init.items.length === 1) { this.initInto(init.items[0]!.init, ty, img, off, fld); return; }
        if (init.items.length === 0) { writeScalarOrZero(img, off, ty, 0n, fld); return; }
        throw new NotConstant('scalar initialised from a list');
      }
    }
  }

  /** A constexpr constructor run on the object at img+off. */
  private construct(f: FuncSym, args: Expr[], img: Uint8Array, off: number): void {
    if (!f.isConstexpr) throw new NotConstant(`constructor ${f.cls?.name ?? f.name} is not constexpr`);
    if (this.depth >= MAX_DEPTH) throw new Unsupported(`constexpr evaluation nested deeper than ${MAX_DEPTH} calls`);
    const body = this.cx.bodyOf(f);
    if (!body || !f.params || !f.thisVar) throw new NotConstant(`constructor ${f.cls?.name ?? f.name} without a body`);
    if (args.length !== f.params.length) throw new NotConstant('default arguments of a constructor');
    // the arguments, in the caller's environment
    const scalars = new Map<VarSym, CVal>();
    const objects: [VarSym, Uint8Array][] = [];
    f.params.forEach((p, i) => {
      const a = args[i]!;
      const pt = p.ty.k === 'ref' ? p.ty.to : p.ty;
      if (p.ty.k === 'ref' && !(pt.q & Q.Const) && !p.ty.rv) throw new NotConstant('a constructor taking a non-const reference');
      if (pt.k === 'record') objects.push([p, this.objectOf(a)]);
      else scalars.set(p, this.scalarOf(a.k === 'temp' && a.init.k === 'expr' ? a.init.e : a, pt));
    });
    const saved = { env: this.cx.env, self: this.self, member: this.cx.member };
    for (const [p, o] of objects) this.objs.set(p, o);
    this.cx.env = scalars;
    this.self = { thisVar: f.thisVar, at: { img, off } };
    this.cx.member = e => this.readMember(e);
    this.depth++;
    try {
      this.run(body);
    } finally {
      this.depth--;
      this.cx.env = saved.env; this.self = saved.self; this.cx.member = saved.member;
      for (const [p] of objects) this.objs.delete(p);
    }
  }

  /** A constructor's statements: member and base initialisers, and an empty body. */
  private run(s: Stmt): void {
    switch (s.k) {
      case 'block': for (const x of s.body) this.run(x); return;
      case 'null': return;
      case 'init': {
        const at = this.place(s.target);
        if (!at) throw new NotConstant('a member initialiser we cannot place');
        const fld = s.target.k === 'member' ? s.target.field as Field : undefined;
        this.initInto(s.init, s.target.ty, at.img, at.off, fld);
        return;
      }
      default: throw new NotConstant(`a constructor body with a ${s.k} statement`);
    }
  }

  /** The value of a scalar initialiser converted to ty. */
  private scalarOf(e: Expr, ty: CType): CVal {
    if (ty.k === 'ptr' || ty.k === 'nullptr') {
      if (isNullConst(e) || stripNoop(e).k === 'cast' && (stripNoop(e) as Expr & { ck: string }).ck === 'null') return 0n;
      throw new NotConstant('a pointer member');
    }
    const v = evalConst(e, this.cx);
    if (v === null) throw new NotConstant('a member initialiser that is not a constant to us');
    if (isFloating(ty)) return typeof v === 'bigint' ? Number(v) : v;
    return typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  }

  /** The bytes of a class-type expression's value. */
  private objectOf(e: Expr): Uint8Array {
    const x = stripNoop(e);
    const size = sizeOfC(x.ty);
    switch (x.k) {
      case 'construct': { const img = new Uint8Array(size); this.construct(x.ctor, x.args, img, 0); return img; }
      case 'temp': { const img = new Uint8Array(size); this.initInto(x.init, x.ty, img, 0); return img; }
      case 'var': {
        const o = this.objs.get(x.sym);
        if (o) return o;
        // another constant object (`constexpr T a{..}; __device__ T b = a;`)
        const v = x.sym;
        if (v.storage !== 'local' && v.storage !== 'param' && (v.isConstexpr || v.ty.q & Q.Const) && v.init) {
          if (this.depth >= MAX_DEPTH) throw new Unsupported(`constexpr evaluation nested deeper than ${MAX_DEPTH} calls`);
          const img = new Uint8Array(size);
          this.depth++;
          try { this.initInto(v.init, v.ty, img, 0); } finally { this.depth--; }
          return img;
        }
        break;
      }
    }
    const at = this.place(x);
    if (at) return at.img.slice(at.off, at.off + size);
    throw new NotConstant(`a class object from a ${x.k} expression`);
  }

  /** Where an lvalue lies in an object we hold: `*this`, a member or base of it, a class-type parameter. */
  private place(e: Expr): Place | null {
    const x = stripNoop(e);
    if (x.k === 'var') { const o = this.objs.get(x.sym); return o ? { img: o, off: 0 } : null; }
    if (x.k === 'deref') {
      const p = stripNoop(x.e);
      if (p.k === 'var' && this.self && p.sym === this.self.thisVar) return this.self.at;
      // an empty base: `*(B *)&obj`
      if (p.k === 'cast' && p.ck === 'p2p') { const a = stripNoop(p.e); if (a.k === 'addr') return this.place(a.e); }
      return null;
    }
    if (x.k === 'member') {
      if (x.arrow) {
        const p = stripNoop(x.e);
        if (p.k === 'var' && this.self && p.sym === this.self.thisVar) return { img: this.self.at.img, off: this.self.at.off + x.field.offset };
        return null;
      }
      const b = this.place(x.e);
      return b ? { img: b.img, off: b.off + x.field.offset } : null;
    }
    return null;
  }

  /** evalConst's view of a member of an object we hold (`o.x` of a parameter, an earlier member of `*this`). */
  private readMember(e: Expr): CVal | null {
    const at = this.place(e);
    const ty = unqual(e.ty);
    if (!at || (ty.k !== 'int' && ty.k !== 'bool' && ty.k !== 'enum' && !isFloating(ty))) return null;
    return readScalar(at.img, at.off, ty, e.k === 'member' ? e.field as Field : undefined);
  }
}

function stripNoop(e: Expr): Expr {
  let x = e;
  while (x.k === 'cast' && (x.ck === 'load' || x.ck === 'noop')) x = x.e;
  return x;
}

/** Little-endian storage of a scalar (a bitfield within its storage unit). */
function writeScalarOrZero(img: Uint8Array, off: number, ty: CType, v: CVal, fld?: Field): void {
  const t = unqual(ty);
  if (t.k === 'record' || t.k === 'array') { img.fill(0, off, off + sizeOfC(t)); return; }
  const n = sizeOfC(t);
  const dv = new DataView(img.buffer, img.byteOffset);
  if (t.k === 'float') { dv.setFloat32(off, Number(v), true); return; }
  if (t.k === 'double') { dv.setFloat64(off, Number(v), true); return; }
  if (t.k !== 'int' && t.k !== 'bool' && t.k !== 'enum' && t.k !== 'ptr' && t.k !== 'nullptr') throw new NotConstant(`a member of type ${t.k}`);
  let iv = typeof v === 'bigint' ? v : BigInt(Math.trunc(v));
  if (t.k === 'bool') iv = iv !== 0n ? 1n : 0n;
  if (fld?.bits !== undefined) {
    const unit = sizeOfC(fld.ty);
    let word = 0n;
    for (let i = unit - 1; i >= 0; i--) word = (word << 8n) | BigInt(img[off + i]!);
    const mask = ((1n << BigInt(fld.bits)) - 1n) << BigInt(fld.bitOff ?? 0);
    word = (word & ~mask) | ((iv << BigInt(fld.bitOff ?? 0)) & mask);
    for (let i = 0; i < unit; i++) { img[off + i] = Number(word & 0xffn); word >>= 8n; }
    return;
  }
  let u = BigInt.asUintN(n * 8, iv);
  for (let i = 0; i < n; i++) { img[off + i] = Number(u & 0xffn); u >>= 8n; }
}

function readScalar(img: Uint8Array, off: number, t: CType, fld?: Field): CVal {
  const dv = new DataView(img.buffer, img.byteOffset);
  if (t.k === 'float') return dv.getFloat32(off, true);
  if (t.k === 'double') return dv.getFloat64(off, true);
  const n = fld?.bits !== undefined ? sizeOfC(fld.ty) : sizeOfC(t);
  let u = 0n;
  for (let i = n - 1; i >= 0; i--) u = (u << 8n) | BigInt(img[off + i]!);
  const signed = t.k === 'int' ? t.signed : t.k === 'enum' ? unqual(t.en.underlying).k === 'int' && (t.en.underlying as CType & { signed: boolean }).signed : false;
  if (fld?.bits !== undefined) {
    u = (u >> BigInt(fld.bitOff ?? 0)) & ((1n << BigInt(fld.bits)) - 1n);
    return signed ? BigInt.asIntN(fld.bits, u) : u;
  }
  return signed ? BigInt.asIntN(n * 8, u) : u;
}

/**
 * CUDA's "empty constructor": trivial, or defined with no parameters, no mem-initializers and an empty body, in a
 * class with no virtual functions or bases and no default member initialisers, whose bases' and class members'
 * default constructors are empty too. A variable initialised by one needs no initialisation (zero bytes).
 */
function emptyInit(init: Init): boolean {
  switch (init.k) {
    case 'zero': return true;
    case 'expr': return false;
    case 'ctor': return init.args.length === 0 && emptyCtor(init.f);
    case 'list': {
      // an implicit default constructor (or default-initialised array elements): what each member gets
      const each = (init as { each?: Init }).each;
      return (init as { partial?: boolean }).partial === true && init.items.every(x => emptyInit(x.init)) && (!each || emptyInit(each));
    }
  }
}

function emptyCtor(f: FuncSym): boolean {
  if (f.ty.params.length !== 0 || (f.initStart !== undefined && f.initStart >= 0)) return false;
  if (f.bodyStart < 0 || f.bodyEnd !== f.bodyStart + 1) return false;
  return !!f.cls && emptyClassMembers(f.cls);
}

function emptyClassMembers(rec: RecordDecl): boolean {
  if (isDynamic(rec)) return false;
  for (const fl of rec.fields) {
    if (fl.defaultInit !== undefined) return false;
    let t: CType = fl.ty;
    while (t.k === 'array') t = t.elem;
    if (t.k !== 'record') continue;
    const ctors = (t.rec.methods ?? []).filter(m => m.ctor && m.ty.params.length === 0 && !m.defaulted);
    if (ctors.length > 0 ? !ctors.every(emptyCtor) : !emptyClassMembers(t.rec)) return false;
  }
  return true;
}

/**
 * Dynamic initialisation for certain: a user-provided constructor that is not constexpr (and not empty) runs,
 * directly or for a member or element.
 */
function certainlyDynamic(init: Init): boolean {
  switch (init.k) {
    case 'ctor': return !init.f.isConstexpr && !init.f.defaulted && init.f.bodyStart >= 0 && !(init.args.length === 0 && emptyCtor(init.f));
    case 'list': {
      const each = (init as { each?: Init }).each;
      return init.items.some(x => certainlyDynamic(x.init)) || (!!each && certainlyDynamic(each));
    }
    default: return false;
  }
}

/** The IR constant of a class-type device variable's static initialiser; 'dynamic' when cicc rejects it. */
export function staticObjectConst(init: Init, ty: CType, cx: ConstEval): Const | 'dynamic' {
  const r = staticObjectInit(init, ty, cx);
  return r.k === 'dynamic' ? 'dynamic' : constOfBytes(irType(ty), r.bytes, 0);
}
