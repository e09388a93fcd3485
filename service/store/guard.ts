// Opening the LMDB file safely. LMDB memory-maps the file: a truncated or garbage file faults (SIGBUS,
// SIGSEGV) inside the process, which no try/catch can stop. So before anything maps it, with plain reads
// (layout: mdb.c of lmdb-js 3: MDB_page_header, MDB_meta, MDB_node; 64-bit page and transaction numbers):
//   checkFile      both meta pages (magic, version, page size), the newest meta's last page against the
//                  file size, the main tree's root page header. A few small reads: run on every open.
//   walkFile       every page LMDB would follow from the newest meta page. Run when the daemon starts and
//                  when this state of the file was not checked before (a stamp in `<file>.checked`, which
//                  a process that vouched for the file writes again after its own writes).
//   checkLockFile  the lock file's magic, when another process has it in use.
//   quarantine     moves a bad file aside (units.mdb.corrupt-<time>) so a fresh store can be created.
// Damage that none of these sees is reported by LMDB as an error (MDB_CORRUPTED, …), which store users
// treat the same way (unit.ts).

import { closeSync, fstatSync, lstatSync, openSync, statSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';

const MDB_MAGIC = 0xbeefc0de;
const MDB_DATA_VERSION = 2;
const P_BRANCH = 0x01, P_LEAF = 0x02, P_OVERFLOW = 0x04, P_META = 0x08, P_LEAF2 = 0x20;
const F_BIGDATA = 0x01, F_SUBDATA = 0x02, F_DUPDATA = 0x04;
/** MDB_node: lo, hi (data size, or the child page in a branch), flags, key size; then key and data. */
const NODESIZE = 8;
/** Byte offsets in a page: the page header is pgno (8), txnid (8), pad (2), flags (2), lower/upper (4). */
const PG_PGNO = 0, PG_FLAGS = 18, PG_LOWER = 20, PG_UPPER = 22, HDR = 24;
/** MDB_meta after the header: magic, version, address, mapsize, dbs[2] (48 bytes each), last_pg, txnid. */
const M_MAGIC = HDR, M_VERSION = HDR + 4, M_DBS = HDR + 24, DB_SIZE = 48, DB_PAD = 0, DB_ROOT = 40;
const M_LAST_PG = M_DBS + 2 * DB_SIZE, M_TXNID = M_LAST_PG + 8;
const P_INVALID = 0xffffffffffffffffn;
const MAIN_DBI = 1;

export type FileCheck =
  | { state: 'absent' }
  | { state: 'ok'; meta: Meta }
  | { state: 'bad'; why: string };

export interface Meta { psize: number; lastPg: bigint; txnid: bigint; freeRoot: bigint; mainRoot: bigint }

function readAt(fd: number, length: number, position: number): Buffer {
  const b = Buffer.alloc(length);
  const n = readSync(fd, b, 0, length, position);
  return b.subarray(0, n);
}

function parseMeta(page: Buffer, which: number): Meta | string {
  if (page.length < M_TXNID + 8) return `meta page ${which} is cut short`;
  if (!(page.readUInt16LE(PG_FLAGS) & P_META)) return `page ${which} is not a meta page`;
  if (page.readUInt32LE(M_MAGIC) !== MDB_MAGIC) return `meta page ${which} has no LMDB magic number`;
  if ((page.readUInt32LE(M_VERSION) & 0xffff) !== MDB_DATA_VERSION) return `meta page ${which} has an unknown format version`;
  const psize = page.readUInt32LE(M_DBS + DB_PAD);
  if (psize < 512 || psize > 65536 || (psize & (psize - 1)) !== 0) return `meta page ${which} has an impossible page size (${psize})`;
  return {
    psize, lastPg: page.readBigUInt64LE(M_LAST_PG), txnid: page.readBigUInt64LE(M_TXNID),
    freeRoot: page.readBigUInt64LE(M_DBS + DB_ROOT),
    mainRoot: page.readBigUInt64LE(M_DBS + MAIN_DBI * DB_SIZE + DB_ROOT),
  };
}

function checkOpen(fd: number, st: Stats): FileCheck {
  const m0 = parseMeta(readAt(fd, 512, 0), 0);
  if (typeof m0 === 'string') return { state: 'bad', why: m0 };
  const m1 = parseMeta(readAt(fd, 512, m0.psize), 1);
  if (typeof m1 === 'string') return { state: 'bad', why: m1 };
  if (m1.psize !== m0.psize) return { state: 'bad', why: 'the meta pages disagree on the page size' };
  const m = m1.txnid > m0.txnid ? m1 : m0;
  const need = (m.lastPg + 1n) * BigInt(m.psize);
  if (BigInt(st.size) < need) return { state: 'bad', why: `the file is shorter (${st.size} bytes) than its last page says (${need} bytes)` };
  if (m.mainRoot !== P_INVALID) {
    if (m.mainRoot < 2n || m.mainRoot > m.lastPg) return { state: 'bad', why: `the root page number ${m.mainRoot} is out of range` };
    const root = readAt(fd, HDR, Number(m.mainRoot) * m.psize);
    if (root.length < HDR || root.readBigUInt64LE(PG_PGNO) !== m.mainRoot || !(root.readUInt16LE(PG_FLAGS) & (P_BRANCH | P_LEAF))) {
      return { state: 'bad', why: `the root page ${m.mainRoot} is not a tree page` };
    }
  }
  return { state: 'ok', meta: m };
}

function checkOnce(path: string): FileCheck {
  let fd: number;
  try {
    const ls = statSync(path);   // a symbolic link to the store is followed, as LMDB follows it
    if (!ls.isFile()) return { state: 'bad', why: ls.isDirectory() ? 'a directory is in its place' : 'it is not a regular file' };
    fd = openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    throw e;
  }
  try {
    const st = fstatSync(fd);
    // An empty file is what an open interrupted before its first write leaves: LMDB initialises it.
    if (st.size === 0) return { state: 'absent' };
    return checkOpen(fd, st);
  } finally {
    closeSync(fd);
  }
}

/**
 * The cheap check (a few small reads). A writer in another process may be committing while we read,
 * so a failure is confirmed by a second look before the file is called bad.
 */
export function checkFile(path: string): FileCheck {
  const first = checkOnce(path);
  if (first.state !== 'bad') return first;
  const again = checkOnce(path);
  return again.state === 'bad' ? first : again;
}

/** A page-by-page reader of one file, with the layout constants of the meta page it was vetted with. */
class Walker {
  private readonly seen = new Set<bigint>();
  pages = 0;
  constructor(private readonly fd: number, private readonly psize: number, private readonly lastPg: bigint) {}

  private read(pgno: bigint, length: number): Buffer {
    const b = readAt(this.fd, length, Number(pgno) * this.psize);
    if (b.length < length) throw new Damage(`page ${pgno} lies past the end of the file`);
    return b;
  }

  /** A page may be reached once only: a second path to it (or a cycle) is damage. */
  private claim(pgno: bigint, count: bigint): void {
    if (pgno < 2n || pgno + count - 1n > this.lastPg) throw new Damage(`page number ${pgno} is out of range`);
    if (this.seen.has(pgno)) throw new Damage(`page ${pgno} is reached twice`);
    this.seen.add(pgno);
    this.pages++;
  }

  /**
   * Walks the tree under `root` (a B-tree of branch and leaf pages). The free-page tree's records are not
   * read: lmdb-js's LMDB encodes them its own way (ranges), so only their pages and nodes are checked.
   */
  tree(root: bigint, depth: number): void {
    if (root === P_INVALID) return;
    if (depth > 32) throw new Damage('the tree is impossibly deep');
    this.claim(root, 1n);
    const p = this.read(root, this.psize);
    if (p.readBigUInt64LE(PG_PGNO) !== root) throw new Damage(`page ${root} does not carry its own number`);
    const flags = p.readUInt16LE(PG_FLAGS);
    const lower = p.readUInt16LE(PG_LOWER), upper = p.readUInt16LE(PG_UPPER);
    if (!(flags & (P_BRANCH | P_LEAF)) || (flags & P_BRANCH && flags & P_LEAF)) throw new Damage(`page ${root} is not a tree page`);
    if (lower & 1 || lower > upper || HDR + upper > this.psize) throw new Damage(`page ${root} has impossible bounds`);
    if (flags & P_LEAF2) return;   // fixed-size keys only (DUPFIXED): nothing points elsewhere
    for (let i = 0; i < lower / 2; i++) {
      const at = HDR + p.readUInt16LE(HDR + 2 * i);
      if (at < HDR + lower || at + NODESIZE > this.psize) throw new Damage(`page ${root} has a node outside the page`);
      const lo = p.readUInt16LE(at), hi = p.readUInt16LE(at + 2), nflags = p.readUInt16LE(at + 4), ksize = p.readUInt16LE(at + 6);
      if (at + NODESIZE + ksize > this.psize) throw new Damage(`page ${root} has a key outside the page`);
      if (flags & P_BRANCH) {
        this.tree(BigInt(lo) | (BigInt(hi) << 16n) | (BigInt(nflags) << 32n), depth + 1);
        continue;
      }
      const dsize = (lo | (hi << 16)) >>> 0;
      const data = at + NODESIZE + ksize;
      if (nflags & F_BIGDATA) {
        if (data + 8 > this.psize) throw new Damage(`page ${root} has a node outside the page`);
        const ov = p.readBigUInt64LE(data);
        const count = BigInt(Math.floor((HDR - 1 + dsize) / this.psize) + 1);
        this.claim(ov, count);
        const h = this.read(ov, HDR);
        if (h.readBigUInt64LE(PG_PGNO) !== ov || !(h.readUInt16LE(PG_FLAGS) & P_OVERFLOW) || BigInt(h.readUInt32LE(PG_LOWER)) < count) {
          throw new Damage(`overflow page ${ov} is damaged`);
        }
        continue;
      }
      if (data + dsize > this.psize) throw new Damage(`page ${root} has a value outside the page`);
      if (nflags & F_SUBDATA && !(nflags & F_DUPDATA)) {
        if (dsize < DB_SIZE) throw new Damage(`page ${root} has a cut-short database record`);
        this.tree(p.readBigUInt64LE(data + DB_ROOT), 0);
      }
    }
  }
}

class Damage extends Error {}

function walkOnce(path: string): FileCheck & { pages?: number } {
  const c = checkOnce(path);
  if (c.state !== 'ok') return c;
  const fd = openSync(path, 'r');
  try {
    const w = new Walker(fd, c.meta.psize, c.meta.lastPg);
    w.tree(c.meta.freeRoot, 0);
    w.tree(c.meta.mainRoot, 0);
    return { ...c, pages: w.pages };
  } catch (e) {
    if (e instanceof Damage) return { state: 'bad', why: e.message };
    throw e;
  } finally {
    closeSync(fd);
  }
}

/**
 * The deep check: every page LMDB would follow from the newest meta page (branch and leaf pages, each
 * overflow page's header, every database named in the main tree, the free-page tree), read with plain
 * reads, so that damage anywhere LMDB looks is found without mapping the file. It reads the tree pages
 * and one header per overflow value, not the values themselves (value.ts checks those on every read).
 * Another process may commit while we walk (and reuse a page we are about to read): a failure is
 * confirmed by a second walk.
 */
export function walkFile(path: string): FileCheck {
  const first = walkOnce(path);
  if (first.state !== 'bad') return first;
  const again = walkOnce(path);
  return again.state === 'bad' ? first : again;
}

/**
 * What identifies one state of one file: a file replaced by a copy or a restore, or written by anything but
 * a ptxd that had vouched for it (which stamps again after its writes), is checked again.
 */
function identity(path: string): string | undefined {
  try {
    const s = lstatSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.birthtimeNs}:${s.size}:${s.mtimeNs}`;
  } catch {
    return undefined;
  }
}

export const stampPath = (path: string): string => `${path}.checked`;

export function isStamped(path: string): boolean {
  const id = identity(path);
  try { return id !== undefined && readFileSync(stampPath(path), 'utf8') === id; } catch { return false; }
}

/** Remembers that this file was probed (or created by us); best effort. */
export function stamp(path: string): void {
  const id = identity(path);
  if (id === undefined) return;
  const tmp = `${stampPath(path)}.${process.pid}`;
  try { writeFileSync(tmp, id); renameSync(tmp, stampPath(path)); } catch { try { unlinkSync(tmp); } catch { /* none */ } }
}

/**
 * The lock file (`<file>-lock`) holds LMDB's reader table and mutexes, shared by every process that has
 * the store open. Garbage there is harmless when nobody holds it (the first opener rebuilds it) but faults
 * any process that joins one in use. Returns why it is unusable, or undefined when it is fine.
 */
export function checkLockFile(path: string): string | undefined {
  const lock = `${path}-lock`;
  let head: Buffer, st: Stats;
  try {
    const fd = openSync(lock, 'r');
    try { st = fstatSync(fd); head = readAt(fd, 8, 0); } finally { closeSync(fd); }
  } catch {
    return undefined;   // absent or unreadable: LMDB creates it or reports the error itself
  }
  if (head.length < 8 || head.readUInt32LE(0) === MDB_MAGIC) return undefined;
  const held = lockHeld(st);
  return held === false ? undefined : `its lock file is damaged${held ? ' while in use' : ''}`;
}

/** Whether a process holds a POSIX lock on the file (Linux /proc/locks); undefined when that cannot be told. */
function lockHeld(st: Stats): boolean | undefined {
  let text: string;
  try { text = readFileSync('/proc/locks', 'utf8'); } catch { return undefined; }
  // Entries name the file as major:minor:inode, the numbers of the kernel's dev_t in hex.
  const major = (st.dev >> 8) & 0xfff, minor = (st.dev & 0xff) | ((st.dev >> 12) & 0xfff00);
  const id = `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${st.ino}`;
  return text.split('\n').some(l => l.split(/\s+/).includes(id));
}

/** `20261127T091502Z`: sorts by time and is a valid file name everywhere. */
function fileTime(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/**
 * Moves a bad store file aside and drops its lock file and stamp; returns the new name. The lock file goes
 * too: a fresh store must not share one with the file a process may still have open.
 */
export function quarantine(path: string, now = new Date()): string {
  let kept = `${path}.corrupt-${fileTime(now)}`;
  for (let i = 1; lstatSync(kept, { throwIfNoEntry: false }); i++) kept = `${path}.corrupt-${fileTime(now)}-${i}`;
  renameSync(path, kept);
  for (const f of [`${path}-lock`, stampPath(path)]) { try { unlinkSync(f); } catch { /* none */ } }
  return kept;
}
