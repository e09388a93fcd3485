/* A stand-in for the CUDA driver (libcuda.so.1), only for testing scripts/gpu-runner.cpp on a machine
 * without a GPU. Device memory is host memory; a launch runs nothing: it logs the kernel, its shape and
 * which allocation each pointer in its parameter block points to (FAKE_CUDA_LOG), so the test can check
 * the runner's loading, patching and read-back. FAKE_CUDA_REFUSE_PTX=1 refuses PTX text (as a driver
 * older than the PTX would); FAKE_CUDA_TRAP=<kernel> makes that kernel fail like a trap (reported at the
 * next synchronisation, as the driver does).
 * Built with cuda.h so that the signatures are the driver's own. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXA 256
static char *allocs[MAXA];
static size_t sizes[MAXA];
static int nallocs;

static CUresult fakeAlloc(CUdeviceptr *p, size_t n) {
  if (nallocs == MAXA) return CUDA_ERROR_OUT_OF_MEMORY;
  allocs[nallocs] = calloc(n ? n : 1, 1);
  sizes[nallocs] = n;
  *p = (CUdeviceptr)(size_t)allocs[nallocs++];
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int f) { (void)f; return CUDA_SUCCESS; }
CUresult cuGetErrorName(CUresult r, const char **s) {
  *s = r == CUDA_SUCCESS ? "CUDA_SUCCESS" : r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION ? "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"
     : r == CUDA_ERROR_LAUNCH_FAILED ? "CUDA_ERROR_LAUNCH_FAILED" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *d, int o) { (void)o; *d = 0; return CUDA_SUCCESS; }
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) { (void)a; (void)d; *v = 0; return CUDA_SUCCESS; }
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = (CUcontext)1; return CUDA_SUCCESS; }
CUresult cuCtxSetCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
CUresult cuCtxSetLimit(CUlimit l, size_t v) { (void)l; (void)v; return CUDA_SUCCESS; }
static int trapped;
CUresult cuCtxSynchronize(void) { return trapped ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS; }
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) { (void)f; (void)a; (void)v; return CUDA_SUCCESS; }
CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *o, void **v) {
  (void)n; (void)o; (void)v;
  const char *s = image;
  if (getenv("FAKE_CUDA_REFUSE_PTX") && memcmp(s, "\x7f" "ELF", 4) != 0) return CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
  *m = (CUmodule)1;
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) { (void)m; *f = (CUfunction)strdup(name); return CUDA_SUCCESS; }
CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *size, CUmodule m, const char *name) {
  (void)m; (void)name;
  *size = 1 << 20;
  return fakeAlloc(p, *size);
}
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { return fakeAlloc(p, n); }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)(size_t)d, s, n); return CUDA_SUCCESS; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { memcpy(d, (const void *)(size_t)s, n); return CUDA_SUCCESS; }
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char c, size_t n) { memset((void *)(size_t)d, c, n); return CUDA_SUCCESS; }
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream st, void **params, void **extra) {
  (void)st; (void)params;
  const char *name = (const char *)f;
  const unsigned char *buf = NULL;
  size_t size = 0;
  for (int i = 0; extra && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
    else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = *(size_t *)extra[i + 1];
  }
  const char *logf = getenv("FAKE_CUDA_LOG");
  FILE *log = logf ? fopen(logf, "a") : NULL;
  if (log) {
    fprintf(log, "launch %s %u %u %u %u %u %u %u size=%zu", name, gx, gy, gz, bx, by, bz, shared, size);
    for (size_t off = 0; buf && off + 8 <= size; off += 8) {
      CUdeviceptr p;
      memcpy(&p, buf + off, 8);
      for (int a = 0; a < nallocs; a++) if (p == (CUdeviceptr)(size_t)allocs[a]) fprintf(log, " %zu:%d", off, a);
    }
    fprintf(log, "\n");
    fclose(log);
  }
  const char *trap = getenv("FAKE_CUDA_TRAP");
  if (trap && strcmp(trap, name) == 0) trapped = 1;
  return CUDA_SUCCESS;
}
