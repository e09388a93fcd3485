// IR verifier: structural SSA rules (as LLVM's verifier checks them) plus the NVVM IR contract rules that
// matter for us (research/seed-optimizer.md §2.23). Returns a list of messages; [] means valid.
import type { Block, Func, Inst, Module, Type, Value } from './ir';
import { T, isTerminator, typeStr, isInt, isPtr, alignOf, sizeOf } from './ir';
import { buildCFG, type CFG } from './analysis/cfg';
import { dominates } from './analysis/dominance';
import { describeValue } from './llprint';

const BIN_INT = new Set(['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor']);
const BIN_FP = new Set(['fadd', 'fsub', 'fmul', 'fdiv', 'frem']);
const ORDS = new Set(['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst']);

const scalarOf = (t: Type): Type => (t.k === 'vector' ? t.elem : t);
const intBits = (t: Type): number => { const s = scalarOf(t); return s.k === 'int' ? s.bits : 0; };
const fpBits = (t: Type): number => {
  const s = scalarOf(t);
  return s.k === 'half' || s.k === 'bfloat' ? 16 : s.k === 'float' ? 32 : s.k === 'double' ? 64 : 0;
};
const bitWidth = (t: Type): number => {
  if (t.k === 'vector') return t.n * bitWidth(t.elem);
  return t.k === 'int' ? t.bits : t.k === 'ptr' ? 64 : fpBits(t);
};
const isFirstClassAgg = (t: Type): boolean => t.k === 'struct' || t.k === 'array';

/** The type reached by indexing `t` with constant/variable indices (struct indices must be constants). */
function indexType(t: Type, idx: readonly (number | null)[]): Type | null {
  let cur: Type = t;
  for (const k of idx) {
    if (cur.k === 'array' || cur.k === 'vector') cur = cur.elem;
    else if (cur.k === 'struct') { if (k === null || k < 0 || k >= cur.fields.length) return null; cur = cur.fields[k]!; }
    else return null;
  }
  return cur;
}

export interface VerifyOptions {
  /** Target SM number (e.g. 90): enables the arch-gated checks (intrinsics, cluster attributes). */
  arch?: number;
}

export function verifyModule(m: Module, vo: VerifyOptions = {}): string[] {
  const errs: string[] = [];
  if (!/^nvptx(64)?-.*-cuda$/.test(m.triple)) errs.push(`module: triple '${m.triple}' is not nvptx[64]-*-cuda`);
  if (!m.dataLayout) errs.push('module: missing data layout');
  else errs.push(...checkDataLayout(m));
  const names = new Set<string>();
  for (const g of [...m.globals, ...m.funcs]) {
    if (!g.name) errs.push('module: unnamed global or function');
    if (names.has(g.name)) errs.push(`module: duplicate symbol @${g.name}`);
    names.add(g.name);
  }
  for (const g of m.globals) {
    const w = `global @${g.name}`;
    if (!isPtr(g.ty) || g.ty.as !== g.addrSpace) errs.push(`${w}: pointer type ${typeStr(g.ty)} does not match addrspace(${g.addrSpace})`);
    if (g.init && g.init.ty !== g.valueTy) errs.push(`${w}: initialiser type ${typeStr(g.init.ty)} is not ${typeStr(g.valueTy)}`);
    if (g.addrSpace === 5 || g.addrSpace === 101) errs.push(`${w}: globals cannot live in addrspace(${g.addrSpace})`);
    // __shared__ variables cannot be statically initialised; cicc emits undef.
    if (g.addrSpace === 3 && g.init && g.init.kind !== 'undef' && g.init.kind !== 'zero') errs.push(`${w}: shared variables cannot have an initialiser`);
  }
  for (const f of m.funcs) errs.push(...verifyFunction(f, m));
  errs.push(...verifyNvvm(m, vo));
  return errs;
}

// ---------------------------------------------------------------- NVVM contract (seeds 000, 002)

/** Data layout: little endian, 64-bit integers 64-bit aligned, pointer width matching the triple. */
function checkDataLayout(m: Module): string[] {
  const errs: string[] = [];
  const specs = m.dataLayout.split('-');
  if (specs[0] !== 'e') errs.push(`module: data layout '${m.dataLayout}' is not little endian ('e')`);
  for (const sp of specs.slice(1)) {
    if (!/^(?:[ifvap]\d*(?::\d+)*|n\d+(?::\d+)*|S\d+|A\d+|G\d+|P\d+|m:[a-z])$/.test(sp)) errs.push(`module: bad data layout specification '${sp}'`);
  }
  if (!specs.includes('i64:64')) errs.push(`module: data layout '${m.dataLayout}' lacks i64:64`);
  const p0 = specs.find(x => /^p(?:0)?:/.test(x));
  const want = m.triple.startsWith('nvptx64') ? 64 : 32;
  if (p0 && Number(p0.split(':')[1]) !== want) errs.push(`module: data layout pointer width ${p0} does not match ${m.triple}`);
  return errs;
}

/** Formal parameter space of a kernel (bytes, params at natural alignment). cicc 13 allows 32764 on every sm_75+ target. */
export const PARAM_SPACE_LIMIT = 32764;

export function kernelParamBytes(f: Func): number {
  let off = 0;
  for (const a of f.params) {
    const t = a.byval ?? a.ty;
    const al = Math.max(a.align ?? 1, alignOf(t));
    off = Math.ceil(off / al) * al + sizeOf(t);
  }
  return off;
}

/** NVVM intrinsics (by name prefix) and the first SM that has them. */
const INTRINSIC_MIN_ARCH: [string, number][] = [
  ['llvm.nvvm.barrier.cluster', 90], ['llvm.nvvm.read.ptx.sreg.cluster', 90], ['llvm.nvvm.mapa', 90],
  ['llvm.nvvm.fence.proxy', 90], ['llvm.nvvm.cp.async.bulk', 90], ['llvm.nvvm.elect.sync', 90],
  ['llvm.nvvm.setmaxnreg', 90], ['llvm.nvvm.wgmma', 90], ['llvm.nvvm.getctarank', 90], ['llvm.nvvm.is_explicit_cluster', 90],
  ['llvm.nvvm.redux.sync', 80], ['llvm.nvvm.cp.async', 80], ['llvm.nvvm.tcgen05', 100],
];

export function intrinsicMinArch(name: string): number {
  let best = 0;
  for (const [p, a] of INTRINSIC_MIN_ARCH) if (name.startsWith(p)) best = Math.max(best, a);
  return best;
}

/**
 * The NVVM IR checks of cicc's verifier that apply to IR we generate: kernel signatures and parameter-space
 * size, kernels not called as functions, address-space rules of kernel parameters (launch arguments),
 * memory accesses per space, atomic widths, and arch-gated intrinsics and attributes.
 */
export function verifyNvvm(m: Module, vo: VerifyOptions = {}): string[] {
  const errs: string[] = [];
  const arch = vo.arch;
  for (const f of m.funcs) {
    const w = `@${f.name}`;
    if (f.isKernel) {
      f.params.forEach((a, k) => {
        if (a.sret) errs.push(`${w}: kernel parameter ${k} is sret (kernels return void)`);
        if (isPtr(a.ty) && !a.byval && (a.ty.as === 3 || a.ty.as === 5 || a.ty.as === 101))
          errs.push(`${w}: kernel parameter ${k} points to addrspace(${a.ty.as}); a launch argument must be a generic, global or constant pointer`);
        if (a.byval && a.byval.k !== 'struct' && a.byval.k !== 'array') errs.push(`${w}: kernel byval parameter ${k} is not an aggregate`);
      });
      const bytes = kernelParamBytes(f);
      if (bytes > PARAM_SPACE_LIMIT) errs.push(`${w}: Formal parameter space overflowed (${bytes} bytes required, max ${PARAM_SPACE_LIMIT} bytes allowed)`);
    }
    if (f.attrs.maxclusterrank !== undefined) {
      if (!f.isKernel) errs.push(`${w}: Cluster dimensions and cluster maximum blocks are only allowed for kernel functions`);
      if (arch !== undefined && arch < 90) errs.push(`${w}: Cluster dimensions and cluster maximum blocks are not supported on pre-Hopper Architectures`);
      if (f.attrs.maxclusterrank === 0) errs.push(`${w}: Cluster maximum blocks must be non-zero`);
    }
    for (const b of f.blocks) for (const i of b.insts) {
      const at = `${w} %${b.name || '?'} ${i.op}`;
      const asOf = (v: Value | undefined): number => (v && isPtr(v.ty) ? v.ty.as : -1);
      if (i.op === 'load' || i.op === 'store') {
        const as = asOf(i.ops[i.op === 'load' ? 0 : 1]);
        if (as === 6) errs.push(`${at}: Tensor Memory loads/stores are not supported`);
        if (i.op === 'store' && as === 101) errs.push(`${at}: store to parameter space`);
        if (i.ordering && as !== 0 && as !== 1 && as !== 3) errs.push(`${at}: atomic load/store on addrspace(${as}) (generic, global or shared only)`);
      }
      if (i.op === 'atomicrmw') {
        const t = i.ty;
        const okInt = isInt(t) && (t.bits === 32 || t.bits === 64);
        const okFp = t.k === 'float' || t.k === 'double' || ((t.k === 'half' || t.k === 'bfloat') && (arch === undefined || arch >= (t.k === 'half' ? 70 : 90)));
        if (!okInt && !okFp) errs.push(`${at}: Atomic operations on ${typeStr(t)} are not supported`);
      }
      if (i.op === 'call') {
        const c = i.ops[0]!;
        if (c.kind === 'func' && c.isKernel) errs.push(`${at}: kernel @${c.name} called as a function (kernels are launched)`);
        if (c.kind === 'func' && /^cudaLaunchDevice/.test(c.name)) {
          const tgt = i.ops[1];
          if (tgt && !(tgt.kind === 'func' && tgt.isKernel)) errs.push(`${at}: the launch target is not a kernel`);
        }
        if (c.kind === 'func' && arch !== undefined) {
          const need = intrinsicMinArch(c.name);
          if (need > arch) errs.push(`${at}: ${c.name} is not supported on sm_${arch} (needs sm_${need})`);
        }
      }
    }
  }
  return errs;
}

export function verifyFunction(f: Func, m?: Module): string[] {
  const errs: string[] = [];
  const where = (b: Block | null, i?: Inst): string => `@${f.name}${b ? ` %${b.name || '?'}` : ''}${i ? ` ${i.op}${i.name ? ' %' + i.name : ''}` : ''}`;
  const err = (b: Block | null, i: Inst | undefined, msg: string): void => { errs.push(`${where(b, i)}: ${msg}`); };

  if (f.fnTy.params.length !== f.params.length) err(null, undefined, 'parameter count does not match the function type');
  f.params.forEach((a, k) => {
    if (a.ty !== f.fnTy.params[k]) err(null, undefined, `parameter ${k} type ${typeStr(a.ty)} does not match ${typeStr(f.fnTy.params[k] ?? T.void)}`);
    if (a.index !== k) err(null, undefined, `parameter ${k} has index ${a.index}`);
    if ((a.byval || a.sret) && !isPtr(a.ty)) err(null, undefined, `byval/sret parameter ${k} is not a pointer`);
  });
  if (f.attrs.alwaysinline && f.attrs.noinline) err(null, undefined, 'both alwaysinline and noinline');
  if (f.isKernel) {
    if (f.fnTy.ret !== T.void) err(null, undefined, 'kernels must return void');
    if (f.blocks.length === 0) err(null, undefined, 'kernel without a body');
    if (f.fnTy.varargs) err(null, undefined, 'kernels cannot be variadic');
  }
  // NVVM: integer parameters and returns narrower than 32 bits need zeroext/signext.
  if (!f.name.startsWith('llvm.') && !f.isKernel) {
    f.params.forEach((a, k) => {
      if (isInt(a.ty) && a.ty.bits < 32 && !a.attrs.some(x => x === 'zeroext' || x === 'signext'))
        err(null, undefined, `i${a.ty.bits} parameter ${k} needs zeroext or signext (NVVM)`);
    });
  }
  if (f.blocks.length === 0) return errs;

  const blockSet = new Set(f.blocks);
  const instBlock = new Map<Inst, Block>();
  const instPos = new Map<Inst, number>();
  for (const b of f.blocks) {
    if (b.parent !== f) err(b, undefined, 'block parent is not this function');
    b.insts.forEach((i, k) => {
      if (instBlock.has(i)) err(b, i, 'instruction appears twice');
      instBlock.set(i, b); instPos.set(i, k);
    });
  }
  // terminators and successors first (the CFG is needed for the rest)
  const before = errs.length;
  for (const b of f.blocks) {
    const last = b.insts[b.insts.length - 1];
    if (!last || !isTerminator(last)) { err(b, undefined, 'block does not end with a terminator'); continue; }
    b.insts.forEach((i, k) => { if (k < b.insts.length - 1 && isTerminator(i)) err(b, i, 'terminator in the middle of a block'); });
    for (const s of last.targets) if (!blockSet.has(s)) err(b, last, `branch to a block (%${s.name}) not in this function`);
  }
  if (errs.length > before) return errs;
  const cfg: CFG = buildCFG(f);
  if ((cfg.preds.get(f.blocks[0]!) ?? []).length) err(f.blocks[0]!, undefined, 'the entry block has predecessors');

  const phiDone = new Set<Block>();
  for (const b of f.blocks) {
    let inPhis = true;
    for (const i of b.insts) {
      if (i.op === 'phi') {
        if (!inPhis) err(b, i, 'phi after a non-phi instruction');
      } else inPhis = false;
      if (i.parent !== b) err(b, i, 'instruction parent is not its block');
      checkInst(f, b, i, err, m);
      // operands: defined, and dominating the use
      i.ops.forEach((o, k) => {
        if (o.kind === 'arg' && f.params[o.index] !== o) err(b, i, `operand ${k} is an argument of another function`);
        if (o.kind !== 'inst') return;
        const db = instBlock.get(o);
        if (!db) { err(b, i, `operand ${k} (${describeValue(o)}) is not in this function (deleted?)`); return; }
        if (o.ty.k === 'void') err(b, i, `operand ${k} has void type`);
        if (i.op === 'phi') {
          const from = i.targets[k];
          if (from && cfg.idom.has(from) && !dominates(cfg, db, from)) err(b, i, `incoming value ${describeValue(o)} does not dominate the end of %${from.name}`);
        } else if (db === b) {
          if (instPos.get(o)! >= instPos.get(i)!) err(b, i, `operand ${k} (${describeValue(o)}) is used before its definition`);
        } else if (cfg.idom.has(b) && !dominates(cfg, db, b)) err(b, i, `operand ${k} (${describeValue(o)}) does not dominate its use`);
      });
    }
    // phi incoming blocks must be exactly the predecessors (as a multiset)
    if (!phiDone.has(b)) {
      phiDone.add(b);
      const preds = cfg.preds.get(b)!;
      const want = new Map<Block, number>();
      for (const p of preds) want.set(p, (want.get(p) ?? 0) + 1);
      for (const i of b.insts) {
        if (i.op !== 'phi') break;
        if (i.ops.length !== i.targets.length) { err(b, i, 'phi values and blocks differ in number'); continue; }
        const have = new Map<Block, number>();
        const val = new Map<Block, Value>();
        i.targets.forEach((p, k) => {
          have.set(p, (have.get(p) ?? 0) + 1);
          const prev = val.get(p);
          if (prev && prev !== i.ops[k] && !(prev.kind === i.ops[k]!.kind && prev.kind !== 'inst' && prev.kind !== 'arg')) err(b, i, `different values for the same predecessor %${p.name}`);
          val.set(p, i.ops[k]!);
        });
        let ok = have.size === want.size;
        for (const [p, n] of want) if (have.get(p) !== n) ok = false;
        if (!ok) err(b, i, `phi incoming blocks [${i.targets.map(x => x.name).join(', ')}] do not match predecessors [${preds.map(x => x.name).join(', ')}]`);
      }
    }
  }
  return errs;
}

type Err = (b: Block | null, i: Inst | undefined, msg: string) => void;

/** One instruction being checked, with the helpers every check uses. */
interface InstCheck {
  f: Func;
  b: Block;
  i: Inst;
  o: Value[];
  err: Err;
  m?: Module;
  /** Reports (and answers false) when i does not have n operands. */
  need: (n: number) => boolean;
  tyIs: (v: Value, t: Type, what: string) => void;
  /** The address space of a pointer value (-1 for a non-pointer). */
  ptrAS: (v: Value) => number;
}

function checkInst(f: Func, b: Block, i: Inst, err: Err, m?: Module): void {
  const o = i.ops;
  const need = (n: number): boolean => { if (o.length !== n) { err(b, i, `expects ${n} operands, has ${o.length}`); return false; } return true; };
  const tyIs = (v: Value, t: Type, what: string): void => { if (v.ty !== t) err(b, i, `${what} has type ${typeStr(v.ty)}, expected ${typeStr(t)}`); };
  const ptrAS = (v: Value): number => (isPtr(v.ty) ? v.ty.as : -1);
  const c: InstCheck = { f, b, i, o, err, m, need, tyIs, ptrAS };
  if (BIN_INT.has(i.op)) {
    if (!need(2)) return;
    if (!intBits(i.ty)) err(b, i, `integer op on ${typeStr(i.ty)}`);
    tyIs(o[0]!, i.ty, 'lhs'); tyIs(o[1]!, i.ty, 'rhs');
    return;
  }
  if (BIN_FP.has(i.op)) {
    if (!need(2)) return;
    if (!fpBits(i.ty)) err(b, i, `fp op on ${typeStr(i.ty)}`);
    tyIs(o[0]!, i.ty, 'lhs'); tyIs(o[1]!, i.ty, 'rhs');
    return;
  }
  if (checkCast(c) || checkChoice(c) || checkMemory(c) || checkControl(c) || checkAggregate(c)) return;
  err(b, i, `unknown opcode ${i.op}`);
}

/** Unary fp and cast instructions: operand count and the types on both sides. False when i is none of them. */
function checkCast(c: InstCheck): boolean {
  const { b, i, o, err, need, tyIs, ptrAS } = c;
  switch (i.op) {
    case 'fneg': if (need(1)) { if (!fpBits(i.ty)) err(b, i, 'fneg of a non-fp type'); tyIs(o[0]!, i.ty, 'operand'); } return true;
    case 'trunc': case 'zext': case 'sext': {
      if (!need(1)) return true;
      const a = intBits(o[0]!.ty), r = intBits(i.ty);
      if (!a || !r) { err(b, i, 'integer cast of non-integers'); return true; }
      if (i.op === 'trunc' ? r >= a : r <= a) err(b, i, `${i.op} from i${a} to i${r}`);
      return true;
    }
    case 'fptrunc': case 'fpext': {
      if (!need(1)) return true;
      const a = fpBits(o[0]!.ty), r = fpBits(i.ty);
      if (!a || !r || (i.op === 'fptrunc' ? r >= a : r <= a)) err(b, i, `${i.op} from ${typeStr(o[0]!.ty)} to ${typeStr(i.ty)}`);
      return true;
    }
    case 'fptoui': case 'fptosi': if (need(1) && (!fpBits(o[0]!.ty) || !intBits(i.ty))) err(b, i, 'bad fp-to-int cast types'); return true;
    case 'uitofp': case 'sitofp': if (need(1) && (!intBits(o[0]!.ty) || !fpBits(i.ty))) err(b, i, 'bad int-to-fp cast types'); return true;
    case 'ptrtoint': if (need(1) && (!isPtr(o[0]!.ty) || !isInt(i.ty))) err(b, i, 'bad ptrtoint types'); return true;
    case 'inttoptr': if (need(1) && (!isInt(o[0]!.ty) || !isPtr(i.ty))) err(b, i, 'bad inttoptr types'); return true;
    case 'bitcast':
      if (!need(1)) return true;
      if (isPtr(o[0]!.ty) !== isPtr(i.ty) || isFirstClassAgg(i.ty) || isFirstClassAgg(o[0]!.ty)) err(b, i, 'bad bitcast types');
      else if (isPtr(i.ty) && ptrAS(o[0]!) !== ptrAS(i)) err(b, i, 'bitcast between address spaces (use addrspacecast)');
      else if (bitWidth(o[0]!.ty) !== bitWidth(i.ty)) err(b, i, 'bitcast between types of different sizes');
      return true;
    case 'addrspacecast':
      if (!need(1)) return true;
      if (!isPtr(o[0]!.ty) || !isPtr(i.ty)) { err(b, i, 'addrspacecast of non-pointers'); return true; }
      if (ptrAS(o[0]!) === ptrAS(i)) err(b, i, 'addrspacecast to the same address space');
      if (ptrAS(o[0]!) !== 0 && ptrAS(i) !== 0) err(b, i, 'addrspacecast between two non-generic spaces (NVVM)');
      return true;
  }
  return false;
}

/** Compares, selects and phis. False when i is none of them. */
function checkChoice(c: InstCheck): boolean {
  const { b, i, o, err, need, tyIs } = c;
  switch (i.op) {
    case 'icmp':
      if (!need(2)) return true;
      if (!(intBits(o[0]!.ty) || isPtr(o[0]!.ty))) err(b, i, 'icmp of non-integers');
      tyIs(o[1]!, o[0]!.ty, 'rhs');
      if (i.ty !== T.i1 && o[0]!.ty.k !== 'vector') err(b, i, 'icmp result must be i1');
      if (!['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle'].includes(i.pred ?? '')) err(b, i, `bad icmp predicate ${i.pred}`);
      return true;
    case 'fcmp':
      if (!need(2)) return true;
      if (!fpBits(o[0]!.ty)) err(b, i, 'fcmp of non-fp values');
      tyIs(o[1]!, o[0]!.ty, 'rhs');
      if (i.ty !== T.i1 && o[0]!.ty.k !== 'vector') err(b, i, 'fcmp result must be i1');
      if (!['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'uno', 'true'].includes(i.pred ?? '')) err(b, i, `bad fcmp predicate ${i.pred}`);
      return true;
    case 'select':
      if (!need(3)) return true;
      if (o[0]!.ty !== T.i1) err(b, i, 'select condition is not i1');
      tyIs(o[1]!, i.ty, 'true value'); tyIs(o[2]!, i.ty, 'false value');
      return true;
    case 'phi':
      if (i.ty.k === 'void' || i.ty.k === 'label') err(b, i, 'phi of void type');
      o.forEach((v, k) => tyIs(v, i.ty, `incoming value ${k}`));
      return true;
  }
  return false;
}

/** Memory instructions: allocas, loads, stores, geps, atomics and fences. False when i is none of them. */
function checkMemory(c: InstCheck): boolean {
  const { b, i, o, err, need, tyIs, ptrAS } = c;
  switch (i.op) {
    case 'alloca':
      if (!i.srcTy) err(b, i, 'alloca without an allocated type');
      if (!isPtr(i.ty) || i.ty.as !== 0) err(b, i, 'alloca must produce a generic (addrspace 0) pointer (NVVM)');
      if (o.length > 1 || (o.length === 1 && !isInt(o[0]!.ty))) err(b, i, 'alloca count must be one integer');
      return true;
    case 'load':
      if (!need(1)) return true;
      if (!isPtr(o[0]!.ty)) err(b, i, 'load from a non-pointer');
      if (i.ty.k === 'void' || i.ty.k === 'label' || i.ty.k === 'func') err(b, i, 'load of a non-first-class type');
      return true;
    case 'store':
      if (!need(2)) return true;
      if (!isPtr(o[1]!.ty)) err(b, i, 'store to a non-pointer');
      if (ptrAS(o[1]!) === 4) err(b, i, 'store to constant memory (addrspace 4)');
      if (o[1]!.kind === 'global' && o[1]!.isConstant) err(b, i, `store to constant global @${o[1]!.name}`);
      if (i.ty !== T.void) err(b, i, 'store has a result');
      return true;
    case 'gep': {
      if (o.length < 1 || !i.srcTy) { err(b, i, 'gep needs a base and a source element type'); return true; }
      if (!isPtr(o[0]!.ty)) err(b, i, 'gep base is not a pointer');
      if (i.ty !== o[0]!.ty) err(b, i, `gep result ${typeStr(i.ty)} differs from base ${typeStr(o[0]!.ty)}`);
      const idx: (number | null)[] = [];
      for (let k = 1; k < o.length; k++) {
        if (!isInt(o[k]!.ty)) err(b, i, `gep index ${k} is not an integer`);
        const c = o[k]!;
        idx.push(c.kind === 'int' ? Number(c.value) : null);
      }
      if (idx.length > 1 && indexType(i.srcTy, idx.slice(1)) === null) err(b, i, `gep indices do not fit ${typeStr(i.srcTy)}`);
      for (let k = 2; k < o.length; k++) {
        const tAt = indexType(i.srcTy, idx.slice(1, k - 1));
        if (tAt && tAt.k === 'struct' && (o[k]!.kind !== 'int' || o[k]!.ty !== T.i32)) err(b, i, `struct index ${k} must be an i32 constant`);
      }
      return true;
    }
    case 'atomicrmw': {
      if (!need(2)) return true;
      if (!isPtr(o[0]!.ty)) err(b, i, 'atomicrmw on a non-pointer');
      tyIs(o[1]!, i.ty, 'value');
      if (i.rmw === 'fadd' || i.rmw === 'fsub') { if (!fpBits(i.ty)) err(b, i, `atomicrmw ${i.rmw} needs fp`); }
      else if (i.rmw !== 'xchg' && !isInt(i.ty)) err(b, i, `atomicrmw ${i.rmw} needs an integer`);
      if (!ORDS.has(i.ordering ?? '') ) err(b, i, 'atomicrmw needs an ordering');
      if (![0, 1, 3].includes(ptrAS(o[0]!))) err(b, i, `atomic on addrspace(${ptrAS(o[0]!)}) (NVVM: generic, global or shared only)`);
      return true;
    }
    case 'cmpxchg': {
      if (!need(3)) return true;
      if (!isPtr(o[0]!.ty)) err(b, i, 'cmpxchg on a non-pointer');
      tyIs(o[2]!, o[1]!.ty, 'new value');
      const t = o[1]!.ty;
      if (!(isInt(t) && [32, 64, 128].includes(t.bits))) err(b, i, `cmpxchg on ${typeStr(t)} (NVVM: i32/i64/i128 only)`);
      if (i.ty.k !== 'struct' || i.ty.fields.length !== 2 || i.ty.fields[0] !== t || i.ty.fields[1] !== T.i1) err(b, i, 'cmpxchg result must be { T, i1 }');
      if (![0, 1, 3].includes(ptrAS(o[0]!))) err(b, i, `cmpxchg on addrspace(${ptrAS(o[0]!)}) (NVVM: generic, global or shared only)`);
      if (!ORDS.has(i.ordering ?? '')) err(b, i, 'cmpxchg needs an ordering');
      if (i.failOrdering === 'release' || i.failOrdering === 'acq_rel') err(b, i, 'cmpxchg failure ordering cannot be release/acq_rel');
      return true;
    }
    case 'fence':
      if (!ORDS.has(i.ordering ?? '') || i.ordering === 'monotonic') err(b, i, 'fence needs acquire, release, acq_rel or seq_cst');
      return true;
  }
  return false;
}

/** Calls and terminators. False when i is none of them. */
function checkControl(c: InstCheck): boolean {
  const { f, b, i, o, err, m, need, tyIs } = c;
  switch (i.op) {
    case 'call': {
      if (o.length < 1 || !i.fnTy) { err(b, i, 'call without callee or function type'); return true; }
      const c = o[0]!;
      const ft = i.fnTy;
      if (c.kind === 'func' && c.fnTy !== ft) err(b, i, `call type ${typeStr(ft)} differs from @${c.name}'s ${typeStr(c.fnTy)}`);
      if (c.kind === 'asm' && c.fnTy !== ft) err(b, i, 'call type differs from the inline asm type');
      if (c.kind !== 'func' && c.kind !== 'asm' && !isPtr(c.ty)) err(b, i, 'callee is not a pointer');
      if (c.kind === 'func' && c.isKernel) err(b, i, `call of kernel @${c.name}`);
      if (c.kind === 'func' && m && !m.funcs.includes(c)) err(b, i, `callee @${c.name} is not in the module`);
      const args = o.slice(1);
      if (ft.varargs ? args.length < ft.params.length : args.length !== ft.params.length) err(b, i, `call with ${args.length} arguments, ${typeStr(ft)} expects ${ft.params.length}`);
      ft.params.forEach((p, k) => { const a = args[k]; if (a) tyIs(a, p, `argument ${k}`); });
      if (i.ty !== ft.ret) err(b, i, `call result type ${typeStr(i.ty)} differs from ${typeStr(ft.ret)}`);
      return true;
    }
    case 'ret': {
      const r = f.fnTy.ret;
      if (r === T.void) { if (o.length) err(b, i, 'ret with a value in a void function'); }
      else if (o.length !== 1) err(b, i, 'ret without a value');
      else tyIs(o[0]!, r, 'return value');
      return true;
    }
    case 'br': if (o.length !== 0 || i.targets.length !== 1) err(b, i, 'br needs one target'); return true;
    case 'condbr':
      if (!need(1)) return true;
      if (o[0]!.ty !== T.i1) err(b, i, 'branch condition is not i1');
      if (i.targets.length !== 2) err(b, i, 'conditional branch needs two targets');
      return true;
    case 'switch': {
      if (o.length < 1 || !isInt(o[0]!.ty)) { err(b, i, 'switch on a non-integer'); return true; }
      if (i.targets.length !== o.length) err(b, i, 'switch cases and targets differ in number');
      const seen = new Set<bigint>();
      for (let k = 1; k < o.length; k++) {
        const c = o[k]!;
        if (c.kind !== 'int' || c.ty !== o[0]!.ty) { err(b, i, `switch case ${k} is not a constant of the switch type`); continue; }
        if (seen.has(c.value)) err(b, i, `duplicate switch case ${c.value}`);
        seen.add(c.value);
      }
      return true;
    }
    case 'unreachable': return true;
  }
  return false;
}

/** Aggregate and vector element access. False when i is none of them. */
function checkAggregate(c: InstCheck): boolean {
  const { b, i, o, err, need, tyIs } = c;
  switch (i.op) {
    case 'extractvalue': {
      if (!need(1)) return true;
      const t = indexType(o[0]!.ty, i.idx ?? []);
      if (!isFirstClassAgg(o[0]!.ty) || !i.idx?.length || t === null) err(b, i, 'bad extractvalue indices');
      else if (t !== i.ty) err(b, i, `extractvalue yields ${typeStr(t)}, result says ${typeStr(i.ty)}`);
      return true;
    }
    case 'insertvalue': {
      if (!need(2)) return true;
      const t = indexType(o[0]!.ty, i.idx ?? []);
      if (!isFirstClassAgg(o[0]!.ty) || !i.idx?.length || t === null) err(b, i, 'bad insertvalue indices');
      else tyIs(o[1]!, t, 'inserted value');
      tyIs(o[0]!, i.ty, 'aggregate');
      return true;
    }
    case 'extractelement':
      if (!need(2)) return true;
      if (o[0]!.ty.k !== 'vector' || !isInt(o[1]!.ty)) err(b, i, 'bad extractelement operands');
      else if ((o[0]!.ty as { elem: Type }).elem !== i.ty) err(b, i, 'extractelement result type');
      return true;
    case 'insertelement':
      if (!need(3)) return true;
      if (o[0]!.ty.k !== 'vector' || !isInt(o[2]!.ty)) err(b, i, 'bad insertelement operands');
      else tyIs(o[1]!, (o[0]!.ty as { elem: Type }).elem, 'inserted element');
      tyIs(o[0]!, i.ty, 'vector');
      return true;
  }
  return false;
}
