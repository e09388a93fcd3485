// The example project (make-integration/example) built by real CMake with ptxd, the three ways the
// README gives: the toolchain file (Unix Makefiles), CMAKE_CUDA_FLAGS=--cicc-prefix (Ninja when
// installed, else Makefiles), and a shadow toolkit from `ptxd toolkit` as CMAKE_CUDA_COMPILER.
// PTXD_FALLBACK=never throughout: CMake's own compiler probes go through ptxd too. A second build
// directory configured the same way is served from the unit cache and embeds identical device code.

import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT, hasTool, requireTool, skipReason } from './helpers/tools';
import { HAVE_CC, PTXD_CICC_BIN, fatbinSection, startDaemon, ptxd, runAsync, exampleProject, stats, stopDaemon, type DaemonSandbox } from './helpers/daemon';

const EXAMPLE = path.join(REPO_ROOT, 'make-integration', 'example');
const TOOLCHAIN = path.join(REPO_ROOT, 'make-integration', 'ptxd.cmake');
const SOURCES = fs.readdirSync(EXAMPLE).filter(f => f.endsWith('.cu')).sort();
const skip = skipReason('nvcc', 'ptxas') ?? skipReason('cmake');
const NINJA = hasTool('ninja');

const sandboxes: DaemonSandbox[] = [];
afterAll(async () => { for (const sb of sandboxes) await stopDaemon(sb); });

const project = (name: string) => exampleProject(name, sandboxes);

async function cmakeConfigure(sb: DaemonSandbox, src: string, build: string, configure: string[]): Promise<void> {
  const c = await runAsync(requireTool('cmake'), ['-S', src, '-B', build, ...configure], { env: sb.env });
  expect(c.code, `configure: ${c.out}${c.err}`).toBe(0);
}

async function cmakeBuild(sb: DaemonSandbox, src: string, build: string, configure?: string[]): Promise<void> {
  if (configure) await cmakeConfigure(sb, src, build, configure);
  const b = await runAsync(requireTool('cmake'), ['--build', build, '-j4'], { env: sb.env });
  expect(b.code, `build: ${b.out}${b.err}`).toBe(0);
  expect(fs.existsSync(path.join(build, 'example')), 'the program linked').toBe(true);
}

const object = (build: string, cu: string) => path.join(build, 'CMakeFiles', 'example.dir', `${cu}.o`);

describe.skipIf(skip !== undefined)(`CMake with ptxd ${skip ?? ''}`, () => {
  it('toolchain file, Unix Makefiles; a second build directory is all cache hits with identical device code', async () => {
    const { sb, src } = project('cmake-tc');
    const configure = ['-G', 'Unix Makefiles', `-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN}`, `-DCMAKE_CUDA_COMPILER=${requireTool('nvcc')}`];
    await cmakeBuild(sb, src, path.join(sb.dir, 'b1'), configure);
    const s1 = stats(sb).counters;
    // The project's units plus CMake's compiler-identification probes, all compiled by ptxd.
    expect(s1.requests).toBeGreaterThanOrEqual(SOURCES.length);
    expect(s1.unsupported).toBe(0);
    // Configure-time probes compile CMake's test sources inside the new build directory (new units);
    // the build itself must be served from the cache entirely.
    await cmakeConfigure(sb, src, path.join(sb.dir, 'b2'), configure);
    const s2c = stats(sb).counters;
    await cmakeBuild(sb, src, path.join(sb.dir, 'b2'));
    const s2 = stats(sb).counters;
    expect(s2.misses - s2c.misses, 'nothing recompiled').toBe(0);
    expect(s2.hits - s2c.hits).toBe(SOURCES.length);
    for (const cu of SOURCES) {
      expect(fatbinSection(object(path.join(sb.dir, 'b2'), cu)).equals(fatbinSection(object(path.join(sb.dir, 'b1'), cu))), cu).toBe(true);
    }
    expect(stats(sb).fallbacks.total).toBe(0);
  });

  it(`CMAKE_CUDA_FLAGS=--cicc-prefix with ${NINJA ? 'Ninja' : 'Unix Makefiles (ninja not installed)'}`, async () => {
    const { sb, src } = project('cmake-flags');
    await cmakeBuild(sb, src, path.join(sb.dir, 'b'), ['-G', NINJA ? 'Ninja' : 'Unix Makefiles',
      `-DCMAKE_CUDA_COMPILER=${requireTool('nvcc')}`, `-DCMAKE_CUDA_FLAGS=--cicc-prefix=${PTXD_CICC_BIN}`]);
    const s = stats(sb).counters;
    expect(s.requests).toBeGreaterThanOrEqual(SOURCES.length);
    expect(s.unsupported).toBe(0);
  });

  it('a shadow toolkit (`ptxd toolkit --out DIR`) as CMAKE_CUDA_COMPILER', async () => {
    const { sb, src } = project('cmake-shadow');
    const tk = path.join(sb.dir, 'toolkit');
    const t = ptxd(sb, ['toolkit', '--out', tk, '--cuda', path.resolve(requireTool('nvcc'), '..', '..')]);
    expect(t.code, t.err).toBe(0);
    expect(fs.readFileSync(path.join(tk, 'bin', 'nvcc.profile'), 'utf8')).toMatch(/^CICC_PATH\s*=\s*\$\(_HERE_\)\/\.\.\/nvvm\/bin$/m);
    startDaemon(sb);   // so that every cicc call can go through the native client
    await cmakeBuild(sb, src, path.join(sb.dir, 'b'), ['-G', NINJA ? 'Ninja' : 'Unix Makefiles', `-DCMAKE_CUDA_COMPILER=${tk}/bin/nvcc`]);
    const st = stats(sb);
    const s = st.counters;
    expect(s.requests, 'the shadow nvcc ran ptxd').toBeGreaterThanOrEqual(SOURCES.length);
    expect(s.unsupported).toBe(0);
    if (HAVE_CC) expect(st.daemon?.ciccCalls, 'the shadow cicc ran the native client').toBe(st.daemon?.served);
  });
});
