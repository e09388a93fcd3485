#!/usr/bin/env bash
# The GPU part of the differential check (issue 5): runs every case of a bundle (test/diff/gpu-bundle.ts)
# with the runner (scripts/gpu-runner.cpp, built into the bundle by scripts/gpu-diff.sh prepare).
#   scripts/gpu-run.sh BUNDLE OUT [RUNNER]
# Writes OUT/<spec>/<version>/{status.txt,b<i>.bin,s<i>.bin,printf.txt,stderr.txt}; compare them here or
# elsewhere with `node dist/test/diff/gpu-compare.js BUNDLE OUT`. Needs bash and the CUDA driver only
# (no toolkit, no node). Exit 0 when every case ran (a kernel's trap counts as ran), 1 otherwise, 2 on
# bad usage. PER_CASE_TIMEOUT (seconds, default 60) bounds each case.
set -u
if [ $# -lt 2 ]; then echo "usage: $0 BUNDLE OUT [RUNNER]" >&2; exit 2; fi
bundle=$(cd "$1" && pwd) || exit 2
out=$2
runner=${3:-"$bundle/gpu-runner"}
timeout_s=${PER_CASE_TIMEOUT:-60}
if [ ! -f "$bundle/cases.txt" ]; then echo "gpu-run: $bundle has no cases.txt (build it with scripts/gpu-diff.sh prepare)" >&2; exit 2; fi
if [ ! -x "$runner" ]; then echo "gpu-run: no runner at $runner" >&2; exit 2; fi
mkdir -p "$out" || exit 2
ran=0; failed=0
while read -r spec version; do
  [ -n "$spec" ] || continue
  d="$out/$spec/$version"
  rm -rf "$d"; mkdir -p "$d"
  if command -v timeout >/dev/null 2>&1; then
    timeout "$timeout_s" "$runner" "$bundle/$spec/$version.case" "$d" >"$d/printf.txt" 2>"$d/stderr.txt"; rc=$?
  else
    "$runner" "$bundle/$spec/$version.case" "$d" >"$d/printf.txt" 2>"$d/stderr.txt"; rc=$?
  fi
  if [ ! -f "$d/status.txt" ]; then
    if [ "$rc" -eq 124 ]; then why="timeout after ${timeout_s}s"; else why="runner exit $rc: $(tail -n 1 "$d/stderr.txt")"; fi
    echo "error $why" >"$d/status.txt"
  fi
  case "$(head -n 1 "$d/status.txt")" in
    ok*|trap*) ran=$((ran + 1)) ;;
    *) failed=$((failed + 1)); echo "gpu-run: $spec/$version: $(head -n 1 "$d/status.txt")" >&2 ;;
  esac
done <"$bundle/cases.txt"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
echo "gpu-run: $ran cases ran, $failed failed (${gpu:-GPU unknown: nvidia-smi not available})" | tee "$out/summary.txt"
[ "$failed" -eq 0 ]
