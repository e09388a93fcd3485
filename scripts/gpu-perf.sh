#!/usr/bin/env bash
# GPU run-time benchmark: bench/gpu-perf/perf.cu built by nvcc with the real cicc and with ptxd as its cicc, both
# run on one GPU. Never part of CI (it needs a GPU to run; building needs nvcc only).
#
#   scripts/gpu-perf.sh build DIR     here: DIR/perf_cicc and DIR/perf_ptxd (nvcc -O3 -arch=sm_90; ptxd with
#                                     PTXD_FALLBACK=never, so a unit ptxd cannot compile fails the build)
#   scripts/gpu-perf.sh run DIR       on the GPU machine (bash and the driver only): ROUNDS (default 3) rounds, each
#                                     running both executables in turn; prints per kernel the median time of each and
#                                     the ratio ptxd / cicc, and whether both builds computed the same checksums
#                                     (a float sum through atomics depends on the order blocks run in: its checksum
#                                     may differ between runs of either build; the host check decides).
#                                     GPU_PERF_BUDGET (seconds, default none): a round starts only when it should
#                                     end within that time, judged by the rounds before (the first always runs); GPU_PERF_TIMEOUT (seconds, default 300) bounds each
#                                     executable's run; GPU_PERF_LOGS=DIR keeps every run's output there.
# Exit status of run: 0 when every kernel of both builds passed its host check, 1 otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
step=${1:-}
dir=${2:-}
[ -n "$step" ] && [ -n "$dir" ] || { echo "usage: $0 build|run DIR" >&2; exit 2; }
arch=${GPU_PERF_ARCH:-sm_90}

case "$step" in
  build)
    mkdir -p "$dir" || exit 2
    src="$root/bench/gpu-perf/perf.cu"
    nvcc -O3 -std=c++17 -arch="$arch" -o "$dir/perf_cicc" "$src" || exit 1
    PTXD_FALLBACK=never PTXD_DAEMON=0 nvcc -O3 -std=c++17 -arch="$arch" --cicc-prefix="$root/bin/ptxd-cicc" -o "$dir/perf_ptxd" "$src" || exit 1
    echo "gpu-perf: built $dir/perf_cicc and $dir/perf_ptxd ($arch)"
    ;;
  run)
    rounds=${ROUNDS:-3}
    budget=${GPU_PERF_BUDGET:-}
    each=${GPU_PERF_TIMEOUT:-300}
    logs=$(mktemp -d "${TMPDIR:-/tmp}/gpu-perf.XXXXXX")
    fail=0
    started=$SECONDS
    ran=0
    for r in $(seq 1 "$rounds"); do
      # a round starts only when it is expected to end within the budget (rounds take about as long as the first)
      if [ "$r" -gt 1 ] && [ -n "$budget" ] && [ $((SECONDS - started + (SECONDS - started) / ran)) -gt "$budget" ]; then
        echo "gpu-perf: time budget of ${budget}s spent: $ran of $rounds rounds run" >&2; break
      fi
      for v in cicc ptxd; do
        if command -v timeout >/dev/null 2>&1; then timeout "$each" "$dir/perf_$v" >"$logs/$v.$r.log" 2>&1; rc=$?; else "$dir/perf_$v" >"$logs/$v.$r.log" 2>&1; rc=$?; fi
        if [ "$rc" -ne 0 ]; then
          fail=1
          [ "$rc" -eq 124 ] && echo "TIMEOUT after ${each}s" >>"$logs/$v.$r.log"
          echo "gpu-perf: perf_$v failed in round $r (exit $rc):" >&2; tail -n 5 "$logs/$v.$r.log" >&2
        fi
      done
      ran=$r
    done
    rounds=$ran
    # median over the rounds of each kernel's time, per build; checksums of the first round
    awk -v rounds="$rounds" '
      function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
      FNR == 1 { split(FILENAME, parts, "/"); split(parts[length(parts)], f, "."); v = f[1]; rd = f[2] }
      $1 == "TIME" { if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } t[v, $2, ++cnt[v, $2]] = $3 }
      $1 == "SUM" && rd == 1 { sum[v, $2] = $3 }
      $1 == "CHECK" && $3 != "ok" { bad[v, $2] = 1 }
      END {
        printf "| kernel | cicc ms | ptxd ms | ptxd / cicc | checksums | checks |\n|---|---:|---:|---:|---|---|\n"
        lg = 0; m = 0
        for (i = 1; i <= n; i++) {
          k = order[i]
          for (j = 1; j <= cnt["cicc", k]; j++) a[j] = t["cicc", k, j]; mc = median(a, cnt["cicc", k])
          for (j = 1; j <= cnt["ptxd", k]; j++) b[j] = t["ptxd", k, j]; mp = median(b, cnt["ptxd", k])
          ratio = mc > 0 ? mp / mc : 0
          if (ratio > 0) { lg += log(ratio); m++ }
          if (ratio > worst) { worst = ratio; worstk = k }
          printf "| %s | %.4f | %.4f | %.3f | %s | %s |\n", k, mc, mp, ratio, (sum["cicc", k] == sum["ptxd", k] ? "equal" : "differ (" sum["cicc", k] " vs " sum["ptxd", k] ")"), ((("cicc", k) in bad) || (("ptxd", k) in bad) ? "FAIL" : "ok")
        }
        if (m) printf "\ngeometric mean of ptxd / cicc over %d kernels: %.3f (%d rounds); highest %.3f (%s)\n", m, exp(lg / m), rounds, worst, worstk
      }' "$logs"/*.log
    gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
    echo "gpu-perf: ${gpu:-GPU unknown}"
    grep -h "CHECK .* FAIL" "$logs"/*.log | sort -u
    grep -q "CHECK .* FAIL" "$logs"/*.log && fail=1
    if [ -n "${GPU_PERF_LOGS:-}" ]; then mkdir -p "$GPU_PERF_LOGS" && cp "$logs"/*.log "$GPU_PERF_LOGS"/; fi
    rm -rf "$logs"
    exit "$fail"
    ;;
  *) echo "usage: $0 build|run DIR" >&2; exit 2 ;;
esac
