#!/usr/bin/env node
// Output snapshot: the PTX and stub ptxd writes for every test program, for checking that a refactor
// changes no output byte (issue 28). Three steps:
//   node scripts/output-snapshot.js capture DIR   real nvcc captures each test program's cicc inputs into DIR
//                                                  (compute_75 and compute_90; -lineinfo and fast-math variants)
//   node scripts/output-snapshot.js run DIR OUT    replays them through this tree's bin/ptxd-cicc
//                                                  (in-process, uncached, PTXD_FALLBACK=never) into OUT;
//                                                  an optional fourth argument, a regexp, picks units by name
//   node scripts/output-snapshot.js compare OUT1 OUT2  PTX, stubs and exit statuses of OUT2's units against OUT1's
// A capture made once serves any number of trees: the inputs (paths, module ids)
// are the same for all of them, so only the compiler can make outputs differ.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const [mode, dir, out, only] = process.argv.slice(2);
const onlyRe = only ? new RegExp(only) : null;
if (!mode || !dir || (mode !== 'capture' && !out)) {
  process.stderr.write('usage: output-snapshot.js capture DIR | run DIR OUT [REGEXP] | compare OUT1 OUT2\n');
  process.exit(2);
}

// Captures cicc's argv and copies its inputs; does not run the real cicc (nvcc is stopped right after).
const CAPTURE = `#!/bin/sh
shift
prev=""; arch=""; mid=""; input=""
for a in "$@"; do
  case "$prev" in -arch) arch="$a" ;; --module_id_file_name) mid="$a" ;; *) case "$a" in *.ii) input="$a" ;; esac ;; esac
  prev="$a"
done
d="$SNAP_DIR/$arch"; mkdir -p "$d" || exit 1
printf '%s\\0' "$@" > "$d/argv"; cp "$input" "$d/unit.ii"; cp "$mid" "$d/module_id"
exit 1
`;

const VARIANTS = { plain: [], lineinfo: ['-lineinfo'], fast: ['--use_fast_math'] };

function capture() {
  fs.mkdirSync(dir, { recursive: true });
  const script = path.join(dir, 'capture.sh');
  fs.writeFileSync(script, CAPTURE, { mode: 0o755 });
  const kernels = path.join(root, 'test', 'kernels');
  for (const f of fs.readdirSync(kernels).filter(n => n.endsWith('.cu')).sort()) {
    const src = path.join(kernels, f);
    const head = fs.readFileSync(src, 'utf8').split('\n', 8).find(l => l.startsWith('// nvcc-flags:'));
    const flags = head ? head.slice('// nvcc-flags:'.length).trim().split(/\s+/).filter(Boolean) : [];
    for (const [v, extra] of Object.entries(VARIANTS)) {
      // The variants on compute_90 only: they exercise other code paths, not other targets.
      const archs = v === 'plain' ? [75, 90] : [90];
      const d = path.join(dir, `${path.basename(f, '.cu')}.${v}`);
      const gencode = archs.flatMap(a => ['-gencode', `arch=compute_${a},code=compute_${a}`]);
      spawnSync('nvcc', ['-cuda', ...gencode, ...flags, ...extra, '--cicc-prefix', script, src, '-o', '/dev/null'],
        { env: { ...process.env, SNAP_DIR: d }, stdio: 'ignore' });
      // nvcc stops at the first failed cicc: run it once per arch, so each gets its inputs captured.
      for (const a of archs.slice(1)) {
        spawnSync('nvcc', ['-cuda', '-gencode', `arch=compute_${a},code=compute_${a}`, ...flags, ...extra, '--cicc-prefix', script, src, '-o', '/dev/null'],
          { env: { ...process.env, SNAP_DIR: d }, stdio: 'ignore' });
      }
      process.stdout.write(`${path.basename(d)} ${fs.existsSync(d) ? fs.readdirSync(d).join(',') : 'NOT CAPTURED'}\n`);
    }
  }
}

// Units are replayed JOBS at a time (default 2): each is its own process, so order cannot change an output.
async function run() {
  fs.mkdirSync(out, { recursive: true });
  const client = path.join(root, 'bin', 'ptxd-cicc');
  const jobs = [];
  for (const unit of fs.readdirSync(dir).filter(n => fs.statSync(path.join(dir, n)).isDirectory()).sort()) {
    for (const arch of fs.readdirSync(path.join(dir, unit)).sort()) {
      const name = `${unit}.${arch}`;
      if (!onlyRe || onlyRe.test(name)) jobs.push({ d: path.join(dir, unit, arch), name });
    }
  }
  const one = ({ d, name }) => new Promise(resolve => {
    const argv = fs.readFileSync(path.join(d, 'argv'), 'utf8').split('\0');
    argv.pop();
    const ptx = path.join(out, `${name}.ptx`), stub = path.join(out, `${name}.stub.c`);
    const args = [];
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '-o') { args.push(a, ptx); i++; }
      else if (a === '--stub_file_name') { args.push(a, stub); i++; }
      else if (a === '--module_id_file_name') { args.push(a, path.join(d, 'module_id')); i++; }
      else if (a === '--gen_c_file_name' || a === '--gen_device_file_name') { args.push(a, path.join(out, `${name}.${a.slice(6, 9)}`)); i++; }
      else if (a.endsWith('.ii')) args.push(path.join(d, 'unit.ii'));
      else args.push(a);
    }
    const child = spawn('node', [client, '/usr/local/cuda/nvvm/bin/cicc', ...args], {
      env: { ...process.env, PTXD_NATIVE: '0', PTXD_DAEMON: '0', PTXD_CACHE: '0', PTXD_FALLBACK: 'never' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', b => { err += b; });
    child.on('close', code => {
      // The stub names its own path (a line marker): spelled <OUT> so that snapshots in two folders compare.
      for (const f of [stub, ...['c_f', 'dev'].map(x => path.join(out, `${name}.${x}`))]) {
        if (fs.existsSync(f)) fs.writeFileSync(f, fs.readFileSync(f, 'utf8').split(path.resolve(out)).join('<OUT>'));
      }
      fs.writeFileSync(path.join(out, `${name}.status`), `exit ${code}\n${err}`);
      resolve();
    });
  });
  let next = 0;
  const lane = async () => { while (next < jobs.length) await one(jobs[next++]); };
  await Promise.all(Array.from({ length: Number(process.env.JOBS) || 2 }, lane));
  process.stdout.write(`${jobs.length} units compiled into ${out}\n`);
}

// Compares the PTX, stubs and exit statuses in two snapshot folders (the units B has); prints the differing files.
function compare() {
  const names = fs.readdirSync(out).filter(n => /\.(ptx|stub\.c|status)$/.test(n)).sort();
  const differ = names.filter(n => !fs.existsSync(path.join(dir, n)) || !fs.readFileSync(path.join(dir, n)).equals(fs.readFileSync(path.join(out, n))));
  for (const n of differ) process.stdout.write(`differs: ${n}\n`);
  process.stdout.write(`${names.length} files compared, ${differ.length} differ\n`);
  process.exitCode = differ.length === 0 && names.length > 0 ? 0 : 1;
}

if (mode === 'capture') capture();
else if (mode === 'compare') compare();
else if (mode === 'run') run();
else { process.stderr.write(`unknown mode ${mode}\n`); process.exit(2); }
