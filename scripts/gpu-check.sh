#!/usr/bin/env bash
# Run the test programs built by test/integration.test.ts on a machine with a GPU.
#   scripts/gpu-check.sh [DIR]        (DIR defaults to test/.build next to this script's repo)
# Each executable in DIR is run (timeout PER_TEST_TIMEOUT seconds, default 60). It passes when it exits 0
# and its combined stdout+stderr contains every line of DIR/<name>.expect (which always includes
# "PASS <name>"; without an .expect file, "PASS <name>" is required). Prints a summary table and exits 1
# if any program failed, 2 if there was nothing to run. Needs no CUDA toolkit, only the driver.
# GPU_CHECK_BUDGET (seconds, default none): programs not started within it are listed as not run (a failure).
# GPU_CHECK_LOGS=DIR keeps every program's output there.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-"$here/../test/.build"}
timeout_s=${PER_TEST_TIMEOUT:-60}
if [ ! -d "$dir" ]; then echo "gpu-check: no such directory: $dir" >&2; exit 2; fi
logdir=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX")
pass=0; fail=0; rows=()
budget=${GPU_CHECK_BUDGET:-}
started=$SECONDS
for exe in "$dir"/*; do
  [ -f "$exe" ] && [ -x "$exe" ] || continue
  case "$exe" in *.expect|*.txt|*.o|*.sh|*.so|*.so.*) continue ;; esac
  name=$(basename "$exe")
  if [ -n "$budget" ] && [ $((SECONDS - started)) -ge "$budget" ]; then
    fail=$((fail + 1)); rows+=("FAIL|$name|0|not run: time budget of ${budget}s spent"); : >"$logdir/$name.log"; continue
  fi
  log="$logdir/$name.log"
  start=$(date +%s.%N)
  if command -v timeout >/dev/null 2>&1; then timeout "$timeout_s" "$exe" >"$log" 2>&1; rc=$?; else "$exe" >"$log" 2>&1; rc=$?; fi
  secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
  why=""
  if [ "$rc" -eq 124 ]; then why="timeout after ${timeout_s}s"
  elif [ "$rc" -ne 0 ]; then why="exit $rc"
  fi
  expect="$dir/$name.expect"
  if [ -z "$why" ]; then
    if [ -f "$expect" ]; then
      while IFS= read -r want || [ -n "$want" ]; do
        [ -z "$want" ] && continue
        if ! grep -qF -- "$want" "$log"; then why="missing output: $want"; break; fi
      done <"$expect"
    elif ! grep -qF -- "PASS $name" "$log"; then why="no 'PASS $name' line"
    fi
  fi
  if [ -z "$why" ]; then pass=$((pass + 1)); rows+=("PASS|$name|$secs|"); else fail=$((fail + 1)); rows+=("FAIL|$name|$secs|$why"); fi
done
total=$((pass + fail))
if [ "$total" -eq 0 ]; then echo "gpu-check: no executables in $dir" >&2; exit 2; fi
printf '| %-4s | %-28s | %8s | %s\n' result program seconds detail
printf '|------|------------------------------|----------|--------\n'
for r in "${rows[@]}"; do
  IFS='|' read -r res name secs why <<<"$r"
  printf '| %-4s | %-28s | %8s | %s\n' "$res" "$name" "$secs" "$why"
done
echo
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
echo "gpu-check: $pass/$total passed (${gpu:-GPU unknown: nvidia-smi not available})"
if [ -n "${GPU_CHECK_LOGS:-}" ]; then mkdir -p "$GPU_CHECK_LOGS" && cp "$logdir"/*.log "$GPU_CHECK_LOGS"/ 2>/dev/null; fi
if [ "$fail" -gt 0 ]; then
  for r in "${rows[@]}"; do
    IFS='|' read -r res name _ _ <<<"$r"
    [ "$res" = FAIL ] || continue
    echo "----- $name (last 20 lines) -----"
    tail -n 20 "$logdir/$name.log"
  done
  exit 1
fi
rm -rf "$logdir"
exit 0
