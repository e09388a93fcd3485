// The GNU make jobserver as seen from a ptxd client (ptxd-cicc runs under nvcc under make).
//
// MAKEFLAGS tells us whether make runs a jobserver: `--jobserver-auth=R,W` (pipe fds, make 4.2/4.3;
// `--jobserver-fds=` before), `--jobserver-auth=fifo:PATH` (make 4.4), and `-jN`. A client holds
// make's token for its own job already; the daemon runs that client's compile on it and admits at most
// N compiles of one make build at once (daemon/scheduler/scheduler.ts), which needs the build's
// identity: the jobserver pipe or fifo when we can see it, else the topmost make among our ancestors.
//
// Make 4.3 closes the pipe fds on exec for ordinary recipes (only `+` recipes and sub-makes keep them),
// so under nvcc the fds are usually NOT open in this process. TokenPool acquires extra tokens when they
// are (the daemon asks for one per extra worker it would give this client's unit: client/cicc.ts,
// daemon/scheduler/split.ts), and gives every one back on every way out (the daemon says so, end of
// request, error, daemon gone, SIGINT/SIGTERM/SIGHUP, process exit). SIGKILL cannot be caught: a client
// killed so loses its tokens, as any make job killed so does.

import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';

export type JobserverAuth = { kind: 'pipe'; r: number; w: number } | { kind: 'fifo'; path: string };

export interface MakeJobs {
  /** -jN; 0 when make runs with -j and no number. */
  jobs: number;
  auth: JobserverAuth;
}

/** The jobserver make announced in MAKEFLAGS; undefined when there is none (make -j1, not under make). */
export function parseMakeflags(flags: string | undefined): MakeJobs | undefined {
  if (!flags) return undefined;
  let jobs = 0;
  let auth: JobserverAuth | undefined;
  const words = flags.trim().split(/\s+/);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') break;   // variable overrides follow
    const j = /^-j(\d*)$/.exec(w);
    if (j) { jobs = j[1] ? Number(j[1]) : (/^\d+$/.test(words[i + 1] ?? '') ? Number(words[++i]) : 0); continue; }
    const a = /^--jobserver-(?:auth|fds)=(.*)$/.exec(w);
    if (!a) continue;
    const v = a[1]!;
    if (v.startsWith('fifo:')) auth = { kind: 'fifo', path: v.slice(5) };
    else {
      const p = /^(-?\d+),(-?\d+)$/.exec(v);
      auth = p && Number(p[1]) >= 0 && Number(p[2]) >= 0 ? { kind: 'pipe', r: Number(p[1]), w: Number(p[2]) } : undefined;
    }
  }
  return auth ? { jobs, auth } : undefined;
}

/** An open fd of process `pid` (this one, or a client of the daemon: Linux /proc, same user). */
function statFd(pid: number, fd: number) {
  return pid === process.pid ? fstatSync(fd) : statSync(`/proc/${pid}/fd/${fd}`);
}

/** Whether the pipe fds of `auth` are open in process `pid` (make passed them down). */
export function pipeInherited(auth: JobserverAuth, pid = process.pid): boolean {
  if (auth.kind !== 'pipe') return false;
  try { return statFd(pid, auth.r).isFIFO() && statFd(pid, auth.w).isFIFO(); } catch { return false; }
}

/** The topmost `make` among the ancestors of process `of` (Linux /proc), or undefined. */
function topMakeAncestor(of: number): number | undefined {
  let pid = of;
  let top: number | undefined;
  // the walk starts at `of` itself (its stat names its parent) and looks at up to 16 ancestors
  for (let depth = 0; depth <= 16 && pid > 1; depth++) {
    let stat: string;
    try { stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { break; }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    if (depth > 0 && /^(g?make|make-[\d.]+)$/.test(comm)) top = pid;
    pid = Number(stat.slice(close + 2).split(' ')[1]);
  }
  return top;
}

/**
 * A name for the make build that client process `pid` belongs to: equal for all its jobs, different
 * between builds.
 */
export function buildIdentity(mj: MakeJobs, pid = process.pid): string {
  if (mj.auth.kind === 'fifo') {
    try { const s = statSync(mj.auth.path); return `fifo:${s.dev}:${s.ino}`; } catch { return `fifo:${mj.auth.path}`; }
  }
  if (pipeInherited(mj.auth, pid)) {
    const s = statFd(pid, mj.auth.r);
    return `pipe:${s.dev}:${s.ino}`;
  }
  const make = topMakeAncestor(pid);
  return make !== undefined ? `make:${make}` : `makeflags:${mj.jobs}:${mj.auth.r},${mj.auth.w}`;
}

// Tokens held by this process, over all pools: given back by the exit and signal handlers.
const held = new Set<TokenPool>();
let handlersInstalled = false;

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => { for (const p of held) p.releaseAll(); });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const h = () => {
      for (const p of held) p.releaseAll();
      process.removeListener(sig, h);
      process.kill(process.pid, sig);   // die of the signal as if we had not caught it
    };
    process.on(sig, h);
  }
}

/**
 * Extra tokens from make's jobserver. Reads are non-blocking: the pipe is opened again through
 * /proc/self/fd so that O_NONBLOCK does not change make's own file description.
 */
export class TokenPool {
  private readonly tokens: number[] = [];

  private constructor(private readonly rfd: number, private readonly wfd: number, private readonly own: number[]) {}

  /** undefined when the jobserver cannot be reached from this process (the fds were not inherited). */
  static open(mj: MakeJobs): TokenPool | undefined {
    try {
      if (mj.auth.kind === 'fifo') {
        const fd = openSync(mj.auth.path, constants.O_RDWR | constants.O_NONBLOCK);
        return new TokenPool(fd, fd, [fd]);
      }
      if (!pipeInherited(mj.auth)) return undefined;
      const r = openSync(`/proc/self/fd/${mj.auth.r}`, constants.O_RDONLY | constants.O_NONBLOCK);
      return new TokenPool(r, mj.auth.w, [r]);
    } catch {
      return undefined;
    }
  }

  get count(): number { return this.tokens.length; }

  /** Takes one token if one is free now. */
  tryAcquire(): boolean {
    const b = Buffer.alloc(1);
    try {
      if (readSync(this.rfd, b, 0, 1, null) !== 1) return false;
    } catch {
      return false;   // EAGAIN: none free
    }
    this.tokens.push(b[0]!);
    installHandlers();
    held.add(this);
    return true;
  }

  /** Takes one token, waiting up to timeoutMs. */
  async acquire(timeoutMs: number): Promise<boolean> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      if (this.tryAcquire()) return true;
      if (Date.now() >= end) return false;
      await new Promise(r => setTimeout(r, 5));
    }
  }

  /** Gives one token back (the very byte make gave us). */
  release(): void {
    const t = this.tokens.pop();
    if (t === undefined) return;
    writeSync(this.wfd, Buffer.from([t]));
    if (this.tokens.length === 0) held.delete(this);
  }

  releaseAll(): void {
    while (this.tokens.length > 0) {
      try { this.release(); } catch { this.tokens.length = 0; }
    }
    held.delete(this);
  }

  close(): void {
    this.releaseAll();
    for (const fd of this.own) { try { closeSync(fd); } catch { /* closed */ } }
  }
}
