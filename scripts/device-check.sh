#!/usr/bin/env bash
# One prepared GPU check for a lent device machine (scripts/GPU-CHECK.md): everything is built here, into one
# directory the device tool carries (default test/.gpu/device, git-ignored); the device runs it with bash and the
# CUDA driver only (no node, no toolkit needed there).
#
#   scripts/device-check.sh build [DIR]   here (nvcc, ptxd built by `npm run build`):
#       DIR/perf    bench/gpu-perf/perf.cu built with the real cicc and with ptxd (scripts/gpu-perf.sh build)
#       DIR/progs   every test/kernels program (those with a main), built as test/integration.test.ts builds them
#                   (nvcc --cicc-prefix=bin/ptxd-cicc, PTXD_FALLBACK=never) for GPU_ARCH (default sm_90), linked
#                   against the shared CUDA runtime so that the directory stays small, stripped, each with its
#                   <name>.expect; DIR/lib holds that runtime (libcudart.so.*)
#       JOBS (default 2) programs build at once. Exit 1 when anything failed to build (listed in
#       DIR/build-failures.txt; the rest is still usable).
#   scripts/device-check.sh run [DIR]     on the device machine: the gpu-perf table (ROUNDS rounds, default 3,
#       within PERF_BUDGET seconds, default 150), then the programs (scripts/gpu-check.sh, within CHECK_BUDGET
#       seconds, default 100, PER_TEST_TIMEOUT default 20). Writes perf.md, check.md, summary.txt and the logs
#       under $OUT when it is set (else DIR/results). Exit 0 when every check passed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
step=${1:-}
dir=${2:-"$root/test/.gpu/device"}
arch=${GPU_ARCH:-sm_90}

build_program() {   # $1 = source, $2 = DIR/progs, $3 = work dir for logs
  local cu=$1 progs=$2 work=$3 name flags
  name=$(basename "$cu" .cu)
  flags=$(head -n 8 "$cu" | sed -n 's#^// nvcc-flags:##p' | head -n 1)
  # shellcheck disable=SC2086 # the flags line is a list of words
  if nvcc -arch="$arch" $flags -cudart shared --cicc-prefix="$root/bin/ptxd-cicc" \
      -o "$progs/$name" "$cu" >"$work/$name.log" 2>&1; then
    strip "$progs/$name" 2>/dev/null || true
    { echo "PASS $name"; sed -n 's#^[[:space:]]*//[[:space:]]*EXPECT-OUTPUT:[[:space:]]\{0,1\}##p' "$cu" | sed 's/[[:space:]]*$//'; } >"$progs/$name.expect"
  else
    echo "$name" >>"$work/failed"
    rm -f "$progs/$name"
  fi
}

build() {
  command -v nvcc >/dev/null || { echo "device-check: nvcc not on PATH" >&2; return 2; }
  [ -x "$root/bin/ptxd-cicc" ] && [ -d "$root/dist" ] || { echo "device-check: build ptxd first (npm run build)" >&2; return 2; }
  rm -rf "$dir"
  mkdir -p "$dir/perf" "$dir/progs" "$dir/lib" || return 2
  local rev   # taken before building: what the build compiled with
  rev="$(git -C "$root" rev-parse HEAD 2>/dev/null)$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')"
  local work status=0 cudart
  work=$(mktemp -d "${TMPDIR:-/tmp}/device-check.XXXXXX")
  : >"$work/failed"
  GPU_PERF_ARCH=$arch bash "$here/gpu-perf.sh" build "$dir/perf" >"$work/perf.log" 2>&1 || { echo "gpu-perf" >>"$work/failed"; tail -n 20 "$work/perf.log" >&2; }
  strip "$dir/perf"/perf_* 2>/dev/null || true
  # the toolkit nvcc runs from (nvcc on PATH may be a wrapper script): nvcc -dryrun names its own directory (_HERE_)
  cudart=$(nvcc -dryrun -c -x cu /dev/null -o /dev/null 2>&1 | sed -n 's/^#\$ _HERE_=//p' | head -n 1)/../lib64
  [ -d "$cudart" ] || cudart=${CUDA_HOME:-/usr/local/cuda}/lib64
  cp -L "$cudart"/libcudart.so.[0-9]* "$dir/lib/" || { echo "device-check: no libcudart.so.N in $cudart" >&2; status=1; }
  local progs=()
  while IFS= read -r f; do progs+=("$f"); done < <(grep -lE '\bint[[:space:]]+main[[:space:]]*\(' "$root"/test/kernels/*.cu | sort)
  # As test/integration.test.ts does: a private daemon (own socket and cache directory, the unit cache off, never
  # mode), so that each cicc call is one request to a warm compiler instead of a fresh node process.
  (
    unset PTXD_DAEMON PTXD_CACHE NVCC_APPEND_FLAGS NVCC_PREPEND_FLAGS
    export PTXD_CACHE_DIR="$work/cache" PTXD_SOCKET="$work/d.sock" PTXD_FALLBACK=never PTXD_CACHE=0 PTXD_IDLE_TIMEOUT=600 PTXD_SEED=0
    node "$root/bin/ptxd" daemon start >"$work/daemon.log" 2>&1 || { echo "device-check: ptxd daemon start failed: $(cat "$work/daemon.log")" >&2; exit 1; }
    export -f build_program
    export root arch
    printf '%s\n' "${progs[@]}" | xargs -P "${JOBS:-2}" -I{} bash -c 'build_program "$1" "$2" "$3"' _ {} "$dir/progs" "$work"
    node "$root/bin/ptxd" daemon stop >>"$work/daemon.log" 2>&1
    exit 0
  ) || status=1
  sort "$work/failed" >"$dir/build-failures.txt"
  for n in $(cat "$dir/build-failures.txt"); do
    [ "$n" = gpu-perf ] && continue
    echo "----- $n -----" >>"$dir/build-failures.txt.log"; tail -n 20 "$work/$n.log" >>"$dir/build-failures.txt.log"
  done
  { echo "commit $rev"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) for $arch by $(nvcc --version | tail -n 1)"
    echo "programs $(ls "$dir/progs" | grep -vc '\.expect$') of ${#progs[@]}"; } >"$dir/build-info.txt"
  cat "$dir/build-info.txt"
  echo "device-check: $(du -sh "$dir" | cut -f1) in $dir"
  if [ -s "$dir/build-failures.txt" ]; then echo "device-check: failed to build: $(tr '\n' ' ' <"$dir/build-failures.txt")" >&2; status=1; fi
  rm -rf "$work"
  return "$status"
}

run() {
  [ -d "$dir/perf" ] && [ -d "$dir/progs" ] || { echo "device-check: $dir is not built (scripts/device-check.sh build)" >&2; return 2; }
  local out=${OUT:-"$dir/results"} perf_rc check_rc t0=$SECONDS
  mkdir -p "$out" || return 2
  { nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 4; cat "$dir/build-info.txt" 2>/dev/null; } | tee "$out/device.txt"
  echo "== gpu-perf (ROUNDS=${ROUNDS:-3}, budget ${PERF_BUDGET:-150}s)"
  ROUNDS=${ROUNDS:-3} GPU_PERF_BUDGET=${PERF_BUDGET:-150} GPU_PERF_TIMEOUT=${PERF_TIMEOUT:-120} GPU_PERF_LOGS="$out/perf-logs" \
    bash "$here/gpu-perf.sh" run "$dir/perf" >"$out/perf.md" 2>"$out/perf.err"; perf_rc=$?
  cat "$out/perf.md" "$out/perf.err"
  echo "== gpu-check (budget ${CHECK_BUDGET:-100}s)"
  LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PER_TEST_TIMEOUT=${PER_TEST_TIMEOUT:-20} GPU_CHECK_BUDGET=${CHECK_BUDGET:-100} \
    GPU_CHECK_LOGS="$out/check-logs" bash "$here/gpu-check.sh" "$dir/progs" >"$out/check.md" 2>&1; check_rc=$?
  grep -v '^| PASS' "$out/check.md" | head -n 80
  { echo "gpu-perf exit $perf_rc: $(grep -h 'geometric mean' "$out/perf.md")"
    echo "gpu-check exit $check_rc: $(grep -h '^gpu-check:' "$out/check.md")"
    echo "seconds $((SECONDS - t0))"; } | tee "$out/summary.txt"
  [ "$perf_rc" -eq 0 ] && [ "$check_rc" -eq 0 ]
}

case "$step" in
  build) build ;;
  run) run ;;
  *) echo "usage: $0 build|run [DIR]" >&2; exit 2 ;;
esac
