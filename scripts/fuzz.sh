#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, docs/fuzzing.md) with clang-19,
# AddressSanitizer and UndefinedBehaviorSanitizer into build-fuzz/, makes
# their seed corpora from examples/ and the tests, and runs each target for
# a set time, one after another, at nice 19. Not part of CI.
#
#   bash scripts/fuzz.sh                    # every target, 60 s each
#   bash scripts/fuzz.sh -t 600 hlo flags   # two targets, 10 minutes each
#   bash scripts/fuzz.sh --build-only
#
# Targets: hlo mlir target flags events executable lowering. What each run
# found stays in build-fuzz/fuzz/: corpus/T (inputs that reached new code,
# kept for the next run), crashes/T (inputs that crashed: replay one with
# build-fuzz/bin/tessera-fuzz-T FILE), logs/T.log. The summary prints runs,
# executions per second and crashes per target; the exit is non-zero when
# any target crashed.
#
# Event-file and executable seeds are written by the plain build's tools
# (build/bin, built first), or by those in $TESSERA_SEED_BIN when set.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fuzzbuild=${TESSERA_FUZZ_BUILD_DIR:-$root/build-fuzz}
all=(hlo mlir target flags events executable lowering)
seconds=60
build_only=0
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -t) seconds=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) [[ " ${all[*]} " == *" $1 "* ]] || { echo "fuzz.sh: unknown target '$1' (${all[*]})" >&2; exit 2; }
       targets+=("$1"); shift ;;
  esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")

bash "$root/scripts/setup.sh" --fuzz
TESSERA_BUILD_DIR="$fuzzbuild" \
  TESSERA_CMAKE_ARGS="-DTESSERA_FUZZ=ON -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19" \
  nice -n 19 bash "$root/scripts/build.sh" tessera-fuzzers
[[ $build_only -eq 0 ]] || exit 0

out=$fuzzbuild/fuzz
seeds=$out/seeds
rm -rf "$seeds"
mkdir -p "$seeds" "$out/logs"
for t in "${all[@]}"; do mkdir -p "$seeds/$t" "$out/corpus/$t" "$out/crashes/$t"; done

# Seeds from the repository: examples, test inputs, and the files that
# lit tests keep inline (split-file sections).
split=$(mktemp -d)
trap 'rm -rf "$split"' EXIT
n=0
while IFS= read -r test; do
  n=$((n + 1))
  /usr/lib/llvm-19/bin/split-file "$test" "$split/$n" 2>/dev/null || true
done < <(grep -rlE '^(#|//)--- ' "$root/test" || true)
copy() { # copy DEST FILE... (name made unique by a counter)
  local dest=$1; shift
  local f
  for f in "$@"; do
    [[ -f "$f" && $(stat -c %s "$f") -le 65536 ]] || continue
    cp "$f" "$seeds/$dest/$(find "$seeds/$dest" -type f | wc -l)-$(basename "$f")"
  done
}
mapfile -t hlo < <(find "$root/examples" "$root/test" "$split" -name '*.hlo')
mapfile -t mlir < <(find "$root/examples" "$root/test" "$split" -name '*.mlir' -not -path '*/BadInput/*')
mapfile -t json < <(find "$root/lib/Target/presets" "$root/test/Run/Inputs" "$split" -name '*.json')
copy hlo "${hlo[@]}"
copy lowering "${hlo[@]}" "${mlir[@]}"
# Small generated models that import, compile and run: blocks of every
# kind the benchmarks use, for the lowering target to mutate.
for mix in transformer conv mixed; do
  python3 "$root/bench/gen_hlo.py" --ops 40 --mix $mix --width 8 --seq 4 \
    --image 2 -o "$seeds/lowering/gen-$mix.hlo" > /dev/null 2>&1
done
copy mlir "${mlir[@]}"
copy target "${json[@]}"
copy flags "$root"/fuzz/seeds/flags/*

# Event files and executables, written by the tools from the examples
# (only when those targets run: the tools need the plain build).
if [[ " ${targets[*]} " == *" events "* || " ${targets[*]} " == *" executable "* ]]; then
  bin=${TESSERA_SEED_BIN:-}
  if [[ -z "$bin" ]]; then
    nice -n 19 bash "$root/scripts/build.sh" tessera-compile tessera-run
    bin=${TESSERA_BUILD_DIR:-$root/build}/bin
  fi
  work=$split/tools
  mkdir -p "$work"
  for model in "$root/examples/mlp.hlo" "$root/examples/cnn.hlo"; do
    stem=$(basename "$model" .hlo)
    (cd "$work" && "$bin/tessera-compile" "$model" -o "$stem.tessera" --profiling \
        --events="$stem.events" >/dev/null 2>&1 &&
      "$bin/tessera-run" "$stem.tessera" --runs=2 --profiling \
        --events="$stem.events" >/dev/null 2>&1) || {
      echo "fuzz.sh: the tools in $bin could not compile and run $model" >&2; exit 1; }
    cp "$work/$stem.events" "$seeds/events/"
    cp "$work/$stem.tessera" "$seeds/executable/"
    # The payload alone: the target wraps it in a valid header, so mutations
    # reach the loader rather than the checksum.
    tail -c +33 "$work/$stem.tessera" > "$seeds/executable/$stem.payload"
  done
fi

# One target at a time (the machine's cores are shared), at nice 19.
failed=0
printf '%-11s %8s %10s %8s %8s %8s\n' target seconds runs exec/s corpus crashes
for t in "${targets[@]}"; do
  dict=()
  # lowering reads HLO text too.
  name=$t; [[ $t == lowering ]] && name=hlo
  [[ -f "$root/fuzz/dict/$name.dict" ]] && dict=(-dict="$root/fuzz/dict/$name.dict")
  log=$out/logs/$t.log
  start=$(date +%s)
  status=0
  nice -n 19 "$fuzzbuild/bin/tessera-fuzz-$t" "$out/corpus/$t" "$seeds/$t" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 \
    -malloc_limit_mb=3072 -print_final_stats=1 "${dict[@]}" \
    -artifact_prefix="$out/crashes/$t/" >"$log" 2>&1 || status=$?
  elapsed=$(($(date +%s) - start))
  # The last report (a crash at exit can print the statistics twice).
  runs=$(awk '/stat::number_of_executed_units/ {v = $2} END {print v}' "$log")
  rate=$(awk '/stat::average_exec_per_sec/ {v = $2} END {print v}' "$log")
  # libFuzzer also keeps inputs that ran over 10 s there (slow-unit-*):
  # worth a look, not failures.
  crashes=$(find "$out/crashes/$t" -type f -newer "$out/seeds" \
    -not -name 'slow-unit-*' | wc -l)
  printf '%-11s %8s %10s %8s %8s %8s\n' "$t" "$elapsed" "${runs:-?}" "${rate:-?}" \
    "$(find "$out/corpus/$t" -type f | wc -l)" "$crashes"
  if [[ $status -ne 0 || $crashes -gt 0 ]]; then
    failed=1
    grep -m1 -E 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error|property failed' "$log" >&2 || true
    echo "  see $log" >&2
  fi
done
exit $failed
