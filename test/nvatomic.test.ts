// CUDA 13's __nv_atomic_* builtins against the real cicc: every operation, pointee type, memory order and scope
// that cicc accepts, one kernel each; the inline PTX of each of our kernels (atom/ld/st/fence texts, in order)
// must be cicc's, and ptxas must accept our module. The combinations cicc rejects must come back
// unsupported (never an error of ours: the real cicc then gives its own).
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compileWithReference } from './helpers/snippet';
import { mkTempDir, requireTool, run, skipReason } from './helpers/tools';

const skip = skipReason('nvcc', 'ptxas');

const ORDERS = ['RELAXED', 'CONSUME', 'ACQUIRE', 'RELEASE', 'ACQ_REL', 'SEQ_CST'];
const SCOPES = ['THREAD', 'BLOCK', 'CLUSTER', 'DEVICE', 'SYSTEM'];
const ORD = (o: string) => `__NV_ATOMIC_${o}`;
const SCOPE = (s: string) => `__NV_THREAD_SCOPE_${s}`;

/** Kernel bodies cicc compiles (checked by the reference compile itself: prepareUnit fails otherwise). */
function accepted(): string[] {
  const k: string[] = [];
  const rmw: [string, string[]][] = [
    ['fetch_add', ['int', 'unsigned', 'unsigned long long', 'float', 'double']],
    ['fetch_sub', ['int', 'unsigned long long', 'float', 'double']],
    ['fetch_min', ['int', 'unsigned', 'long long', 'unsigned long long']],
    ['fetch_max', ['int', 'long']],
    ['fetch_and', ['int', 'unsigned long long']],
    ['fetch_or', ['unsigned', 'long long']],
    ['fetch_xor', ['int', 'unsigned long']],
    ['exchange_n', ['int', 'unsigned long long']],
  ];
  for (const [op, types] of rmw) for (const t of types) k.push(`(${t} *p, ${t} v) { p[1] = __nv_atomic_${op}(p, v, ${ORD('RELAXED')}, ${SCOPE('DEVICE')}); }`);
  for (const o of ORDERS) for (const s of SCOPES) k.push(`(int *p, int v) { p[1] = __nv_atomic_fetch_add(p, v, ${ORD(o)}, ${SCOPE(s)}); }`);
  for (const o of ORDERS) k.push(`(int *p, int v) { __nv_atomic_thread_fence(${ORD(o)}, ${SCOPE('DEVICE')}); }`);
  for (const o of ['RELAXED', 'CONSUME', 'ACQUIRE', 'SEQ_CST']) k.push(`(int *p, int v) { p[1] = __nv_atomic_load_n(p, ${ORD(o)}, ${SCOPE('SYSTEM')}); }`);
  for (const o of ['RELAXED', 'RELEASE', 'SEQ_CST']) k.push(`(int *p, int v) { __nv_atomic_store_n(p, v, ${ORD(o)}, ${SCOPE('BLOCK')}); }`);
  for (const t of ['char', 'unsigned char', 'short', 'long long']) k.push(`(${t} *p, ${t} v) { p[1] = __nv_atomic_load_n(p, ${ORD('ACQUIRE')}, ${SCOPE('DEVICE')}); __nv_atomic_store_n(p + 2, v, ${ORD('RELEASE')}, ${SCOPE('DEVICE')}); }`);
  for (const [s, f] of [['RELAXED', 'RELAXED'], ['RELEASE', 'ACQUIRE'], ['ACQUIRE', 'RELEASE'], ['ACQ_REL', 'RELAXED'], ['RELAXED', 'SEQ_CST'], ['CONSUME', 'CONSUME']]) {
    k.push(`(int *p, int v) { int e = p[3]; p[1] = __nv_atomic_compare_exchange_n(p, &e, v, false, ${ORD(s!)}, ${ORD(f!)}, ${SCOPE('DEVICE')}); p[2] = e; }`);
  }
  for (const t of ['short', 'unsigned long long']) k.push(`(${t} *p, ${t} v) { ${t} e = p[3]; p[1] = __nv_atomic_compare_exchange_n(p, &e, v, true, ${ORD('ACQ_REL')}, ${ORD('RELAXED')}, ${SCOPE('CLUSTER')}); p[2] = e; }`);
  // no scope: the system's
  k.push(`(int *p, int v) { p[1] = __nv_atomic_fetch_or(p, v, ${ORD('RELAXED')}); __nv_atomic_thread_fence(${ORD('ACQ_REL')}); }`);
  return k;
}

/** Each kernel's inline-asm texts, in order, by entry name; registers by class only (the numbering is the allocator's). */
function inlineAsm(ptx: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of ptx.matchAll(/\.entry\s+(\w+)\(([\s\S]*?)\n\}/g)) {
    out.set(m[1]!, [...m[2]!.matchAll(/\/\/ begin inline asm\n([\s\S]*?)\n\s*\/\/ end inline asm/g)].map(a => a[1]!.trim().replace(/%(rd|rs|r|fd|f|p)\d+/g, '%$1')));
  }
  return out;
}

describe.skipIf(skip !== undefined)(`__nv_atomic_* builtins lower as cicc lowers them ${skip ?? ''}`, () => {
  it('every accepted combination: the same inline PTX as cicc, and ptxas accepts the module', () => {
    const bodies = accepted();
    const src = bodies.map((b, i) => `__global__ void k${i}${b}`).join('\n') + '\n';
    const { r, refPtx } = compileWithReference('nvatomic', src);
    expect(r.unsupported ?? r.diagnostics.map(d => d.message).join('; ')).toBe('');
    expect(r.ok).toBe(true);
    const ours = inlineAsm(r.ptx), ref = inlineAsm(refPtx);
    expect(ref.size).toBe(bodies.length);
    for (const [entry, texts] of ref) expect(ours.get(entry), `${entry}: ${bodies[Number(entry.match(/k(\d+)/)![1])]}`).toEqual(texts);
    const dir = mkTempDir('nvatomic');
    fs.writeFileSync(path.join(dir, 'k.ptx'), r.ptx);
    const as = run(requireTool('ptxas'), ['-arch=sm_90', path.join(dir, 'k.ptx'), '-o', path.join(dir, 'k.cubin')]);
    expect(as.status, as.stderr).toBe(0);
  });

  it('what cicc rejects is unsupported, not an error', () => {
    const rejected = [
      `(long long *p, long long v) { p[1] = __nv_atomic_fetch_add(p, v, ${ORD('RELAXED')}, ${SCOPE('DEVICE')}); }`,
      `(float *p, float v) { p[1] = __nv_atomic_fetch_min(p, v, ${ORD('RELAXED')}, ${SCOPE('DEVICE')}); }`,
      `(float *p, float v) { p[1] = __nv_atomic_exchange_n(p, v, ${ORD('RELAXED')}, ${SCOPE('DEVICE')}); }`,
      `(int *p, int v) { p[1] = __nv_atomic_load_n(p, ${ORD('RELEASE')}, ${SCOPE('DEVICE')}); }`,
      `(int *p, int v) { __nv_atomic_store_n(p, v, ${ORD('ACQUIRE')}, ${SCOPE('DEVICE')}); }`,
      `(int *p, int v, int o) { p[1] = __nv_atomic_fetch_add(p, v, o, ${SCOPE('DEVICE')}); }`,
      `(char *p, char v) { char e = 0; p[1] = __nv_atomic_compare_exchange_n(p, &e, v, false, ${ORD('RELAXED')}, ${ORD('RELAXED')}, ${SCOPE('DEVICE')}); }`,
      `(short *p, short v) { p[1] = __nv_atomic_fetch_add(p, v, ${ORD('RELAXED')}, ${SCOPE('DEVICE')}); }`,
    ];
    for (const [i, b] of rejected.entries()) {
      const src = `__global__ void k${b}\n`;
      const dir = mkTempDir('nvatomic-rejected');
      const cu = path.join(dir, `r${i}.cu`);
      fs.writeFileSync(cu, src);
      // the oracle: cicc rejects it
      const stock = run(requireTool('nvcc'), ['-arch=sm_90', '-ptx', cu, '-o', path.join(dir, 'stock.ptx')]);
      expect(stock.status, `cicc accepts ${b}`).not.toBe(0);
      // ours: unsupported (PTXD_FALLBACK=never names the reason), not an error of its own
      const ours = run(requireTool('nvcc'), ['-arch=sm_90', '-ptx', cu, '-o', path.join(dir, 'ours.ptx'), `--cicc-prefix=${path.resolve(__dirname, '..', 'bin', 'ptxd-cicc')}`],
        { env: { ...process.env, PTXD_FALLBACK: 'never' } });
      const unsupported = /ptxd cannot compile this unit: (.*)/.exec(ours.stderr)?.[1];
      expect(unsupported, `${b}: ${ours.stderr}`).toBeDefined();
    }
  });
});
