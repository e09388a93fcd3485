// Writes bench/corpus/manifest.json from the checkouts in <corpus>/src (npm run corpus:fetch first): the units
// of each repository that its rule selects, their flags, and a tier decided from what each unit includes.
// `nvcc -M` (preprocessing only) weeds out units of applications that need what a stock CUDA toolkit lacks
// (cuBLAS, MPI, generated headers): they are counted in `dropped`. Units stock nvcc fails to compile past preprocessing are
// found by `node dist/bench/corpus/run.js --stock-only --prune`.
//
//   node dist/bench/corpus/make-manifest.js [--jobs J]

import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { corpusDir, MANIFEST_FILE, repoDir, unitId, type CorpusUnit, type Manifest, type Tier } from './manifest';
import { mulberry32, reasonGroup, firstError } from './classify';

interface Rule {
  repo: string;
  /** Units: paths matching `include` and not `exclude`. */
  include: RegExp;
  exclude?: RegExp;
  flags: string[];
  /** At most this many units of the rule (a seeded draw), for rules that match thousands of similar units. */
  max?: number;
}

const CCCL_INC = ['-I', 'thrust', '-I', 'cub', '-I', 'libcudacxx/include'];
const RULES: Rule[] = [
  { repo: 'NVIDIA/cccl', include: /^thrust\/examples\/.*\.cu$/, flags: [...CCCL_INC, '-I', 'thrust/examples/include', '--extended-lambda'] },
  { repo: 'NVIDIA/cccl', include: /^libcudacxx\/test\/libcudacxx\/(cuda|std)\/.*\.pass\.cpp$/,
    flags: ['-x', 'cu', '-std=c++17', '-I', 'libcudacxx/include', '-I', 'libcudacxx/test/support', '--extended-lambda', '--expt-relaxed-constexpr'], max: 260 },
  { repo: 'moderngpu/moderngpu', include: /^(demo|tests|tutorial)\/.*\.cu$/, flags: ['-I', 'src', '-std=c++17', '--expt-extended-lambda'] },
  { repo: 'NVIDIA/cutlass', include: /^examples\/cute\/tutorial\/.*\.cu$|^examples\/0[0-9]_[^/]+\/[^/]+\.cu$/,
    flags: ['-std=c++17', '-I', 'include', '-I', 'tools/util/include', '-I', 'examples/common', '--expt-relaxed-constexpr'] },
  { repo: 'NVIDIA/nccl', include: /^docs\/examples\/.*\.cu$|^src\/device\/.*\.cu$/, flags: ['-I', 'src/include', '-I', 'src/device', '-I', 'src'] },
  { repo: 'karpathy/llm.c', include: /^dev\/cuda\/.*\.cu$|^[a-z_0-9]+\.cu$/, flags: ['-I', 'llmc', '-I', 'dev/cuda'] },
  { repo: 'AlexeyAB/darknet', include: /^src\/.*\.cu$/, flags: ['-I', 'include', '-I', 'src', '-DGPU'] },
  { repo: 'brucefan1983/GPUMD', include: /^src\/.*\.cu$/, flags: ['-I', 'src', '-std=c++17'] },
  { repo: 'mumax/3', include: /^cuda\/.*\.cu$/, flags: [] },
  { repo: 'tpruvot/ccminer', include: /\.cu$/, flags: ['-I', '.', '-I', 'compat', '-I', 'compat/jansson'] },
  { repo: 'NVIDIA/FasterTransformer', include: /^src\/fastertransformer\/.*\.cu$/, flags: ['-I', '.', '-std=c++17', '--expt-relaxed-constexpr'] },
  { repo: 'ggml-org/ggml', include: /^src\/ggml-cuda\/.*\.cu$/, flags: ['-I', 'include', '-I', 'src', '-I', 'src/ggml-cuda', '-std=c++17', '-DGGML_USE_CUDA'] },
  { repo: 'NVIDIA/warp', include: /^warp\/native\/.*\.cu$/, flags: ['-I', 'warp/native', '-std=c++17', '--extended-lambda'] },
  { repo: 'NVIDIA/TensorRT', include: /^plugin\/.*\.cu$/, flags: ['-I', 'include', '-I', 'plugin', '-I', 'plugin/common', '-I', '.', '-std=c++17'] },
  { repo: 'primesearch/mfaktc', include: /^src\/.*\.cu$/, flags: ['-I', 'src'] },
  { repo: 'CESNET/GPUJPEG', include: /^src\/.*\.cu$/, flags: ['-I', 'include', '-I', 'src'] },
];

const LIBRARY = /#\s*include\s*[<"](thrust\/|cub\/|cuda\/(std\/|[a-z_]+(>|")|annotated_ptr|atomic|barrier|memory_resource|pipeline|ptx|stream_ref)|cooperative_groups|cute\/|cutlass\/|moderngpu\/|(kernel|transform|memory|launch_box|context|search|sort_networks|loadstore|cta_|intrinsics|meta|operators|tuple|types)[a-z_]*\.hxx)/;
const CXX = /\btemplate\s*<|\bclass\s+[A-Za-z_]|\bnamespace\b|\[[=&]?\]\s*\(|\boperator\s*[^\w\s]|\bstd::|\bconstexpr\b|\bstatic_cast\b|\bnullptr\b|#\s*include\s*<(vector|string|iostream|memory|algorithm|map|functional|type_traits|utility|array)>/;
const LIBRARY_REPOS = new Set(['NVIDIA/cccl', 'NVIDIA/cutlass', 'moderngpu/moderngpu']);

const texts = new Map<string, string>();
function readCached(p: string): string {
  let t = texts.get(p);
  if (t === undefined) { t = fs.readFileSync(p, 'utf8'); texts.set(p, t); }
  return t;
}

/** The files a unit reaches through quoted or bracketed includes that resolve inside its repository. */
function localClosure(root: string, unit: string, incDirs: string[]): string[] {
  const seen = new Set<string>([path.join(root, unit)]);
  const todo = [...seen];
  while (todo.length) {
    const f = todo.pop()!;
    let text: string;
    try { text = readCached(f); } catch { continue; }
    for (const m of text.matchAll(/#\s*include\s*[<"]([^>"]+)[>"]/g)) {
      for (const d of [path.dirname(f), ...incDirs.map(i => path.join(root, i))]) {
        const p = path.join(d, m[1]!);
        if (p.startsWith(root) && fs.existsSync(p) && fs.statSync(p).isFile()) {
          if (!seen.has(p)) { seen.add(p); todo.push(p); }
          break;
        }
      }
    }
  }
  return [...seen];
}

/**
 * library-heavy: Thrust, CUB, libcu++ (cuda/std, cuda/...), cooperative groups, CUTLASS/CuTe or moderngpu
 * is included, or the unit is part of one of those libraries; C++: templates, classes, namespaces, lambdas,
 * operators, the standard library; C-like: none of that.
 */
export function tierOf(repo: string, texts: string[]): Tier {
  if (LIBRARY_REPOS.has(repo) || texts.some(t => LIBRARY.test(t))) return 'library-heavy';
  const noComments = texts.map(t => t.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ''));
  return noComments.some(t => CXX.test(t)) ? 'C++' : 'C-like';
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

function nvccM(u: CorpusUnit): Promise<string | null> {
  return new Promise(resolve => {
    const c = spawn('nvcc', ['-M', '-arch=sm_90', ...u.flags, u.path], { cwd: repoDir(u.repo), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr.on('data', (d: Buffer) => { err += d.toString('utf8'); });
    c.on('close', status => resolve(status === 0 ? null : firstError(err)));
  });
}

/** `nvcc -M` results of earlier runs (null: it passed), so that a rerun checks only new units. */
const CHECKS_FILE = path.join(corpusDir(), 'preprocess-checks.json');
function loadChecks(): Record<string, string | null> {
  try { return JSON.parse(fs.readFileSync(CHECKS_FILE, 'utf8')) as Record<string, string | null>; } catch { return {}; }
}
function saveChecks(c: Record<string, string | null>): void {
  fs.writeFileSync(`${CHECKS_FILE}.tmp`, JSON.stringify(c, null, 0));
  fs.renameSync(`${CHECKS_FILE}.tmp`, CHECKS_FILE);
}

async function main(): Promise<void> {
  const opt = (name: string): string | undefined => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
  const jobs = Number(opt('--jobs') ?? 2);
  // --provisional FILE: write FILE from the units already checked, check nothing (a quick start for a sample).
  const provisional = opt('--provisional');
  const checks = loadChecks();
  const old = JSON.parse(fs.readFileSync(MANIFEST_FILE, 'utf8')) as Manifest;
  const candidates: CorpusUnit[] = [];
  for (const r of RULES) {
    const root = repoDir(r.repo);
    let files = listFiles(root).filter(f => r.include.test(f) && !(r.exclude?.test(f)));
    if (r.max && files.length > r.max) {
      const rand = mulberry32(24);
      const keyed = files.map(f => ({ f, k: rand() })).sort((a, b) => a.k - b.k).slice(0, r.max);
      files = keyed.map(x => x.f).sort();
    }
    const incDirs = r.flags.flatMap((f, i) => (r.flags[i - 1] === '-I' ? [f] : []));
    for (const f of files) {
      // A unit of a library repository is library-heavy whatever it includes: no need to read its headers.
      const texts = LIBRARY_REPOS.has(r.repo) ? [] : localClosure(root, f, incDirs).map(p => readCached(p));
      candidates.push({ repo: r.repo, path: f, flags: r.flags, tier: tierOf(r.repo, texts) });
    }
    process.stderr.write(`${r.repo}: ${files.length} candidates\n`);
  }
  const dropped: Record<string, number> = {};
  const kept: CorpusUnit[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < candidates.length) {
      const u = candidates[next++]!;
      const id = unitId(u);
      if (provisional && !LIBRARY_REPOS.has(u.repo) && !(id in checks)) continue;
      // A library's own examples and tests need nothing outside it: preprocessing them (slow) would tell nothing.
      const err = LIBRARY_REPOS.has(u.repo) ? null : id in checks ? checks[id]! : await nvccM(u);
      if (!LIBRARY_REPOS.has(u.repo) && !(id in checks)) { checks[id] = err; saveChecks(checks); }
      process.stderr.write(`${id} ${u.tier}: ${err ?? 'ok'}\n`);
      if (err === null) kept.push(u);
      else { const g = `nvcc -M fails: ${err}`; dropped[g] = (dropped[g] ?? 0) + 1; }
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  const order = new Map(candidates.map((u, i) => [u, i]));
  kept.sort((a, b) => order.get(a)! - order.get(b)!);
  const used = new Set(kept.map(u => u.repo));
  const m: Manifest = {
    about: old.about,
    arch: old.arch,
    repos: Object.fromEntries(Object.entries(old.repos).filter(([r]) => used.has(r))),
    dropped,
    units: kept,
  };
  const file = provisional ?? MANIFEST_FILE;
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(m, null, 1) + '\n');
  fs.renameSync(`${file}.tmp`, file);
  const tiers = kept.reduce<Record<string, number>>((a, u) => ({ ...a, [u.tier]: (a[u.tier] ?? 0) + 1 }), {});
  process.stdout.write(`manifest: ${kept.length} of ${candidates.length} units kept (${JSON.stringify(tiers)}); dropped ${JSON.stringify(dropped, null, 1)}\n`);
}

if (require.main === module) main().catch(err => { process.stderr.write(`make-manifest: ${(err as Error).message}\n`); process.exit(1); });
