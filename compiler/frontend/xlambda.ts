// Extended lambdas (nvcc --extended-lambda) as the host stub names them. cudafe++ gives host code a wrapper
// class for each extended lambda's closure, and the real cicc's stub declares an alias of it:
//   typedef __nv_dl_wrapper_t<__nv_dl_tag<int (*)(),(&     ::main), 1> ,float> _ZZ4mainEUlfE_;
//   typedef __nv_hdl_wrapper_t<false,false,false,__nv_dl_tag<...> ,float (float),float> _ZZ4mainEUlfE0_;
// The spacing is EDG's, reproduced byte for byte from the real cicc's output (CUDA 13.0).

import { Unsupported } from '../diagnostics';
import type { CType, ExtendedLambda, RecordDecl } from './ctype';
import { typeName } from './ctype';
import { mangleTypeName } from './mangle';

/**
 * A type as EDG spells it inside the wrapper's template arguments: records and enums fully qualified
 * (`    ::V3` from the global scope, ` ::geo::Pt` from a namespace), `    ::V3 *`, `const     ::V3 &`.
 */
function argSpelling(t: CType): string {
  const cv = (t.q & 1 ? 'const ' : '') + (t.q & 2 ? 'volatile ' : '');
  switch (t.k) {
    case 'record': case 'enum': {
      const r = t.k === 'record' ? t.rec : null;
      if (r && (r.lambda || r.parent)) throw new Unsupported('extended lambda capturing a nested class or a closure');
      const scope = t.k === 'record' ? t.rec.scope : t.en.scope;
      if (scope.includes('(anonymous)')) throw new Unsupported('extended lambda capturing a type from an anonymous namespace');
      let name = t.k === 'record' ? t.rec.name || t.rec.typedefName : t.en.name || t.en.typedefName;
      if (r?.targs) {
        // a class template specialisation: `    ::Acc<    ::P> ` (EDG ends a template-id with a space)
        if (!r.targs.every(a => a.k === 'type')) throw new Unsupported('extended lambda capturing a class template specialisation with value arguments');
        name += `<${r.targs.map(a => argSpelling((a as { ty: CType }).ty)).join(', ')}> `;
      }
      return cv + (scope.length ? ` ::${[...scope, name].join('::')}` : `    ::${name}`);
    }
    case 'ptr': {
      if (t.to.k === 'func' || t.to.k === 'array' || t.q) throw new Unsupported('extended lambda capturing a qualified pointer or a pointer to a function or array');
      const inner = argSpelling(t.to);
      return `${inner}${inner.endsWith('*') ? '' : ' '}*`;
    }
    case 'ref': return `${argSpelling(t.to)} ${t.rv ? '&&' : '&'}`;
    case 'array': case 'func': throw new Unsupported('extended lambda capturing an array or function');
    default: return typeName(t);
  }
}

/** `(&     ::f)` for a global function, `(& :: ns::f)` for one in a namespace (EDG's spacing). */
function fnAddress(f: NonNullable<RecordDecl['lambda']>['fn']): string {
  if (f.cls) return `(& :: ${memberScope(f)}::${f.name})`;
  if (f.isStatic || f.inAnon) {
    // `(&    ::f)` for a static function, `(&    ::ns::f)`, `(&    ::_NV_ANON_NAMESPACE::f)` in the anonymous namespace
    return `(&    ::${[...f.scope.map(n => (n === '(anonymous)' ? '_NV_ANON_NAMESPACE' : n)), f.name].join('::')})`;
  }
  return f.scope.length === 0 ? `(&     ::${f.name})` : `(& :: ${[...f.scope, f.name].join('::')})`;
}

/** `R` or `ns::R` for a member function of a (non-template, non-nested) class; other members are not modelled. */
function memberScope(f: NonNullable<RecordDecl['lambda']>['fn']): string {
  const c = f.cls!;
  if (c.targs || c.parent || c.scope.includes('(anonymous)') || f.staticMember || f.thisQ) throw new Unsupported('extended lambda in a member function of a class template, nested class or anonymous namespace, or a static or cv-qualified one');
  return [...c.scope, c.name].join('::');
}

/** The host spelling of an extended lambda's closure type (cudafe++'s wrapper) and the stub's alias for it. */
export function closureHostSpelling(rec: RecordDecl, moduleId: string): { spelling: string; alias: string; late?: boolean } {
  const l = rec.lambda!;
  const x: ExtendedLambda = l.ext!;
  const f = l.fn;
  if (f.ty.variadic) throw new Unsupported('extended lambda in a variadic function');
  // the tag names the enclosing function's address: `void (*)(float *)`, or for a member `void ( :: R::*)(float *)`
  const fnPtr = `${argSpelling(f.ty.ret)} (${f.cls ? ` :: ${memberScope(f)}::*` : '*'})(${f.ty.params.map(argSpelling).join(', ')})`;
  const caps = (x.capTypes ?? rec.fields.map(fl => fl.ty)).map(t => `,${argSpelling(t)}`).join('');
  let spelling: string;
  if (x.hd) {
    const op = rec.methods!.find(m => m.name === 'operator()')!;
    const tag = `__nv_dl_tag<${fnPtr},${fnAddress(f)}, ${x.tag}> `;
    const b = (v: boolean) => (v ? 'true' : 'false');
    const sig = `${argSpelling(op.ty.ret)} (${op.ty.params.map(argSpelling).join(', ')})`;
    spelling = `__nv_hdl_wrapper_t<${b(x.mutable)},${b(rec.fields.length === 0)},${b(x.noexcept)},${tag},${sig}${caps}>`;
  } else {
    const tag = x.trailingRet
      ? `__nv_dl_trailing_return_tag<${fnPtr},${fnAddress(f)}, ${argSpelling(x.trailingRet)}, ${x.tag}> `
      : `__nv_dl_tag<${fnPtr},${fnAddress(f)}, ${x.tag}> `;
    spelling = `__nv_dl_wrapper_t<${tag}${caps}>`;
  }
  // the alias is the closure's own (local) type name: _Z + Z<function>EUl<params>E[n]_
  return { spelling, alias: mangleTypeName({ k: 'record', rec, q: 0 }, moduleId), ...(x.late ? { late: true } : {}) };
}
