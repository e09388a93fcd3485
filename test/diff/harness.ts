// Differential harness: compile a test program's device code with ptxd (in process, on the .cpp1.ii
// nvcc really produced, with the options from cicc's real argv) and take the real cicc's PTX for the same
// unit; run both in the PTX emulator on the same inputs; report every difference.

import { rng } from '../../bench/rng';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileUnit, type CompileResult } from '../../compiler/compile';
import { KERNELS_DIR, libdeviceBytes, prepareUnit, unitOptions, type PreparedUnit } from '../helpers/tools';
import { Machine, type Dim3 } from '../emulator/machine';
import type { Func } from '../emulator/module';
import { kernelParamOffsets, kernelParamSize } from '../emulator/module';
import type { Arg, BufSpec, Init, KernelSpec, Scalar } from './spec';

/** The arch every differential run compiles for. */
export const DIFF_ARCH = 90;

export function unitFor(name: string): PreparedUnit {
  return prepareUnit(path.join(KERNELS_DIR, `${name}.cu`), DIFF_ARCH);
}

/** ptxd on the captured unit, with the options cicc's real argv gives (plus an optional test mutation). */
export function compileWithPtxd(name: string, testMutation?: string): CompileResult {
  const u = unitFor(name);
  const o = unitOptions(u);
  if (testMutation !== undefined) (o as { testMutation?: string }).testMutation = testMutation;
  return compileUnit(fs.readFileSync(u.ii, 'utf8'), o, { libdevice: libdeviceBytes() });
}

/** The real cicc's PTX for the same unit (written by the capture run nvcc made). */
export function referencePtx(name: string): string {
  const u = unitFor(name);
  if (!u.refPtx) throw new Error(`no reference PTX captured for ${name}`);
  return u.refPtx;
}

// ------------------------------------------------------------------------------------------------

const SIZE: Record<Scalar, number> = { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, i64: 8, u64: 8, f32: 4, f64: 8 };


function setScalar(dv: DataView, off: number, t: Scalar, v: number | bigint): void {
  switch (t) {
    case 'i8': case 'u8': dv.setUint8(off, Number(BigInt.asUintN(8, BigInt(v)))); return;
    case 'i16': case 'u16': dv.setUint16(off, Number(BigInt.asUintN(16, BigInt(v))), true); return;
    case 'i32': case 'u32': dv.setUint32(off, Number(BigInt.asUintN(32, BigInt(v))), true); return;
    case 'i64': case 'u64': dv.setBigUint64(off, BigInt.asUintN(64, BigInt(v)), true); return;
    case 'f32': dv.setFloat32(off, Number(v), true); return;
    case 'f64': dv.setFloat64(off, Number(v), true); return;
  }
}

export function bufferBytes(b: BufSpec): Uint8Array {
  const es = SIZE[b.type];
  const out = new Uint8Array(b.n * es);
  const dv = new DataView(out.buffer);
  const init: Init = b.init ?? { kind: 'zero' };
  const isF = b.type === 'f32' || b.type === 'f64';
  const r = init.kind === 'rand' || init.kind === 'bits' ? rng(init.seed) : null;
  for (let i = 0; i < b.n; i++) {
    let v: number | bigint;
    switch (init.kind) {
      case 'zero': v = 0; break;
      case 'fill': v = init.value; break;
      case 'iota': v = (init.start ?? 0) + i * (init.step ?? 1); break;
      case 'rand': v = isF ? init.min + r!() * (init.max - init.min) : init.min + Math.floor(r!() * (init.max - init.min + 1)); break;
      case 'bits': v = es === 8 ? (BigInt(Math.floor(r!() * 2 ** 32)) << 32n) | BigInt(Math.floor(r!() * 2 ** 32)) : Math.floor(r!() * 2 ** 32); break;
      case 'values': v = init.values[i % init.values.length]!; break;
      case 'fn': v = init.f(i); break;
    }
    if (init.kind === 'bits' && isF) {
      // raw bit patterns for float buffers
      if (es === 4) dv.setUint32(i * 4, Number(v), true); else dv.setBigUint64(i * 8, BigInt(v), true);
    } else setScalar(dv, i * es, b.type, v);
  }
  return out;
}

function dim(d: number | [number, number, number]): Dim3 {
  return typeof d === 'number' ? { x: d, y: 1, z: 1 } : { x: d[0], y: d[1], z: d[2] };
}

/** `saxpy` -> the entry `_Z5saxpy...`; an exact (mangled) name is used as is. */
export function findKernel(m: Machine, name: string): Func {
  const entries = m.module.funcs.filter(f => f.isEntry && !f.external);
  const exact = entries.find(f => f.name === name);
  if (exact) return exact;
  const found = entries.filter(f => {
    const mm = /^_Z(\d+)/.exec(f.name);
    return mm ? f.name.substr(2 + mm[1]!.length, Number(mm[1])) === name : false;
  });
  if (found.length !== 1) throw new Error(`kernel ${name}: ${found.length} matching entries among ${entries.map(f => f.name).join(', ')}`);
  return found[0]!;
}

export function packParams(f: Func, args: Arg[], addrs: Map<string, number>, handles: Map<string, bigint> = new Map()): Uint8Array {
  const offs = kernelParamOffsets(f);
  if (args.length !== f.params.length) throw new Error(`kernel ${f.name} takes ${f.params.length} parameters, spec gives ${args.length}`);
  const out = new Uint8Array(Math.max(kernelParamSize(f), 1));
  const dv = new DataView(out.buffer);
  args.forEach((a, k) => {
    const p = f.params[k]!;
    const off = offs[k]!;
    if ('buf' in a) {
      const addr = addrs.get(a.buf);
      if (addr === undefined) throw new Error(`no buffer ${a.buf}`);
      if (p.size !== 8) throw new Error(`parameter ${k} of ${f.name} is ${p.size} bytes, not a pointer`);
      dv.setBigUint64(off, BigInt(addr), true);
    } else if ('tex' in a || 'surf' in a) {
      const name = 'tex' in a ? `tex ${a.tex}` : `surf ${a.surf}`;
      const h = handles.get(name);
      if (h === undefined) throw new Error(`no ${'tex' in a ? 'texture' : 'surface'} ${'tex' in a ? a.tex : a.surf} in the spec`);
      if (p.size !== 8) throw new Error(`parameter ${k} of ${f.name} is ${p.size} bytes, not an object handle`);
      dv.setBigUint64(off, h, true);
    } else if ('bytes' in a) {
      if (a.bytes.length !== p.size) throw new Error(`parameter ${k} of ${f.name} is ${p.size} bytes, spec gives ${a.bytes.length}`);
      out.set(a.bytes, off);
      for (const [o, b] of a.ptrs ?? []) {
        const addr = addrs.get(b);
        if (addr === undefined) throw new Error(`no buffer ${b}`);
        dv.setBigUint64(off + o, BigInt(addr), true);
      }
    } else {
      if (SIZE[a.t] !== p.size) throw new Error(`parameter ${k} of ${f.name} is ${p.size} bytes, spec gives ${a.t}`);
      setScalar(dv, off, a.t, a.v);
    }
  });
  return out;
}

export interface RunOutput {
  buffers: Map<string, Uint8Array>;
  printf: string;
  trap: string | null;
  steps: number;
  /** Executed instructions of each launch, in order: warp-level issues (steps) and per-thread (laneInsts). */
  launches: { kernel: string; steps: number; laneInsts: number }[];
  /** Parameter layout of each launched kernel (size/align per parameter), for an ABI comparison. */
  abi: string[];
}

/** Run the spec's launches on one PTX module. */
export function runSpec(spec: KernelSpec, ptx: string): RunOutput {
  const m = new Machine(ptx);
  const addrs = new Map<string, number>();
  const names = Object.keys(spec.buffers);
  for (const n of names) {
    const b = spec.buffers[n]!;
    const bytes = bufferBytes(b);
    const a = m.alloc(Math.max(bytes.length, 1));
    m.write(a, bytes);
    addrs.set(n, a);
  }
  for (const [n, b] of Object.entries(spec.symbols ?? {})) if (b.init) m.writeSymbol(n, bufferBytes(b));
  const handles = new Map<string, bigint>();
  const bufAddr = (b: string): number => { const a = addrs.get(b); if (a === undefined) throw new Error(`no buffer ${b}`); return a; };
  for (const [n, t] of Object.entries(spec.textures ?? {})) handles.set(`tex ${n}`, m.createTexture({ ...t, addr: bufAddr(t.buf) }));
  for (const [n, s] of Object.entries(spec.surfaces ?? {})) handles.set(`surf ${n}`, m.createSurface({ ...s, addr: bufAddr(s.buf) }));
  let printf = '';
  let trap: string | null = null;
  let steps = 0;
  const launches: RunOutput['launches'] = [];
  const abi: string[] = [];
  for (const l of spec.launches) {
    const f = findKernel(m, l.kernel);
    abi.push(`${l.kernel}(${f.params.map(p => `${p.size}@${p.align}`).join(',')})`);
    const r = m.launch(f.name, { grid: dim(l.grid), block: dim(l.block), dynShared: l.dynShared ?? 0, params: packParams(f, l.args, addrs, handles) });
    printf += r.printf;
    steps += r.steps;
    launches.push({ kernel: l.kernel, steps: r.steps, laneInsts: r.laneInsts });
    if (r.trap) { trap = r.trap; break; }
  }
  const buffers = new Map<string, Uint8Array>();
  for (const n of names) buffers.set(n, m.read(addrs.get(n)!, Math.max(bufferBytes(spec.buffers[n]!).length, 1)));
  for (const [n, b] of Object.entries(spec.symbols ?? {})) buffers.set(`symbol ${n}`, m.readSymbol(n, bufferBytes(b).length));
  return { buffers, printf, trap, steps, launches, abi };
}

/** Buffers and symbols to compare, under the keys runSpec() stores them. */
function compared(spec: KernelSpec): [string, BufSpec][] {
  return [...Object.entries(spec.buffers), ...Object.entries(spec.symbols ?? {}).map(([n, b]) => [`symbol ${n}`, b] as [string, BufSpec])];
}

function ulpDiff32(a: number, b: number): number {
  // a, b: raw bits; distance in the ordered integer line.
  const ord = (x: number) => (x < 0 ? -2147483648 - x : x);
  return Math.abs(ord(a | 0) - ord(b | 0));
}
function ulpDiff64(a: bigint, b: bigint): bigint {
  const ord = (x: bigint) => (x < 0n ? -(2n ** 63n) - x : x);
  const d = ord(a) - ord(b);
  return d < 0n ? -d : d;
}

function show(t: Scalar, dv: DataView, off: number): string {
  switch (t) {
    case 'i8': return String(dv.getInt8(off)); case 'u8': return String(dv.getUint8(off));
    case 'i16': return String(dv.getInt16(off, true)); case 'u16': return String(dv.getUint16(off, true));
    case 'i32': return String(dv.getInt32(off, true)); case 'u32': return String(dv.getUint32(off, true));
    case 'i64': return String(dv.getBigInt64(off, true)); case 'u64': return String(dv.getBigUint64(off, true));
    case 'f32': return `${dv.getFloat32(off, true)} (0x${dv.getUint32(off, true).toString(16)})`;
    case 'f64': return `${dv.getFloat64(off, true)} (0x${dv.getBigUint64(off, true).toString(16)})`;
  }
}

/** Differences between two runs of the same spec (empty when they agree within the spec's tolerances). */
export function compareRuns(spec: KernelSpec, ours: RunOutput, ref: RunOutput): string[] {
  const out: string[] = [];
  if (ours.abi.join(';') !== ref.abi.join(';')) out.push(`kernel parameter layout differs: ptxd ${ours.abi.join(';')} vs cicc ${ref.abi.join(';')}`);
  if ((ours.trap === null) !== (ref.trap === null) || ours.trap !== ref.trap) out.push(`trap differs: ptxd ${ours.trap ?? 'none'} vs cicc ${ref.trap ?? 'none'}`);
  if (spec.comparePrintf !== false && ours.printf !== ref.printf) out.push(`printf output differs:\n--- ptxd\n${ours.printf}\n--- cicc\n${ref.printf}`);
  for (const [name, b] of compared(spec)) {
    if (b.compare === false) continue;
    const x = ours.buffers.get(name)!, y = ref.buffers.get(name)!;
    const es = SIZE[b.type];
    const ordered = (u: Uint8Array): Uint8Array => {
      if (!b.unordered) return u;
      const els: Uint8Array[] = [];
      for (let i = 0; i < b.n; i++) els.push(u.subarray(i * es, (i + 1) * es));
      els.sort((p, q) => { for (let k = es - 1; k >= 0; k--) if (p[k] !== q[k]) return p[k]! - q[k]!; return 0; });
      const r = new Uint8Array(u.length);
      els.forEach((e, i) => r.set(e, i * es));
      return r;
    };
    const xs = ordered(x), ys = ordered(y);
    const dx = new DataView(xs.buffer, xs.byteOffset, xs.byteLength), dy = new DataView(ys.buffer, ys.byteOffset, ys.byteLength);
    let bad = 0;
    for (let i = 0; i < b.n; i++) {
      if (b.racy?.includes(i)) continue;
      const off = i * es;
      let same: boolean;
      if (b.type === 'f32' && b.ulp) same = ulpDiff32(dx.getInt32(off, true), dy.getInt32(off, true)) <= b.ulp;
      else if (b.type === 'f64' && b.ulp) same = ulpDiff64(dx.getBigInt64(off, true), dy.getBigInt64(off, true)) <= BigInt(b.ulp);
      else {
        same = true;
        for (let k = 0; k < es; k++) if (xs[off + k] !== ys[off + k]) { same = false; break; }
      }
      if (!same) {
        if (bad < 5) out.push(`${name}[${i}]: ptxd ${show(b.type, dx, off)} vs cicc ${show(b.type, dy, off)}`);
        bad++;
      }
    }
    if (bad > 5) out.push(`${name}: ${bad} elements differ in all`);
  }
  return out;
}

/** Names of compared buffers whose contents the launches changed (a spec whose kernels never ran would pass vacuously). */
export function changedOutputs(spec: KernelSpec, run: RunOutput): string[] {
  const changed: string[] = [];
  for (const [name, b] of compared(spec)) {
    if (b.compare === false) continue;
    const before = bufferBytes(b);
    const after = run.buffers.get(name)!;
    if (before.some((v, i) => v !== after[i])) changed.push(name);
  }
  return changed;
}

export interface DiffResult {
  compiled: CompileResult;
  ours?: RunOutput;
  ref?: RunOutput;
  mismatches: string[];
}

/** Compile with ptxd, run both PTX versions, compare. */
export function differential(spec: KernelSpec, testMutation?: string): DiffResult {
  const compiled = compileWithPtxd(spec.name, testMutation);
  if (!compiled.ok || compiled.unsupported) {
    return { compiled, mismatches: [`ptxd did not compile ${spec.name}: ${compiled.unsupported ?? compiled.diagnostics.map(d => d.message).join('; ')}`] };
  }
  const refPtx = referencePtx(spec.name);
  const ref = runSpec(spec, refPtx);
  let ours: RunOutput;
  try {
    ours = runSpec(spec, compiled.ptx);
  } catch (e) {
    return { compiled, ref, mismatches: [`emulating ptxd's PTX failed: ${(e as Error).message}`] };
  }
  return { compiled, ours, ref, mismatches: compareRuns(spec, ours, ref) };
}
