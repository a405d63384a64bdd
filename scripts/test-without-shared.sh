#!/usr/bin/env bash
# A fresh clone without the shared data: runs a representative subset of the test binaries that
# read it (corpus, Dynamatic's 2024 files and 2025 suite, in every crate) with HSIR_SHARED
# pointing at a folder that does not exist, and checks that each passes and says it skipped.
# .ci/run runs it; it is also what a contributor without ../shared sees.
set -euo pipefail
cd "$(dirname "$0")/.."

nowhere="$(mktemp -d)/no-shared-here"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
export HSIR_SHARED="$nowhere" HSIR_REQUIRE_SHARED=0

# crate, then its test binaries.
runs=(
  "hsir-parser corpus"
  "hsir-analysis corpus oracle ide_symbols single_use_fixes"
  "hsir-backend corpus sim_semantics sim_ftd suite_testbench"
  "hsir cli_cosim cli_placement_suite lsp_session"
)
status=0
for run in "${runs[@]}"; do
  read -r crate tests <<<"$run"
  args=()
  for t in $tests; do args+=(--test "$t"); done
  if ! cargo test -q -p "$crate" "${args[@]}" -- --nocapture >"$log" 2>&1; then
    echo "FAIL: without the shared data, cargo test -p $crate ${args[*]} failed:" >&2
    tail -n 40 "$log" >&2
    status=1
    continue
  fi
  skipped=$(grep -c "skipped: the shared test data" "$log" || true)
  if [ "$skipped" -eq 0 ]; then
    echo "FAIL: cargo test -p $crate ${args[*]} passed without the shared data but said nothing was skipped" >&2
    status=1
  else
    echo "ok: cargo test -p $crate ${args[*]}: passed, $skipped skipped for want of the shared data"
  fi
done
exit $status
