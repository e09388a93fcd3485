// Module-scope variables: `.global/.shared/.const` declarations with initialisers, as cicc prints them.
import type { Global, Const, Type, Value } from '../middle/ir';
import { sizeOf, fieldOffset } from '../middle/ir';
import type { CompileOptions } from '../options';
import { Unsupported } from '../diagnostics';
import { ptxName } from './callconv';
import { spaceOf, constGepOffset } from './operands';
import { isScalar, constBytes, fpImm } from './types';

function scalarDeclTy(t: Type): string {
  switch (t.k) {
    case 'int': return t.bits === 1 || t.bits === 8 ? '.u8' : `.u${t.bits}`;
    case 'float': return '.f32';
    case 'double': return '.f64';
    case 'ptr': return '.u64';
    case 'half': case 'bfloat': return '.b16';
    default: throw new Unsupported(`global of type ${t.k}`);
  }
}

/** Symbolic initialiser of a pointer-sized slot: `generic(sym)+off`, `sym`, or a function name. */
function symInit(c: Const | Value, funcRefs: Set<string>): string {
  if (c.kind === 'global') return ptxName(c.name);
  if (c.kind === 'func') { funcRefs.add(c.name); return ptxName(c.name); }
  if (c.kind === 'cexpr') {
    const base = c.base as Value;
    if (c.op === 'bitcast' || c.op === 'ptrtoint') return symInit(base, funcRefs);
    if (c.op === 'addrspacecast') {
      const inner = symInit(base, funcRefs);
      const to = c.ty.k === 'ptr' ? (c.ty as { as: number }).as : 0;
      const from = base.ty.k === 'ptr' ? (base.ty as { as: number }).as : 0;
      if (to === 0 && from !== 0 && base.kind !== 'func') {
        const m = /^(.*?)(\+\d+)?$/.exec(inner)!;
        return `generic(${m[1]})${m[2] ?? ''}`;
      }
      return inner;
    }
    if (c.op === 'gep') {
      const off = constGepOffset(c.srcTy!, c.indices ?? []);
      const inner = symInit(base, funcRefs);
      if (!off) return inner;
      const m = /^(.*?)(?:\+(\d+))?$/.exec(inner)!;
      return `${m[1]}+${off + Number(m[2] ?? 0)}`;
    }
  }
  throw new Unsupported(`global initialiser of kind ${c.kind}`);
}

/** Pointer-sized symbolic slots of a constant: offset → text. */
function symSlots(c: Const, off: number, out: Map<number, string>, funcRefs: Set<string>): void {
  switch (c.kind) {
    case 'cexpr': out.set(off, symInit(c, funcRefs)); return;
    case 'agg': {
      const t = c.ty;
      c.elems.forEach((e, i) => {
        const o = t.k === 'struct' ? fieldOffset(t as Type & { k: 'struct' }, i) : t.k === 'array' || t.k === 'vector' ? i * sizeOf(t.elem) : 0;
        symSlots(e, off + o, out, funcRefs);
      });
      return;
    }
    default: return;
  }
}

function containsSym(c: Const): boolean {
  return c.kind === 'cexpr' || (c.kind === 'agg' && c.elems.some(containsSym));
}

/** Strip cexprs to compute the numeric bytes of the rest. */
function numericPart(c: Const): Const {
  if (c.kind === 'cexpr') return { kind: 'zero', ty: c.ty };
  if (c.kind === 'agg') return { ...c, elems: c.elems.map(numericPart) };
  return c;
}

export function globalDecl(g: Global, opts: CompileOptions, funcRefs: Set<string>): string {
  const space = spaceOf(g.addrSpace);
  if (space === '' || space === 'local' || space === 'param') throw new Unsupported(`global ${g.name} in address space ${g.addrSpace}`);
  const name = ptxName(g.name);
  const internal = g.linkage === 'internal' || g.linkage === 'private';
  const isDecl = g.init === null && !internal;
  const vis = isDecl ? '.extern ' : (!internal && opts.rdc ? (g.linkage === 'weak' || g.linkage === 'linkonce_odr' || g.linkage === 'common' ? '.weak ' : '.visible ') : '');
  const align = Math.max(1, g.align || 1);
  const t = g.valueTy;
  const head = `${vis}.${space}${g.managed ? ' .attribute(.managed)' : ''} .align ${align}`;
  const init = space === 'shared' ? null : g.init;
  if (isScalar(t)) {
    let v = '';
    if (init && init.kind !== 'zero' && init.kind !== 'undef' && init.kind !== 'poison' && init.kind !== 'null') {
      if (init.kind === 'int') v = ` = ${BigInt.asUintN(Math.max(8, sizeOf(t) * 8), init.value).toString()}`;
      else if (init.kind === 'fp') v = ` = ${fpImm(t, init.value)}`;
      else v = ` = ${symInit(init, funcRefs)}`;
    }
    return `${head} ${scalarDeclTy(t)} ${name}${v};`;
  }
  const size = sizeOf(t);
  if (size === 0 || isDecl) return `${head} .b8 ${name}[${size === 0 ? '' : size}];`;
  if (!init || !containsSym(init)) {
    const bytes = init ? constBytes(init) : null;
    let n = bytes ? bytes.length : 0;
    while (n > 0 && bytes![n - 1] === 0) n--;
    const v = n > 0 ? ` = {${Array.from(bytes!.subarray(0, n)).join(', ')}}` : '';
    return `${head} .b8 ${name}[${size}]${v};`;
  }
  // pointers inside: 64-bit slots
  const slots = new Map<number, string>();
  symSlots(init, 0, slots, funcRefs);
  for (const o of slots.keys()) if (o % 8 !== 0) throw new Unsupported(`unaligned pointer in the initialiser of ${g.name}`);
  const bytes = constBytes(numericPart(init))!;
  const n = Math.ceil(size / 8);
  const items: string[] = [];
  for (let k = 0; k < n; k++) {
    const s = slots.get(k * 8);
    if (s) { items.push(s); continue; }
    let v = 0n;
    for (let b = 7; b >= 0; b--) v = (v << 8n) | BigInt(bytes[k * 8 + b] ?? 0);
    items.push(v.toString());
  }
  return `${head} .u64 ${name}[${n}] = {${items.join(', ')}};`;
}
