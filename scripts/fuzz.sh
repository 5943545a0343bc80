#!/usr/bin/env bash
# Fuzzes kcs with libFuzzer: one target per way input gets in.
#
#   scripts/fuzz.sh [--large] [TARGET|all] [SECONDS]   fuzz (default: all, 60 s each)
#   scripts/fuzz.sh --build [TARGET|all]               compile only
#   scripts/fuzz.sh --list                             name the targets
#
# Targets (fuzz/targets/NAME.swift): language (scripts with includes from an
# in-memory loader), lint, entitlements (plist XML, binary plist, profiles,
# codesign output), markdown (kcs check and --update, in memory), export
# (kcs export --swift, output checked for injection), formats (JSON, JUnit,
# TAP and GitHub annotations, each parsed back) and secitem (KCSSecItem's
# dictionary API). Each runs SECONDS in turn.
#
# --large feeds inputs up to 1 MiB (-max_len, -len_control=0) with a short
# per-input time limit (KCS_FUZZ_LARGE_TIMEOUT, default 10 s), seeded with
# big inputs built from the normal seeds: anything super-linear times out.
#
# Everything is written under KCS_FUZZ_DIR (default /tmp/kcs-fuzz), never
# into the repository: compiled libraries (rebuilt only when a source
# changes; build once with --build before running targets side by side),
# the dictionary and seeds generated from the language's tables,
# corpus/TARGET (kept between runs), artifacts/TARGET (crash-, timeout-,
# oom- inputs) and logs/TARGET.log. Exits 1 if any target found something,
# after printing the reason and each new input in base64 (a CI log is all
# that is left of a CI machine).
#
# Environment: SWIFTC (default /opt/swift/usr/bin/swiftc if present, else
# swiftc), KCS_FUZZ_DIR, KCS_FUZZ_JOBS (parallel processes per target,
# default 1), KCS_FUZZ_ARGS (extra libFuzzer flags, e.g. "-fork=1
# -ignore_crashes=1" to keep going after a finding).
set -euo pipefail
# Swift's own crash backtracer reads memory ASan watches: leave crashes to ASan.
export SWIFT_BACKTRACE=enable=no
# Foundation and the regex library keep allocations for good (caches, a
# CFError on some malformed property lists): not ours, and leak reports
# would stop every run. Memory that grows per input shows as an oom instead.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

# The help is the comment at the top, however long it grows.
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
root="$(cd "$(dirname "$0")/.." && pwd)"
all_targets=()
for f in "$root"/fuzz/targets/*.swift; do all_targets+=("$(basename "$f" .swift)"); done

large=0 build_only=0 target=all seconds=60
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --list) printf '%s\n' "${all_targets[@]}"; exit 0 ;;
        --large) large=1 ;;
        --build) build_only=1 ;;
        ''|*[!0-9]*)
            if [ "$1" != all ] && [ ! -f "$root/fuzz/targets/$1.swift" ]; then
                echo "fuzz.sh: no target '$1' (targets: ${all_targets[*]})" >&2; exit 64
            fi
            target="$1" ;;
        *) seconds="$1" ;;
    esac
    shift
done
targets=("${all_targets[@]}")
[ "$target" = all ] || targets=("$target")

work="${KCS_FUZZ_DIR:-/tmp/kcs-fuzz}"
jobs="${KCS_FUZZ_JOBS:-1}"
if [ -z "${SWIFTC:-}" ]; then
    if [ -x /opt/swift/usr/bin/swiftc ]; then SWIFTC=/opt/swift/usr/bin/swiftc; else SWIFTC=swiftc; fi
fi
mkdir -p "$work/obj" "$work/bin"

# --- Compile -----------------------------------------------------------------
# Each library is its own module (the sources say `import KeychainEngine`),
# built with coverage instrumentation and ASan; each target links them.
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name kcs)
fingerprint() { { "$SWIFTC" --version 2>&1; echo "${flags[*]}"; cat "$@"; } | sha1sum | cut -c1-40; }

build_library() { # NAME DEPENDENCY...
    local name="$1" stamp dep deps=()
    shift
    for dep in "$@"; do deps+=("$work/obj/$dep.stamp"); done
    stamp="$(fingerprint "$root/Sources/$name"/*.swift "${deps[@]}")"
    if [ "$(cat "$work/obj/$name.stamp" 2>/dev/null)" = "$stamp" ]; then return; fi
    echo "fuzz.sh: compiling $name" >&2
    "$SWIFTC" "${flags[@]}" -I "$work/obj" -emit-module -emit-module-path "$work/obj/$name.swiftmodule" \
        -module-name "$name" -emit-library -static -o "$work/obj/lib$name.a" "$root/Sources/$name"/*.swift
    echo "$stamp" > "$work/obj/$name.stamp"
}

build_target() { # NAME [SOURCE]
    local name="$1" source="${2:-$root/fuzz/targets/$1.swift}" stamp
    stamp="$(fingerprint "$root/fuzz/Support.swift" "$source" "$work/obj/"{KeychainEngine,KCSXcodeProject,KCSSyntax,KCSRuntime,KCSLanguage,KCSSecItem}.stamp)"
    if [ "$(cat "$work/bin/$name.stamp" 2>/dev/null)" = "$stamp" ] && [ -x "$work/bin/fuzz-$name" ]; then return; fi
    echo "fuzz.sh: linking fuzz-$name" >&2
    "$SWIFTC" "${flags[@]}" -I "$work/obj" -module-name "Fuzz_$name" "$root/fuzz/Support.swift" "$source" \
        "$work/obj/libKCSSecItem.a" "$work/obj/libKCSLanguage.a" "$work/obj/libKCSRuntime.a" \
        "$work/obj/libKCSSyntax.a" "$work/obj/libKCSXcodeProject.a" \
        "$work/obj/libKeychainEngine.a" \
        -use-ld=lld -o "$work/bin/fuzz-$name"
    echo "$stamp" > "$work/bin/$name.stamp"
}

echo "fuzz.sh: compiling with $SWIFTC into $work" >&2
# A library is rebuilt when its sources or a dependency's stamp change.
# In Package.swift's order of dependency (each after the libraries it imports).
build_library KeychainEngine
build_library KCSSyntax
build_library KCSXcodeProject KeychainEngine KCSSyntax
build_library KCSRuntime KCSSyntax KeychainEngine KCSXcodeProject
build_library KCSLanguage KCSSyntax KCSRuntime KeychainEngine
build_library KCSSecItem KeychainEngine
build_target tables "$root/fuzz/tables.swift"
for t in "${targets[@]}"; do build_target "$t"; done

# --- Dictionary and seeds ----------------------------------------------------
# The dictionary and a script using every statement form come from the
# language's own tables (fuzz/tables.swift), so they cannot drift from it.
# Per invocation, so runs of other targets sharing KCS_FUZZ_DIR keep theirs.
tables="$(mktemp -d "$work/tables.XXXXXX")"
trap 'rm -rf "$tables"' EXIT
KCS_FUZZ_TABLES_OUT="$tables" KCS_FUZZ_ROOT="$root" "$work/bin/fuzz-tables" -runs=0 >/dev/null 2>&1 || true
[ -s "$tables/kcs.dict" ] || { echo "fuzz.sh: the tables tool wrote no dictionary" >&2; exit 1; }

seeds="$work/seeds"
mkdir -p "$seeds"
shopt -s nullglob globstar
markdown_files=("$root"/README.md "$root"/grammar.md "$root"/docs/**/*.md "$root"/examples/**/*.md
                "$root"/Tests/KCSLanguageTests/FuzzFindings/*.md)

# Scripts: every shipped scenario, every kept crash, every kcs block of the
# documentation, and each example bundled with the files it includes or reads
# (`%%% NAME` sections, see fuzz/Support.swift).
kcs_seeds() {
    local out="$1" f n=0 ref dir
    mkdir -p "$out"
    cp "$tables/statements.kcs" "$out/tables-statements.kcs"
    for f in "$root"/examples/**/*.kcs "$root"/Tests/Golden/*.kcs "$root"/Tests/KCSLanguageTests/FuzzCrashes/*.kcs \
             "$root"/Tests/KCSLanguageTests/FuzzFindings/*.kcs "$root"/fuzz/seeds/*.kcs; do
        dir="$(dirname "$f")"
        {
            cat "$f"
            { grep -oE '(include |entitlements=)"[^"]+"' "$f" || true; } | sed -E 's/.*"([^"]+)"/\1/' | while read -r ref; do
                [ -f "$dir/$ref" ] || continue
                printf '\n%%%%%% %s\n' "$ref"
                cat "$dir/$ref"
            done
        } > "$out/$(echo "${f#"$root"/}" | tr / _)"
    done
    for f in "${markdown_files[@]}"; do
        awk -v out="$out/doc-$(echo "${f#"$root"/}" | tr / _)" '
            /^ *```+ *kcs/ { inblock = 1; n++; next }
            /^ *```/ && inblock { inblock = 0; next }
            inblock { print > (out "-" n ".kcs") }' "$f"
    done
}

for t in "${targets[@]}"; do
    s="$seeds/$t"
    rm -rf "$s" "$s-large" && mkdir -p "$s"
    case "$t" in
        language|lint|export) kcs_seeds "$s" ;;
        formats) kcs_seeds "$s"; for f in "${markdown_files[@]}"; do cp "$f" "$s/md-$(echo "${f#"$root"/}" | tr / _)"; done ;;
        markdown) for f in "${markdown_files[@]}"; do cp "$f" "$s/$(echo "${f#"$root"/}" | tr / _)"; done ;;
        entitlements)
            for f in "$root"/examples/entitlements/* "$root"/examples/lint/*.entitlements "$root"/fuzz/seeds/*.plist \
                     "$root"/Tests/KCSLanguageTests/FuzzFindings/entitlements-*; do
                cp "$f" "$s/$(basename "$f")"
                # codesign's blob form: magic 0xfade7171 and a big-endian length in front.
                len=$(( $(wc -c < "$f") + 8 ))
                { printf '\xfa\xde\x71\x71'; printf "\\x$(printf %02x $((len >> 24 & 255)))\\x$(printf %02x $((len >> 16 & 255)))\\x$(printf %02x $((len >> 8 & 255)))\\x$(printf %02x $((len & 255)))"; cat "$f"; } > "$s/blob-$(basename "$f")"
            done
            cp "$tables"/*.bplist "$s/" 2>/dev/null || true ;;
    esac
done

# The generated statements.kcs uses every statement form; say which forms
# no shipped example or documentation block uses (those seeds matter more).
if [ -d "$seeds/language" ]; then
    unused=()
    while read -r keyword; do
        grep -aqE "^(on [^ ]+ )?$keyword( |\$)" "$seeds/language"/{examples,Tests,doc}* 2>/dev/null || unused+=("$keyword")
    done < "$tables/keywords.txt"
    [ ${#unused[@]} -eq 0 ] || echo "fuzz.sh: only the generated seed uses: ${unused[*]}" >&2
fi

if [ "$build_only" = 1 ]; then echo "fuzz.sh: built ${targets[*]} in $work/bin" >&2; exit 0; fi

# --- Large inputs ------------------------------------------------------------
# Big seeds: each target's seeds concatenated, repeated past 256, 512 and
# 768 KiB (under 1 MiB), so the fuzzer starts where an n² costs seconds.
if [ "$large" = 1 ]; then
    for t in "${targets[@]}"; do
        s="$seeds/$t" big="$seeds/$t-large"
        mkdir -p "$big"
        files=("$s"/*)
        [ ${#files[@]} -gt 0 ] || continue
        for i in 1 2 3; do
            : > "$big/large-$i"
            while [ "$(wc -c < "$big/large-$i")" -lt $((256 * 1024 * i)) ]; do
                cat "${files[@]}" | head -c $((256 * 1024 * i)) >> "$big/large-$i"
            done
        done
    done
fi

# --- Fuzz --------------------------------------------------------------------
status=0
found=() found_inputs=() found_logs=()
mkdir -p "$work/logs"
for t in "${targets[@]}"; do
    suffix=""; [ "$large" = 1 ] && suffix="-large"
    corpus="$work/corpus$suffix/$t" artifacts="$work/artifacts$suffix/$t"
    mkdir -p "$corpus" "$artifacts"
    seed_dirs=("$seeds/$t")
    # 20 s for at most 4 KiB: a hang, even on a machine busy with builds.
    limits=(-timeout=20 -rss_limit_mb=2048 -max_len=4096)
    if [ "$large" = 1 ]; then
        seed_dirs+=("$seeds/$t-large")
        limits=(-timeout="${KCS_FUZZ_LARGE_TIMEOUT:-10}" -rss_limit_mb=3072 -max_len=1048576 -len_control=0)
    fi
    echo "fuzz.sh: $t for ${seconds}s$([ "$large" = 1 ] && echo " (large inputs)"); corpus $corpus, artifacts $artifacts" >&2
    # With -jobs libFuzzer writes fuzz-N.log into the working directory: run there.
    parallel=()
    if [ "$jobs" -gt 1 ]; then parallel=(-jobs="$jobs" -workers="$jobs"); fi
    before="$(ls "$artifacts")"
    log="$work/logs/$t$suffix.log"
    rc=0
    # shellcheck disable=SC2086
    (cd "$work" && "$work/bin/fuzz-$t" "$corpus" "${seed_dirs[@]}" -dict="$tables/kcs.dict" \
        -max_total_time="$seconds" "${limits[@]}" -print_final_stats=1 "${parallel[@]}" \
        -artifact_prefix="$artifacts/" ${KCS_FUZZ_ARGS:-}) 2>&1 | tee "$log" >&2 || rc=$?
    # A slow unit (past libFuzzer's 10 s report, within -timeout) is no
    # finding: a loaded machine made one of an input that runs in 0.3 s.
    new="$(comm -13 <(echo "$before") <(ls "$artifacts") | grep -v '^slow-unit-' || true)"
    if [ "$rc" -ne 0 ] || [ -n "$new" ]; then
        status=1
        found+=("$t")
        found_logs+=("$log")
        while read -r a; do [ -n "$a" ] && found_inputs+=("$artifacts/$a"); done <<< "$new"
    fi
done
if [ "$status" -ne 0 ]; then
    echo "fuzz.sh: findings in: ${found[*]}; inputs are under $work/artifacts*/" >&2
    # A CI machine keeps only its log, whose end is what gets read: the
    # reason and every new input go last (base64, the first 64 KiB; decode
    # with `base64 -d > input` and reproduce with bin/fuzz-TARGET input).
    for l in "${found_logs[@]}"; do
        grep -aE "kcs fuzz oracle failed|^SUMMARY|ERROR: libFuzzer|Fatal error" "$l" | head -5 | sed "s|^|fuzz.sh: $(basename "$l" .log): |" >&2
    done
    for f in "${found_inputs[@]}"; do
        echo "fuzz.sh: $(basename "$(dirname "$f")")/$(basename "$f") ($(wc -c < "$f") bytes), base64:" >&2
        head -c 65536 "$f" | base64 -w 0 >&2
        echo >&2
    done
    exit 1
fi
echo "fuzz.sh: no finding in ${targets[*]} (${seconds}s each)" >&2
