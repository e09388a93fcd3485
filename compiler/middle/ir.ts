// The IR: SSA, LLVM-shaped, opaque pointers, NVPTX address spaces.
// Types are interned (compare with ===). Instructions are plain objects whose operands are Values;
// the textual printer (llprint.ts) writes LLVM 14 syntax accepted by `llvm-as -opaque-pointers`.

// ---------------------------------------------------------------- types

export const AS = { generic: 0, global: 1, shared: 3, const: 4, local: 5, param: 101 } as const;

export type Type =
  | { readonly k: 'void' }
  | { readonly k: 'label' }
  | { readonly k: 'int'; readonly bits: number }               // i1 i8 i16 i32 i64 i128
  | { readonly k: 'half' } | { readonly k: 'bfloat' }
  | { readonly k: 'float' } | { readonly k: 'double' }
  | { readonly k: 'ptr'; readonly as: number }
  | { readonly k: 'array'; readonly n: number; readonly elem: Type }
  | { readonly k: 'vector'; readonly n: number; readonly elem: Type }
  | { readonly k: 'struct'; readonly fields: readonly Type[]; readonly packed: boolean }
  | { readonly k: 'func'; readonly ret: Type; readonly params: readonly Type[]; readonly varargs: boolean };

const typeTable = new Map<string, Type>();
function intern<T extends Type>(key: string, make: () => T): T {
  let t = typeTable.get(key);
  if (!t) { t = make(); typeTable.set(key, t); }
  return t as T;
}
/** Canonical LLVM spelling of a type; also its interning key. */
export function typeStr(t: Type): string {
  switch (t.k) {
    case 'void': return 'void';
    case 'label': return 'label';
    case 'int': return 'i' + t.bits;
    case 'half': return 'half';
    case 'bfloat': return 'bfloat';
    case 'float': return 'float';
    case 'double': return 'double';
    case 'ptr': return t.as === 0 ? 'ptr' : `ptr addrspace(${t.as})`;
    case 'array': return `[${t.n} x ${typeStr(t.elem)}]`;
    case 'vector': return `<${t.n} x ${typeStr(t.elem)}>`;
    case 'struct': { const b = `{ ${t.fields.map(typeStr).join(', ')} }`; return t.packed ? `<${b}>` : b; }
    case 'func': return `${typeStr(t.ret)} (${[...t.params.map(typeStr), ...(t.varargs ? ['...'] : [])].join(', ')})`;
  }
}
export const T = {
  void: intern('void', () => ({ k: 'void' as const })),
  label: intern('label', () => ({ k: 'label' as const })),
  i1: intern('i1', () => ({ k: 'int' as const, bits: 1 })),
  i8: intern('i8', () => ({ k: 'int' as const, bits: 8 })),
  i16: intern('i16', () => ({ k: 'int' as const, bits: 16 })),
  i32: intern('i32', () => ({ k: 'int' as const, bits: 32 })),
  i64: intern('i64', () => ({ k: 'int' as const, bits: 64 })),
  half: intern('half', () => ({ k: 'half' as const })),
  bfloat: intern('bfloat', () => ({ k: 'bfloat' as const })),
  f32: intern('float', () => ({ k: 'float' as const })),
  f64: intern('double', () => ({ k: 'double' as const })),
  ptr: intern('ptr', () => ({ k: 'ptr' as const, as: 0 })),
};
export function intTy(bits: number): Type { return intern('i' + bits, () => ({ k: 'int', bits })); }
export function ptrTy(as = 0): Type { return as === 0 ? T.ptr : intern(`ptr addrspace(${as})`, () => ({ k: 'ptr', as })); }
export function arrayTy(n: number, elem: Type): Type { return intern(`[${n} x ${typeStr(elem)}]`, () => ({ k: 'array', n, elem })); }
export function vectorTy(n: number, elem: Type): Type { return intern(`<${n} x ${typeStr(elem)}>`, () => ({ k: 'vector', n, elem })); }
export function structTy(fields: readonly Type[], packed = false): Type {
  const b = `{ ${fields.map(typeStr).join(', ')} }`;
  return intern(packed ? `<${b}>` : b, () => ({ k: 'struct', fields: [...fields], packed }));
}
export function funcTy(ret: Type, params: readonly Type[], varargs = false): Type & { k: 'func' } {
  return intern(`${typeStr(ret)} (${[...params.map(typeStr), ...(varargs ? ['...'] : [])].join(', ')})`,
    () => ({ k: 'func', ret, params: [...params], varargs })) as Type & { k: 'func' };
}
export const isInt = (t: Type): t is { k: 'int'; bits: number } => t.k === 'int';
export const isFP = (t: Type): boolean => t.k === 'float' || t.k === 'double' || t.k === 'half' || t.k === 'bfloat';
export const isPtr = (t: Type): t is { k: 'ptr'; as: number } => t.k === 'ptr';

/** NVPTX data layout (e-i64:64-i128:128-v16:16-v32:32-n16:32:64). */
export function sizeOf(t: Type): number {
  switch (t.k) {
    case 'int': return t.bits === 1 ? 1 : Math.ceil(t.bits / 8);
    case 'half': case 'bfloat': return 2;
    case 'float': return 4;
    case 'double': case 'ptr': return 8;
    case 'array': return t.n * sizeOf(t.elem);
    case 'vector': return t.n * sizeOf(t.elem);
    case 'struct': { let off = 0, al = 1; for (const f of t.fields) { const a = t.packed ? 1 : alignOf(f); off = alignTo(off, a) + sizeOf(f); al = Math.max(al, a); } return alignTo(off, al); }
    default: return 0;
  }
}
export function alignOf(t: Type): number {
  switch (t.k) {
    case 'int': return t.bits === 1 ? 1 : Math.min(16, Math.ceil(t.bits / 8));
    case 'array': return alignOf(t.elem);
    case 'vector': return sizeOf(t);
    case 'struct': return t.packed ? 1 : t.fields.reduce((a, f) => Math.max(a, alignOf(f)), 1);
    default: return sizeOf(t) || 1;
  }
}
export function fieldOffset(t: Type & { k: 'struct' }, index: number): number {
  let off = 0;
  for (let i = 0; i < t.fields.length; i++) {
    const f = t.fields[i]!;
    off = alignTo(off, t.packed ? 1 : alignOf(f));
    if (i === index) return off;
    off += sizeOf(f);
  }
  return off;
}
export const alignTo = (n: number, a: number): number => Math.ceil(n / a) * a;

// ---------------------------------------------------------------- values

export type Const =
  | { readonly kind: 'int'; readonly ty: Type; readonly value: bigint }      // value normalised to the type's width, two's complement, as unsigned? no: signed (see cInt)
  | { readonly kind: 'fp'; readonly ty: Type; readonly value: number }       // f32 values are Math.fround-exact
  | { readonly kind: 'null'; readonly ty: Type }
  | { readonly kind: 'undef'; readonly ty: Type }
  | { readonly kind: 'poison'; readonly ty: Type }
  | { readonly kind: 'zero'; readonly ty: Type }                              // zeroinitializer
  | { readonly kind: 'agg'; readonly ty: Type; readonly elems: readonly Const[] } // array / struct / vector
  | { readonly kind: 'bytes'; readonly ty: Type; readonly bytes: Uint8Array } // [n x i8] c"..."
  /** Constant expression: address of a global, possibly cast and offset (for initialisers and operands). */
  | { readonly kind: 'cexpr'; readonly ty: Type; readonly op: 'addrspacecast' | 'bitcast' | 'ptrtoint' | 'gep'; readonly base: Const | Global | Func; readonly srcTy?: Type; readonly indices?: readonly Const[] };

/**
 * A function parameter. Aggregates are passed by pointer: `byval` marks a by-value struct/array parameter
 * (the callee owns a private copy; for kernels it lives in .param space), `sret` a caller-allocated slot
 * for an aggregate return value. Printed as `ptr byval(T) align N` / `ptr sret(T) align N`.
 */
export interface Arg { readonly kind: 'arg'; readonly ty: Type; readonly index: number; name: string; attrs: string[]; byval?: Type; sret?: Type; align?: number }

export interface Global {
  readonly kind: 'global';
  readonly ty: Type;                 // always ptr addrspace(as)
  name: string;
  valueTy: Type;
  addrSpace: number;
  init: Const | null;                // null = external declaration (no initialiser)
  isConstant: boolean;
  linkage: 'external' | 'internal' | 'private' | 'linkonce_odr' | 'weak' | 'common';
  align: number;
  externallyInitialized?: boolean;   // __device__ / __managed__ variables visible to the host
  unnamedAddr?: boolean;
  managed?: boolean;                 // __managed__: PTX `.attribute(.managed)` (NVVM's "managed" annotation)
}

export interface Func {
  readonly kind: 'func';
  readonly ty: Type;                 // ptr (address of the function)
  name: string;
  fnTy: Type & { k: 'func' };
  params: Arg[];
  blocks: Block[];                   // empty for declarations
  linkage: 'external' | 'internal' | 'private' | 'linkonce_odr' | 'weak';
  isKernel: boolean;
  attrs: { noinline?: boolean; alwaysinline?: boolean; readnone?: boolean; readonly?: boolean; convergent?: boolean; maxntid?: number; minctasm?: number; maxclusterrank?: number };
  /** Return-value attributes etc. are not modelled; param attrs live on Arg.attrs. */
  /** -lineinfo: where the function is declared (its entry's `.loc`). */
  loc?: Loc;
}

/**
 * A source position for -lineinfo. Code inlined from another function keeps its own position and says
 * which function it came from (`fn`, mangled) and where that call was (`at`, itself possibly inlined).
 */
export interface Loc { file: string; line: number; col: number; fn?: string; at?: Loc }

export interface InlineAsm { readonly kind: 'asm'; readonly ty: Type; readonly fnTy: Type & { k: 'func' }; text: string; constraints: string; sideEffects: boolean }

export type Value = Const | Arg | Global | Func | Inst | InlineAsm;

export type BinOp = 'add' | 'sub' | 'mul' | 'sdiv' | 'udiv' | 'srem' | 'urem' | 'shl' | 'lshr' | 'ashr' | 'and' | 'or' | 'xor'
  | 'fadd' | 'fsub' | 'fmul' | 'fdiv' | 'frem';
export type CastOp = 'trunc' | 'zext' | 'sext' | 'fptrunc' | 'fpext' | 'fptoui' | 'fptosi' | 'uitofp' | 'sitofp'
  | 'ptrtoint' | 'inttoptr' | 'bitcast' | 'addrspacecast';
export type ICmpPred = 'eq' | 'ne' | 'ugt' | 'uge' | 'ult' | 'ule' | 'sgt' | 'sge' | 'slt' | 'sle';
export type FCmpPred = 'false' | 'oeq' | 'ogt' | 'oge' | 'olt' | 'ole' | 'one' | 'ord' | 'ueq' | 'ugt' | 'uge' | 'ult' | 'ule' | 'une' | 'uno' | 'true';
export type RmwOp = 'xchg' | 'add' | 'sub' | 'and' | 'nand' | 'or' | 'xor' | 'max' | 'min' | 'umax' | 'umin' | 'fadd' | 'fsub';
export type Ordering = 'monotonic' | 'acquire' | 'release' | 'acq_rel' | 'seq_cst';
/** LLVM syncscope: '' = system, 'block' = cta ("cta"?), 'device' = gpu. Printed as syncscope("…") when not ''. */
export type SyncScope = '' | 'block' | 'device';

export type Opcode = BinOp | CastOp | 'fneg' | 'icmp' | 'fcmp' | 'select' | 'phi' | 'alloca' | 'load' | 'store' | 'gep'
  | 'call' | 'ret' | 'br' | 'condbr' | 'switch' | 'unreachable' | 'atomicrmw' | 'cmpxchg' | 'fence'
  | 'extractvalue' | 'insertvalue' | 'extractelement' | 'insertelement';

/**
 * One instruction. `ops` are the value operands in LLVM order:
 *  binop/icmp/fcmp: [a, b]; cast/fneg: [x]; select: [cond, a, b]; phi: incoming values (blocks in `targets`);
 *  alloca: [count] (i32 1 usually); load: [ptr]; store: [value, ptr]; gep: [base, ...indices] (srcTy = element type);
 *  call: [callee, ...args] (callee is Func, InlineAsm, or a pointer Value; fnTy gives the signature);
 *  ret: [] or [v]; br: [] (targets[0]); condbr: [cond] (targets = [then, else]);
 *  switch: [v, ...caseConsts] (targets = [default, ...caseTargets]);
 *  atomicrmw: [ptr, v]; cmpxchg: [ptr, cmp, new] (result type { T, i1 }); fence: [];
 *  extractvalue: [agg] (idx); insertvalue: [agg, v] (idx); extractelement: [vec, idx]; insertelement: [vec, v, idx].
 */
export interface Inst {
  readonly kind: 'inst';
  op: Opcode;
  ty: Type;                          // result type (void for store, br, ...)
  ops: Value[];
  targets: Block[];                  // successors (br/condbr/switch) or incoming blocks (phi)
  parent: Block | null;
  /** Local name without '%', assigned by the printer if empty. */
  name: string;
  pred?: ICmpPred | FCmpPred;
  srcTy?: Type;                      // gep source element type; alloca allocated type; cast source is ops[0].ty
  fnTy?: Type & { k: 'func' };       // call signature
  rmw?: RmwOp;
  ordering?: Ordering;
  failOrdering?: Ordering;
  scope?: SyncScope;
  idx?: number[];                    // extractvalue / insertvalue indices
  align?: number;                    // load/store/alloca alignment; a memcpy's: both pointers' (a C++ object copy)
  volatile?: boolean;
  inbounds?: boolean;
  /** Fast-math flags on FP ops, e.g. ['contract'] or ['fast']. */
  fmf?: string[];
  nsw?: boolean; nuw?: boolean; exact?: boolean;
  /** Marks the call as convergent/no-side-effect hints (e.g. intrinsic attributes). */
  tail?: boolean;
  /** `#pragma unroll` on the loop whose exit test this branch is: 0 = full, 1 = never, N = by N. */
  unroll?: number;
  /** Source position for -lineinfo. */
  loc?: Loc;
}

export interface Block { name: string; insts: Inst[]; parent: Func | null }

export interface Module {
  /** Functions and globals in definition order; the printer and backend keep this order. */
  globals: Global[];
  funcs: Func[];
  /** Named metadata such as nvvm.annotations is derived from Func.isKernel/attrs by the printer. */
  triple: string;          // 'nvptx64-nvidia-cuda'
  dataLayout: string;      // 'e-i64:64-i128:128-v16:16-v32:32-n16:32:64'
}

// ---------------------------------------------------------------- constructors

/** Wrap a bigint to `bits`, signed two's complement (i1 true = -1n is normalised to 1n for readability). */
export function normInt(bits: number, v: bigint): bigint {
  if (bits === 1) return v & 1n;
  return BigInt.asIntN(bits, v);
}
export function cInt(ty: Type, v: bigint | number): Const {
  const bits = (ty as { bits: number }).bits;
  return { kind: 'int', ty, value: normInt(bits, BigInt(v)) };
}
export function cFP(ty: Type, v: number): Const { return { kind: 'fp', ty, value: ty.k === 'float' ? Math.fround(v) : v }; }
export const cNull = (as = 0): Const => ({ kind: 'null', ty: ptrTy(as) });
export const cUndef = (ty: Type): Const => ({ kind: 'undef', ty });
export const cZero = (ty: Type): Const => ({ kind: 'zero', ty });
export const cTrue: Const = { kind: 'int', ty: T.i1, value: 1n };
export const cFalse: Const = { kind: 'int', ty: T.i1, value: 0n };

export function newModule(): Module {
  return { globals: [], funcs: [], triple: 'nvptx64-nvidia-cuda', dataLayout: 'e-i64:64-i128:128-v16:16-v32:32-n16:32:64' };
}
/** A copy of `i` in block `parent`, with arrays of its own (operands, targets, indices, fast-math flags). */
export function cloneInst(i: Inst, parent: Block): Inst {
  return { ...i, ops: i.ops.slice(), targets: i.targets.slice(), parent, idx: i.idx ? i.idx.slice() : undefined, fmf: i.fmf ? i.fmf.slice() : undefined };
}

export function newFunc(name: string, fnTy: Type & { k: 'func' }, linkage: Func['linkage'] = 'external'): Func {
  const f: Func = { kind: 'func', ty: T.ptr, name, fnTy, params: [], blocks: [], linkage, isKernel: false, attrs: {} };
  f.params = fnTy.params.map((ty, index) => ({ kind: 'arg', ty, index, name: '', attrs: [] }));
  return f;
}
export function newGlobal(name: string, valueTy: Type, addrSpace: number, init: Const | null, opts: Partial<Global> = {}): Global {
  return { kind: 'global', ty: ptrTy(addrSpace), name, valueTy, addrSpace, init, isConstant: false, linkage: 'external', align: alignOf(valueTy), ...opts };
}

export const isTerminator = (i: Inst): boolean =>
  i.op === 'ret' || i.op === 'br' || i.op === 'condbr' || i.op === 'switch' || i.op === 'unreachable';

/** Successor blocks of a block (from its terminator). */
export function successors(b: Block): Block[] {
  const t = b.insts[b.insts.length - 1];
  if (!t || !isTerminator(t)) return [];
  return t.op === 'phi' ? [] : t.targets;
}

// ---------------------------------------------------------------- builder

/** Appends instructions at the end of the current block. */
export class Builder {
  block: Block | null = null;
  /** -lineinfo: the position given to every instruction inserted from now on. */
  loc: Loc | undefined;
  constructor(public fn: Func) {}

  newBlock(name: string): Block { const b: Block = { name, insts: [], parent: this.fn }; this.fn.blocks.push(b); return b; }
  /** A block not yet placed in the function (append it later with placeBlock, to keep source order). */
  detachedBlock(name: string): Block { return { name, insts: [], parent: this.fn }; }
  placeBlock(b: Block): void { if (!this.fn.blocks.includes(b)) this.fn.blocks.push(b); }
  setBlock(b: Block): void { this.block = b; }
  /** True if the current block already ends in a terminator (code after return/break is unreachable). */
  terminated(): boolean { const b = this.block; if (!b) return true; const l = b.insts[b.insts.length - 1]; return !!l && isTerminator(l); }

  insert(i: Partial<Inst> & { op: Opcode; ty: Type; ops: Value[] }): Inst {
    const inst: Inst = { kind: 'inst', targets: [], parent: this.block, name: '', ...i };
    if (this.loc && !inst.loc) inst.loc = this.loc;
    if (!this.block) throw new Error('Builder: no current block');
    this.block.insts.push(inst);
    return inst;
  }
  bin(op: BinOp, a: Value, b: Value, extra: Partial<Inst> = {}): Inst { return this.insert({ op, ty: a.ty, ops: [a, b], ...extra }); }
  fneg(a: Value): Inst { return this.insert({ op: 'fneg', ty: a.ty, ops: [a] }); }
  icmp(pred: ICmpPred, a: Value, b: Value): Inst { return this.insert({ op: 'icmp', ty: T.i1, ops: [a, b], pred }); }
  fcmp(pred: FCmpPred, a: Value, b: Value): Inst { return this.insert({ op: 'fcmp', ty: T.i1, ops: [a, b], pred }); }
  cast(op: CastOp, v: Value, to: Type): Inst { return this.insert({ op, ty: to, ops: [v] }); }
  select(c: Value, a: Value, b: Value): Inst { return this.insert({ op: 'select', ty: a.ty, ops: [c, a, b] }); }
  /** Allocas go to the entry block (mem2reg expects them there). */
  alloca(ty: Type, align = alignOf(ty), name = ''): Inst {
    const entry = this.fn.blocks[0]!;
    const inst: Inst = { kind: 'inst', op: 'alloca', ty: T.ptr, ops: [cInt(T.i32, 1)], targets: [], parent: entry, name, srcTy: ty, align };
    let at = 0; while (at < entry.insts.length && entry.insts[at]!.op === 'alloca') at++;
    entry.insts.splice(at, 0, inst);
    return inst;
  }
  load(ty: Type, ptr: Value, align = alignOf(ty), vol = false): Inst { return this.insert({ op: 'load', ty, ops: [ptr], align, volatile: vol || undefined }); }
  store(v: Value, ptr: Value, align = alignOf(v.ty), vol = false): Inst { return this.insert({ op: 'store', ty: T.void, ops: [v, ptr], align, volatile: vol || undefined }); }
  gep(srcTy: Type, base: Value, indices: Value[], inbounds = true): Inst { return this.insert({ op: 'gep', ty: base.ty, ops: [base, ...indices], srcTy, inbounds }); }
  call(callee: Func | InlineAsm | Value, fnTy: Type & { k: 'func' }, args: Value[]): Inst { return this.insert({ op: 'call', ty: fnTy.ret, ops: [callee, ...args], fnTy }); }
  ret(v?: Value): Inst { return this.insert({ op: 'ret', ty: T.void, ops: v ? [v] : [] }); }
  br(to: Block): Inst { return this.insert({ op: 'br', ty: T.void, ops: [], targets: [to] }); }
  condbr(c: Value, t: Block, f: Block): Inst { return this.insert({ op: 'condbr', ty: T.void, ops: [c], targets: [t, f] }); }
  switch_(v: Value, def: Block, cases: [Const, Block][]): Inst {
    return this.insert({ op: 'switch', ty: T.void, ops: [v, ...cases.map(c => c[0])], targets: [def, ...cases.map(c => c[1])] });
  }
  unreachable(): Inst { return this.insert({ op: 'unreachable', ty: T.void, ops: [] }); }
  phi(ty: Type, incoming: [Value, Block][] = []): Inst {
    const b = this.block!;
    const inst: Inst = { kind: 'inst', op: 'phi', ty, ops: incoming.map(x => x[0]), targets: incoming.map(x => x[1]), parent: b, name: '' };
    let at = 0; while (at < b.insts.length && b.insts[at]!.op === 'phi') at++;
    b.insts.splice(at, 0, inst);
    return inst;
  }
  atomicrmw(rmw: RmwOp, ptr: Value, v: Value, ordering: Ordering = 'monotonic', scope: SyncScope = ''): Inst {
    return this.insert({ op: 'atomicrmw', ty: v.ty, ops: [ptr, v], rmw, ordering, scope, align: sizeOf(v.ty) });
  }
  cmpxchg(ptr: Value, cmp: Value, nv: Value, ordering: Ordering = 'monotonic', scope: SyncScope = ''): Inst {
    return this.insert({ op: 'cmpxchg', ty: structTy([cmp.ty, T.i1]), ops: [ptr, cmp, nv], ordering, failOrdering: ordering === 'acq_rel' ? 'acquire' : ordering === 'release' ? 'monotonic' : ordering, scope, align: sizeOf(cmp.ty) });
  }
  fence(ordering: Ordering, scope: SyncScope = ''): Inst { return this.insert({ op: 'fence', ty: T.void, ops: [], ordering, scope }); }
  extractvalue(agg: Value, idx: number[], ty: Type): Inst { return this.insert({ op: 'extractvalue', ty, ops: [agg], idx }); }
  insertvalue(agg: Value, v: Value, idx: number[]): Inst { return this.insert({ op: 'insertvalue', ty: agg.ty, ops: [agg, v], idx }); }
}

/** Get or create a declaration of an intrinsic / external function in the module. */
export function declareFunc(m: Module, name: string, fnTy: Type & { k: 'func' }, attrs: Func['attrs'] = {}): Func {
  let f = m.funcs.find(g => g.name === name);
  if (!f) { f = newFunc(name, fnTy); f.attrs = { ...attrs }; m.funcs.push(f); }
  return f;
}
