// npm run corpus:fetch: checks out every repository of the corpus manifest at its recorded commit into
// <corpus>/src/<owner>+<name> (ignored by git). The source of each is a local mirror when there is one
// ($PTXD_CORPUS_MIRRORS/<owner>+<name>/repo, a bare git directory; default /work/.mirror) and else GitHub
// over git (a shallow fetch of that one commit). A checkout already at its commit (its .corpus-commit file says
// so) is left alone.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { corpusDir, loadManifest, repoDir } from './manifest';

function git(args: string[], cwd?: string): { ok: boolean; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { ok: r.status === 0, out: (r.stdout ?? '') + (r.stderr ?? '') };
}

function mirrorOf(repo: string): string | null {
  const root = process.env.PTXD_CORPUS_MIRRORS ?? '/work/.mirror';
  for (const sub of ['repo', 'repo/.git']) {
    const d = path.join(root, repo.replace('/', '+'), sub);
    if (fs.existsSync(path.join(d, 'HEAD')) && fs.existsSync(path.join(d, 'objects'))) return d;
  }
  return null;
}

const MARK = '.corpus-commit';

function markedCommit(dir: string): string | null {
  try { return fs.readFileSync(path.join(dir, MARK), 'utf8').trim(); } catch { return null; }
}

/**
 * Writes the tree of <commit> from a mirror's git directory into dir, file by file. A mirror may lack some
 * blobs (large files), so git's own checkout, which needs every object, cannot be used; a missing blob is
 * counted and skipped (units never are such files). Submodules are skipped.
 */
function extractFromMirror(mirror: string, commit: string, dir: string): number {
  const ls = spawnSync('git', ['--git-dir', mirror, 'ls-tree', '-r', '-z', commit], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (ls.status !== 0) throw new Error(`git ls-tree ${commit} failed in ${mirror}: ${ls.stderr.trim()}`);
  const entries = ls.stdout.split('\0').filter(Boolean).map(line => {
    const tab = line.indexOf('\t');
    const [mode, type, sha] = line.slice(0, tab).split(' ') as [string, string, string];
    return { mode, type, sha, file: line.slice(tab + 1) };
  }).filter(e => e.type === 'blob');
  // One cat-file --batch for all blobs: its output is, per object, a header line and the bytes (or "missing").
  const cat = spawnSync('git', ['--git-dir', mirror, 'cat-file', '--batch'],
    { input: entries.map(e => e.sha).join('\n') + '\n', maxBuffer: 2 ** 32 });
  if (cat.status !== 0) throw new Error(`git cat-file --batch failed in ${mirror}: ${String(cat.stderr).trim()}`);
  const out = cat.stdout as Buffer;
  let pos = 0, missing = 0;
  for (const e of entries) {
    const nl = out.indexOf(10, pos);
    const header = out.subarray(pos, nl).toString('utf8');
    pos = nl + 1;
    if (header.endsWith(' missing')) { missing++; continue; }
    const size = Number(header.split(' ')[2]);
    const data = out.subarray(pos, pos + size);
    pos += size + 1;
    const dest = path.join(dir, e.file);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    if (e.mode === '120000') fs.symlinkSync(data.toString('utf8'), dest);
    else fs.writeFileSync(dest, data, { mode: e.mode === '100755' ? 0o755 : 0o644 });
  }
  return missing;
}

/** Checks out one repository at its commit; returns a line saying what happened, or throws. */
function fetchRepo(repo: string, commit: string, url: string): string {
  const dir = repoDir(repo);
  if (markedCommit(dir) === commit) return `${repo}: already at ${commit.slice(0, 12)}`;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const mirror = mirrorOf(repo);
  let how: string;
  if (mirror) {
    const missing = extractFromMirror(mirror, commit, dir);
    how = `from ${mirror}` + (missing ? ` (${missing} blobs absent from the mirror skipped)` : '');
  } else {
    for (const s of [['init', '-q'], ['fetch', '-q', '--depth', '1', url, commit], ['-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', 'FETCH_HEAD']]) {
      const r = git(s, dir);
      if (!r.ok) throw new Error(`${repo}: git ${s.join(' ')} failed: ${r.out.trim()}`);
    }
    how = `from ${url}`;
  }
  fs.writeFileSync(path.join(dir, MARK), commit + '\n');
  return `${repo}: checked out ${commit.slice(0, 12)} ${how}`;
}

function main(): void {
  const m = loadManifest();
  fs.mkdirSync(corpusDir(), { recursive: true });
  let failed = 0;
  for (const [repo, e] of Object.entries(m.repos)) {
    try {
      process.stdout.write(fetchRepo(repo, e.commit, e.url) + '\n');
    } catch (err) {
      failed++;
      process.stderr.write(`corpus:fetch: ${(err as Error).message}\n`);
    }
  }
  if (failed) process.exit(1);
}

main();
