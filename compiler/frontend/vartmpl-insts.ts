// The specialisations of a header's device variable templates that non-template code names. EDG instantiates
// a variable template specialisation where a non-template declaration names it (libcu++'s views::__zip::__fn
// has `return empty<tuple<>>;` in a plain member function nobody calls), and cicc emits it like any other
// namespace-scope device object (`__device__ constexpr`: internal linkage, the _INTERNAL_ prefix).

import type { Expr, VarSym } from './ast';
import type { TArg } from './ctype';
import { isArith, unqual } from './ctype';
import { DeclFlag } from './index-types';
import { Unsupported } from '../diagnostics';
import { Parser, SyntaxAbort } from './parser';
import { dependentArgs, targsKey } from './template-facts';
import type { Unit } from './unit';

/** A variable template specialisation to emit: its template's arguments, for the mangled name and the stub. */
export type VarTmplInst = VarSym & { targs: TArg[]; internalLinkage?: boolean; hostName?: string };

/** The specialisations of the device variable templates `tmpls` (decl indices) named in non-template declarations. */
export function namedDeviceVarInsts(u: Unit, tmpls: number[]): { v: VarTmplInst; at: number }[] {
  if (tmpls.length === 0) return [];
  const toks = u.toks, decls = u.index.decls;
  const byId = new Map<number, number[]>();
  for (const di of tmpls) {
    const d = decls[di]!;
    const id = toks.names.indexOf(d.name);
    if (id >= 0) byId.set(id, [...(byId.get(id) ?? []), di]);
  }
  const lt = toks.names.indexOf('<');
  // the top-level declarations by first token (the index lists them in source order)
  const order = decls.map((_, i) => i).filter(i => decls[i]!.kind !== 'using-directive').sort((a, b) => decls[a]!.first - decls[b]!.first);
  const enclosing = (j: number): number => {
    let lo = 0, hi = order.length - 1, got = -1;
    while (lo <= hi) { const m = (lo + hi) >> 1; if (decls[order[m]!]!.first <= j) { got = order[m]!; lo = m + 1; } else hi = m - 1; }
    return got >= 0 && decls[got]!.last >= j ? got : -1;
  };
  const out: { v: VarTmplInst; at: number }[] = [];
  const seen = new Set<string>();
  for (let j = 0; j + 1 < toks.count; j++) {
    const ents = byId.get(toks.id[j]!);
    if (!ents || toks.id[j + 1] !== lt) continue;
    const prev = j > 0 ? u.text(j - 1) : '';
    if (prev === '.' || prev === '->') continue;
    const ei = enclosing(j);
    if (ei < 0 || ents.includes(ei)) continue;
    const e = decls[ei]!;
    if (e.flags & (DeclFlag.Template | DeclFlag.ExplicitInst)) continue;
    const ns = e.scope ? e.scope.split('::') : [];
    // the name must find this template from where it stands (qualified: the only template of that name)
    const found = prev === '::' ? (ents.length === 1 ? ents : []) : u.templateEntries(u.text(j), ns, 'variable');
    const di = ents.find(x => found.includes(x));
    if (di === undefined) continue;
    const inst = instantiate(u, di, ei, ns, j);
    if (!inst) continue;
    const key = `${di}|${inst.key}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ v: inst.v, at: decls[di]!.first });
  }
  return out;
}

/**
 * The specialisations device code instantiated while its bodies were read (a member template's `empty<T>`), in
 * the order it named them, other than those in `have`: cicc emits them after the others.
 */
export function instantiatedDeviceVarInsts(u: Unit, have: VarSym[]): VarTmplInst[] {
  const decls = u.index.decls;
  const seen = new Set<string>();
  const keyOf = (di: number, args: TArg[]): string => `${di}|${targsKey(u.recIds, args)}`;
  for (const v of have) {
    const t = (v as VarTmplInst).targs;
    if (!t) continue;
    const di = u.templates.varInsts.find(x => decls[x.di]!.name === v.name && targsKey(u.recIds, x.args) === targsKey(u.recIds, t))?.di;
    if (di !== undefined) seen.add(keyOf(di, t));
  }
  const out: VarTmplInst[] = [];
  for (const x of u.templates.varInsts) {
    const d = decls[x.di]!;
    if (!(d.flags & (DeclFlag.Device | DeclFlag.Constant)) || d.kind !== 'variable' || u.isUserFile(d.first)) continue;
    const key = keyOf(x.di, x.args);
    if (seen.has(key)) continue;
    seen.add(key);
    const inst = variableFor(u, x.di, x.args, x.pos);
    if (inst) out.push(inst);
  }
  return out;
}

/** The specialisation named at token j (in declaration ei), or null where its arguments are not read here. */
function instantiate(u: Unit, di: number, ei: number, ns: string[], j: number): { v: VarTmplInst; key: string } | null {
  const e = u.index.decls[ei]!;
  const p = new Parser(u, j + 1, e.last + 1, ns);
  const before = u.diags.length, errs = u.errorCount;
  let args: TArg[];
  try {
    args = p.parseTemplateArgs();
    // a member template of a plain class names it with its own parameters: instantiated only with those
    if (u.errorCount > errs || dependentArgs(args)) return null;
  } catch (x) {
    if (!(x instanceof Unsupported) && !(x instanceof SyntaxAbort)) throw x;
    return null;
  } finally { u.diags.length = before; u.errorCount = errs; }
  const v = variableFor(u, di, args, j);
  return v ? { v, key: targsKey(u.recIds, args) } : null;
}

/** The object of the specialisation di<args> (named at token pos), or null where it cannot be instantiated. */
function variableFor(u: Unit, di: number, args: TArg[], pos: number): VarTmplInst | null {
  const d = u.index.decls[di]!;
  const before = u.diags.length, errs = u.errorCount;
  let value: Expr;
  try {
    value = u.templates.instantiateVariable(di, args, new Parser(u, d.first, d.last + 1, d.scope ? d.scope.split('::') : []), pos);
    if (u.errorCount > errs) return null;
  } catch (x) {
    if (!(x instanceof Unsupported) && !(x instanceof SyntaxAbort)) throw x;
    return null;
  } finally { u.diags.length = before; u.errorCount = errs; }
  const ty = unqual(value.ty);
  if (ty.k === 'record' && !ty.rec.complete) throw new Unsupported(`device variable template ${d.name} of a class we could not instantiate`);
  const empty = value.k === 'temp';
  if (!empty && !(isArith(ty) && (value.k === 'int' || value.k === 'fp'))) throw new Unsupported(`device variable template ${d.name} whose value is neither a constant nor an empty object`);
  if (!d.scope) throw new Unsupported(`device variable template ${d.name} of the global namespace`);
  const v = u.newVar(d.name, ty, 'global', pos) as VarTmplInst;
  v.space = d.flags & DeclFlag.Constant ? 'constant' : 'device';
  v.isConstexpr = (d.flags & DeclFlag.Constexpr) !== 0;
  v.scope = d.scope ? d.scope.split('::') : [];
  v.targs = args;
  if (v.isConstexpr && !(d.flags & DeclFlag.Inline)) v.internalLinkage = true;
  if (!empty) v.constVal = (value as { v: bigint | number }).v;
  v.init = empty ? { k: 'zero', ty } : { k: 'expr', e: value };
  return v;
}
