#!/usr/bin/env bash
# Fuzzes the kcs lexer, parser and evaluator with libFuzzer.
#
#   scripts/fuzz.sh [SECONDS]        (default 60)
#
# Compiles Sources/KeychainEngine, Sources/KCSLanguage and fuzz/FuzzEntry.swift
# with `swiftc -sanitize=fuzzer,address` into KCS_FUZZ_DIR (default
# /tmp/kcs-fuzz; never the repository), seeds a corpus from examples/*.kcs,
# Tests/Golden/*.kcs and Tests/KCSLanguageTests/FuzzCrashes/*.kcs, and runs
# the fuzzer for SECONDS. New corpus entries stay in KCS_FUZZ_DIR/corpus, so a
# second run continues where the first stopped. Crash, leak and timeout inputs
# are written to KCS_FUZZ_DIR/artifacts; keep each as a .kcs regression file
# in Tests/KCSLanguageTests/FuzzCrashes/. Exits 1 if the fuzzer found one.
#
# Environment: SWIFTC (default /opt/swift/usr/bin/swiftc if present, else
# swiftc), KCS_FUZZ_DIR, KCS_FUZZ_JOBS (parallel fuzzing processes, default 1),
# KCS_FUZZ_ARGS (extra libFuzzer flags).
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, got '$seconds'" >&2; exit 64 ;;
esac

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${KCS_FUZZ_DIR:-/tmp/kcs-fuzz}"
jobs="${KCS_FUZZ_JOBS:-1}"
if [ -z "${SWIFTC:-}" ]; then
    if [ -x /opt/swift/usr/bin/swiftc ]; then SWIFTC=/opt/swift/usr/bin/swiftc; else SWIFTC=swiftc; fi
fi
mkdir -p "$work/obj" "$work/corpus" "$work/artifacts"

# Each library is its own module (the sources say `import KeychainEngine`),
# built with coverage instrumentation and ASan; the entry point links them.
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -enable-testing)
echo "fuzz.sh: compiling with $SWIFTC" >&2
"$SWIFTC" "${flags[@]}" -emit-module -emit-module-path "$work/obj/KeychainEngine.swiftmodule" \
    -module-name KeychainEngine -emit-library -static -o "$work/obj/libKeychainEngine.a" \
    "$root"/Sources/KeychainEngine/*.swift
"$SWIFTC" "${flags[@]}" -I "$work/obj" -emit-module -emit-module-path "$work/obj/KCSLanguage.swiftmodule" \
    -module-name KCSLanguage -emit-library -static -o "$work/obj/libKCSLanguage.a" \
    "$root"/Sources/KCSLanguage/*.swift
"$SWIFTC" "${flags[@]}" -I "$work/obj" -module-name FuzzKCS \
    "$root/fuzz/FuzzEntry.swift" "$work/obj/libKCSLanguage.a" "$work/obj/libKeychainEngine.a" \
    -use-ld=lld -o "$work/fuzz-kcs"

# Seeds: every shipped scenario and every crash kept so far.
shopt -s nullglob
for f in "$root"/examples/*.kcs "$root"/Tests/Golden/*.kcs "$root"/Tests/KCSLanguageTests/FuzzCrashes/*.kcs; do
    cp "$f" "$work/corpus/seed-$(basename "$f")"
done

echo "fuzz.sh: fuzzing for ${seconds}s ($jobs job(s)); corpus $work/corpus, artifacts $work/artifacts" >&2
# With -jobs libFuzzer writes fuzz-N.log into the working directory: run there.
parallel=()
if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); cd "$work"; fi
status=0
# shellcheck disable=SC2086
"$work/fuzz-kcs" "$work/corpus" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=4096 \
    -print_final_stats=1 "${parallel[@]}" \
    -artifact_prefix="$work/artifacts/" ${KCS_FUZZ_ARGS:-} || status=$?
if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: the fuzzer stopped with status $status; inputs are in $work/artifacts" >&2
    exit 1
fi
echo "fuzz.sh: no crash in ${seconds}s" >&2
