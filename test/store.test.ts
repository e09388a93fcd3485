// The unit cache store (daemon/store): value validation, keys, eviction, corruption handling, several
// processes on one directory, and an unusable directory. Real LMDB (lmdb-js) in temp directories.

import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeValue, encodeValue, type UnitValue } from '../service/store/value';
import { unitKey, type KeyParts } from '../service/unit-key';
import { Store } from '../service/store/store';
import { checkFile, walkFile } from '../service/store/guard';
import { makeDirs } from '../service/mkdirs';
import { errorName, isCorruption } from '../service/errno';
import { UnitService } from '../service/unit';
import { defaultOptions } from '../compiler/options';
import { compileUnit } from '../compiler/compile';
import { REPO_ROOT, mkTempDir, prepareUnit, skipReason } from './helpers/tools';

const value = (ptx: string, extra: Partial<UnitValue> = {}): UnitValue => ({
  ok: true, ptx, stub: `stub of ${ptx.slice(0, 8)}`, compileMs: 12.5,
  diagnostics: [{ severity: 'warning', file: 'k.cu', line: 3, number: 177, message: 'variable "x" was declared but never referenced' }],
  ...extra,
});

describe('cache values', () => {
  it('round-trip, warnings included', () => {
    const v = value('.version 9.0\n.target sm_90\n');
    expect(decodeValue(encodeValue(v))).toEqual(v);
  });

  it('a flipped byte, a truncation, an extension or a wrong magic is detected', () => {
    const b = encodeValue(value('x'.repeat(1000)));
    for (const i of [0, 5, 10, 30, b.length - 1]) {
      const c = Buffer.from(b);
      c[i] ^= 0x40;
      expect(decodeValue(c), `byte ${i}`).toBeUndefined();
    }
    expect(decodeValue(b.subarray(0, b.length - 1))).toBeUndefined();
    expect(decodeValue(Buffer.concat([b, Buffer.from([0])]))).toBeUndefined();
    expect(decodeValue(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('unit keys', () => {
  const base: KeyParts = { version: '0.1.0', compilerHash: 'c0', libdeviceHash: 'l0', options: defaultOptions(), env: {}, source: Buffer.from('int x;') };

  it('change with the source, version, compiler, libdevice, environment and every option field', () => {
    const k0 = unitKey(base);
    expect(unitKey({ ...base })).toBe(k0);
    const variants: KeyParts[] = [
      { ...base, source: Buffer.from('int y;') },
      { ...base, version: '0.1.1' },
      { ...base, compilerHash: 'c1' },
      { ...base, libdeviceHash: 'l1' },
      { ...base, env: { SOME_VAR: '1' } },
    ];
    const o = defaultOptions() as unknown as Record<string, unknown>;
    for (const f of Object.keys(o)) {
      const v = o[f];
      const changed = typeof v === 'boolean' ? !v : typeof v === 'number' ? v + 1 : typeof v === 'string' ? `${v}x` : [...(v as string[]), '99'];
      variants.push({ ...base, options: { ...defaultOptions(), [f]: changed } as KeyParts['options'] });
    }
    const keys = variants.map(unitKey);
    expect(keys).not.toContain(k0);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('does not depend on the order of option fields', () => {
    const o = defaultOptions() as unknown as Record<string, unknown>;
    const reversed = Object.fromEntries(Object.keys(o).reverse().map(k => [k, o[k]]));
    expect(unitKey({ ...base, options: reversed as unknown as KeyParts['options'] })).toBe(unitKey(base));
  });
});

describe('LMDB store', () => {
  it('stores, reads back, and counts', () => {
    const s = Store.open(mkTempDir('store'), 1 << 30);
    try {
      expect(s.get('a')).toEqual({ corrupt: false });
      s.put('a', value('A'));
      expect(s.get('a')).toEqual({ value: value('A'), corrupt: false });
      s.addCounters({ hits: 2, misses: 1, savedMs: 3.5 });
      s.addCounters({ hits: 1 });
      expect(s.counters()).toMatchObject({ hits: 3, misses: 1, savedMs: 3.5 });
      expect(s.info().entries).toBe(1);
    } finally {
      s.close();
    }
  });

  it('a corrupt value is a miss, is removed, and verify finds what was corrupted behind its back', () => {
    const s = Store.open(mkTempDir('store'), 1 << 30);
    try {
      s.put('good', value('G'));
      s.put('bad', value('B'));
      const raw = s.getRaw('bad')!;
      raw[raw.length - 3] ^= 1;
      s.putRaw('bad', raw);
      expect(s.get('bad')).toEqual({ corrupt: true });
      expect(s.getRaw('bad')).toBeUndefined();
      s.putRaw('bad2', Buffer.from('garbage'));
      const v = s.verify();
      expect(v).toEqual({ checked: 2, corrupt: ['bad2'] });
      expect(s.keys()).toEqual(['good']);
    } finally {
      s.close();
    }
  });

  it('evicts the least recently used values when over the size limit, never the one just stored', async () => {
    const size = encodeValue(value('p'.repeat(10_000))).length;
    // Access times recorded on every hit (the default records at most once a minute).
    const s = Store.open(mkTempDir('store'), Math.floor(size * 3.5), 0);
    try {
      for (const k of ['k1', 'k2', 'k3']) s.put(k, value(k.padEnd(10_000, 'p')));
      expect(s.keys().sort()).toEqual(['k1', 'k2', 'k3']);
      expect(s.get('k1').value).toBeDefined();   // k1 is now more recent than k2
      await s.flushed();
      s.put('k4', value('k4'.padEnd(10_000, 'p')));
      // 4 values > 3.5: evicted down to 90% of the limit, least recently used first.
      expect(s.keys().sort()).toEqual(['k1', 'k3', 'k4']);
      expect(s.info().bytes).toBe(3 * size);
      s.put('k5', value('k5'.padEnd(10_000, 'p')));
      expect(s.keys().sort()).toEqual(['k1', 'k4', 'k5']);
      // A value larger than the whole limit is not stored (and evicts nothing).
      expect(s.put('huge', value('h'.repeat(size * 4)))).toBe(0);
      expect(s.keys().sort()).toEqual(['k1', 'k4', 'k5']);
    } finally {
      s.close();
    }
  });

  it('several processes writing one store at once lose nothing', async () => {
    const dir = mkTempDir('store-mp');
    const storeJs = path.join(REPO_ROOT, 'dist', 'service', 'store', 'store.js');
    expect(fs.existsSync(storeJs), 'run `npx tsc -p .` first').toBe(true);
    const script = `
      const { Store } = require(${JSON.stringify(storeJs)});
      const s = Store.open(process.argv[1], 1 << 30);
      const w = process.argv[2];
      for (let i = 0; i < 50; i++) {
        s.put(w + '-' + i, { ok: true, ptx: w + i, stub: '', diagnostics: [], compileMs: 1 });
        s.addCounters({ misses: 1 });
      }
      s.close();`;
    const run = (w: string) => new Promise<number | null>(resolve => {
      const p = spawn(process.execPath, ['-e', script, dir, w], { stdio: 'inherit' });
      p.on('close', resolve);
    });
    expect(await Promise.all(['a', 'b', 'c', 'd'].map(run))).toEqual([0, 0, 0, 0]);
    const s = Store.open(dir, 1 << 30);
    try {
      expect(s.keys().length).toBe(200);
      expect(s.counters().misses).toBe(200);
      expect(s.verify().corrupt).toEqual([]);
      expect(s.get('c-49').value?.ptx).toBe('c49');
    } finally {
      s.close();
    }
  });

  it('a directory that cannot be created is an error from open', () => {
    const file = path.join(mkTempDir('store'), 'a-file');
    fs.writeFileSync(file, '');
    expect(() => Store.open(path.join(file, 'cache'), 1 << 30)).toThrow();
  });
});

describe('opening a damaged store (checked with plain reads before LMDB maps it)', () => {
  const PAGE = 4096;
  function filledStore(): string {
    const dir = mkTempDir('damaged');
    const s = Store.open(dir, 1 << 30);
    for (let i = 0; i < 100; i++) s.put(`k${i}`, value('v'.repeat(100 + i * 61)));
    s.close();
    return dir;
  }
  const overwrite = (file: string, at: number, n: number) => {
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(n, 0xa5), 0, n, at);
    fs.closeSync(fd);
  };

  it('an intact store passes the cheap check and the walk, and keeps its values', () => {
    const dir = filledStore();
    const file = path.join(dir, 'units.mdb');
    expect(checkFile(file).state).toBe('ok');
    expect(walkFile(file).state).toBe('ok');
    const s = Store.open(dir, 1 << 30, undefined, { probe: 'always' });
    expect(s.repaired).toBeUndefined();
    expect(s.keys()).toHaveLength(100);
    s.close();
  });

  const cases: [string, (file: string) => void, RegExp][] = [
    ['truncated to half', f => fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2 / PAGE) * PAGE), /shorter .* than its last page says/],
    ['truncated to 4 KiB', f => fs.truncateSync(f, PAGE), /meta page 1 is cut short/],
    ['an empty meta page', f => overwrite(f, 0, PAGE), /page 0 is not a meta page/],
    ['a directory in its place', f => { fs.rmSync(f); fs.mkdirSync(f); }, /a directory is in its place/],
  ];
  for (const [name, damage, why] of cases) {
    it(`${name}: moved aside to units.mdb.corrupt-<time>, a fresh store opened in its place`, () => {
      const dir = filledStore();
      const file = path.join(dir, 'units.mdb');
      damage(file);
      const s = Store.open(dir, 1 << 30);
      expect(s.repaired?.why).toMatch(why);
      expect(path.basename(s.repaired!.keptAs)).toMatch(/^units\.mdb\.corrupt-\d{8}T\d{6}Z$/);
      expect(fs.existsSync(s.repaired!.keptAs)).toBe(true);
      expect(s.keys()).toEqual([]);
      s.put('k', value('fresh'));
      expect(s.get('k').value?.ptx).toBe('fresh');
      s.close();
    });
  }

  it('the walk finds a tree page overwritten in the middle that the cheap check cannot see', () => {
    const dir = filledStore();
    const file = path.join(dir, 'units.mdb');
    const buf = fs.readFileSync(file);
    // A leaf or branch page by its header alone: its own number at offset 0, the flag at offset 18.
    const tree = [...Array(buf.length / PAGE).keys()].filter(p => p >= 2 && Number(buf.readBigUInt64LE(p * PAGE)) === p && (buf.readUInt16LE(p * PAGE + 18) & 3) !== 0);
    expect(tree.length).toBeGreaterThan(1);
    overwrite(file, tree[tree.length - 1]! * PAGE, PAGE);
    expect(checkFile(file).state).toBe('ok');
    expect(walkFile(file).state).toBe('bad');
    const s = Store.open(dir, 1 << 30, undefined, { probe: 'always' });
    expect(s.repaired).toBeDefined();
    s.close();
  });

  it('makeDirs is bounded: under /proc ENOENT at once, a file in the way ENOTDIR, an existing path is fine', () => {
    expect(() => makeDirs('/proc/ptxd-test/a/b')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    const file = path.join(mkTempDir('mkdirs'), 'f');
    fs.writeFileSync(file, '');
    expect(() => makeDirs(path.join(file, 'x', 'y'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    const deep = path.join(mkTempDir('mkdirs'), 'a', 'b', 'c');
    makeDirs(deep);
    makeDirs(deep);
    expect(fs.statSync(deep).isDirectory()).toBe(true);
  });

  it('errors are named, never numbered: errno numbers from lmdb-js, LMDB\'s own numbers, Node\'s codes', () => {
    expect(errorName({ code: 30, message: 'Read-only file system' })).toBe('EROFS');
    expect(errorName({ code: 21 })).toBe('EISDIR');
    expect(errorName({ code: -30796 })).toBe('MDB_CORRUPTED');
    expect(errorName(new Error('MDB_BAD_TXN: Transaction must abort'))).toBe('MDB_BAD_TXN');
    expect(errorName(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe('ENOSPC');
    expect(isCorruption({ code: -30796 })).toBe(true);
    expect(isCorruption({ code: 28 })).toBe(false);
  });
});

describe('unit service with a stand-in compiler', () => {
  it('replays warnings on a hit; compile errors are cached too; an unsupported unit is remembered (no second compile, not a hit)', () => {
    const dir = mkTempDir('svc-fake');
    const src = path.join(dir, 'u.cpp1.ii');
    let calls = 0;
    const warning = { severity: 'warning' as const, file: 'u.cu', line: 2, number: 177, message: 'variable "x" was declared but never referenced' };
    const fake = ((text: string) => {
      calls++;
      const times = { lex: 0, skim: 0, irgen: 0, optimize: 0, emit: 0 };
      if (text.includes('ERR')) return { ok: false, ptx: '', stub: '', diagnostics: [{ ...warning, severity: 'error' as const, message: 'bad' }], times };
      if (text.includes('UNSUP')) return { ok: false, ptx: '', stub: '', diagnostics: [], unsupported: 'not yet', times };
      return { ok: true, ptx: `ptx of ${text}`, stub: 'stub', diagnostics: [warning], times };
    }) as unknown as typeof compileUnit;
    const svc = new UnitService({ cacheDir: path.join(dir, 'cache'), sizeLimit: 1 << 30, env: {}, warnOnce: false, compileUnit: fake });
    const options = defaultOptions();
    const ask = (text: string) => { fs.writeFileSync(src, text); return svc.handle({ input: src, options, env: {} }); };
    const a = ask('OK');
    const b = ask('OK');
    expect([a.cached, b.cached, calls]).toEqual([false, true, 1]);
    expect(b.diagnostics).toEqual([warning]);
    expect(b.ptx).toBe('ptx of OK');
    const e1 = ask('ERR'), e2 = ask('ERR');
    expect([e1.status, e2.status, e2.cached, calls]).toEqual(['errors', 'errors', true, 2]);
    const u1 = ask('UNSUP'), u2 = ask('UNSUP');
    expect([u1.status, u2.status, u1.cached, u2.cached, u2.reason, calls]).toEqual(['unsupported', 'unsupported', false, true, 'not yet', 3]);
    svc.close();
    const st = Store.open(path.join(dir, 'cache'), 1 << 30);
    expect(st.counters()).toMatchObject({ requests: 6, hits: 2, misses: 2, errors: 1, unsupported: 2 });
    st.close();
  });
});

const noNvcc = skipReason('nvcc');
/** The runner turns the cache off for other tests (vitest.config.ts); these test it. */
const CACHED_ENV: NodeJS.ProcessEnv = { ...process.env, PTXD_CACHE: undefined };

describe.skipIf(noNvcc !== undefined)(`unit service (cache around the compiler) ${noNvcc ?? ''}`, () => {
  it('hit after miss with identical results; stub file names are not part of the key', () => {
    const u = prepareUnit(path.join(REPO_ROOT, 'test', 'kernels', 'saxpy.cu'), 90);
    const svc = new UnitService({ cacheDir: mkTempDir('svc'), sizeLimit: 1 << 30, env: CACHED_ENV, warnOnce: false, compileUnit });
    try {
      const options = { ...defaultOptions(), arch: 90, moduleId: u.moduleId, origSrcFileName: 'saxpy.cu', origSrcPathName: '/x/saxpy.cu',
        includeFileName: 'tmpxft_1_saxpy.fatbin.c', stubFileName: '/tmp/tmpxft_1_saxpy.cudafe1.stub.c' };
      const r1 = svc.handle({ input: u.ii, options, env: {} });
      expect(r1.status, r1.reason).toBe('ok');
      expect(r1.cached).toBe(false);
      expect(r1.stub).toContain('#include "tmpxft_1_saxpy.fatbin.c"');
      const r2 = svc.handle({ input: u.ii, options, env: {} });
      expect(r2.cached).toBe(true);
      expect(r2.ptx).toBe(r1.ptx);
      expect(r2.stub).toBe(r1.stub);
      // Another nvcc run: other temp names. Still a hit, and the stub names this run's files.
      const other = { ...options, includeFileName: 'tmpxft_2_saxpy.fatbin.c', stubFileName: '/tmp/tmpxft_2_saxpy.cudafe1.stub.c' };
      const r3 = svc.handle({ input: u.ii, options: other, env: {} });
      expect(r3.cached).toBe(true);
      expect(r3.ptx).toBe(r1.ptx);
      expect(r3.stub).toBe(r1.stub.split('tmpxft_1_').join('tmpxft_2_'));
      // The uncached compile with the second names gives exactly that stub.
      const fresh = new UnitService({ cacheDir: mkTempDir('svc'), sizeLimit: 1 << 30, env: CACHED_ENV, warnOnce: false, compileUnit });
      expect(fresh.handle({ input: u.ii, options: other, env: {} }).stub).toBe(r3.stub);
      fresh.close();
      // An output-relevant option is part of the key.
      expect(svc.handle({ input: u.ii, options: { ...options, ftz: true }, env: {} }).cached).toBe(false);
    } finally {
      svc.close();
    }
  });

  it('an unusable cache directory compiles without caching and warns (once per service when asked)', () => {
    const u = prepareUnit(path.join(REPO_ROOT, 'test', 'kernels', 'saxpy.cu'), 90);
    const file = path.join(mkTempDir('svc'), 'a-file');
    fs.writeFileSync(file, '');
    const svc = new UnitService({ cacheDir: path.join(file, 'cache'), sizeLimit: 1 << 30, env: CACHED_ENV, warnOnce: true, compileUnit });
    const options = { ...defaultOptions(), arch: 90, moduleId: u.moduleId, origSrcFileName: 'saxpy.cu' };
    const r1 = svc.handle({ input: u.ii, options, env: {} });
    expect(r1.status).toBe('ok');
    expect(r1.warnings.join('\n')).toMatch(/unit cache disabled: cannot use cache directory/);
    const r2 = svc.handle({ input: u.ii, options, env: {} });
    expect(r2.status).toBe('ok');
    expect(r2.cached).toBe(false);
    expect(r2.warnings).toEqual([]);
    expect(r2.ptx).toBe(r1.ptx);
    svc.close();
  });
});
