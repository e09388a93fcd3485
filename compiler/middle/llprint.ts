// Textual LLVM IR (LLVM 14 syntax, opaque pointers) for our IR. The output is accepted by
// `llvm-as -opaque-pointers` and `opt -opaque-pointers -passes=verify`, which tests use as oracles.
import type { Block, Const, Func, Global, Inst, InlineAsm, Module, Type, Value } from './ir';
import { typeStr } from './ir';

// ---------------------------------------------------------------- names

const PLAIN_NAME = /^[-a-zA-Z$._][-a-zA-Z$._0-9]*$/;

/** An identifier with its sigil, quoted when it contains characters LLVM's lexer does not accept bare. */
function ident(sigil: '@' | '%', name: string): string {
  if (PLAIN_NAME.test(name)) return sigil + name;
  let s = '';
  for (const ch of Buffer.from(name, 'utf8')) {
    if (ch === 0x22 || ch === 0x5c || ch < 0x20 || ch > 0x7e) s += '\\' + ch.toString(16).toUpperCase().padStart(2, '0');
    else s += String.fromCharCode(ch);
  }
  return `${sigil}"${s}"`;
}
export const globalName = (name: string): string => ident('@', name);

/** Escape a string for LLVM `c"..."` / asm strings / metadata strings. */
function escBytes(bytes: Uint8Array): string {
  let s = '';
  for (const ch of bytes) {
    if (ch === 0x22 || ch === 0x5c || ch < 0x20 || ch > 0x7e) s += '\\' + ch.toString(16).toUpperCase().padStart(2, '0');
    else s += String.fromCharCode(ch);
  }
  return s;
}
const escStr = (s: string): string => escBytes(Buffer.from(s, 'utf8'));

// ---------------------------------------------------------------- floating point

const f64buf = new DataView(new ArrayBuffer(8));
function f64Hex(v: number): string {
  f64buf.setFloat64(0, v);
  return '0x' + f64buf.getBigUint64(0).toString(16).toUpperCase().padStart(16, '0');
}
/** f32 bit pattern of a number (rounded to nearest-even). */
export function f32Bits(v: number): number { f64buf.setFloat32(0, v); return f64buf.getUint32(0); }
/** IEEE half bit pattern of a double, round to nearest even. */
export function f16Bits(v: number): number {
  f64buf.setFloat64(0, v);
  const hi = f64buf.getUint32(0);
  const sign = (hi >>> 16) & 0x8000;
  if (Number.isNaN(v)) return sign | 0x7e00;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  // Work with exact arithmetic on the scaled magnitude.
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--; if (2 ** (e + 1) <= a) e++;
  if (e < -14) {
    // subnormal: units of 2^-24
    const q = roundEven(a * 2 ** 24);
    return sign | q; // q may be 0x400 = smallest normal, which has the right encoding
  }
  let m = roundEven((a / 2 ** e - 1) * 1024);
  if (m === 1024) { m = 0; e++; }
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}
function roundEven(x: number): number {
  const f = Math.floor(x), d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}
/** bfloat16 bit pattern: the f32 pattern rounded to its upper 16 bits (nearest even). */
export function bf16Bits(v: number): number {
  if (Number.isNaN(v)) return 0x7fc0;
  const b = f32Bits(v);
  const lower = b & 0xffff, upper = b >>> 16;
  if (lower > 0x8000 || (lower === 0x8000 && (upper & 1))) return (upper + 1) & 0xffff;
  return upper;
}

export function fpConstStr(ty: Type, v: number): string {
  switch (ty.k) {
    case 'double': return f64Hex(v);
    case 'float': return f64Hex(Math.fround(v));
    case 'half': return '0xH' + f16Bits(v).toString(16).toUpperCase().padStart(4, '0');
    case 'bfloat': return '0xR' + bf16Bits(v).toString(16).toUpperCase().padStart(4, '0');
    default: throw new Error(`llprint: fp constant of type ${typeStr(ty)}`);
  }
}

// ---------------------------------------------------------------- constants

export function constStr(c: Const): string {
  switch (c.kind) {
    case 'int':
      if (c.ty.k === 'int' && c.ty.bits === 1) return c.value & 1n ? 'true' : 'false';
      return c.value.toString();
    case 'fp': return fpConstStr(c.ty, c.value);
    case 'null': return 'null';
    case 'undef': return 'undef';
    case 'poison': return 'poison';
    case 'zero': return c.ty.k === 'ptr' ? 'null' : isScalarZeroable(c.ty) ? scalarZero(c.ty) : 'zeroinitializer';
    case 'bytes': return `c"${escBytes(c.bytes)}"`;
    case 'agg': {
      const items = c.elems.map(e => `${typeStr(e.ty)} ${constStr(e)}`).join(', ');
      switch (c.ty.k) {
        case 'array': return `[${items}]`;
        case 'vector': return `<${items}>`;
        case 'struct': return c.ty.packed ? `<{ ${items} }>` : `{ ${items} }`;
        default: throw new Error(`llprint: aggregate constant of type ${typeStr(c.ty)}`);
      }
    }
    case 'cexpr': {
      const base = `${typeStr(c.base.ty)} ${operandRef(c.base)}`;
      if (c.op === 'gep') {
        const idx = (c.indices ?? []).map(i => `, ${typeStr(i.ty)} ${constStr(i)}`).join('');
        return `getelementptr inbounds (${typeStr(c.srcTy!)}, ${base}${idx})`;
      }
      return `${c.op} (${base} to ${typeStr(c.ty)})`;
    }
  }
}
function isScalarZeroable(t: Type): boolean { return t.k === 'int' || t.k === 'float' || t.k === 'double' || t.k === 'half' || t.k === 'bfloat'; }
function scalarZero(t: Type): string {
  if (t.k === 'int') return t.bits === 1 ? 'false' : '0';
  return fpConstStr(t, 0);
}

/** Reference to a value that has no function-local name (constants, globals, functions). */
function operandRef(v: Value): string {
  switch (v.kind) {
    case 'global': case 'func': return globalName(v.name);
    case 'arg': case 'inst': case 'asm': throw new Error('llprint: local value in a constant expression');
    default: return constStr(v);
  }
}

// ---------------------------------------------------------------- functions

const ORDERINGS = new Set(['monotonic', 'acquire', 'release', 'acq_rel', 'seq_cst']);
const scopeStr = (s: string | undefined): string => (s ? ` syncscope("${escStr(s)}")` : '');

class Namer {
  private names = new Map<Value | Block, string>();
  private used = new Set<string>();
  private next = 0;
  constructor(f: Func) {
    for (const a of f.params) this.assign(a, a.name);
    f.blocks.forEach((b, i) => this.assignBlock(b, i));
    for (const b of f.blocks) for (const i of b.insts) if (i.ty.k !== 'void') this.assign(i, i.name);
  }
  private unique(base: string): string {
    let n = base, k = 1;
    while (this.used.has(n)) n = `${base}.${k++}`;
    this.used.add(n);
    return n;
  }
  private assign(v: Value, name: string): void {
    if (name === '' || /^[0-9]+$/.test(name)) { this.names.set(v, '%' + this.next++); return; }
    this.names.set(v, ident('%', this.unique(name)));
  }
  private assignBlock(b: Block, i: number): void {
    // Blocks are always named: numbering them would interleave with value numbers.
    const base = b.name === '' || /^[0-9]+$/.test(b.name) ? `bb${i}` : b.name;
    this.names.set(b, ident('%', this.unique(base)));
  }
  ref(v: Value | Block): string {
    const n = this.names.get(v);
    if (n === undefined) throw new Error('llprint: reference to a value that is not in this function' + ('name' in v && v.name ? ` (${v.name})` : ''));
    return n;
  }
  label(b: Block): string { return this.ref(b).slice(1); }
}

function valueRef(nm: Namer, v: Value): string {
  switch (v.kind) {
    case 'arg': case 'inst': return nm.ref(v);
    case 'global': case 'func': return globalName(v.name);
    case 'asm': return `asm${v.sideEffects ? ' sideeffect' : ''} "${escStr(v.text)}", "${escStr(v.constraints)}"`;
    default: return constStr(v);
  }
}
const typed = (nm: Namer, v: Value): string => `${typeStr(v.ty)} ${valueRef(nm, v)}`;

function fmfStr(i: Inst): string { return i.fmf && i.fmf.length ? ' ' + i.fmf.join(' ') : ''; }
function alignStr(a: number | undefined): string { return a ? `, align ${a}` : ''; }

function instStr(nm: Namer, i: Inst): string {
  const lhs = i.ty.k === 'void' ? '' : `${nm.ref(i)} = `;
  const o = i.ops;
  const r = (k: number): string => valueRef(nm, o[k]!);
  const t = (k: number): string => typed(nm, o[k]!);
  switch (i.op) {
    case 'add': case 'sub': case 'mul': case 'shl': {
      const fl = (i.nuw ? ' nuw' : '') + (i.nsw ? ' nsw' : '');
      return `${lhs}${i.op}${fl} ${t(0)}, ${r(1)}`;
    }
    case 'sdiv': case 'udiv': case 'lshr': case 'ashr':
      return `${lhs}${i.op}${i.exact ? ' exact' : ''} ${t(0)}, ${r(1)}`;
    case 'srem': case 'urem': case 'and': case 'or': case 'xor':
      return `${lhs}${i.op} ${t(0)}, ${r(1)}`;
    case 'fadd': case 'fsub': case 'fmul': case 'fdiv': case 'frem':
      return `${lhs}${i.op}${fmfStr(i)} ${t(0)}, ${r(1)}`;
    case 'fneg': return `${lhs}fneg${fmfStr(i)} ${t(0)}`;
    case 'trunc': case 'zext': case 'sext': case 'fptrunc': case 'fpext': case 'fptoui': case 'fptosi': case 'uitofp':
    case 'sitofp': case 'ptrtoint': case 'inttoptr': case 'bitcast': case 'addrspacecast':
      return `${lhs}${i.op} ${t(0)} to ${typeStr(i.ty)}`;
    case 'icmp': return `${lhs}icmp ${i.pred} ${t(0)}, ${r(1)}`;
    case 'fcmp': return `${lhs}fcmp${fmfStr(i)} ${i.pred} ${t(0)}, ${r(1)}`;
    case 'select': return `${lhs}select${fmfStr(i)} ${t(0)}, ${t(1)}, ${t(2)}`;
    case 'phi': {
      const inc = o.map((v, k) => `[ ${valueRef(nm, v)}, ${nm.ref(i.targets[k]!)} ]`).join(', ');
      return `${lhs}phi${fmfStr(i)} ${typeStr(i.ty)} ${inc}`;
    }
    case 'alloca': {
      const cnt = o[0];
      const count = cnt && !(cnt.kind === 'int' && cnt.value === 1n) ? `, ${t(0)}` : '';
      const as = i.ty.k === 'ptr' && i.ty.as !== 0 ? `, addrspace(${i.ty.as})` : '';
      return `${lhs}alloca ${typeStr(i.srcTy!)}${count}${alignStr(i.align)}${as}`;
    }
    case 'load': return `${lhs}load${i.volatile ? ' volatile' : ''} ${typeStr(i.ty)}, ${t(0)}${alignStr(i.align)}`;
    case 'store': return `store${i.volatile ? ' volatile' : ''} ${t(0)}, ${t(1)}${alignStr(i.align)}`;
    case 'gep': {
      const idx = o.map((_, k) => (k === 0 ? '' : `, ${t(k)}`)).join('');
      return `${lhs}getelementptr${i.inbounds ? ' inbounds' : ''} ${typeStr(i.srcTy!)}, ${t(0)}${idx}`;
    }
    case 'call': {
      const callee = o[0]!;
      const fnTy = i.fnTy ?? (callee.kind === 'func' ? callee.fnTy : callee.kind === 'asm' ? callee.fnTy : undefined);
      if (!fnTy) throw new Error('llprint: call without a function type');
      const sig = fnTy.varargs ? typeStr(fnTy) : typeStr(fnTy.ret);
      const args = o.slice(1).map((a, k) => {
        const f = callee.kind === 'func' ? callee.params[k] : undefined;
        let at = '';
        if (f?.byval) at = ` byval(${typeStr(f.byval)})`;
        else if (f?.sret) at = ` sret(${typeStr(f.sret)})`;
        return `${typeStr(a.ty)}${at} ${valueRef(nm, a)}`;
      }).join(', ');
      const attrs: string[] = [];
      if (callee.kind === 'func' && callee.attrs.convergent) attrs.push('convergent');
      return `${lhs}${i.tail ? 'tail ' : ''}call${fmfStr(i)} ${sig} ${valueRef(nm, callee)}(${args})${attrs.length ? ' ' + attrs.join(' ') : ''}`;
    }
    case 'ret': return o.length ? `ret ${t(0)}` : 'ret void';
    case 'br': return `br label ${nm.ref(i.targets[0]!)}`;
    case 'condbr': return `br ${t(0)}, label ${nm.ref(i.targets[0]!)}, label ${nm.ref(i.targets[1]!)}`;
    case 'switch': {
      const cases = o.slice(1).map((c, k) => `    ${typed(nm, c)}, label ${nm.ref(i.targets[k + 1]!)}`).join('\n');
      return `switch ${t(0)}, label ${nm.ref(i.targets[0]!)} [${cases ? '\n' + cases + '\n  ' : ''}]`;
    }
    case 'unreachable': return 'unreachable';
    case 'atomicrmw':
      return `${lhs}atomicrmw${i.volatile ? ' volatile' : ''} ${i.rmw} ${t(0)}, ${t(1)}${scopeStr(i.scope)} ${ord(i.ordering)}${alignStr(i.align)}`;
    case 'cmpxchg':
      return `${lhs}cmpxchg${i.volatile ? ' volatile' : ''} ${t(0)}, ${t(1)}, ${t(2)}${scopeStr(i.scope)} ${ord(i.ordering)} ${ord(i.failOrdering ?? failFor(i.ordering))}${alignStr(i.align)}`;
    case 'fence': return `fence${scopeStr(i.scope)} ${ord(i.ordering ?? 'seq_cst')}`;
    case 'extractvalue': return `${lhs}extractvalue ${t(0)}, ${(i.idx ?? []).join(', ')}`;
    case 'insertvalue': return `${lhs}insertvalue ${t(0)}, ${t(1)}, ${(i.idx ?? []).join(', ')}`;
    case 'extractelement': return `${lhs}extractelement ${t(0)}, ${t(1)}`;
    case 'insertelement': return `${lhs}insertelement ${t(0)}, ${t(1)}, ${t(2)}`;
  }
}
function ord(o: string | undefined): string {
  const v = o ?? 'monotonic';
  if (!ORDERINGS.has(v)) throw new Error(`llprint: bad atomic ordering ${v}`);
  return v;
}
function failFor(o: string | undefined): string {
  return o === 'acq_rel' ? 'acquire' : o === 'release' ? 'monotonic' : (o ?? 'monotonic');
}

function paramStr(f: Func, k: number, nm: Namer | null): string {
  const a = f.params[k]!;
  const parts = [typeStr(a.ty)];
  for (const at of a.attrs) parts.push(at);
  if (a.byval) parts.push(`byval(${typeStr(a.byval)})`);
  if (a.sret) parts.push(`sret(${typeStr(a.sret)})`);
  if (a.align) parts.push(`align ${a.align}`);
  if (nm) parts.push(nm.ref(a));
  return parts.join(' ');
}

function fnAttrStr(f: Func): string {
  const a: string[] = [];
  if (f.attrs.alwaysinline) a.push('alwaysinline');
  if (f.attrs.noinline) a.push('noinline');
  if (f.attrs.convergent) a.push('convergent');
  if (f.attrs.readnone) a.push('readnone');
  if (f.attrs.readnone && f.name.startsWith('llvm.')) a.push('nounwind');
  return a.length ? ' ' + a.join(' ') : '';
}

function linkageStr(l: string): string { return l === 'external' ? '' : l + ' '; }

export function printFunction(f: Func): string {
  const params = (nm: Namer | null): string =>
    [...f.params.map((_, k) => paramStr(f, k, nm)), ...(f.fnTy.varargs ? ['...'] : [])].join(', ');
  if (f.blocks.length === 0) {
    return `declare ${typeStr(f.fnTy.ret)} ${globalName(f.name)}(${params(null)})${fnAttrStr(f)}\n`;
  }
  const nm = new Namer(f);
  const lines: string[] = [];
  lines.push(`define ${linkageStr(f.linkage)}${typeStr(f.fnTy.ret)} ${globalName(f.name)}(${params(nm)})${fnAttrStr(f)} {`);
  f.blocks.forEach((b, bi) => {
    if (bi > 0) lines.push('');
    lines.push(`${nm.label(b)}:`);
    for (const i of b.insts) lines.push('  ' + instStr(nm, i));
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}

function globalStr(g: Global): string {
  const parts: string[] = [globalName(g.name), '='];
  if (g.init === null) parts.push(g.linkage === 'external' ? 'external' : g.linkage);
  else if (g.linkage !== 'external') parts.push(g.linkage);
  if (g.unnamedAddr) parts.push('unnamed_addr');
  if (g.addrSpace !== 0) parts.push(`addrspace(${g.addrSpace})`);
  if (g.externallyInitialized) parts.push('externally_initialized');
  parts.push(g.isConstant ? 'constant' : 'global');
  parts.push(typeStr(g.valueTy));
  if (g.init !== null) parts.push(constStr(g.init));
  return parts.join(' ') + (g.align ? `, align ${g.align}` : '') + '\n';
}

export function printModule(m: Module): string {
  const out: string[] = [];
  if (m.dataLayout) out.push(`target datalayout = "${escStr(m.dataLayout)}"`);
  if (m.triple) out.push(`target triple = "${escStr(m.triple)}"`);
  out.push('');
  for (const g of m.globals) out.push(globalStr(g).trimEnd());
  if (m.globals.length) out.push('');
  for (const f of m.funcs) out.push(printFunction(f));
  // Metadata: kernel annotations and the NVVM IR version.
  const md: string[] = [];
  const ann: number[] = [];
  for (const f of m.funcs) {
    if (!f.isKernel && f.attrs.maxntid === undefined && f.attrs.minctasm === undefined && f.attrs.maxclusterrank === undefined) continue;
    const ref = `ptr ${globalName(f.name)}`;
    const add = (key: string, v: number): void => { ann.push(md.length); md.push(`!{${ref}, !"${key}", i32 ${v}}`); };
    if (f.isKernel) add('kernel', 1);
    if (f.attrs.maxntid !== undefined) add('maxntidx', f.attrs.maxntid);
    if (f.attrs.minctasm !== undefined) add('minctasm', f.attrs.minctasm);
    if (f.attrs.maxclusterrank !== undefined) add('maxclusterrank', f.attrs.maxclusterrank);
  }
  const ver = md.length; md.push('!{i32 2, i32 0}');
  if (ann.length) out.push(`!nvvm.annotations = !{${ann.map(n => '!' + n).join(', ')}}`);
  out.push(`!nvvmir.version = !{!${ver}}`);
  out.push('');
  md.forEach((s, n) => out.push(`!${n} = ${s}`));
  return out.join('\n') + '\n';
}

/** Short text of one value, for diagnostics (verifier messages). */
export function describeValue(v: Value): string {
  switch (v.kind) {
    case 'inst': return `%${v.name || '?'} (${v.op})`;
    case 'arg': return `%${v.name || 'arg' + v.index}`;
    case 'global': case 'func': return globalName(v.name);
    case 'asm': return `asm "${(v as InlineAsm).text}"`;
    default: return `${typeStr(v.ty)} ${constStr(v)}`;
  }
}
