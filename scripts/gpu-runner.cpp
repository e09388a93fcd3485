// gpu-runner: runs one case of the GPU differential bundle (test/diff/gpu-bundle.ts) on the GPU through
// the CUDA driver API, and writes the output buffers.
//
//   gpu-runner CASE_FILE OUT_DIR
//
// The driver library is opened at run time (dlopen libcuda.so.1), so this builds on a machine without a
// driver or a GPU (only cuda.h is needed) and runs on one that has the driver and no toolkit.
//
// CASE_FILE (paths relative to its directory), one directive per line:
//   module  FILE.ptx [FILE.cubin|-]       the PTX is JIT-compiled; the cubin is the fallback for old drivers
//   buffer  BYTES INIT_FILE               device buffers, numbered from 0 in order
//   symbol  NAME BYTES INIT_FILE|-        module variables: written (when an init is given), read back
//   stack   BYTES                         the per-thread stack limit (deep recursion), before loading
//   launch  KERNEL GX GY GZ BX BY BZ DYN PARAMS_FILE NPATCH [OFFSET BUFFER]...
//           PARAMS_FILE holds the packed parameter bytes; each patch puts buffer BUFFER's device address at OFFSET.
// Outputs in OUT_DIR: b<i>.bin per buffer, s<i>.bin per symbol, status.txt ("ok <how loaded>", or
// "trap <launch> <CUresult name>" when a kernel failed (trap, assert, fault): the context is then
// unusable and no buffer is read back). Device printf goes to stdout (the driver prints it at synchronisation); messages to stderr.
// Exit: 0 when the case ran (trap included), 2 on any other failure.

#include <cuda.h>
#include <dlfcn.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

#define API(name) decltype(&name) p_##name = nullptr
API(cuInit); API(cuDeviceGet); API(cuDeviceGetAttribute); API(cuDevicePrimaryCtxRetain); API(cuCtxSetCurrent);
API(cuModuleLoadDataEx); API(cuModuleGetFunction); API(cuModuleGetGlobal); API(cuMemAlloc); API(cuMemcpyHtoD);
API(cuMemcpyDtoH); API(cuMemsetD8); API(cuLaunchKernel); API(cuCtxSynchronize); API(cuGetErrorName);
API(cuFuncSetAttribute); API(cuCtxSetLimit);
#undef API

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "gpu-runner: %s\n", msg.c_str());
  std::exit(2);
}

const char *errName(CUresult r) {
  const char *s = nullptr;
  if (p_cuGetErrorName && p_cuGetErrorName(r, &s) == CUDA_SUCCESS && s) return s;
  return "CUDA_ERROR_UNKNOWN";
}

void check(CUresult r, const std::string &what) {
  if (r != CUDA_SUCCESS) die(what + ": " + errName(r) + " (" + std::to_string(static_cast<int>(r)) + ")");
}

template <typename F> void load(void *lib, F &slot, const char *name) {
  slot = reinterpret_cast<F>(dlsym(lib, name));
  if (!slot) die(std::string("libcuda has no ") + name);
}

void loadDriver() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) lib = dlopen("libcuda.so", RTLD_NOW);
  if (!lib) die(std::string("cannot load the CUDA driver (libcuda.so.1): ") + dlerror());
  // The _v2 entry points are what cuda.h's macros name (cuMemAlloc is cuMemAlloc_v2, …).
  load(lib, p_cuInit, "cuInit");
  load(lib, p_cuGetErrorName, "cuGetErrorName");
  load(lib, p_cuDeviceGet, "cuDeviceGet");
  load(lib, p_cuDeviceGetAttribute, "cuDeviceGetAttribute");
  load(lib, p_cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  load(lib, p_cuCtxSetCurrent, "cuCtxSetCurrent");
  load(lib, p_cuModuleLoadDataEx, "cuModuleLoadDataEx");
  load(lib, p_cuModuleGetFunction, "cuModuleGetFunction");
  load(lib, p_cuModuleGetGlobal, "cuModuleGetGlobal_v2");
  load(lib, p_cuMemAlloc, "cuMemAlloc_v2");
  load(lib, p_cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  load(lib, p_cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  load(lib, p_cuMemsetD8, "cuMemsetD8_v2");
  load(lib, p_cuLaunchKernel, "cuLaunchKernel");
  load(lib, p_cuCtxSynchronize, "cuCtxSynchronize");
  load(lib, p_cuFuncSetAttribute, "cuFuncSetAttribute");
  load(lib, p_cuCtxSetLimit, "cuCtxSetLimit");
}

std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) die("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void writeFile(const std::string &path, const void *data, size_t n) {
  std::ofstream f(path, std::ios::binary);
  if (!f) die("cannot write " + path);
  f.write(static_cast<const char *>(data), static_cast<std::streamsize>(n));
  if (!f) die("cannot write " + path);
}

struct Patch { size_t offset; size_t buffer; };
struct Launch {
  std::string kernel, params;
  unsigned grid[3], block[3], dyn;
  std::vector<Patch> patches;
};
struct Symbol { std::string name, init; size_t bytes; };
struct Buffer { size_t bytes; std::string init; };

struct Case {
  std::string ptx, cubin;
  size_t stack = 0;   // cudaLimitStackSize per thread, 0: the driver's default
  std::vector<Buffer> buffers;
  std::vector<Symbol> symbols;
  std::vector<Launch> launches;
};

Case parseCase(const std::string &file, const std::string &dir) {
  std::ifstream in(file);
  if (!in) die("cannot read " + file);
  Case c;
  std::string line;
  int n = 0;
  const auto path = [&](const std::string &p) { return p == "-" ? std::string() : dir + "/" + p; };
  while (std::getline(in, line)) {
    n++;
    std::istringstream s(line);
    std::string what;
    if (!(s >> what) || what[0] == '#') continue;
    bool ok = true;
    if (what == "stack") {
      ok = static_cast<bool>(s >> c.stack);
    } else if (what == "module") {
      std::string ptx, cubin = "-";
      ok = static_cast<bool>(s >> ptx);
      s >> cubin;
      c.ptx = path(ptx);
      c.cubin = path(cubin);
    } else if (what == "buffer") {
      Buffer b;
      std::string init;
      ok = static_cast<bool>(s >> b.bytes >> init);
      b.init = path(init);
      c.buffers.push_back(b);
    } else if (what == "symbol") {
      Symbol y;
      std::string init;
      ok = static_cast<bool>(s >> y.name >> y.bytes >> init);
      y.init = path(init);
      c.symbols.push_back(y);
    } else if (what == "launch") {
      Launch l;
      size_t np = 0;
      std::string params;
      ok = static_cast<bool>(s >> l.kernel >> l.grid[0] >> l.grid[1] >> l.grid[2] >> l.block[0] >> l.block[1] >> l.block[2] >> l.dyn >> params >> np);
      l.params = path(params);
      for (size_t i = 0; ok && i < np; i++) {
        Patch p;
        ok = static_cast<bool>(s >> p.offset >> p.buffer);
        if (ok && p.buffer >= c.buffers.size()) die(file + ":" + std::to_string(n) + ": no buffer " + std::to_string(p.buffer));
        l.patches.push_back(p);
      }
      c.launches.push_back(l);
    } else {
      die(file + ":" + std::to_string(n) + ": unknown directive " + what);
    }
    if (!ok) die(file + ":" + std::to_string(n) + ": malformed " + what + " line");
  }
  if (c.ptx.empty()) die(file + ": no module line");
  return c;
}

/** Loads the PTX (JIT by the driver); an old driver that refuses the PTX version gets the cubin built with it. */
CUmodule loadModule(const Case &c, std::string &how) {
  std::string ptx = readFile(c.ptx);
  std::vector<char> log(16384, 0);
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log.data(), reinterpret_cast<void *>(static_cast<uintptr_t>(log.size() - 1))};
  CUmodule m = nullptr;
  CUresult r = p_cuModuleLoadDataEx(&m, ptx.c_str(), 2, opts, vals);
  if (r == CUDA_SUCCESS) { how = "ptx"; return m; }
  std::string why = std::string(errName(r)) + (log[0] ? std::string(": ") + log.data() : std::string());
  if (c.cubin.empty()) die("loading " + c.ptx + " failed: " + why);
  std::string bin = readFile(c.cubin);
  CUresult r2 = p_cuModuleLoadDataEx(&m, bin.data(), 0, nullptr, nullptr);
  if (r2 != CUDA_SUCCESS) die("loading " + c.ptx + " failed (" + why + ") and so did " + c.cubin + ": " + errName(r2));
  how = "cubin (ptx refused: " + std::string(errName(r)) + ")";
  return m;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) die("usage: gpu-runner CASE_FILE OUT_DIR");
  const std::string file = argv[1], out = argv[2];
  const size_t slash = file.find_last_of('/');
  const Case c = parseCase(file, slash == std::string::npos ? "." : file.substr(0, slash));

  loadDriver();
  check(p_cuInit(0), "cuInit");
  CUdevice dev;
  check(p_cuDeviceGet(&dev, 0), "cuDeviceGet");
  CUcontext ctx;
  check(p_cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(p_cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  check(p_cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64u << 20), "cuCtxSetLimit(malloc heap)");
  if (c.stack) check(p_cuCtxSetLimit(CU_LIMIT_STACK_SIZE, c.stack), "cuCtxSetLimit(stack)");
  std::string how;
  CUmodule mod = loadModule(c, how);

  std::vector<CUdeviceptr> bufs;
  for (const Buffer &b : c.buffers) {
    CUdeviceptr p;
    check(p_cuMemAlloc(&p, b.bytes), "cuMemAlloc");
    std::string init = readFile(b.init);
    if (init.size() != b.bytes) die(b.init + ": " + std::to_string(init.size()) + " bytes, expected " + std::to_string(b.bytes));
    check(p_cuMemcpyHtoD(p, init.data(), b.bytes), "cuMemcpyHtoD");
    bufs.push_back(p);
  }
  std::vector<CUdeviceptr> syms;
  for (const Symbol &y : c.symbols) {
    CUdeviceptr p;
    size_t size = 0;
    check(p_cuModuleGetGlobal(&p, &size, mod, y.name.c_str()), "cuModuleGetGlobal(" + y.name + ")");
    if (size < y.bytes) die("symbol " + y.name + " is " + std::to_string(size) + " bytes, expected " + std::to_string(y.bytes));
    if (!y.init.empty()) {
      std::string init = readFile(y.init);
      check(p_cuMemcpyHtoD(p, init.data(), std::min(init.size(), y.bytes)), "cuMemcpyHtoD(" + y.name + ")");
    }
    syms.push_back(p);
  }

  for (size_t i = 0; i < c.launches.size(); i++) {
    const Launch &l = c.launches[i];
    CUfunction fn;
    check(p_cuModuleGetFunction(&fn, mod, l.kernel.c_str()), "cuModuleGetFunction(" + l.kernel + ")");
    if (l.dyn > 48 * 1024) check(p_cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(l.dyn)), "cuFuncSetAttribute");
    std::string params = readFile(l.params);
    for (const Patch &p : l.patches) {
      if (p.offset + sizeof(CUdeviceptr) > params.size()) die(l.params + ": patch offset " + std::to_string(p.offset) + " out of range");
      std::memcpy(&params[p.offset], &bufs[p.buffer], sizeof(CUdeviceptr));
    }
    size_t size = params.size();
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    // A refused launch (shape, parameter size) is the bundle's fault, not the kernel's: not a trap.
    check(p_cuLaunchKernel(fn, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], l.dyn, nullptr, nullptr, size > 0 ? extra : nullptr),
          "cuLaunchKernel(" + l.kernel + ")");
    CUresult r = p_cuCtxSynchronize();
    if (r != CUDA_SUCCESS) {
      std::fflush(stdout);
      std::string status = "trap " + std::to_string(i) + " " + errName(r) + "\n";
      writeFile(out + "/status.txt", status.data(), status.size());
      return 0;
    }
  }

  for (size_t i = 0; i < bufs.size(); i++) {
    std::vector<char> data(c.buffers[i].bytes);
    check(p_cuMemcpyDtoH(data.data(), bufs[i], data.size()), "cuMemcpyDtoH");
    writeFile(out + "/b" + std::to_string(i) + ".bin", data.data(), data.size());
  }
  for (size_t i = 0; i < syms.size(); i++) {
    std::vector<char> data(c.symbols[i].bytes);
    check(p_cuMemcpyDtoH(data.data(), syms[i], data.size()), "cuMemcpyDtoH(" + c.symbols[i].name + ")");
    writeFile(out + "/s" + std::to_string(i) + ".bin", data.data(), data.size());
  }
  std::fflush(stdout);
  const std::string status = "ok " + how + "\n";
  writeFile(out + "/status.txt", status.data(), status.size());
  return 0;
}
