// Running the C++ test kernels (test/kernels/cxx_*.cu, cxx2_*.cu) without a GPU: the IR our front end makes for the
// unit is compiled for the host CPU (llc), the launches of the host program (compiled by the real nvcc)
// go to a small CUDA runtime stand-in that runs every thread of a block as a coroutine (so __syncthreads
// works), and the program checks its own results and prints PASS. The expected values come from the
// programs' host code, never from our compiler. This checks the front end's semantics; ptxas and the
// symbol/stub comparisons with the real cicc are in cxx.test.ts.
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lex } from '../compiler/frontend/lexer';
import { skim } from '../compiler/frontend/skim';
import { generateIR } from '../compiler/frontend/irgen';
import { printModule } from '../compiler/middle/llprint';
import { parseCiccArgs } from '../cicc/args';
import { KERNELS_DIR, capturedHostSource, ciccArgv, findTool, mkTempDir, prepareUnits, run, skipReason } from './helpers/tools';

const files = fs.readdirSync(KERNELS_DIR).filter(f => /^cxx2?_.*\.cu$/.test(f)).sort();
const LLC = findTool('llc');
const HAVE_GCC = run('gcc', ['--version']).status === 0 && run('g++', ['--version']).status === 0;

/** Our IR for the unit, rewritten to run on the host CPU, plus a launcher per kernel and a table by name. */
function hostIR(ii: string, opts: ReturnType<typeof parseCiccArgs>['options']): string {
  const t = lex(ii);
  const r = generateIR(t, skim(t), opts);
  if (r.diagnostics.some(d => d.severity === 'error')) throw new Error(r.diagnostics.map(d => d.message).join('; '));
  let ll = printModule(r.module).split('\n').filter(l => !/^target (datalayout|triple)/.test(l)).join('\n');
  // the host side defines the kernels' names too: the device symbols get a prefix
  const defined = new Set([...r.module.funcs.filter(f => f.blocks.length).map(f => f.name), ...r.module.globals.map(g => g.name)]);
  ll = ll.replace(/@("?)([A-Za-z_$.][\w$.]*)\1/g, (all, _q, n) => defined.has(n) ? `@"dev.${n}"` : all);
  // one flat address space on the host
  ll = ll.replace(/ addrspace\(\d+\)/g, '').replace(/addrspacecast/g, 'bitcast');
  const sregs = new Set<string>();
  ll = ll.replace(/@llvm\.nvvm\.read\.ptx\.sreg\.(\w+)\.([xyz])/g, (_m, a, b) => { sregs.add(`${a}_${b}`); return `@emu_${a}_${b}`; });
  ll = ll.replace(/@llvm\.nvvm\.barrier0\b/g, '@emu_barrier0');
  // device printf: the arguments come packed in a buffer (CUDA's vprintf), not as a C va_list
  ll = ll.replace(/@vprintf\b/g, '@emu_vprintf');
  const other = /@llvm\.nvvm\.[\w.]+/.exec(ll);
  if (other) throw new Error(`no host stand-in for ${other[0]}`);
  ll = ll.split('\n').filter(l => !/^declare .*@emu_/.test(l)).join('\n');
  let extra = /@emu_barrier0/.test(ll) ? 'declare void @emu_barrier0()\n' : '';
  if (/@emu_vprintf/.test(ll)) extra += 'declare i32 @emu_vprintf(ptr, ptr)\n';
  for (const s of sregs) extra += `@emu_v_${s} = external global i32\ndefine i32 @emu_${s}() {\n  %v = load i32, ptr @emu_v_${s}\n  ret i32 %v\n}\n`;
  const ents: string[] = [];
  r.module.funcs.filter(f => f.isKernel).forEach((k, ki) => {
    const m = new RegExp(`^define [^@]*@"dev\\.${k.name.replace(/\$/g, '\\$')}"\\((.*)\\)[^(]*\\{$`, 'm').exec(ll);
    if (!m) throw new Error(`no definition of ${k.name}`);
    const params = m[1] ? m[1].split(/, (?![^(]*\))/) : [];
    let body = `define void @emu_launch_${ki}(ptr %args) {\n`;
    const actual: string[] = [];
    params.forEach((p, i) => {
      body += `  %p${i} = getelementptr ptr, ptr %args, i64 ${i}\n  %a${i} = load ptr, ptr %p${i}\n`;
      const ty = p.replace(/ %[\w.]+$/, '');
      if (/byval/.test(ty)) actual.push(`${ty} %a${i}`);
      else { body += `  %v${i} = load ${ty.replace(/ noundef| noalias/g, '')}, ptr %a${i}\n`; actual.push(`${ty} %v${i}`); }
    });
    extra += body + `  call void @"dev.${k.name}"(${actual.join(', ')})\n  ret void\n}\n`;
    extra += `@emu_name_${ki} = private constant [${k.name.length + 1} x i8] c"${k.name}\\00"\n`;
    ents.push(`{ ptr, ptr } { ptr @emu_name_${ki}, ptr @emu_launch_${ki} }`);
  });
  extra += `@emu_kernels = global [${ents.length} x { ptr, ptr }] [${ents.join(', ')}]\n@emu_nkernels = global i32 ${ents.length}\n`;
  return ll + '\n' + extra;
}

const skip = skipReason('nvcc') ?? (!LLC ? 'skipped: llc (LLVM 14+) not found' : !HAVE_GCC ? 'skipped: gcc/g++ not found' : undefined);

describe.skipIf(skip !== undefined)(`C++ test kernels run on the host CPU ${skip ?? ''}`, () => {
  for (const f of files) {
    it(f, () => {
      const name = path.basename(f, '.cu');
      const cu = path.join(KERNELS_DIR, f);
      const u = prepareUnits(cu, [90]).get(90)!;
      const dir = mkTempDir('cxx-run');
      const opts = parseCiccArgs(ciccArgv(u, dir)).options;
      opts.moduleId = u.moduleId;
      fs.writeFileSync(path.join(dir, 'k.ll'), hostIR(fs.readFileSync(u.ii, 'utf8'), opts));
      fs.writeFileSync(path.join(dir, 'rt.c'), RUNTIME);
      const steps: [string, string[]][] = [
        [LLC!, ['-opaque-pointers', '-filetype=obj', '-relocation-model=pic', 'k.ll', '-o', 'k.o']],
        ['gcc', ['-c', 'rt.c', '-o', 'rt.o']],
        // the host side as the real nvcc made it when it captured the unit (the stand-in runtime ignores its fatbinary)
        ['g++', ['-c', '-x', 'c++', capturedHostSource(cu, [90]), '-o', 'host.o']],
        ['g++', ['host.o', 'k.o', 'rt.o', '-o', name]],
        [path.join(dir, name), []],
      ];
      let out = '';
      for (const [cmd, args] of steps) {
        const r = run(cmd, args, { cwd: dir });
        out = r.stdout + r.stderr;
        expect(r.status, `${path.basename(cmd)} ${args.join(' ')}:\n${out}`).toBe(0);
      }
      expect(out).toContain(`PASS ${name}`);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }
});

/** The CUDA runtime stand-in (the entry points nvcc's host code calls). */
const RUNTIME = String.raw`/* A CUDA runtime stand-in for running kernels compiled to x86 (one thread at a time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
/* Threads of a block run as coroutines, so that __syncthreads() (emu_barrier0) can switch between them. */
/* Device printf (vprintf(fmt, buffer)): each argument at the next multiple of its size; floats arrive as doubles. */
int emu_vprintf(const char *fmt, const char *buf) {
  size_t off = 0;
  int n = 0;
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') { putchar(*p); n++; continue; }
    char spec[32]; int k = 0; spec[k++] = *p++;
    if (*p == '%') { putchar('%'); n++; continue; }
    int longs = 0;
    while (*p && strchr("-+ #0123456789.lhz", *p) && k < 30) { if (*p == 'l' || *p == 'z') longs++; spec[k++] = *p++; }
    spec[k++] = *p; spec[k] = 0;
    size_t sz = strchr("fFeEgGaA", *p) || strchr("sp", *p) || longs ? 8 : 4;
    off = (off + sz - 1) / sz * sz;
    if (strchr("fFeEgGaA", *p)) { double v; memcpy(&v, buf + off, 8); n += printf(spec, v); }
    else if (*p == 's' || *p == 'p') { void *v; memcpy(&v, buf + off, 8); n += printf(spec, v); }
    else if (sz == 8) { long long v; memcpy(&v, buf + off, 8); n += printf(spec, v); }
    else { int v; memcpy(&v, buf + off, 4); n += printf(spec, v); }
    off += sz;
  }
  return n;
}
#define MAXT 1024
static ucontext_t sched_ctx, thr_ctx[MAXT];
static char *stacks[MAXT];
static int cur, done[MAXT];
static void (*cur_launch)(void **); static void **cur_args;
extern unsigned emu_v_tid_x, emu_v_tid_y, emu_v_tid_z;
static unsigned tids[MAXT][3];
static void thread_main(void) { cur_launch(cur_args); done[cur] = 1; }
void emu_barrier0(void) { swapcontext(&thr_ctx[cur], &sched_ctx); emu_v_tid_x = tids[cur][0]; emu_v_tid_y = tids[cur][1]; emu_v_tid_z = tids[cur][2]; }
static void run_block(void (*launch)(void **), void **args, unsigned nx, unsigned ny, unsigned nz) {
  int n = (int)(nx * ny * nz);
  cur_launch = launch; cur_args = args;
  for (int t = 0; t < n; t++) {
    tids[t][0] = t % nx; tids[t][1] = (t / nx) % ny; tids[t][2] = t / (nx * ny);
    if (!stacks[t]) stacks[t] = malloc(1 << 18);
    getcontext(&thr_ctx[t]);
    thr_ctx[t].uc_stack.ss_sp = stacks[t]; thr_ctx[t].uc_stack.ss_size = 1 << 18; thr_ctx[t].uc_link = &sched_ctx;
    makecontext(&thr_ctx[t], thread_main, 0);
    done[t] = 0;
  }
  for (;;) {
    int alive = 0;
    for (int t = 0; t < n; t++) {
      if (done[t]) continue;
      cur = t;
      emu_v_tid_x = tids[t][0]; emu_v_tid_y = tids[t][1]; emu_v_tid_z = tids[t][2];
      swapcontext(&sched_ctx, &thr_ctx[t]);
      if (!done[t]) alive++;
    }
    if (!alive) break;
  }
}
typedef struct { unsigned x, y, z; } dim3;
struct KEnt { const char *name; void (*launch)(void **); };
extern struct KEnt emu_kernels[];
extern int emu_nkernels;
unsigned emu_v_tid_x, emu_v_tid_y, emu_v_tid_z;
unsigned emu_v_ntid_x, emu_v_ntid_y, emu_v_ntid_z;
unsigned emu_v_ctaid_x, emu_v_ctaid_y, emu_v_ctaid_z, emu_v_nctaid_x, emu_v_nctaid_y, emu_v_nctaid_z;
static struct { const void *host; const char *dev; } regs[256];
static int nregs;
static dim3 cfg_grid, cfg_block;
void **__cudaRegisterFatBinary(void *fb) { (void)fb; static void *h; return &h; }
void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }
void __cudaUnregisterFatBinary(void **h) { (void)h; }
void __cudaRegisterFunction(void **h, const char *hostFun, char *devFun, const char *devName, int tl, void *a, void *b, void *c, void *d, int *e) {
  (void)h; (void)devFun; (void)tl; (void)a; (void)b; (void)c; (void)d; (void)e;
  regs[nregs].host = hostFun; regs[nregs].dev = devName; nregs++;
}
void __cudaRegisterVar(void **h, char *hv, char *dv, const char *name, int ext, size_t size, int constant, int global) { (void)h; (void)hv; (void)dv; (void)name; (void)ext; (void)size; (void)constant; (void)global; }
void __cudaRegisterManagedVar(void) {}
char __nv_init_managed_rt_with_module(void **h) { (void)h; return 1; }
unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t shm, void *st) { (void)shm; (void)st; cfg_grid = g; cfg_block = b; return 0; }
unsigned __cudaPopCallConfiguration(dim3 *g, dim3 *b, size_t *shm, void *st) { *g = cfg_grid; *b = cfg_block; *shm = 0; if (st) *(void **)st = 0; return 0; }
int cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shm, void *st) {
  (void)shm; (void)st;
  const char *name = 0;
  for (int i = 0; i < nregs; i++) if (regs[i].host == func) name = regs[i].dev;
  if (!name) { printf("EMU: kernel not registered\n"); exit(3); }
  for (int k = 0; k < emu_nkernels; k++) if (!strcmp(emu_kernels[k].name, name)) {
    emu_v_nctaid_x = grid.x; emu_v_nctaid_y = grid.y; emu_v_nctaid_z = grid.z; emu_v_ntid_x = block.x; emu_v_ntid_y = block.y; emu_v_ntid_z = block.z;
    for (unsigned bz = 0; bz < grid.z; bz++) for (unsigned by = 0; by < grid.y; by++) for (unsigned bx = 0; bx < grid.x; bx++) {
      emu_v_ctaid_x = bx; emu_v_ctaid_y = by; emu_v_ctaid_z = bz;
      run_block(emu_kernels[k].launch, args, block.x, block.y, block.z);
    }
    return 0;
  }
  printf("EMU: no code for kernel %s\n", name); exit(3);
}
int cudaMalloc(void **p, size_t n) { *p = calloc(1, n ? n : 1); return 0; }
int cudaFree(void *p) { free(p); return 0; }
int cudaMemcpy(void *d, const void *s, size_t n, int kind) { (void)kind; memcpy(d, s, n); return 0; }
int cudaMemset(void *d, int v, size_t n) { memset(d, v, n); return 0; }
int cudaGetLastError(void) { return 0; }
int cudaDeviceSynchronize(void) { return 0; }
int cudaFuncSetAttribute(const void *f, int attr, int v) { (void)f; (void)attr; (void)v; return 0; }
/* libdevice functions the programs call, by the host's libm */
float erfcf(float);
float __nv_erfcf(float x) { return erfcf(x); }
const char *cudaGetErrorString(int e) { (void)e; return "no error"; }
int __cudaGetKernel(void **k, const void *fun) { *k = (void *)fun; return 0; }
int __cudaLaunchKernel(void *k, dim3 g, dim3 b, void **args, size_t shm, void *st) { return cudaLaunchKernel(k, g, b, args, shm, st); }
char __cudaInitModule(void **h) { (void)h; return 1; }
`;
