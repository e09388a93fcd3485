#!/usr/bin/env bash
# The GPU differential check (issue 5; `npm run gpu-check`): both PTX versions of every differential spec
# (ptxd's and the real cicc's, test/diff/specs.ts) run on a real GPU and are compared with each other and
# with the PTX emulator. See scripts/GPU-CHECK.md for running the GPU step on a lent device machine.
#
#   scripts/gpu-diff.sh [STEP] [WORK]      WORK defaults to test/.gpu
#   prepare   build ptxd, the bundle (WORK/bundle) and the runner (WORK/bundle/gpu-runner): needs node, nvcc, g++
#   runner P  only build the runner at P
#   run       run every case on the GPU (WORK/out): needs bash and the CUDA driver only
#   compare   compare WORK/out with the bundle's emulator outputs: needs node
#   all       (default) prepare, run, compare, then scripts/gpu-check.sh on the programs the integration
#             test built (test/.build), when there are any
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
step=${1:-all}
work=${2:-"$root/test/.gpu"}
# The toolkit with cuda.h: CUDA_HOME, CUDA_PATH, the one around nvcc on PATH (not a wrapper script), /usr/local/cuda.
cuda=""
for c in "${CUDA_HOME:-}" "${CUDA_PATH:-}" "$(dirname "$(dirname "$(readlink -f "$(command -v nvcc || echo /nonexistent)")")")" /usr/local/cuda; do
  if [ -n "$c" ] && [ -f "$c/include/cuda.h" ]; then cuda=$c; break; fi
done

build_runner() {
  if [ -z "$cuda" ]; then echo "gpu-diff: cuda.h not found (set CUDA_HOME)" >&2; return 1; fi
  # The driver is opened with dlopen at run time: only cuda.h is needed here, no libcuda.
  "${CXX:-g++}" -std=c++17 -O2 -Wall -Wextra -I"$cuda/include" "$here/gpu-runner.cpp" -ldl -o "$1"
}

prepare() {
  (cd "$root" && npx tsc -p tsconfig.json) || return 1
  node "$root/dist/test/diff/gpu-bundle.js" "$work/bundle" || return 1
  build_runner "$work/bundle/gpu-runner" || return 1
  echo "gpu-diff: bundle and runner ready in $work/bundle"
}

run() { bash "$here/gpu-run.sh" "$work/bundle" "$work/out"; }
compare() { node "$root/dist/test/diff/gpu-compare.js" "$work/bundle" "$work/out"; }

case "$step" in
  prepare) prepare ;;
  runner) [ $# -ge 2 ] || { echo "usage: $0 runner PATH" >&2; exit 2; }; build_runner "$2" ;;
  run) run ;;
  compare) compare ;;
  all)
    prepare || exit 1
    run; ran=$?
    compare; cmp=$?
    old=0
    if [ -d "$root/test/.build" ]; then bash "$here/gpu-check.sh" "$root/test/.build"; old=$?; [ "$old" -eq 2 ] && old=0; fi
    [ "$ran" -eq 0 ] && [ "$cmp" -eq 0 ] && [ "$old" -eq 0 ] ;;
  *) echo "usage: $0 [prepare|runner PATH|run|compare|all] [WORK]" >&2; exit 2 ;;
esac
