// The example's driver: runs every kernel and prints PASS/FAIL (needs a GPU to run; tests only link it).
#include "common.h"

int main() {
  const int n = 64 * 64;
  struct { const char *name; int (*run)(int); } tests[] = {
    {"vec_add", run_vec_add}, {"saxpy", run_saxpy}, {"reduce", run_reduce}, {"histogram", run_histogram},
    {"transpose", run_transpose}, {"stencil", run_stencil}, {"scan", run_scan}, {"dot", run_dot},
  };
  int failed = 0;
  for (auto &t : tests) {
    int r = t.run(n);
    printf("%s %s\n", r ? "FAIL" : "PASS", t.name);
    failed += r;
  }
  return failed != 0;
}
