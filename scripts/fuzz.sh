#!/usr/bin/env bash
# Builds every cargo-fuzz target of rust-core/fuzz and runs each for a bounded time.
# Usage: bash scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 10; CI uses 10, run longer by hand)
# Installs cargo-fuzz into .tools/ on first use. Exits non-zero if a target fails to build or
# finds a crash (the reproducer lands in rust-core/fuzz/artifacts/<target>/).
set -euo pipefail

SECONDS_PER_TARGET="${1:-10}"
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$REPO/.tools"
FUZZ_DIR="$REPO/rust-core/fuzz"

if ! [[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number, got '$SECONDS_PER_TARGET'" >&2
  exit 2
fi

if [ -x "$TOOLS/bin/cargo-fuzz" ]; then
  echo "fuzz.sh: using $TOOLS/bin/cargo-fuzz"
else
  echo "fuzz.sh: installing cargo-fuzz into $TOOLS (one-off, a few minutes)"
  cargo install cargo-fuzz --root "$TOOLS"
fi
export PATH="$TOOLS/bin:$PATH"

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing the nightly toolchain (cargo-fuzz needs it)"
  rustup toolchain install nightly --profile minimal
fi

cd "$FUZZ_DIR"
TARGETS="$(cargo +nightly fuzz list)"
echo "fuzz.sh: targets: $(echo "$TARGETS" | tr '\n' ' ')"
echo "fuzz.sh: building all targets"
cargo +nightly fuzz build

for target in $TARGETS; do
  mkdir -p "corpus/$target"
  echo "fuzz.sh: running $target for ${SECONDS_PER_TARGET}s"
  # -max_total_time bounds the run; a crash makes cargo fuzz exit non-zero.
  log="$(mktemp)"
  status=0
  cargo +nightly fuzz run "$target" "corpus/$target" -- \
    -max_total_time="$SECONDS_PER_TARGET" -max_len=4096 -print_final_stats=1 >"$log" 2>&1 || status=$?
  grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$log" | sed "s/^/  /" || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$log" >&2
    rm -f "$log"
    echo "fuzz.sh: $target FAILED (exit $status); reproducer in rust-core/fuzz/artifacts/$target/" >&2
    exit 1
  fi
  rm -f "$log"
  echo "fuzz.sh: $target ok"
done
echo "fuzz.sh: all targets ran ${SECONDS_PER_TARGET}s without a crash"
