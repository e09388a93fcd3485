// The PTX machine: memories, a launch (blocks one after another, warps of 32 lanes in lockstep), and the
// instruction semantics.
//
// Scheduling: each lane has its own pc and call depth. A warp issues the instruction of its deepest,
// lowest-pc running lanes, executing it for every lane at that point together (the active mask). That
// reconverges structured control flow where hardware does, so shfl/vote/match/activemask see the lanes
// they would see on hardware for well-defined programs. A warp runs until all its lanes wait at a block
// barrier or have exited; when every live thread of the block waits, the barrier releases.
//
// Registers are 32-bit halves in per-thread Int32Arrays (lo, hi): 32-bit values use lo only, 64-bit
// integers and f64 use both, predicates are 0/1 in lo. No objects are allocated per executed
// instruction except BigInts for 64-bit division/remainder and float<->64-bit-integer conversion.

import {
  Op, K, F, M, Cmp, ROUND_MASK, type Inst, type Opnd, type Func, type PtxModule, type GlobalVar,
  parseModule, kernelParamSize, PtxError,
} from './module';
import { T, Space, isSigned, is64, isHalf, typeSize, GLOBAL_BASE, CONST_WIN, SHARED_WIN, LOCAL_WIN, PARAM_WIN, WIN_SIZE } from './types';
import * as fp from './fp';
import * as fpo from './fpops';
import * as half from './half';
import * as printfMod from './printf';
import { texFetch, surfAccess, TexError, type TexDesc, type SurfDesc } from './texsurf';

export class EmuError extends Error {}

export interface Dim3 { x: number; y: number; z: number }

export interface LaunchResult {
  /** vprintf output of this launch, in execution order. */
  printf: string;
  /** Set when a thread executed trap or failed an assert(); the launch stopped there. */
  trap: string | null;
  /** Instructions issued (warp-level: one per instruction a warp executes, whatever its active lanes). */
  steps: number;
  /** Instructions executed per thread, summed over threads (each issue counts its active lanes). */
  laneInsts: number;
}

const enum St { RUN, BAR, EXIT }

/** A divergent branch not yet reconverged: its lanes, and where (pc in fn at call depth) they meet. */
interface Reconv { mask: number; rpc: number; depth: number; fn: Func }

interface Frame {
  fn: Func;
  retPc: number;
  regBase: number;
  pbase: number;
  depot: number;
  args: number[];
  retOff: number;
}

class Thread {
  lo: Int32Array;
  hi: Int32Array;
  base = 0;
  regTop = 0;
  pc = 0;
  depth = 0;
  st = St.RUN;
  fn!: Func;
  frames: Frame[] = [];
  /** Offset of this thread's local memory in Machine.local; local-space addresses are relative to it. */
  localOrigin = 0;
  depot = 0;
  localTop = 0;
  /** This thread's param stack origin in Machine.pstack, current frame's param area, its top. */
  pOrigin = 0;
  pbase = 0;
  pTop = 0;
  args: number[] = [];
  retOff = 0;
  tid = 0; tx = 0; ty = 0; tz = 0; lane = 0; warp = 0;
  /** Barrier-reduction contribution and the instruction waited at. */
  barVal = 0;
  /** Condition code carry flag (add.cc / addc / sub.cc / subc / mad.cc / madc). */
  cf = 0;
  barInst: Inst | null = null;
  constructor(cap: number) {
    this.lo = new Int32Array(cap);
    this.hi = new Int32Array(cap);
  }
  grow(need: number): void {
    if (need <= this.lo.length) return;
    let n = this.lo.length * 2;
    while (n < need) n *= 2;
    const lo = new Int32Array(n); lo.set(this.lo); this.lo = lo;
    const hi = new Int32Array(n); hi.set(this.hi); this.hi = hi;
  }
}

const LOCAL_PER_THREAD = 16 * 1024;
const POISON = 0xa5;
const PSTACK_PER_THREAD = 4 * 1024;
const STEP_LIMIT = 20_000_000;

class Trap extends Error {}

/** Growable byte memory with a DataView. */
class Mem {
  buf = new Uint8Array(1 << 16);
  dv = new DataView(this.buf.buffer);
  top = 0;
  alloc(size: number, align: number): number {
    const off = Math.ceil(this.top / Math.max(align, 1)) * Math.max(align, 1);
    this.top = off + Math.max(size, 0);
    if (this.top > this.buf.length) {
      let n = this.buf.length;
      while (n < this.top) n *= 2;
      const b = new Uint8Array(n);
      b.set(this.buf);
      this.buf = b;
      this.dv = new DataView(b.buffer);
    }
    return off;
  }
}

// Scratch results (avoid allocating pairs).
let rLo = 0;
let rHi = 0;
// Located memory: DataView and byte offset.
let mDv: DataView = new DataView(new ArrayBuffer(8));
let mOff = 0;

const TWO32 = 4294967296;
const HEAP_BASE = GLOBAL_BASE + 2 ** 36;
/** Function addresses (function pointers, vtable entries): outside every memory window, so never dereferenceable. */
const FUNC_BASE = 2 ** 45;
const FUNC_STRIDE = 16;

function u32(x: number): number { return x >>> 0; }

/** Unsigned 32x32 -> high 32 bits (as a number in [0, 2^32)). */
function mulhiU(a: number, b: number): number {
  a >>>= 0; b >>>= 0;
  const al = a & 0xffff, ah = a >>> 16, bl = b & 0xffff, bh = b >>> 16;
  const p0 = al * bl, p1 = al * bh, p2 = ah * bl, p3 = ah * bh;
  const mid = (p0 >>> 16) + (p1 & 0xffff) + (p2 & 0xffff);
  return (p3 + (p1 >>> 16) + (p2 >>> 16) + Math.floor(mid / 65536)) >>> 0;
}
function mulhiS(a: number, b: number): number {
  let h = mulhiU(a, b);
  if ((a | 0) < 0) h -= b >>> 0;
  if ((b | 0) < 0) h -= a >>> 0;
  return h | 0;
}

function big(lo: number, hi: number): bigint { return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0); }
function sbig(lo: number, hi: number): bigint { return BigInt.asIntN(64, big(lo, hi)); }
function setBig(v: bigint): void {
  const u = BigInt.asUintN(64, v);
  rLo = Number(u & 0xffffffffn) | 0;
  rHi = Number(u >> 32n) | 0;
}

function add64(alo: number, ahi: number, blo: number, bhi: number): void {
  const l = (alo >>> 0) + (blo >>> 0);
  rLo = l | 0;
  rHi = (ahi + bhi + (l >= TWO32 ? 1 : 0)) | 0;
}
function sub64(alo: number, ahi: number, blo: number, bhi: number): void {
  const l = (alo >>> 0) - (blo >>> 0);
  rLo = l | 0;
  rHi = (ahi - bhi - (l < 0 ? 1 : 0)) | 0;
}
function mul64(alo: number, ahi: number, blo: number, bhi: number): void {
  const l = Math.imul(alo, blo);
  const h = (mulhiU(alo, blo) + Math.imul(alo, bhi) + Math.imul(ahi, blo)) | 0;
  rLo = l; rHi = h;
}
/** Compare 64-bit values: -1, 0, 1. */
function cmp64(alo: number, ahi: number, blo: number, bhi: number, signed: boolean): number {
  if (ahi !== bhi) {
    if (signed) return (ahi | 0) < (bhi | 0) ? -1 : 1;
    return (ahi >>> 0) < (bhi >>> 0) ? -1 : 1;
  }
  if (alo === blo) return 0;
  return (alo >>> 0) < (blo >>> 0) ? -1 : 1;
}
function shl64(lo: number, hi: number, n: number): void {
  if (n >= 64) { rLo = 0; rHi = 0; return; }
  if (n === 0) { rLo = lo; rHi = hi; return; }
  if (n >= 32) { rHi = lo << (n - 32); rLo = 0; return; }
  rHi = (hi << n) | (lo >>> (32 - n)); rLo = lo << n;
}
function shr64(lo: number, hi: number, n: number, signed: boolean): void {
  if (n >= 64) { rHi = signed && hi < 0 ? -1 : 0; rLo = rHi; return; }
  if (n === 0) { rLo = lo; rHi = hi; return; }
  if (n >= 32) { rLo = signed ? hi >> (n - 32) : (hi >>> (n - 32)) | 0; rHi = signed ? hi >> 31 : 0; return; }
  rLo = (lo >>> n) | (hi << (32 - n)); rHi = signed ? hi >> n : (hi >>> n) | 0;
}

function popc32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}
function brev32(x: number): number {
  x = ((x >>> 1) & 0x55555555) | ((x & 0x55555555) << 1);
  x = ((x >>> 2) & 0x33333333) | ((x & 0x33333333) << 2);
  x = ((x >>> 4) & 0x0f0f0f0f) | ((x & 0x0f0f0f0f) << 4);
  x = ((x >>> 8) & 0x00ff00ff) | ((x & 0x00ff00ff) << 8);
  return ((x >>> 16) | (x << 16)) | 0;
}

/** Normalise an integer held in 32 bits to the width/signedness of t. */
function norm(t: T, v: number): number {
  if (t >= T.B32) return v | 0; // 32-bit and wider (64-bit values are never normalised through here)
  switch (t) {
    case T.S8: return (v << 24) >> 24;
    case T.U8: case T.B8: return v & 0xff;
    case T.S16: return (v << 16) >> 16;
    case T.U16: case T.B16: case T.F16: case T.BF16: return v & 0xffff;
    default: return v | 0;
  }
}

const BITS = [8, 8, 8, 16, 16, 16, 16, 16, 32, 32, 32, 32, 32, 32, 64, 64, 64, 64, 8, 0];
function bitsOf(t: T): number { return BITS[t]!; }

export interface LaunchOptions {
  grid: Dim3;
  block: Dim3;
  dynShared?: number;
  /** Kernel parameter bytes laid out as the .entry declares them. */
  params: Uint8Array;
}

/** A setp float comparison, unordered (`u`) forms true when either operand is NaN (PTX ISA). */
function floatCompare(c: Cmp, a: number, b: number, text: string): boolean {
  const un = a !== a || b !== b;
  switch (c) {
    case Cmp.EQ: return a === b; case Cmp.NE: return !un && a !== b;
    case Cmp.LT: return a < b; case Cmp.LE: return a <= b;
    case Cmp.GT: return a > b; case Cmp.GE: return a >= b;
    case Cmp.EQU: return un || a === b; case Cmp.NEU: return a !== b;
    case Cmp.LTU: return un || a < b; case Cmp.LEU: return un || a <= b;
    case Cmp.GTU: return un || a > b; case Cmp.GEU: return un || a >= b;
    case Cmp.NUM: return !un; case Cmp.NAN: return un;
    default: throw new EmuError(`bad float comparison in ${text}`);
  }
}

export class Machine {
  readonly module: PtxModule;
  readonly global = new Mem();
  /** User allocations (alloc()), in their own window so their addresses do not depend on the module. */
  readonly heap = new Mem();
  readonly constMem = new Mem();
  shared = new DataView(new ArrayBuffer(16));
  sharedStatic = 0;
  local = new DataView(new ArrayBuffer(16));
  pstack = new DataView(new ArrayBuffer(16));
  kparams = new DataView(new ArrayBuffer(16));
  private printfOut = '';
  private steps = 0;
  private laneInsts = 0;
  private clock = 0;
  private grid: Dim3 = { x: 1, y: 1, z: 1 };
  private block: Dim3 = { x: 1, y: 1, z: 1 };
  private ctaid: Dim3 = { x: 0, y: 0, z: 0 };
  private dynShared = 0;
  private sharedVars: GlobalVar[] = [];
  /** Texture and surface objects by handle (the value of a cudaTextureObject_t / cudaSurfaceObject_t). */
  private texObjs = new Map<number, TexDesc>();
  private surfObjs = new Map<number, SurfDesc>();
  /** Live device-heap blocks (malloc in device code) by address, with their sizes. */
  private deviceBlocks = new Map<number, number>();

  constructor(ptx: string) {
    this.module = parseModule(ptx);
    this.global.alloc(256, 256); // keep address GLOBAL_BASE+0 unused
    this.heap.alloc(256, 256);
    for (const g of this.module.globals) {
      if (g.space === Space.GLOBAL) {
        g.addr = this.global.alloc(g.size, g.align);
        if (g.init) this.global.buf.set(g.init, g.addr);
      } else if (g.space === Space.CONST) {
        g.addr = this.constMem.alloc(g.size, g.align);
        if (g.init) this.constMem.buf.set(g.init, g.addr);
      } else if (g.space === Space.SHARED) {
        this.sharedVars.push(g);
      }
    }
    for (const g of this.module.globals) {
      for (const r of g.relocs) {
        const fi = this.module.funcIndex.get(r.sym);
        if (fi !== undefined && !this.module.globalIndex.has(r.sym)) {
          // a function's address (vtables)
          (g.space === Space.CONST ? this.constMem : this.global).dv.setBigUint64(g.addr + r.off, BigInt(FUNC_BASE + fi * FUNC_STRIDE + r.addend), true);
          continue;
        }
        const target = this.module.globalIndex.get(r.sym);
        if (!target || target.space !== Space.GLOBAL) throw new EmuError(`initialiser of ${g.name} refers to ${r.sym}, not a global variable`);
        const mem = g.space === Space.CONST ? this.constMem : this.global;
        mem.dv.setBigUint64(g.addr + r.off, BigInt(GLOBAL_BASE + target.addr + r.addend), true);
      }
    }
    let top = 0;
    for (const g of this.sharedVars) {
      if (g.dynamic) continue;
      top = Math.ceil(top / g.align) * g.align;
      g.addr = top;
      top += g.size;
    }
    this.sharedStatic = top;
  }

  /** Allocate global memory; returns the device address (a Number). */
  alloc(bytes: number, align = 256): number {
    return HEAP_BASE + this.heap.alloc(bytes, align);
  }
  write(addr: number, data: Uint8Array): void {
    this.heap.buf.set(data, addr - HEAP_BASE);
  }
  read(addr: number, bytes: number): Uint8Array {
    const o = addr - HEAP_BASE;
    return this.heap.buf.slice(o, o + bytes);
  }
  /** A texture object over user memory (alloc()); returns its handle. */
  createTexture(d: TexDesc): bigint {
    const texel = { i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, f32: 4 }[d.format] * d.channels;
    const rows = (d.height ?? 1) * (d.depth ?? 1) * Math.max(d.layers ?? 1, 1);
    this.checkResource(d.addr, (d.pitch ?? texel * d.width) * (rows - 1) + texel * d.width, 'texture');
    const h = 0x7e570000 + 16 * (this.texObjs.size + this.surfObjs.size + 1);
    this.texObjs.set(h, { ...d });
    return BigInt(h);
  }
  /** A surface object over user memory (alloc()); returns its handle. */
  createSurface(d: SurfDesc): bigint {
    this.checkResource(d.addr, d.elemSize * d.width * (d.height ?? 1) * (d.depth ?? 1) * Math.max(d.layers ?? 1, 1), 'surface');
    const h = 0x7e570000 + 16 * (this.texObjs.size + this.surfObjs.size + 1);
    this.surfObjs.set(h, { ...d });
    return BigInt(h);
  }
  private checkResource(addr: number, bytes: number, what: string): void {
    if (addr < HEAP_BASE || addr + bytes > HEAP_BASE + this.heap.top) throw new EmuError(`${what} of ${bytes} bytes at ${addr} is not inside allocated memory`);
  }
  /** Write the bytes of a module variable (global or const space). */
  writeSymbol(name: string, data: Uint8Array): void {
    const g = this.variable(name);
    if (data.length > g.size) throw new EmuError(`${name} has ${g.size} bytes, not ${data.length}`);
    (g.space === Space.CONST ? this.constMem : this.global).buf.set(data, g.addr);
  }
  readSymbol(name: string, bytes: number): Uint8Array {
    const g = this.variable(name);
    const m = g.space === Space.CONST ? this.constMem : this.global;
    return m.buf.slice(g.addr, g.addr + Math.min(bytes, g.size));
  }
  /** A global/const module variable by exact name, or by its unmangled name inside a mangled one (`_ZL8g_hidden`, or
   * `_ZN..._GLOBAL__N_...11anonCounterE` in an anonymous namespace, whose prefix depends on the source path). */
  variable(name: string): GlobalVar {
    let g = this.module.globalIndex.get(name);
    if (!g) g = this.module.globals.find(v => /^_Z/.test(v.name) && (v.name.endsWith(`${name.length}${name}`) || v.name.endsWith(`${name.length}${name}E`)));
    if (!g || (g.space !== Space.GLOBAL && g.space !== Space.CONST)) throw new EmuError(`no global or constant variable ${name}`);
    return g;
  }
  /** Address of a module variable (global space) by name. */
  symbolAddress(name: string): number {
    const g = this.module.globalIndex.get(name);
    if (!g) throw new EmuError(`no variable ${name}`);
    if (g.space !== Space.GLOBAL) throw new EmuError(`${name} is not in global space`);
    return GLOBAL_BASE + g.addr;
  }
  kernelNames(): string[] {
    return this.module.funcs.filter(f => f.isEntry && f.code.length >= 0 && !f.external).map(f => f.name);
  }
  kernel(name: string): Func {
    const i = this.module.funcIndex.get(name);
    const f = i === undefined ? undefined : this.module.funcs[i];
    if (!f || !f.isEntry) throw new EmuError(`no kernel ${name} in the PTX module`);
    return f;
  }

  launch(name: string, opts: LaunchOptions): LaunchResult {
    const f = this.kernel(name);
    this.grid = opts.grid;
    this.block = opts.block;
    this.dynShared = opts.dynShared ?? 0;
    this.printfOut = '';
    this.steps = 0;
    this.laneInsts = 0;
    const need = kernelParamSize(f);
    if (opts.params.length < need) throw new EmuError(`kernel ${name} needs ${need} parameter bytes, got ${opts.params.length}`);
    const kp = new Uint8Array(Math.max(opts.params.length, 8));
    kp.set(opts.params);
    this.kparams = new DataView(kp.buffer);
    const nthreads = opts.block.x * opts.block.y * opts.block.z;
    const dynBase = Math.ceil(this.sharedStatic / 16) * 16;
    for (const g of this.sharedVars) if (g.dynamic) g.addr = dynBase;
    const sharedBytes = dynBase + this.dynShared + 16;
    // Shared and local memory start out as a poison pattern, not zeros: code that reads them before
    // writing (a dropped initialisation) then gives visibly wrong results instead of lucky zeros.
    const localBuf = new Uint8Array(nthreads * LOCAL_PER_THREAD).fill(POISON);
    this.local = new DataView(localBuf.buffer);
    this.pstack = new DataView(new ArrayBuffer(nthreads * PSTACK_PER_THREAD));
    const threads: Thread[] = [];
    for (let t = 0; t < nthreads; t++) threads.push(new Thread(Math.max(64, f.nregs * 2)));
    const nwarps = Math.ceil(nthreads / 32);
    let trap: string | null = null;
    try {
      for (let bz = 0; bz < opts.grid.z; bz++) {
        for (let by = 0; by < opts.grid.y; by++) {
          for (let bx = 0; bx < opts.grid.x; bx++) {
            this.ctaid = { x: bx, y: by, z: bz };
            this.shared = new DataView(new Uint8Array(sharedBytes).fill(POISON).buffer);
            for (let t = 0; t < nthreads; t++) this.initThread(threads[t]!, t, f);
            this.runBlock(threads, nwarps);
          }
        }
      }
    } catch (e) {
      if (e instanceof Trap) trap = e.message;
      else throw e;
    }
    return { printf: this.printfOut, trap, steps: this.steps, laneInsts: this.laneInsts };
  }

  private initThread(th: Thread, t: number, f: Func): void {
    const b = this.block;
    th.tid = t;
    th.tx = t % b.x;
    th.ty = Math.floor(t / b.x) % b.y;
    th.tz = Math.floor(t / (b.x * b.y));
    th.lane = t & 31;
    th.warp = t >> 5;
    th.fn = f;
    th.pc = 0;
    th.depth = 0;
    th.st = St.RUN;
    th.frames.length = 0;
    th.base = 0;
    th.regTop = f.nregs;
    th.grow(th.regTop);
    th.lo.fill(0, 0, f.nregs);
    th.hi.fill(0, 0, f.nregs);
    th.localOrigin = t * LOCAL_PER_THREAD;
    th.depot = 0;
    th.localTop = Math.ceil(f.depotSize / 16) * 16;
    th.pOrigin = t * PSTACK_PER_THREAD;
    th.pbase = 0;
    th.pTop = f.paramAreaSize;
    th.args = [];
    th.retOff = 0;
    th.barInst = null;
  }

  private runBlock(threads: Thread[], nwarps: number): void {
    const n = threads.length;
    const stacks: Reconv[][] = Array.from({ length: nwarps }, () => []);
    for (;;) {
      for (let w = 0; w < nwarps; w++) this.runWarp(threads, w * 32, Math.min(n, w * 32 + 32), stacks[w]!);
      let waiting = 0;
      let live = 0;
      for (let t = 0; t < n; t++) {
        const s = threads[t]!.st;
        if (s !== St.EXIT) live++;
        if (s === St.BAR) waiting++;
      }
      if (live === 0) return;
      if (waiting !== live) throw new EmuError('a barrier was reached by only part of a diverged warp (undefined behaviour on hardware)');
      this.releaseBarrier(threads);
    }
  }

  private releaseBarrier(threads: Thread[]): void {
    // bar.red: reduce the contributions of every waiting thread, then hand each its result.
    let popc = 0, and = 1, or = 0;
    let red: Inst | null = null;
    for (const th of threads) {
      if (th.st !== St.BAR) continue;
      if (th.barInst && th.barInst.op === Op.BARRED) {
        red = th.barInst;
        popc += th.barVal ? 1 : 0;
        and &= th.barVal ? 1 : 0;
        or |= th.barVal ? 1 : 0;
      }
    }
    for (const th of threads) {
      if (th.st !== St.BAR) continue;
      const inst = th.barInst!;
      if (inst.op === Op.BARRED) {
        if (red === null) throw new EmuError('internal: bar.red without reduction');
        const v = inst.m === M.POPC ? popc : inst.m === M.AND ? and : or;
        th.lo[th.base + inst.o[0]!.r] = v;
      }
      th.barInst = null;
      th.st = St.RUN;
      th.pc++;
    }
  }

  /**
   * Run one warp until all its lanes wait at a barrier or have exited. The reconvergence stack holds, for
   * each divergent branch still open, the lanes that diverged there and where they meet again; only the
   * lanes of the top entry that have not arrived yet are scheduled (deepest call first, then lowest pc).
   */
  private runWarp(threads: Thread[], from: number, to: number, stack: Reconv[]): void {
    const lanes: Thread[] = [];
    for (let t = from; t < to; t++) lanes.push(threads[t]!);
    const active: Thread[] = [];
    for (;;) {
      const top = stack.length ? stack[stack.length - 1]! : null;
      let depth = -1;
      let pc = 0x7fffffff;
      let fn: Func | null = null;
      let waiting = false;
      for (const th of lanes) {
        if (top && !((top.mask >>> th.lane) & 1)) continue;
        if (top && (th.st === St.EXIT || th.depth < top.depth || (th.depth === top.depth && th.fn === top.fn && th.pc === top.rpc))) continue;
        if (th.st !== St.RUN) { if (th.st === St.BAR) waiting = true; continue; }
        if (th.depth > depth || (th.depth === depth && th.pc < pc)) { depth = th.depth; pc = th.pc; fn = th.fn; }
      }
      if (depth < 0) {
        if (waiting || !top) return; // blocked at a barrier, or the warp is done
        stack.pop();
        continue;
      }
      active.length = 0;
      let mask = 0;
      for (const th of lanes) {
        if (top && !((top.mask >>> th.lane) & 1)) continue;
        if (th.st === St.RUN && th.depth === depth && th.pc === pc && th.fn === fn) { active.push(th); mask |= 1 << th.lane; }
      }
      this.laneInsts += active.length;
      if (++this.steps > STEP_LIMIT) throw new EmuError(`step limit exceeded in ${fn!.name} at pc ${pc}`);
      this.clock += 1;
      const code = fn!.code;
      if (pc >= code.length) {
        // Falling off the end of a function body returns.
        for (const th of active) this.doRet(th);
        continue;
      }
      const inst = code[pc]!;
      try {
        this.issue(inst, active, mask);
      } catch (e) {
        if (e instanceof Trap) throw e;
        if (e instanceof EmuError) {
          if (!(e as { located?: boolean }).located) {
            e.message += ` (in ${fn!.name}, PTX line ${inst.line}: '${inst.text}')`;
            (e as { located?: boolean }).located = true;
          }
          throw e;
        }
        throw new EmuError(`${(e as Error).message} (in ${fn!.name}, PTX line ${inst.line}: '${inst.text}')`);
      }
      if (inst.op === Op.BRA && inst.g >= 0 && active.length > 1) {
        let taken = 0;
        for (const th of active) if (th.pc === inst.target && th.depth === depth) taken++;
        if (taken !== 0 && taken !== active.length && inst.target !== pc + 1) {
          stack.push({ mask, rpc: inst.rpc, depth, fn: fn! });
        }
      }
    }
  }

  private guard(inst: Inst, th: Thread): boolean {
    if (inst.g < 0) return true;
    const p = th.lo[th.base + inst.g]! !== 0;
    return inst.gneg ? !p : p;
  }

  /** Issue one instruction for the lanes in `active` (all at the same pc). */
  private issue(inst: Inst, active: Thread[], mask: number): void {
    switch (inst.op) {
      case Op.SHFL: return this.shfl(inst, active, mask);
      case Op.VOTE: return this.vote(inst, active, mask);
      case Op.MATCH: return this.match(inst, active);
      case Op.WMMA: return this.wmma(inst, active);
      case Op.REDUX: return this.redux(inst, active);
      case Op.BAR: case Op.BARRED: {
        for (const th of active) {
          if (!this.guard(inst, th)) { th.pc++; continue; }
          th.st = St.BAR;
          th.barInst = inst;
          if (inst.op === Op.BARRED) {
            const src = inst.o[inst.o.length - 1]!;
            let v = this.rd(src, th) !== 0;
            if (src.neg) v = !v;
            th.barVal = v ? 1 : 0;
          }
        }
        return;
      }
    }
    for (let i = 0; i < active.length; i++) {
      const th = active[i]!;
      if (inst.g >= 0 && !this.guard(inst, th)) { th.pc++; continue; }
      this.exec(inst, th, mask);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Operands

  private sreg(id: number, th: Thread): number {
    switch (id) {
      case 0: return th.tx; case 1: return th.ty; case 2: return th.tz;
      case 3: return this.block.x; case 4: return this.block.y; case 5: return this.block.z;
      case 6: return this.ctaid.x; case 7: return this.ctaid.y; case 8: return this.ctaid.z;
      case 9: return this.grid.x; case 10: return this.grid.y; case 11: return this.grid.z;
      case 12: return th.lane; case 13: return th.warp; case 14: return Math.ceil((this.block.x * this.block.y * this.block.z) / 32);
      case 15: return (1 << th.lane) | 0;
      case 16: return ((1 << th.lane) - 1) | 0;
      case 17: return th.lane === 31 ? -1 : ((1 << (th.lane + 1)) - 1) | 0;
      case 18: return th.lane === 31 ? 0 : (~((1 << (th.lane + 1)) - 1)) | 0;
      case 19: return (~((1 << th.lane) - 1)) | 0;
      case 20: case 21: case 22: case 31: return this.clock | 0;
      case 23: return 0; case 24: return 1; case 25: return 1; case 26: return 32;
      case 29: return this.dynShared; case 30: return this.sharedStatic + this.dynShared;
      // The reserved shared memory region (cooperative_groups.h reads its offset for multi-warp tiles' scratch):
      // the emulator models none, so every offset points just past the block's shared memory (an access there
      // fails visibly instead of aliasing the program's own shared variables) and its capacity is 0.
      case 32: case 33: case 35: case 36: return Math.ceil(this.sharedStatic / 16) * 16 + this.dynShared;
      case 34: return 0;
      // launches here set no cluster dimensions: every block is an implicit cluster of one
      case 37: return 1; case 38: return 0;
    }
    throw new EmuError(`unsupported special register id ${id}`);
  }

  /** Low 32 bits of an operand. */
  private rd(o: Opnd, th: Thread): number {
    switch (o.k) {
      case K.REG: return th.lo[th.base + o.r]!;
      case K.IMM: return o.lo;
      case K.SREG: return this.sreg(o.r, th);
    }
    return this.addr(o, th) | 0;
  }
  /** High 32 bits of an operand. */
  private rdh(o: Opnd, th: Thread): number {
    switch (o.k) {
      case K.REG: return th.hi[th.base + o.r]!;
      case K.IMM: return o.hi;
      case K.SREG: return o.r === 21 || o.r === 22 ? Math.floor(this.clock / TWO32) | 0 : 0;
    }
    return Math.floor(this.addr(o, th) / TWO32) | 0;
  }
  /** An address operand (register, symbol, immediate) plus its offset, as a Number. */
  private addr(o: Opnd, th: Thread): number {
    switch (o.k) {
      case K.REG: return th.hi[th.base + o.r]! * TWO32 + (th.lo[th.base + o.r]! >>> 0) + o.off;
      case K.IMM: return o.hi * TWO32 + (o.lo >>> 0) + o.off;
      case K.GADDR: {
        const g = this.module.globalIndex.get(o.name)!;
        return (g.space === Space.GLOBAL ? GLOBAL_BASE : 0) + g.addr + o.off;
      }
      case K.DEPOT: return th.depot + o.lo + o.off;
      case K.KPARAM: return o.lo + o.off;
      case K.LPARAM: return th.pbase + o.r + o.off;
      case K.FPARAM: return th.args[o.r]! + o.off;
      case K.RETVAL: return th.retOff + o.off;
      case K.SREG: return this.sreg(o.r, th);
      case K.FUNC: return FUNC_BASE + o.r * FUNC_STRIDE;
    }
    throw new EmuError(`bad address operand ${o.name}`);
  }

  private wr(o: Opnd, th: Thread, lo: number, hi: number): void {
    if (o.k === K.REG) { th.lo[th.base + o.r] = lo; th.hi[th.base + o.r] = hi; return; }
    if (o.k === K.SINK) return;
    throw new EmuError(`destination ${o.name} is not a register`);
  }

  /** Resolve a memory operand in space sp to (mDv, mOff); size for bounds checks. */
  private locate(sp: Space, o: Opnd, th: Thread, size: number): void {
    let a = this.addr(o, th);
    switch (sp) {
      case Space.GENERIC:
        if (a >= PARAM_WIN) { sp = Space.PARAM; a -= PARAM_WIN; }
        else if (a >= LOCAL_WIN) { sp = Space.LOCAL; a -= LOCAL_WIN; }
        else if (a >= SHARED_WIN) { sp = Space.SHARED; a -= SHARED_WIN; }
        else if (a >= CONST_WIN) { sp = Space.CONST; a -= CONST_WIN; }
        else sp = Space.GLOBAL;
        break;
      case Space.PARAM:
        if (o.k === K.LPARAM || o.k === K.FPARAM || o.k === K.RETVAL) {
          mDv = this.pstack; mOff = th.pOrigin + a;
          if (a < 0 || a + size > PSTACK_PER_THREAD) throw new EmuError(`param stack access out of range (${a})`);
          return;
        }
        if (a >= PARAM_WIN) a -= PARAM_WIN;
        break;
    }
    switch (sp) {
      case Space.GLOBAL: {
        if (a >= HEAP_BASE) {
          const ho = a - HEAP_BASE;
          if (ho + size > this.heap.top) throw new EmuError(`global access out of bounds at 0x${a.toString(16)} (${size} bytes)`);
          mDv = this.heap.dv; mOff = ho; return;
        }
        const off = a - GLOBAL_BASE;
        if (off < 256 || off + size > this.global.top) throw new EmuError(`global access out of bounds at 0x${a.toString(16)} (${size} bytes)`);
        mDv = this.global.dv; mOff = off; return;
      }
      case Space.SHARED:
        if (a < 0 || a + size > this.shared.byteLength) throw new EmuError(`shared access out of bounds at ${a}`);
        mDv = this.shared; mOff = a; return;
      case Space.LOCAL:
        if (a < 0 || a + size > LOCAL_PER_THREAD) throw new EmuError(`local access out of bounds at ${a}`);
        mDv = this.local; mOff = th.localOrigin + a; return;
      case Space.CONST:
        if (a < 0 || a + size > this.constMem.top) throw new EmuError(`const access out of bounds at ${a}`);
        mDv = this.constMem.dv; mOff = a; return;
      case Space.PARAM:
        if (a < 0 || a + size > this.kparams.byteLength) throw new EmuError(`kernel param access out of bounds at ${a}`);
        mDv = this.kparams; mOff = a; return;
    }
    throw new EmuError(`unsupported state space ${sp}`);
  }

  /** Load a value of type t at (mDv, mOff + k) into rLo/rHi. */
  private loadAt(t: T, off: number): void {
    const dv = mDv;
    switch (t) {
      case T.U8: case T.B8: rLo = dv.getUint8(off); rHi = 0; return;
      case T.S8: rLo = dv.getInt8(off); rHi = rLo >> 31; return;
      case T.U16: case T.B16: case T.F16: case T.BF16: rLo = dv.getUint16(off, true); rHi = 0; return;
      case T.S16: rLo = dv.getInt16(off, true); rHi = rLo >> 31; return;
      case T.U32: case T.B32: case T.F32: case T.F16X2: case T.BF16X2: rLo = dv.getInt32(off, true); rHi = 0; return;
      case T.S32: rLo = dv.getInt32(off, true); rHi = rLo >> 31; return;
      case T.U64: case T.B64: case T.S64: case T.F64: rLo = dv.getInt32(off, true); rHi = dv.getInt32(off + 4, true); return;
    }
    throw new EmuError(`cannot load type ${t}`);
  }
  private storeAt(t: T, off: number, lo: number, hi: number): void {
    const dv = mDv;
    switch (typeSize(t)) {
      case 1: dv.setUint8(off, lo & 0xff); return;
      case 2: dv.setUint16(off, lo & 0xffff, true); return;
      case 4: dv.setInt32(off, lo, true); return;
      case 8: dv.setInt32(off, lo, true); dv.setInt32(off + 4, hi, true); return;
    }
    throw new EmuError(`cannot store type ${t}`);
  }

  // ---------------------------------------------------------------------------------------------
  // Per-lane execution

  private exec(inst: Inst, th: Thread, mask: number): void {
    const o = inst.o;
    const t = inst.t;
    switch (inst.op) {
      case Op.MOV: {
        const s = o[1]!;
        if (s.k === K.VEC || o[0]!.k === K.VEC) { this.movVec(inst, th); break; }
        let lo = this.rd(s, th);
        let hi = this.rdh(s, th);
        if (t === T.PRED) { lo = lo !== 0 ? 1 : 0; hi = 0; }
        else if (!is64(t)) { lo = norm(t, lo); hi = 0; }
        this.wr(o[0]!, th, lo, hi);
        break;
      }
      case Op.LD: {
        const n = inst.vec;
        const es = typeSize(t);
        this.locate(inst.sp, o[1]!, th, es * n);
        const base = mOff;
        const d = o[0]!;
        if (d.k === K.VEC) {
          for (let k = 0; k < n; k++) { this.loadAt(t, base + k * es); if (d.regs![k]!.k !== K.SINK) this.wr(d.regs![k]!, th, rLo, rHi); }
        } else { this.loadAt(t, base); this.wr(d, th, rLo, rHi); }
        break;
      }
      case Op.ST: {
        const n = inst.vec;
        const es = typeSize(t);
        this.locate(inst.sp, o[0]!, th, es * n);
        const base = mOff;
        const s = o[1]!;
        if (s.k === K.VEC) {
          for (let k = 0; k < n; k++) { const r = s.regs![k]!; this.storeAt(t, base + k * es, this.rd(r, th), this.rdh(r, th)); }
        } else this.storeAt(t, base, this.rd(s, th), this.rdh(s, th));
        break;
      }
      case Op.CVTA: {
        const a = this.addr(o[1]!, th);
        const toGeneric = !inst.text.includes('.to.');
        let win = 0;
        switch (inst.sp) {
          case Space.SHARED: win = SHARED_WIN; break; case Space.LOCAL: win = LOCAL_WIN; break;
          case Space.CONST: win = CONST_WIN; break; case Space.PARAM: win = PARAM_WIN; break;
          case Space.GLOBAL: win = 0; break;
        }
        let v = toGeneric ? a + win : a - win;
        if (!toGeneric && win !== 0 && (v < 0 || v >= WIN_SIZE)) v = a; // not in that window: leave as is
        if (t === T.U32 || t === T.B32) this.wr(o[0]!, th, v | 0, 0);
        else this.wr(o[0]!, th, v % TWO32 | 0, Math.floor(v / TWO32) | 0);
        break;
      }
      case Op.BRA: th.pc = inst.target; return;
      case Op.CALL: this.call(inst, th); return;
      case Op.RET: this.doRet(th); return;
      case Op.EXIT: th.st = St.EXIT; return;
      case Op.TRAP: throw new Trap(`trap in ${th.fn.name} (block ${this.ctaid.x},${this.ctaid.y},${this.ctaid.z} thread ${th.tx},${th.ty},${th.tz})`);
      case Op.NOP: case Op.BARWARP: break;
      // barrier.cluster.arrive/wait: split-phase cluster barriers are not modelled (a use fails visibly)
      case Op.BARCLUSTER: throw new EmuError('barrier.cluster is not modelled by the emulator');
      case Op.ACTIVEMASK: this.wr(o[0]!, th, mask, 0); break;
      case Op.SETP: this.setp(inst, th); break;
      case Op.SET: this.hset(inst, th); break;
      case Op.SELP: {
        const p = this.rd(o[3]!, th) !== 0 !== o[3]!.neg;
        const s = p ? o[1]! : o[2]!;
        this.wr(o[0]!, th, is64(t) ? this.rd(s, th) : norm(t, this.rd(s, th)), is64(t) ? this.rdh(s, th) : 0);
        break;
      }
      case Op.CVT: this.cvt(inst, th); break;
      case Op.ATOM: case Op.RED: this.atom(inst, th); break;
      case Op.TEX: case Op.TLD4: case Op.SULD: case Op.SUST: this.texSurf(inst, th); break;
      default:
        if (isHalf(t)) this.hop(inst, th);
        else if (t === T.F32 || t === T.F64) this.fop(inst, th);
        else if (t === T.PRED) this.predOp(inst, th);
        else if (is64(t)) this.iop64(inst, th);
        else this.iop32(inst, th);
    }
    th.pc++;
  }

  /** tex / tld4 / suld / sust through a texture or surface object handle (texsurf.ts). */
  private texSurf(inst: Inst, th: Thread): void {
    const ts = inst.ts!;
    const h = this.addr(ts.handle, th);
    const coord = (k: number): number => this.rd(ts.coords[k]!, th);
    try {
      if (inst.op === Op.TEX || inst.op === Op.TLD4) {
        const d = this.texObjs.get(h);
        if (!d) throw new EmuError(`${inst.text}: 0x${h.toString(16)} is not a texture object`);
        const r = texFetch(d, ts, coord, this.heap.dv, HEAP_BASE, inst.op === Op.TLD4 ? 'rgba'.indexOf(ts.mode) : -1);
        inst.o[0]!.regs!.forEach((o, k) => this.wr(o, th, r[k]!, 0));
        return;
      }
      const d = this.surfObjs.get(h);
      if (!d) throw new EmuError(`${inst.text}: 0x${h.toString(16)} is not a surface object`);
      const vals = inst.o[0]!.regs!;
      if (vals.length !== ts.vec) throw new EmuError(`${inst.text}: ${vals.length} registers for .v${ts.vec}`);
      const es = ts.bits / 8;
      const a = surfAccess(d, ts, coord, es * ts.vec, HEAP_BASE);
      if (a.kind === 'trap') throw new Trap(`${a.why} in ${th.fn.name} (block ${this.ctaid.x},${this.ctaid.y},${this.ctaid.z} thread ${th.tx},${th.ty},${th.tz})`);
      const t = ts.bits === 8 ? T.U8 : ts.bits === 16 ? T.U16 : ts.bits === 32 ? T.U32 : T.U64;
      mDv = this.heap.dv;
      if (inst.op === Op.SULD) {
        vals.forEach((o, k) => { if (a.kind === 'ok') this.loadAt(t, a.off + k * es); else { rLo = 0; rHi = 0; } this.wr(o, th, rLo, rHi); });
      } else if (a.kind === 'ok') {
        vals.forEach((o, k) => this.storeAt(t, a.off + k * es, this.rd(o, th), this.rdh(o, th)));
      }
    } catch (e) {
      if (e instanceof TexError) throw new EmuError(`${inst.text}: ${e.message}`);
      throw e;
    }
  }

  private movVec(inst: Inst, th: Thread): void {
    // mov.b64 %rd, {%r1, %r2} (pack) or mov.b64 {%r1, %r2}, %rd (unpack); also b32 <-> 2x b16.
    const d = inst.o[0]!, s = inst.o[1]!;
    const whole = typeSize(inst.t);
    if (s.k === K.VEC) {
      const parts = s.regs!;
      const pw = (whole * 8) / parts.length;
      let lo = 0, hi = 0;
      for (let k = 0; k < parts.length; k++) {
        const v = this.rd(parts[k]!, th);
        const bitpos = k * pw;
        const mask = pw === 32 ? -1 : (1 << pw) - 1;
        if (bitpos < 32) lo |= (v & mask) << bitpos; else hi |= (v & mask) << (bitpos - 32);
      }
      this.wr(d, th, lo, hi);
    } else {
      const parts = d.regs!;
      const pw = (whole * 8) / parts.length;
      const lo = this.rd(s, th), hi = this.rdh(s, th);
      for (let k = 0; k < parts.length; k++) {
        const bitpos = k * pw;
        let v = bitpos < 32 ? lo >>> bitpos : hi >>> (bitpos - 32);
        if (pw < 32) v &= (1 << pw) - 1;
        if (parts[k]!.k !== K.SINK) this.wr(parts[k]!, th, v | 0, 0);
      }
    }
  }

  private predOp(inst: Inst, th: Thread): void {
    const o = inst.o;
    const a = (this.rd(o[1]!, th) !== 0) !== o[1]!.neg;
    let r: boolean;
    switch (inst.op) {
      case Op.NOT: r = !a; break;
      case Op.AND: r = a && ((this.rd(o[2]!, th) !== 0) !== o[2]!.neg); break;
      case Op.OR: r = a || ((this.rd(o[2]!, th) !== 0) !== o[2]!.neg); break;
      case Op.XOR: r = a !== ((this.rd(o[2]!, th) !== 0) !== o[2]!.neg); break;
      default: throw new EmuError(`unsupported predicate instruction ${inst.text}`);
    }
    this.wr(o[0]!, th, r ? 1 : 0, 0);
  }

  private setp(inst: Inst, th: Thread): void {
    const o = inst.o;
    const t = inst.t;
    let r: boolean;
    const c = inst.cmp;
    if (isHalf(t)) { this.hsetp(inst, th); return; }
    if (t === T.F32 || t === T.F64) {
      let a = t === T.F32 ? fp.bitsToF32(this.rd(o[1]!, th)) : fp.bitsToF64(this.rd(o[1]!, th), this.rdh(o[1]!, th));
      let b = t === T.F32 ? fp.bitsToF32(this.rd(o[2]!, th)) : fp.bitsToF64(this.rd(o[2]!, th), this.rdh(o[2]!, th));
      if (inst.f & F.FTZ) { a = fp.ftz32(a); b = fp.ftz32(b); }
      r = floatCompare(c, a, b, inst.text);
    } else {
      let k: number;
      const signed = isSigned(t) && c !== Cmp.LO && c !== Cmp.LS && c !== Cmp.HI && c !== Cmp.HS;
      if (is64(t)) k = cmp64(this.rd(o[1]!, th), this.rdh(o[1]!, th), this.rd(o[2]!, th), this.rdh(o[2]!, th), signed);
      else {
        const nt = signed ? (bitsOf(t) === 16 ? T.S16 : T.S32) : (bitsOf(t) === 16 ? T.U16 : T.U32);
        let a = norm(nt, this.rd(o[1]!, th)), b = norm(nt, this.rd(o[2]!, th));
        if (!signed) { a >>>= 0; b >>>= 0; }
        k = a < b ? -1 : a > b ? 1 : 0;
      }
      switch (c) {
        case Cmp.EQ: r = k === 0; break; case Cmp.NE: r = k !== 0; break;
        case Cmp.LT: case Cmp.LO: r = k < 0; break; case Cmp.LE: case Cmp.LS: r = k <= 0; break;
        case Cmp.GT: case Cmp.HI: r = k > 0; break; case Cmp.GE: case Cmp.HS: r = k >= 0; break;
        default: throw new EmuError(`bad integer comparison in ${inst.text}`);
      }
    }
    let q = !r;
    if (inst.m !== M.NONE) {
      const cp = o[3]!;
      const cv = (this.rd(cp, th) !== 0) !== cp.neg;
      if (inst.m === M.AND) { r = r && cv; q = q && cv; }
      else if (inst.m === M.OR) { r = r || cv; q = q || cv; }
      else { r = r !== cv; q = q !== cv; }
    }
    const d = o[0]!;
    if (d.k === K.VEC) {
      this.wr(d.regs![0]!, th, r ? 1 : 0, 0);
      if (d.regs![1]!.k !== K.SINK) this.wr(d.regs![1]!, th, q ? 1 : 0, 0);
    } else this.wr(d, th, r ? 1 : 0, 0);
  }

  private iop32(inst: Inst, th: Thread): void {
    const o = inst.o;
    const t = inst.t;
    const signed = isSigned(t);
    const a = norm(t, this.rd(o[1]!, th));
    const nb = o.length > 2 ? this.rd(o[2]!, th) : 0;
    let r = 0;
    let rh = 0;
    if ((inst.f & F.CC) || inst.op === Op.ADDC || inst.op === Op.SUBC || inst.op === Op.MADC) return this.carryOp(inst, th);
    switch (inst.op) {
      case Op.ADD: r = a + norm(t, nb); if (inst.f & F.SAT) r = Math.max(-2147483648, Math.min(2147483647, r)); break;
      case Op.SUB: r = a - norm(t, nb); if (inst.f & F.SAT) r = Math.max(-2147483648, Math.min(2147483647, r)); break;
      case Op.MUL: case Op.MAD: {
        const b = norm(t, nb);
        if (inst.f & F.WIDE) {
          if (bitsOf(t) === 16) { r = signed ? a * b : (a & 0xffff) * (b & 0xffff); rh = 0; }
          else { r = Math.imul(a, b); rh = signed ? mulhiS(a, b) : mulhiU(a, b) | 0; }
          if (inst.op === Op.MAD) {
            const c = o[3]!;
            if (bitsOf(t) === 16) r = (r + this.rd(c, th)) | 0;
            else { add64(r, rh, this.rd(c, th), this.rdh(c, th)); r = rLo; rh = rHi; }
          }
          this.wr(o[0]!, th, r | 0, rh);
          return;
        }
        if (inst.f & F.HI) {
          if (bitsOf(t) === 16) r = ((signed ? a * b : (a & 0xffff) * (b & 0xffff)) >> 16);
          else r = signed ? mulhiS(a, b) : mulhiU(a, b);
        } else r = bitsOf(t) === 16 ? a * b : Math.imul(a, b);
        if (inst.op === Op.MAD) r = r + this.rd(o[3]!, th);
        break;
      }
      case Op.MUL24: case Op.MAD24: {
        const a24 = signed ? (a << 8) >> 8 : a & 0xffffff;
        const b24 = signed ? (nb << 8) >> 8 : nb & 0xffffff;
        if (inst.f & F.HI) {
          // bits 16..47 of the 48-bit product
          const p = BigInt(a24) * BigInt(b24);
          r = Number(BigInt.asIntN(32, p >> 16n));
        } else r = Math.imul(a24, b24);
        if (inst.op === Op.MAD24) r = r + this.rd(o[3]!, th);
        break;
      }
      case Op.DIV: case Op.REM: {
        const b = norm(t, nb);
        if (signed) {
          if (b === 0) r = inst.op === Op.DIV ? -1 : a;
          else if (inst.op === Op.DIV) r = (a === -2147483648 && b === -1) ? a : Math.trunc(a / b);
          else r = (b === -1) ? 0 : a % b;
        } else {
          const ua = a >>> 0, ub = b >>> 0;
          if (ub === 0) r = inst.op === Op.DIV ? -1 : ua;
          else r = inst.op === Op.DIV ? Math.floor(ua / ub) : ua % ub;
        }
        break;
      }
      case Op.ABS: r = a < 0 ? -a : a; break;
      case Op.NEG: r = -a; break;
      case Op.MIN: case Op.MAX: {
        let x = a, y = norm(t, nb);
        if (!signed) { x >>>= 0; y >>>= 0; }
        r = inst.op === Op.MIN ? (x < y ? x : y) : (x > y ? x : y);
        break;
      }
      case Op.AND: r = a & nb; break;
      case Op.OR: r = a | nb; break;
      case Op.XOR: r = a ^ nb; break;
      case Op.NOT: r = ~a; break;
      case Op.CNOT: r = a === 0 ? 1 : 0; break;
      case Op.SHL: { const n = nb >>> 0; r = n >= bitsOf(t) ? 0 : a << n; break; }
      case Op.SHR: {
        const n = nb >>> 0;
        const w = bitsOf(t);
        if (signed) r = n >= w ? (a < 0 ? -1 : 0) : a >> n;
        else { const ua = w === 16 ? a & 0xffff : a >>> 0; r = n >= w ? 0 : ua >>> n; }
        break;
      }
      case Op.POPC: r = popc32(a); break;
      case Op.CLZ: r = Math.clz32(a); break;
      case Op.BREV: r = brev32(a); break;
      case Op.BFIND: {
        let v = a;
        if (signed && v < 0) v = ~v;
        r = v === 0 ? -1 : 31 - Math.clz32(v);
        if ((inst.f & F.SHIFTAMT) && r !== -1) r = 31 - r;
        break;
      }
      case Op.BFE: {
        const pos = nb & 0xff, len = this.rd(o[3]!, th) & 0xff;
        const msb = Math.min(pos + len - 1, 31);
        const sbit = signed ? (len === 0 ? 0 : (a >>> msb) & 1) : 0;
        let v = 0;
        for (let i = 0; i < 32; i++) {
          const bit = i < len && pos + i <= 31 ? (a >>> (pos + i)) & 1 : sbit;
          v |= bit << i;
        }
        r = v;
        break;
      }
      case Op.BFI: {
        const b = nb;
        const pos = this.rd(o[3]!, th) & 0xff, len = this.rd(o[4]!, th) & 0xff;
        let v = b;
        for (let i = 0; i < len && pos + i < 32; i++) {
          const bit = (a >>> i) & 1;
          v = (v & ~(1 << (pos + i))) | (bit << (pos + i));
        }
        r = v;
        break;
      }
      case Op.FNS: {
        // fns.b32 d, mask, base, offset (PTX ISA): the bit position of the |offset|-th set bit of mask counting from
        // bit base towards the MSB (offset > 0) or the LSB (offset < 0); offset 0 tests bit base; none: 0xffffffff
        const mask = a >>> 0, base = nb >>> 0, offset = this.rd(o[3]!, th) | 0;
        r = -1;
        if (offset === 0) { if (base < 32 && (mask >>> base) & 1) r = base; }
        else {
          let count = Math.abs(offset) - 1;
          const inc = offset > 0 ? 1 : -1;
          for (let pos = base; pos >= 0 && pos < 32; pos += inc) {
            if ((mask >>> pos) & 1) { if (count === 0) { r = pos; break; } count--; }
          }
        }
        break;
      }
      case Op.PRMT: {
        const b = nb, c = this.rd(o[3]!, th);
        const bytes = [a & 0xff, (a >>> 8) & 0xff, (a >>> 16) & 0xff, (a >>> 24) & 0xff, b & 0xff, (b >>> 8) & 0xff, (b >>> 16) & 0xff, (b >>> 24) & 0xff];
        let v = 0;
        for (let k = 0; k < 4; k++) {
          const sel = (c >>> (4 * k)) & 0xf;
          let byte = bytes[sel & 7]!;
          if (sel & 8) byte = byte & 0x80 ? 0xff : 0;
          v |= byte << (8 * k);
        }
        r = v;
        break;
      }
      case Op.SHF: {
        const b = nb;
        let n = this.rd(o[3]!, th) >>> 0;
        n = inst.f & F.CLAMP ? Math.min(n, 32) : n & 31;
        if (inst.f & F.LEFT) r = n === 0 ? b : n === 32 ? a : (b << n) | (a >>> (32 - n));
        else r = n === 0 ? a : n === 32 ? b : (a >>> n) | (b << (32 - n));
        break;
      }
      case Op.SAD: {
        const b = norm(t, nb);
        let x = a, y = b;
        if (!signed) { x >>>= 0; y >>>= 0; }
        r = Math.abs(x - y) + this.rd(o[3]!, th);
        break;
      }
      case Op.LOP3: {
        const b = nb, c = this.rd(o[3]!, th), lut = this.rd(o[4]!, th) & 0xff;
        let v = 0;
        for (let i = 0; i < 32; i++) {
          const idx = (((a >>> i) & 1) << 2) | (((b >>> i) & 1) << 1) | ((c >>> i) & 1);
          v |= ((lut >>> idx) & 1) << i;
        }
        r = v;
        break;
      }
      default:
        throw new EmuError(`unsupported instruction ${inst.text}`);
    }
    this.wr(o[0]!, th, norm(t, r), 0);
  }

  /** 32-bit extended-precision arithmetic through the carry flag. */
  private carryOp(inst: Inst, th: Thread): void {
    const o = inst.o;
    if (bitsOf(inst.t) !== 32) throw new EmuError(`unsupported carry arithmetic ${inst.text}`);
    const a = this.rd(o[1]!, th) >>> 0, b = this.rd(o[2]!, th) >>> 0;
    const cin = inst.op === Op.ADDC || inst.op === Op.SUBC || inst.op === Op.MADC ? th.cf : 0;
    let full: number;
    switch (inst.op) {
      case Op.ADD: case Op.ADDC: full = a + b + cin; break;
      case Op.SUB: case Op.SUBC: full = a - b - cin; break;
      case Op.MAD: case Op.MADC: {
        const p = inst.f & F.HI ? mulhiU(a, b) : Math.imul(a, b) >>> 0;
        full = p + (this.rd(o[3]!, th) >>> 0) + cin;
        break;
      }
      default: throw new EmuError(`unsupported carry arithmetic ${inst.text}`);
    }
    if (inst.f & F.CC) th.cf = full < 0 || full >= TWO32 ? 1 : 0;
    this.wr(o[0]!, th, full | 0, 0);
  }

  private iop64(inst: Inst, th: Thread): void {
    const o = inst.o;
    const t = inst.t;
    const signed = isSigned(t);
    const alo = this.rd(o[1]!, th), ahi = this.rdh(o[1]!, th);
    const b = o.length > 2 ? o[2]! : null;
    const blo = b ? this.rd(b, th) : 0, bhi = b ? this.rdh(b, th) : 0;
    switch (inst.op) {
      case Op.ADD: add64(alo, ahi, blo, bhi); break;
      case Op.SUB: sub64(alo, ahi, blo, bhi); break;
      case Op.MUL: case Op.MAD:
        if (inst.f & F.HI) {
          const p = signed ? sbig(alo, ahi) * sbig(blo, bhi) : big(alo, ahi) * big(blo, bhi);
          setBig(p >> 64n);
        } else mul64(alo, ahi, blo, bhi);
        if (inst.op === Op.MAD) { const c = o[3]!; add64(rLo, rHi, this.rd(c, th), this.rdh(c, th)); }
        break;
      case Op.DIV: case Op.REM: {
        if (signed) {
          const x = sbig(alo, ahi), y = sbig(blo, bhi);
          if (y === 0n) setBig(inst.op === Op.DIV ? -1n : x);
          else setBig(inst.op === Op.DIV ? x / y : x % y);
        } else {
          const x = big(alo, ahi), y = big(blo, bhi);
          if (y === 0n) setBig(inst.op === Op.DIV ? -1n : x);
          else setBig(inst.op === Op.DIV ? x / y : x % y);
        }
        break;
      }
      case Op.ABS: if (ahi < 0) sub64(0, 0, alo, ahi); else { rLo = alo; rHi = ahi; } break;
      case Op.NEG: sub64(0, 0, alo, ahi); break;
      case Op.MIN: case Op.MAX: {
        const k = cmp64(alo, ahi, blo, bhi, signed);
        const takeA = inst.op === Op.MIN ? k <= 0 : k >= 0;
        rLo = takeA ? alo : blo; rHi = takeA ? ahi : bhi;
        break;
      }
      case Op.AND: rLo = alo & blo; rHi = ahi & bhi; break;
      case Op.OR: rLo = alo | blo; rHi = ahi | bhi; break;
      case Op.XOR: rLo = alo ^ blo; rHi = ahi ^ bhi; break;
      case Op.NOT: rLo = ~alo; rHi = ~ahi; break;
      case Op.CNOT: rLo = alo === 0 && ahi === 0 ? 1 : 0; rHi = 0; break;
      case Op.SHL: shl64(alo, ahi, blo >>> 0); break;
      case Op.SHR: shr64(alo, ahi, blo >>> 0, signed); break;
      case Op.POPC: this.wr(o[0]!, th, popc32(alo) + popc32(ahi), 0); return;
      case Op.CLZ: this.wr(o[0]!, th, ahi !== 0 ? Math.clz32(ahi) : 32 + Math.clz32(alo), 0); return;
      case Op.BREV: rLo = brev32(ahi); rHi = brev32(alo); break;
      case Op.BFIND: {
        let lo = alo, hi = ahi;
        if (signed && hi < 0) { lo = ~lo; hi = ~hi; }
        let r = hi !== 0 ? 63 - Math.clz32(hi) : lo !== 0 ? 31 - Math.clz32(lo) : -1;
        if ((inst.f & F.SHIFTAMT) && r !== -1) r = 63 - r;
        this.wr(o[0]!, th, r, 0);
        return;
      }
      case Op.BFI: {
        const x = big(alo, ahi), y = big(blo, bhi);
        const pos = BigInt(this.rd(o[3]!, th) & 0xff), len = BigInt(this.rd(o[4]!, th) & 0xff);
        const m = ((1n << len) - 1n) << pos;
        setBig((y & ~m) | ((x << pos) & m));
        break;
      }
      case Op.BFE: {
        const x = big(alo, ahi);
        const pos = this.rd(o[2]!, th) & 0xff, len = this.rd(o[3]!, th) & 0xff;
        let v = 0n;
        const msb = Math.min(pos + len - 1, 63);
        const sbit = signed && len > 0 ? (x >> BigInt(msb)) & 1n : 0n;
        for (let i = 0; i < 64; i++) {
          const bit = i < len && pos + i <= 63 ? (x >> BigInt(pos + i)) & 1n : sbit;
          v |= bit << BigInt(i);
        }
        setBig(v);
        break;
      }
      case Op.SAD: {
        const x = signed ? sbig(alo, ahi) : big(alo, ahi), y = signed ? sbig(blo, bhi) : big(blo, bhi);
        const d = x > y ? x - y : y - x;
        setBig(d + big(this.rd(o[3]!, th), this.rdh(o[3]!, th)));
        break;
      }
      default:
        throw new EmuError(`unsupported instruction ${inst.text}`);
    }
    this.wr(o[0]!, th, rLo, rHi);
  }

  // ---- 16-bit floats: .f16/.bf16 scalars in the low 16 bits, .f16x2/.bf16x2 pairs (element 0 in bits 0..15)

  private hop(inst: Inst, th: Thread): void {
    const o = inst.o;
    const fmt = inst.t === T.BF16 || inst.t === T.BF16X2 ? half.BF16 : half.F16;
    const lanes = inst.t === T.F16X2 || inst.t === T.BF16X2 ? 2 : 1;
    const mode = inst.f & ROUND_MASK;
    const ftz = (inst.f & F.FTZ) !== 0;
    const minNormal = 2 ** (1 - fmt.bias);
    const flush = (x: number) => ftz && x !== 0 && Math.abs(x) < minNormal ? (x < 0 ? -0 : 0) : x;
    let out = 0;
    for (let k = 0; k < lanes; k++) {
      const bits = (i: number) => (this.rd(o[i]!, th) >>> (16 * k)) & 0xffff;
      const val = (i: number) => flush(half.decodeHalf(bits(i), fmt));
      let r: number;
      let rb: number | null = null;   // raw result bits (sign operations keep NaN payloads)
      switch (inst.op) {
        case Op.ADD: case Op.SUB: {
          const a = val(1), b = inst.op === Op.SUB ? -val(2) : val(2);
          const sum = a + b;
          r = half.roundHalf(sum, fp.twoSumErr(a, b, sum), mode, fmt);
          break;
        }
        case Op.MUL: r = half.roundHalf(val(1) * val(2), 0, mode, fmt); break;   // 11- or 8-bit significands: exact in f64
        case Op.FMA: case Op.MAD: {
          const p = val(1) * val(2), c = val(3);
          const sum = p + c;
          r = half.roundHalf(sum, isFinite(sum) ? fp.twoSumErr(p, c, sum) : 0, mode, fmt);
          break;
        }
        case Op.NEG: rb = bits(1) ^ 0x8000; r = 0; break;
        case Op.ABS: rb = bits(1) & 0x7fff; r = 0; break;
        case Op.MIN: case Op.MAX: {
          const a = val(1), b = val(2);
          if (a !== a && b !== b) r = NaN;
          else if (a !== a) r = b; else if (b !== b) r = a;
          else if (a === 0 && b === 0) r = inst.op === Op.MIN ? (Object.is(a, -0) || Object.is(b, -0) ? -0 : 0) : (Object.is(a, 0) || Object.is(b, 0) ? 0 : -0);
          else r = inst.op === Op.MIN ? Math.min(a, b) : Math.max(a, b);
          break;
        }
        // approximate functions: the correctly rounded value (both compilations run the same model)
        case Op.EX2: r = half.roundHalf(2 ** val(1), 0, 0, fmt); break;
        case Op.TANH: r = half.roundHalf(Math.tanh(val(1)), 0, 0, fmt); break;
        case Op.RCP: r = half.roundHalf(1 / val(1), 0, 0, fmt); break;
        case Op.SQRT: r = half.roundHalf(Math.sqrt(val(1)), 0, 0, fmt); break;
        case Op.RSQRT: r = half.roundHalf(1 / Math.sqrt(val(1)), 0, 0, fmt); break;
        case Op.LG2: r = half.roundHalf(Math.log2(val(1)), 0, 0, fmt); break;
        case Op.SIN: r = half.roundHalf(Math.sin(val(1)), 0, 0, fmt); break;
        case Op.COS: r = half.roundHalf(Math.cos(val(1)), 0, 0, fmt); break;
        default: throw new EmuError(`unsupported instruction ${inst.text}`);
      }
      if (rb === null) {
        if (inst.f & F.SAT) r = r !== r ? 0 : Math.min(1, Math.max(0, r));
        rb = half.encodeHalf(flush(r), fmt);
      }
      out |= rb << (16 * k);
    }
    this.wr(o[0]!, th, lanes === 2 ? out | 0 : out & 0xffff, 0);
  }

  /** set.cmp.dtype.stype on 16-bit float sources: each lane's result is 1.0 (float dtypes) or all ones, else 0. */
  private hset(inst: Inst, th: Thread): void {
    if (!isHalf(inst.t)) throw new EmuError(`unsupported instruction ${inst.text}`);
    const res = this.hcmp(inst, th);
    const d = inst.t2;
    const one = d === T.F16 || d === T.F16X2 ? 0x3c00 : d === T.BF16 || d === T.BF16X2 ? 0x3f80 : d === T.F32 ? 0x3f800000 : -1;
    if (d === T.F16X2 || d === T.BF16X2) this.wr(inst.o[0]!, th, ((res[0] ? one : 0) | (res[1] ? one << 16 : 0)) | 0, 0);
    else if (res.length === 2) this.wr(inst.o[0]!, th, ((res[0] ? 0xffff : 0) | (res[1] ? 0xffff0000 : 0)) | 0, 0);   // .u32/.s32 from pairs: a mask per half
    else if (res.length === 1) this.wr(inst.o[0]!, th, norm(d, res[0] ? one : 0), 0);
    else throw new EmuError(`unsupported instruction ${inst.text}`);
  }

  private hsetp(inst: Inst, th: Thread): void {
    const o = inst.o;
    const res = this.hcmp(inst, th);
    const lanes = res.length;
    const d = o[0]!;
    if (lanes === 2) {
      // setp.op.f16x2 p|q: p from the low elements, q from the high ones
      if (d.k !== K.VEC) throw new EmuError(`packed comparison needs p|q: ${inst.text}`);
      if (d.regs![0]!.k !== K.SINK) this.wr(d.regs![0]!, th, res[0] ? 1 : 0, 0);
      if (d.regs![1]!.k !== K.SINK) this.wr(d.regs![1]!, th, res[1] ? 1 : 0, 0);
    } else if (d.k === K.VEC) {
      this.wr(d.regs![0]!, th, res[0] ? 1 : 0, 0);
      if (d.regs![1]!.k !== K.SINK) this.wr(d.regs![1]!, th, res[0] ? 0 : 1, 0);
    } else this.wr(d, th, res[0] ? 1 : 0, 0);
  }

  /** The comparison of a setp/set on 16-bit float sources, per lane (combined with the .and/.or/.xor predicate). */
  private hcmp(inst: Inst, th: Thread): boolean[] {
    const o = inst.o;
    const fmt = inst.t === T.BF16 || inst.t === T.BF16X2 ? half.BF16 : half.F16;
    const lanes = inst.t === T.F16X2 || inst.t === T.BF16X2 ? 2 : 1;
    const res: boolean[] = [];
    for (let k = 0; k < lanes; k++) {
      let a = half.decodeHalf((this.rd(o[1]!, th) >>> (16 * k)) & 0xffff, fmt);
      let b = half.decodeHalf((this.rd(o[2]!, th) >>> (16 * k)) & 0xffff, fmt);
      if (inst.f & F.FTZ) { const mn = 2 ** (1 - fmt.bias); if (Math.abs(a) < mn) a = a < 0 ? -0 : 0; if (Math.abs(b) < mn) b = b < 0 ? -0 : 0; }
      let r = floatCompare(inst.cmp, a, b, inst.text);
      if (inst.m !== M.NONE) {
        const cp = o[3]!;
        const cv = (this.rd(cp, th) !== 0) !== cp.neg;
        r = inst.m === M.AND ? r && cv : inst.m === M.OR ? r || cv : r !== cv;
      }
      res.push(r);
    }
    return res;
  }

  /** cvt to .f16/.bf16 (one rounding of the exact source value), or to .f16x2/.bf16x2 from two f32 (a high, b low). */
  private cvtToHalf(inst: Inst, th: Thread): void {
    const d = inst.t, s = inst.t2, o = inst.o;
    const fmt = d === T.BF16 || d === T.BF16X2 ? half.BF16 : half.F16;
    const mode = inst.f & ROUND_MASK;
    const one = (op: Opnd): number => {
      let x: number, err = 0;
      if (s === T.F32 || s === T.F64 || s === T.F16 || s === T.BF16) x = this.fval(op, th, s);
      else if (is64(s)) {
        const exact = isSigned(s) ? sbig(this.rd(op, th), this.rdh(op, th)) : big(this.rd(op, th), this.rdh(op, th));
        x = Number(exact); err = Number(exact - BigInt(x));
      } else { const v = norm(s, this.rd(op, th)); x = isSigned(s) ? v : v >>> 0; }
      if ((inst.f & F.FTZ) && s === T.F32) x = fp.ftz32(x);
      // cvt.rmi.f16.f16 and friends (hfloor, hceil, htrunc, hrint): an integer in the same format
      const im = inst.f & (F.RNI | F.RZI | F.RMI | F.RPI);
      if (im && (s === T.F32 || s === T.F64 || s === T.F16 || s === T.BF16)) x = roundInt(x, im);
      // measured on an H100 (sm_90): cvt.rn.bf16.f64 of a NaN gives 0x7fc0, not the 0x7fff of f32 sources
      if (x !== x && s === T.F64 && fmt === half.BF16) return 0x7fc0;
      let r = half.roundHalf(x, err, mode, fmt);
      if (inst.f & F.SAT) r = r !== r ? 0 : Math.min(1, Math.max(0, r));
      return half.encodeHalf(r, fmt);
    };
    if (d === T.F16X2 || d === T.BF16X2) {
      if (o.length < 3) throw new EmuError(`unsupported conversion ${inst.text}`);
      this.wr(o[0]!, th, (one(o[1]!) << 16 | one(o[2]!)) | 0, 0);
      return;
    }
    this.wr(o[0]!, th, one(o[1]!), 0);
  }

  private fval(o: Opnd, th: Thread, t: T): number {
    if (t === T.F16 || t === T.BF16) return half.decodeHalf(this.rd(o, th) & 0xffff, t === T.BF16 ? half.BF16 : half.F16);
    return t === T.F32 ? fp.bitsToF32(this.rd(o, th)) : fp.bitsToF64(this.rd(o, th), this.rdh(o, th));
  }
  private fwr(o: Opnd, th: Thread, t: T, v: number, ftz: boolean): void {
    if (t === T.F32) { if (ftz) v = fp.ftz32(v); this.wr(o, th, fp.f32ToBits(v), 0); }
    else { fp.f64ToBits(v); this.wr(o, th, fp.outLo, fp.outHi); }
  }

  private fop(inst: Inst, th: Thread): void {
    const o = inst.o;
    const t = inst.t;
    const is32 = t === T.F32;
    const ftz = is32 && (inst.f & F.FTZ) !== 0;
    const mode = inst.f & ROUND_MASK;
    let a = this.fval(o[1]!, th, t);
    let b = o.length > 2 && inst.op !== Op.TESTP ? this.fval(o[2]!, th, t) : 0;
    if (ftz) { a = fp.ftz32(a); b = fp.ftz32(b); }
    let r: number;
    switch (inst.op) {
      case Op.ADD: case Op.SUB: {
        const y = inst.op === Op.SUB ? -b : b;
        const s = a + y;
        r = !is32 ? fpo.add64(a, y, mode) : s === 0 ? fpo.zeroSum(s, a, y, mode) : fp.round32(s, fp.twoSumErr(a, y, s), mode);
        break;
      }
      case Op.MUL: {
        const p = a * b;
        if (is32) r = fp.round32(p, 0, mode); // f32*f32 is exact in f64
        else r = fpo.mul64(a, b, mode);
        break;
      }
      case Op.FMA: case Op.MAD: {
        let c = this.fval(o[3]!, th, t);
        if (ftz) c = fp.ftz32(c);
        r = is32 ? fp.fma32(a, b, c, mode) : fpo.fma64r(a, b, c, mode);
        break;
      }
      case Op.DIV:
        if (is32 && (inst.f & (F.APPROX | F.FULL))) r = fpo.divApprox32(a, b, (inst.f & F.FULL) !== 0);
        else r = is32 ? fpo.div32(a, b, mode) : fpo.div64(a, b, mode);
        break;
      case Op.ABS: r = Math.abs(a); if (r !== r) { this.wr(o[0]!, th, is32 ? this.rd(o[1]!, th) & 0x7fffffff : this.rd(o[1]!, th), is32 ? 0 : this.rdh(o[1]!, th) & 0x7fffffff); return; } break;
      case Op.NEG: {
        // Sign flip, NaN payload kept.
        if (is32) { this.wr(o[0]!, th, (ftz ? fp.f32RawBits(a) : this.rd(o[1]!, th)) ^ -2147483648, 0); return; }
        this.wr(o[0]!, th, this.rd(o[1]!, th), this.rdh(o[1]!, th) ^ -2147483648);
        return;
      }
      case Op.MIN: case Op.MAX: {
        if (a !== a) r = b; else if (b !== b) r = a;
        else if (a === 0 && b === 0) r = inst.op === Op.MIN ? (Object.is(a, -0) || Object.is(b, -0) ? -0 : 0) : (Object.is(a, 0) || Object.is(b, 0) ? 0 : -0);
        else r = inst.op === Op.MIN ? Math.min(a, b) : Math.max(a, b);
        break;
      }
      // .approx: within the documented bound of the exact value (fpops.ts); otherwise rounded once in mode
      case Op.RCP:
        if (inst.f & F.APPROX) r = is32 ? fpo.approx32(1 / a, 1, fpo.K_RCP, a) : fpo.approx64(1 / fp.ftz64(a), 1, fpo.K_RCP, a);
        else r = is32 ? fpo.div32(1, a, mode) : fpo.div64(1, a, mode);
        break;
      case Op.SQRT:
        if (inst.f & F.APPROX) r = fpo.approx32(Math.sqrt(a), 1, fpo.K_SQRT, a);
        else r = is32 ? fpo.sqrt32(a, mode) : fpo.sqrt64(a, mode);
        break;
      case Op.RSQRT: r = is32 ? fpo.approx32(1 / Math.sqrt(a), 1, fpo.K_RSQRT, a) : fpo.approx64(1 / Math.sqrt(fp.ftz64(a)), 1, fpo.K_RSQRT, a); break;
      case Op.EX2: r = is32 ? fpo.approx32(2 ** a, 2, fpo.K_EX2, a) : fpo.approx64(2 ** a, 1, fpo.K_EX2, a); break;
      case Op.LG2: r = fpo.approx32(Math.log2(a), 1, fpo.K_LG2, a); break;
      case Op.SIN: r = fpo.approx32(Math.sin(a), 1, fpo.K_SIN, a); break;
      case Op.COS: r = fpo.approx32(Math.cos(a), 1, fpo.K_COS, a); break;
      case Op.TANH: r = fpo.approx32(Math.tanh(a), 1, fpo.K_TANH, a); break;
      case Op.COPYSIGN: r = (a < 0 || Object.is(a, -0)) ? -Math.abs(b) : Math.abs(b); break;
      case Op.TESTP: {
        const x = a;
        let p: boolean;
        const tiny = is32 ? 1.1754943508222875e-38 : 2.2250738585072014e-308;
        switch (inst.m) {
          case M.FINITE: p = isFinite(x); break; case M.INFINITE: p = x === Infinity || x === -Infinity; break;
          case M.NUMBER: p = x === x; break; case M.NOTANUMBER: p = x !== x; break;
          case M.NORMAL: p = isFinite(x) && Math.abs(x) >= tiny; break;
          case M.SUBNORMAL: p = x !== 0 && Math.abs(x) < tiny; break;
          default: throw new EmuError(`bad testp ${inst.text}`);
        }
        this.wr(o[0]!, th, p ? 1 : 0, 0);
        return;
      }
      default: throw new EmuError(`unsupported instruction ${inst.text}`);
    }
    if (inst.f & F.SAT) r = r !== r ? 0 : Math.min(1, Math.max(0, r));
    this.fwr(o[0]!, th, t, r, ftz);
  }

  private cvt(inst: Inst, th: Thread): void {
    const d = inst.t, s = inst.t2;
    const o = inst.o;
    const ftz = (inst.f & F.FTZ) !== 0;
    if (isHalf(d)) { this.cvtToHalf(inst, th); return; }
    // a 16-bit float source is read exactly (fval) and converted like an f32
    const sf = s === T.F32 || s === T.F64 || s === T.F16 || s === T.BF16, df = d === T.F32 || d === T.F64;
    if (s === T.F16X2 || s === T.BF16X2) throw new EmuError(`unsupported conversion ${inst.text}`);
    if (!sf && !df) {
      // integer -> integer
      let lo = this.rd(o[1]!, th), hi = this.rdh(o[1]!, th);
      if (!is64(s)) { lo = norm(s, lo); hi = isSigned(s) ? lo >> 31 : 0; }
      if (inst.f & F.SAT) {
        const v = is64(s) ? (isSigned(s) ? sbig(lo, hi) : big(lo, hi)) : BigInt(isSigned(s) ? lo : lo >>> 0);
        const bits = BigInt(bitsOf(d));
        const min = isSigned(d) ? -(1n << (bits - 1n)) : 0n;
        const max = isSigned(d) ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
        setBig(v < min ? min : v > max ? max : v);
        lo = rLo; hi = rHi;
      }
      if (is64(d)) this.wr(o[0]!, th, lo, hi);
      else this.wr(o[0]!, th, norm(d, lo), 0);
      return;
    }
    if (!sf && df) {
      // integer -> float
      let v: number;
      if (is64(s)) v = Number(isSigned(s) ? sbig(this.rd(o[1]!, th), this.rdh(o[1]!, th)) : big(this.rd(o[1]!, th), this.rdh(o[1]!, th)));
      else { const x = norm(s, this.rd(o[1]!, th)); v = isSigned(s) ? x : x >>> 0; }
      const mode = inst.f & ROUND_MASK;
      if (d === T.F32) {
        if (is64(s)) {
          const exact = isSigned(s) ? sbig(this.rd(o[1]!, th), this.rdh(o[1]!, th)) : big(this.rd(o[1]!, th), this.rdh(o[1]!, th));
          const err = Number(exact - BigInt(v));
          v = fp.round32(v, err, mode);
        } else v = fp.round32(v, 0, mode);
      } else if (is64(s) && mode !== fp.RN && mode !== 0) {
        const exact = isSigned(s) ? sbig(this.rd(o[1]!, th), this.rdh(o[1]!, th)) : big(this.rd(o[1]!, th), this.rdh(o[1]!, th));
        v = fp.round64(v, Number(exact - BigInt(v)), mode);
      }
      this.fwr(o[0]!, th, d, v, ftz);
      return;
    }
    let x = this.fval(o[1]!, th, s);
    if (ftz && s === T.F32) x = fp.ftz32(x);
    if (sf && df) {
      const im = inst.f & (F.RNI | F.RZI | F.RMI | F.RPI);
      if (im) x = roundInt(x, im);
      if (inst.f & F.SAT) x = x !== x ? 0 : Math.min(1, Math.max(0, x));
      if (d === T.F32 && s === T.F64) {
        const r = Math.fround(x);
        x = fp.round32(x, 0, inst.f & ROUND_MASK) ;
        void r;
      }
      this.fwr(o[0]!, th, d, x, ftz);
      return;
    }
    // float -> integer: round, saturate, NaN -> 0
    const im = inst.f & (F.RNI | F.RZI | F.RMI | F.RPI);
    let v = x !== x ? 0 : roundInt(x, im || F.RZI);
    const bits = bitsOf(d);
    if (bits === 64) {
      const min = isSigned(d) ? -(2 ** 63) : 0, max = isSigned(d) ? 2 ** 63 : 2 ** 64;
      let bv: bigint;
      if (x !== x) bv = 0n;
      else if (v < min) bv = isSigned(d) ? -(1n << 63n) : 0n;
      else if (v >= max) bv = isSigned(d) ? (1n << 63n) - 1n : (1n << 64n) - 1n;
      else bv = BigInt(v);
      setBig(bv);
      this.wr(o[0]!, th, rLo, rHi);
      return;
    }
    const min = isSigned(d) ? -(2 ** (bits - 1)) : 0, max = isSigned(d) ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    v = v < min ? min : v > max ? max : v;
    this.wr(o[0]!, th, norm(d, v | 0), 0);
  }

  // ---------------------------------------------------------------------------------------------
  // Atomics (one thread at a time, so every read-modify-write is exact)

  private atom(inst: Inst, th: Thread): void {
    const o = inst.o;
    const isRed = inst.op === Op.RED;
    const ao = isRed ? o[0]! : o[1]!;
    const bo = isRed ? o[1]! : o[2]!;
    const t = inst.t;
    const sz = typeSize(t);
    this.locate(inst.sp, ao, th, sz);
    const off = mOff;
    this.loadAt(t, off);
    const olo = rLo, ohi = rHi;
    const blo = this.rd(bo, th), bhi = this.rdh(bo, th);
    let nlo = 0, nhi = 0;
    const signed = isSigned(t);
    switch (inst.m) {
      case M.ADD:
        if (t === T.F32) { nlo = fp.f32ToBits(Math.fround(fp.bitsToF32(olo) + fp.bitsToF32(blo))); }
        else if (isHalf(t)) {
          // atom.add.noftz.{f16,bf16,f16x2,bf16x2}: each half rounded to nearest, subnormals kept
          const fmt = t === T.BF16 || t === T.BF16X2 ? half.BF16 : half.F16;
          for (let k = 0; k < (sz === 4 ? 2 : 1); k++) {
            const x = half.decodeHalf((olo >>> (16 * k)) & 0xffff, fmt), y = half.decodeHalf((blo >>> (16 * k)) & 0xffff, fmt);
            const sum = x + y;
            nlo |= half.encodeHalf(half.roundHalf(sum, isFinite(sum) ? fp.twoSumErr(x, y, sum) : 0, fp.RN, fmt), fmt) << (16 * k);
          }
          nlo |= 0;
        }
        else if (t === T.F64) { fp.f64ToBits(fp.bitsToF64(olo, ohi) + fp.bitsToF64(blo, bhi)); nlo = fp.outLo; nhi = fp.outHi; }
        else if (sz === 8) { add64(olo, ohi, blo, bhi); nlo = rLo; nhi = rHi; }
        else nlo = (olo + blo) | 0;
        break;
      case M.EXCH: nlo = blo; nhi = bhi; break;
      case M.CAS: {
        const co = isRed ? null : o[3]!;
        const clo = co ? this.rd(co, th) : 0, chi = co ? this.rdh(co, th) : 0;
        const eq = sz === 8 ? olo === blo && ohi === bhi : olo === blo;
        nlo = eq ? clo : olo; nhi = eq ? chi : ohi;
        break;
      }
      case M.AND: nlo = olo & blo; nhi = ohi & bhi; break;
      case M.OR: nlo = olo | blo; nhi = ohi | bhi; break;
      case M.XOR: nlo = olo ^ blo; nhi = ohi ^ bhi; break;
      case M.MIN: case M.MAX: {
        let k: number;
        if (t === T.F32 || t === T.F64) {
          const x = this.fval(ao, th, t), y = this.fval(bo, th, t);
          k = x < y ? -1 : x > y ? 1 : 0;
        } else if (sz === 8) k = cmp64(olo, ohi, blo, bhi, signed);
        else k = signed ? (olo < blo ? -1 : olo > blo ? 1 : 0) : ((olo >>> 0) < (blo >>> 0) ? -1 : (olo >>> 0) > (blo >>> 0) ? 1 : 0);
        const keep = inst.m === M.MIN ? k <= 0 : k >= 0;
        nlo = keep ? olo : blo; nhi = keep ? ohi : bhi;
        break;
      }
      case M.INC: nlo = (olo >>> 0) >= (blo >>> 0) ? 0 : (olo + 1) | 0; break;
      case M.DEC: nlo = olo === 0 || (olo >>> 0) > (blo >>> 0) ? blo : (olo - 1) | 0; break;
      default: throw new EmuError(`unsupported atomic ${inst.text}`);
    }
    this.storeAt(t, off, nlo, nhi);
    if (!isRed) this.wr(o[0]!, th, olo, ohi);
  }

  // ---------------------------------------------------------------------------------------------
  // Warp-collective instructions

  // Scratch for warp-collective instructions (no allocation per issue).
  private readonly wVals = new Int32Array(32);
  private readonly wRes = new Int32Array(32);
  private readonly wOk = new Uint8Array(32);
  private readonly wOn = new Uint8Array(32);

  private shfl(inst: Inst, active: Thread[], mask: number): void {
    // shfl.sync.mode.b32 d[|p], a, b, c, membermask. Every source is read before any lane writes.
    const o = inst.o;
    const vals = this.wVals, res = this.wRes, okv = this.wOk, on = this.wOn;
    vals.fill(0);
    for (let i = 0; i < active.length; i++) { const th = active[i]!; vals[th.lane] = this.rd(o[1]!, th); }
    for (let i = 0; i < active.length; i++) {
      const th = active[i]!;
      const lane = th.lane;
      on[lane] = this.guard(inst, th) ? 1 : 0;
      if (!on[lane]) continue;
      const members = this.rd(o[4]!, th);
      if ((members & mask) !== members && (members & (1 << lane))) {
        // A member lane is not converged here: undefined on hardware; say so.
        throw new EmuError(`shfl.sync member mask 0x${(members >>> 0).toString(16)} includes lanes not at this instruction (active 0x${(mask >>> 0).toString(16)})`);
      }
      const bval = this.rd(o[2]!, th) & 0x1f;
      const c = this.rd(o[3]!, th);
      const cval = c & 0x1f, seg = (c >> 8) & 0x1f;
      const maxLane = (lane & seg) | (cval & ~seg);
      const minLane = lane & seg;
      let j: number, ok: boolean;
      switch (inst.m) {
        case M.UP: j = lane - bval; ok = j >= maxLane; break;
        case M.DOWN: j = lane + bval; ok = j <= maxLane; break;
        case M.BFLY: j = lane ^ bval; ok = j <= maxLane; break;
        case M.IDX: j = minLane | (bval & ~seg); ok = j <= maxLane; break;
        default: throw new EmuError(`bad shfl mode ${inst.text}`);
      }
      // An inactive source lane gives an undefined value on hardware; here 0.
      res[lane] = ok ? vals[j]! : vals[lane]!;
      okv[lane] = ok ? 1 : 0;
    }
    const d = o[0]!;
    for (let i = 0; i < active.length; i++) {
      const th = active[i]!;
      const lane = th.lane;
      if (on[lane]) {
        if (d.k === K.VEC) {
          this.wr(d.regs![0]!, th, res[lane]!, 0);
          if (d.regs![1]!.k !== K.SINK) this.wr(d.regs![1]!, th, okv[lane]!, 0);
        } else this.wr(d, th, res[lane]!, 0);
      }
      th.pc++;
    }
  }

  private vote(inst: Inst, active: Thread[], mask: number): void {
    // vote.sync.mode d, {!}p, membermask: over the lanes executing it (guard true).
    const o = inst.o;
    let ballot = 0;
    let part = 0;
    for (let i = 0; i < active.length; i++) {
      const th = active[i]!;
      if (!this.guard(inst, th)) continue;
      part |= 1 << th.lane;
      if ((this.rd(o[1]!, th) !== 0) !== o[1]!.neg) ballot |= 1 << th.lane;
    }
    void mask;
    for (let i = 0; i < active.length; i++) {
      const th = active[i]!;
      if ((part >>> th.lane) & 1) {
        // each thread votes with the threads of its own membermask (tiles of a warp vote apart: a tile's
        // ballot has no bits of another tile, as on the GPU)
        const group = (o.length > 2 ? this.rd(o[2]!, th) : -1) & part;
        const b = ballot & group;
        let v: number;
        switch (inst.m) {
          case M.BALLOT: v = b; break;
          case M.ALL: v = b === group ? 1 : 0; break;
          case M.ANY: v = b !== 0 ? 1 : 0; break;
          case M.UNI: v = b === 0 || b === group ? 1 : 0; break;
          default: throw new EmuError(`bad vote mode ${inst.text}`);
        }
        this.wr(o[0]!, th, v, 0);
      }
      th.pc++;
    }
  }

  /**
   * wmma.load / wmma.store / wmma.mma over a whole warp. The hardware's distribution of a fragment over the
   * lanes is unspecified (PTX ISA): here lane l holds elements l*E .. l*E+E-1 of the matrix in row-major
   * order (E per lane; f16 a/b fragments hold every element twice, as their 8 registers do), packed low
   * element first. Loads, stores and mma agree on it, which is all a program can rely on.
   */
  private wmma(inst: Inst, active: Thread[]): void {
    const mi = inst.mma!;
    const lanes = active.filter(th => this.guard(inst, th));
    if (lanes.length !== 32) throw new EmuError(`${inst.text}: a wmma needs the whole warp (${lanes.length} lanes)`);
    lanes.sort((x, y) => x.lane - y.lane);
    const bitsOf = (t: string): number => (t === 'f64' ? 64 : t === 'f32' || t === 's32' || t === 'tf32' ? 32 : t === 's8' || t === 'u8' ? 8 : 16);
    const dims = (w: 'a' | 'b' | 'c' | 'd'): [number, number] => (w === 'a' ? [mi.m, mi.k] : w === 'b' ? [mi.k, mi.n] : [mi.m, mi.n]);
    /** Every (lane, register, sub-element) slot of a fragment with its matrix element (row, col). */
    const slots = (w: 'a' | 'b' | 'c' | 'd', t: string, nregs: number, each: (lane: number, reg: number, sub: number, r: number, c: number) => void): void => {
      const [rows, cols] = dims(w);
      const bits = bitsOf(t), per = t === 'f64' ? 1 : 32 / bits, E = nregs * per;
      for (let l = 0; l < 32; l++) for (let e = 0; e < E; e++) {
        const idx = (l * E + e) % (rows * cols);
        each(l, Math.floor(e / per), e % per, Math.floor(idx / cols), idx % cols);
      }
    };
    const regOf = (o: Opnd, j: number): Opnd => { if (o.k !== K.VEC || !o.regs![j]) throw new EmuError(`${inst.text}: too few registers`); return o.regs![j]!; };
    /** Raw bits of element `sub` of a register (lo, hi words). */
    const getBits = (lo: number, hi: number, t: string, sub: number): number | bigint => {
      const bits = bitsOf(t);
      if (bits === 64) return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
      return bits === 32 ? lo >>> 0 : (lo >>> (sub * bits)) & ((1 << bits) - 1);
    };
    const decode = (t: string, v: number | bigint): number => {
      switch (t) {
        case 'f16': return half.decodeHalf(Number(v), half.F16);
        case 'bf16': return half.decodeHalf(Number(v), half.BF16);
        case 'tf32': { const dv = new DataView(new ArrayBuffer(4)); dv.setUint32(0, Number(v) & ~0x1fff); return dv.getFloat32(0); }
        case 'f32': { const dv = new DataView(new ArrayBuffer(4)); dv.setUint32(0, Number(v)); return dv.getFloat32(0); }
        case 's8': return (Number(v) << 24) >> 24;
        case 'u8': return Number(v);
        case 's32': return Number(v) | 0;
        case 'f64': { const dv = new DataView(new ArrayBuffer(8)); dv.setBigUint64(0, BigInt(v)); return dv.getFloat64(0); }
      }
      throw new EmuError(`${inst.text}: element type ${t}`);
    };
    const encode = (t: string, x: number): number | bigint => {
      switch (t) {
        case 'f16': return half.encodeHalf(half.roundHalf(x, 0, 0, half.F16), half.F16);
        case 'f32': { const dv = new DataView(new ArrayBuffer(4)); dv.setFloat32(0, x); return dv.getUint32(0); }
        case 's32': return x | 0;
        case 'f64': { const dv = new DataView(new ArrayBuffer(8)); dv.setFloat64(0, x); return dv.getBigUint64(0); }
      }
      throw new EmuError(`${inst.text}: result type ${t}`);
    };
    const at = (a: number): Opnd => ({ k: K.IMM, r: 0, lo: 0, hi: 0, off: a, neg: false, regs: null, name: '' });
    if (mi.kind === 'load' || mi.kind === 'store') {
      const w = mi.which, t = mi.types[w];
      const regsOp = mi.kind === 'load' ? inst.o[0]! : inst.o[1]!;
      const nregs = regsOp.regs?.length ?? 0;
      const bytes = bitsOf(t) / 8;
      const words = new Map<string, [number, number]>();   // lane:reg -> (lo, hi) being assembled or read
      if (mi.kind === 'store') for (const th of lanes) for (let j = 0; j < nregs; j++) words.set(`${th.lane}:${j}`, [this.rd(regOf(regsOp, j), th), this.rdh(regOf(regsOp, j), th)]);
      slots(w, t, nregs, (l, j, sub, r, c) => {
        const th = lanes[l]!;
        const base = this.addr(mi.kind === 'load' ? inst.o[1]! : inst.o[0]!, th), ldm = this.rd(inst.o[2]!, th) >>> 0;
        const a = base + (mi.layout === 'row' ? r * ldm + c : c * ldm + r) * bytes;
        this.locate(mi.sp, at(a), th, bytes);
        const key = `${l}:${j}`;
        if (mi.kind === 'load') {
          const cur = words.get(key) ?? [0, 0];
          if (bytes === 8) { cur[0] = mDv.getUint32(mOff, true); cur[1] = mDv.getUint32(mOff + 4, true); }
          else if (bytes === 4) cur[0] = mDv.getUint32(mOff, true);
          else if (bytes === 2) cur[0] = (cur[0] | (mDv.getUint16(mOff, true) << (16 * sub))) >>> 0;
          else cur[0] = (cur[0] | (mDv.getUint8(mOff) << (8 * sub))) >>> 0;
          words.set(key, cur);
        } else {
          const [lo, hi] = words.get(key)!;
          const v = getBits(lo, hi, t, sub);
          if (bytes === 8) mDv.setBigUint64(mOff, v as bigint, true);
          else if (bytes === 4) mDv.setUint32(mOff, Number(v), true);
          else if (bytes === 2) mDv.setUint16(mOff, Number(v), true);
          else mDv.setUint8(mOff, Number(v));
        }
      });
      if (mi.kind === 'load') for (const th of lanes) for (let j = 0; j < nregs; j++) { const [lo, hi] = words.get(`${th.lane}:${j}`) ?? [0, 0]; this.wr(regOf(inst.o[0]!, j), th, lo | 0, hi | 0); }
      for (const th of lanes) th.pc++;
      for (const th of active) if (!lanes.includes(th)) th.pc++;
      return;
    }
    // mma: gather a, b, c as matrices, d = a * b + c, scatter d
    const gather = (w: 'a' | 'b' | 'c', o: Opnd): number[] => {
      const [rows, cols] = dims(w), t = mi.types[w];
      const out = new Array<number>(rows * cols).fill(0);
      slots(w, t, o.regs!.length, (l, j, sub, r, c) => { const th = lanes[l]!; out[r * cols + c] = decode(t, getBits(this.rd(regOf(o, j), th), this.rdh(regOf(o, j), th), t, sub)); });
      return out;
    };
    const A = gather('a', inst.o[1]!), B = gather('b', inst.o[2]!), Cm = gather('c', inst.o[3]!);
    const D = new Array<number>(mi.m * mi.n);
    const isInt = mi.types.d === 's32';
    for (let r = 0; r < mi.m; r++) for (let c = 0; c < mi.n; c++) {
      let acc = Cm[r * mi.n + c]!;
      for (let k = 0; k < mi.k; k++) acc += A[r * mi.k + k]! * B[k * mi.n + c]!;
      if (isInt) acc = mi.satf ? Math.max(-2147483648, Math.min(2147483647, acc)) : Number(BigInt.asIntN(32, BigInt(acc)));
      else if (mi.types.d === 'f32') acc = Math.fround(acc);
      D[r * mi.n + c] = acc;
    }
    const dOp = inst.o[0]!, td = mi.types.d, nd = dOp.regs!.length;
    const words = new Map<string, [number, number]>();
    slots('d', td, nd, (l, j, sub, r, c) => {
      const key = `${l}:${j}`, cur = words.get(key) ?? [0, 0];
      const v = encode(td, D[r * mi.n + c]!);
      if (typeof v === 'bigint') { cur[0] = Number(v & 0xffffffffn); cur[1] = Number(v >> 32n); }
      else if (td === 'f16') cur[0] = (cur[0] | (Number(v) << (16 * sub))) >>> 0;
      else cur[0] = Number(v) >>> 0;
      words.set(key, cur);
    });
    for (const th of lanes) for (let j = 0; j < nd; j++) { const [lo, hi] = words.get(`${th.lane}:${j}`)!; this.wr(regOf(dOp, j), th, lo | 0, hi | 0); }
    for (const th of active) th.pc++;
  }

  private match(inst: Inst, active: Thread[]): void {
    const o = inst.o;
    const part = active.filter(th => { if (!this.guard(inst, th)) { th.pc++; return false; } return true; });
    const wide = is64(inst.t);
    const key = (th: Thread) => wide ? `${this.rd(o[1]!, th)}:${this.rdh(o[1]!, th)}` : `${this.rd(o[1]!, th)}`;
    let all = 0;
    for (const th of part) all |= 1 << th.lane;
    const groups = new Map<string, number>();
    for (const th of part) groups.set(key(th), (groups.get(key(th)) ?? 0) | (1 << th.lane));
    const d = o[0]!;
    for (const th of part) {
      // each thread matches among the threads of its own membermask (the tiles of a warp apart, as on the GPU)
      const members = (o.length > 2 ? this.rd(o[2]!, th) : -1) & all;
      const g = groups.get(key(th))! & members;
      if (inst.m === M.ANY_MATCH) this.wr(d, th, g, 0);
      else {
        const same = g === members;
        if (d.k === K.VEC) {
          this.wr(d.regs![0]!, th, same ? members : 0, 0);
          if (d.regs![1]!.k !== K.SINK) this.wr(d.regs![1]!, th, same ? 1 : 0, 0);
        } else this.wr(d, th, same ? members : 0, 0);
      }
      th.pc++;
    }
  }

  /**
   * redux.sync.op.type d, a, membermask (PTX ISA, 32-bit integer forms): every lane of membermask gets the
   * reduction of a over those lanes (add wraps; min/max signed for .s32, unsigned for .u32; and/or/xor on .b32).
   * A membermask lane that does not execute it together with the others is undefined behaviour: an error here.
   */
  private redux(inst: Inst, active: Thread[]): void {
    const o = inst.o;
    const part = active.filter(th => { if (!this.guard(inst, th)) { th.pc++; return false; } return true; });
    if (part.length === 0) return;
    const mask = this.rd(o[2]!, part[0]!) | 0;
    let here = 0;
    for (const th of part) here |= 1 << th.lane;
    if ((mask & ~here) !== 0 || part.some(th => ((mask >>> th.lane) & 1) === 0)) throw new EmuError(`redux.sync: membermask ${(mask >>> 0).toString(16)} differs from the executing lanes ${(here >>> 0).toString(16)}`);
    const signed = isSigned(inst.t);
    let acc: number | null = null;
    for (const th of part) {
      const v = this.rd(o[1]!, th) | 0;
      if (acc === null) { acc = v; continue; }
      switch (inst.m) {
        case M.ADD: acc = (acc + v) | 0; break;
        case M.MIN: acc = signed ? Math.min(acc, v) : ((acc >>> 0) <= (v >>> 0) ? acc : v); break;
        case M.MAX: acc = signed ? Math.max(acc, v) : ((acc >>> 0) >= (v >>> 0) ? acc : v); break;
        case M.AND: acc &= v; break;
        case M.OR: acc |= v; break;
        case M.XOR: acc ^= v; break;
        default: throw new EmuError('redux.sync: unsupported operation');
      }
    }
    for (const th of part) { this.wr(o[0]!, th, acc!, 0); th.pc++; }
  }

  // ---------------------------------------------------------------------------------------------
  // Calls

  private call(inst: Inst, th: Thread): void {
    let callee: Func;
    let nops = inst.o.length;
    if (inst.target < 0) {
      // through a function address (a vtable entry): the callee register is the last operand
      nops--;
      const r = th.base + inst.o[nops]!.r;
      const a = (th.hi[r]! >>> 0) * 2 ** 32 + (th.lo[r]! >>> 0);
      const fi = (a - FUNC_BASE) / FUNC_STRIDE;
      const f = Number.isInteger(fi) ? this.module.funcs[fi] : undefined;
      if (!f) throw new EmuError(`indirect call to 0x${a.toString(16)}, not a function address`);
      callee = f;
    } else callee = this.module.funcs[inst.target]!;
    const retOpnd = inst.o[0]!;
    const args: number[] = [];
    for (let k = 1; k < nops; k++) args.push(th.pbase + inst.o[k]!.r);
    const retOff = retOpnd.k === K.LPARAM ? th.pbase + retOpnd.r : -1;
    if (callee.external) {
      this.external(callee, th, args, retOff);
      th.pc++;
      return;
    }
    th.frames.push({ fn: th.fn, retPc: th.pc + 1, regBase: th.base, pbase: th.pbase, depot: th.depot, args: th.args, retOff: th.retOff });
    const regBase = th.regTop;
    th.regTop = regBase + callee.nregs;
    th.grow(th.regTop);
    th.lo.fill(0, regBase, th.regTop);
    th.hi.fill(0, regBase, th.regTop);
    th.base = regBase;
    th.fn = callee;
    th.pc = 0;
    th.depth++;
    th.args = args;
    th.retOff = retOff;
    const da = Math.max(callee.depotAlign, 8);
    th.depot = Math.ceil(th.localTop / da) * da;
    th.localTop = th.depot + Math.ceil(callee.depotSize / 8) * 8;
    if (th.localTop > LOCAL_PER_THREAD) throw new EmuError(`local memory exhausted (call depth ${th.depth})`);
    th.pbase = Math.ceil(th.pTop / 16) * 16;
    th.pTop = th.pbase + callee.paramAreaSize;
    if (th.pTop > PSTACK_PER_THREAD) throw new EmuError(`param stack exhausted (call depth ${th.depth})`);
    if (th.frames.length > 2000) throw new EmuError('call depth limit');
  }

  private doRet(th: Thread): void {
    if (th.depth === 0) { th.st = St.EXIT; return; }
    const f = th.frames.pop()!;
    th.regTop = th.base;
    th.localTop = th.depot;
    th.pTop = th.pbase;
    th.fn = f.fn;
    th.pc = f.retPc;
    th.base = f.regBase;
    th.pbase = f.pbase;
    th.depot = f.depot;
    th.args = f.args;
    th.retOff = f.retOff;
    th.depth--;
  }

  private external(f: Func, th: Thread, args: number[], retOff: number): void {
    const P = this.pstack;
    const argU64 = (k: number): number => P.getUint32(th.pOrigin + args[k]!, true) + P.getUint32(th.pOrigin + args[k]! + 4, true) * TWO32;
    switch (f.name) {
      case 'vprintf': {
        const fmt = this.cString(argU64(0), th);
        const buf = argU64(1);
        const reader = buf === 0 ? null : {
          u32: (off: number) => { this.locate(Space.GENERIC, this.absOpnd(buf + off), th, 4); return mDv.getUint32(mOff, true); },
          u64: (off: number) => { this.locate(Space.GENERIC, this.absOpnd(buf + off), th, 8); return mDv.getBigUint64(mOff, true); },
          f64: (off: number) => { this.locate(Space.GENERIC, this.absOpnd(buf + off), th, 8); return mDv.getFloat64(mOff, true); },
          str: (a: bigint) => this.cString(Number(a), th),
        };
        this.printfOut += printfMod.formatPrintf(fmt, reader);
        if (retOff >= 0) P.setInt32(th.pOrigin + retOff, printfMod.printfArgCount, true);
        return;
      }
      case 'malloc': {
        // device malloc: a fresh block in the user heap window, 16-byte aligned (as the CUDA device heap),
        // filled with POISON so reads of memory nobody wrote differ from any value a program stores
        const size = argU64(0);
        const off = this.heap.alloc(Math.max(size, 1), 16);
        this.heap.buf.fill(POISON, off, off + Math.max(size, 1));
        this.deviceBlocks.set(HEAP_BASE + off, size);
        if (retOff >= 0) {
          P.setUint32(th.pOrigin + retOff, (HEAP_BASE + off) % TWO32, true);
          P.setUint32(th.pOrigin + retOff + 4, Math.floor((HEAP_BASE + off) / TWO32), true);
        }
        return;
      }
      case 'free': {
        const a = argU64(0);
        if (a === 0) return;
        if (!this.deviceBlocks.delete(a)) throw new EmuError(`free of 0x${a.toString(16)}, not a live device-heap block`);
        return;
      }
      case '__assertfail': {
        const msg = this.cString(argU64(0), th);
        const file = this.cString(argU64(1), th);
        const line = P.getUint32(th.pOrigin + args[2]!, true);
        const fn = this.cString(argU64(3), th);
        throw new Trap(`assertion failed: ${file}:${line}: ${fn}: ${msg} (block ${this.ctaid.x},${this.ctaid.y},${this.ctaid.z} thread ${th.tx},${th.ty},${th.tz})`);
      }
    }
    throw new EmuError(`call to external function ${f.name} is not supported`);
  }

  private scratchOpnd: Opnd = { k: K.IMM, r: 0, lo: 0, hi: 0, off: 0, neg: false, regs: null, name: '' };
  private absOpnd(a: number): Opnd {
    const s = this.scratchOpnd;
    s.lo = a % TWO32 | 0; s.hi = Math.floor(a / TWO32) | 0; s.off = 0;
    return s;
  }

  private cString(addr: number, th: Thread): string {
    let s = '';
    for (let i = 0; i < 100000; i++) {
      this.locate(Space.GENERIC, this.absOpnd(addr + i), th, 1);
      const c = mDv.getUint8(mOff);
      if (c === 0) return s;
      s += String.fromCharCode(c);
    }
    throw new EmuError('unterminated string');
  }
}

function roundInt(x: number, im: number): number {
  let r: number;
  if (im & F.RZI) r = Math.trunc(x);
  else if (im & F.RMI) r = Math.floor(x);
  else if (im & F.RPI) r = Math.ceil(x);
  else r = fp.rint(x);
  return r === 0 ? (x < 0 || Object.is(x, -0) ? -0 : 0) : r;
}

export { PtxError };
void u32;
void is64;
