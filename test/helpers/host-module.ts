// A host module for the middle-end tests that run our IR with LLVM's `lli`: no triple or data layout, a `main`
// with its entry block, and `print`, which prints an i64 with printf.
import { Builder, T, arrayTy, funcTy, newFunc, newGlobal, newModule } from '../../compiler/middle/ir';
import type { Func, Module, Type, Value } from '../../compiler/middle/ir';

/** A function type (as newFunc takes it). */
export const fty = (ret: Type, params: Type[], varargs = false) => funcTy(ret, params, varargs) as Type & { k: 'func' };

export function hostModule(): { m: Module; main: Func; b: Builder; print: (v: Value) => void } {
  const m = newModule();
  m.triple = ''; m.dataLayout = '';
  const fmtTy = arrayTy(6, T.i8);
  const fmt = newGlobal('fmt', fmtTy, 0, { kind: 'bytes', ty: fmtTy, bytes: new Uint8Array([...Buffer.from('%lld\n'), 0]) }, { isConstant: true, linkage: 'private' });
  m.globals.push(fmt);
  const printf = newFunc('printf', fty(T.i32, [T.ptr], true));
  m.funcs.push(printf);
  const main = newFunc('main', fty(T.i32, []));
  m.funcs.push(main);
  const b = new Builder(main);
  b.setBlock(b.newBlock('entry'));
  return { m, main, b, print: (v: Value) => { b.call(printf, printf.fnTy, [fmt, v]); } };
}
