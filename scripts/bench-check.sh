#!/usr/bin/env bash
# Benchmark of `kcs check` (not a test): 1,000 Markdown files of ten kcs
# blocks each, checked with --jobs 1 and --jobs 2, best of --runs runs.
#
#   scripts/bench-check.sh [--files 1000] [--runs 3] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
files=1000 runs=3 build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --files) files="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "usage: $0 [--files N] [--runs N] [--no-build]" >&2; exit 64 ;;
    esac
done
scratch="${KCS_BENCH_BUILD:-/tmp/build-bench}"
dir="${KCS_BENCH_DIR:-/tmp/kcs-bench}/check-$files"
if [ "$build" = 1 ]; then
    echo "building kcs (release) into $scratch ..."
    "$(dirname "$0")/release-build.sh" "$scratch" 2>&1 | tail -1
fi
kcs="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/kcs"

if [ ! -d "$dir" ]; then
    echo "generating $files Markdown files of ten blocks into $dir ..."
    python3 - "$dir" "$files" <<'PY'
import os, sys
out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)
for f in range(n):
    parts = [f"# Page {f}\n\nA page of the generated guide.\n"]
    parts.append("```kcs\nteam SKMME9E2Y8\napp com.example.One\napp com.example.Two\n"
                 "group com.example.Shared One Two\n```\n")
    for b in range(9):
        acct = f"user{f}-{b}"
        parts.append(f"Step {b}.\n\n```kcs\nas One add generic-password service=\"s\" account=\"{acct}\" data=\"d{b}\"\n"
                     f"expect status errSecSuccess\nas Two find generic-password service=\"s\" account=\"{acct}\" return=data\n"
                     f"expect data \"d{b}\"\n```\n\n```output\nOne add generic-password → errSecSuccess (0)\n"
                     f"Two find generic-password → errSecSuccess (0), 1 item\n```\n")
    with open(os.path.join(out, f"page{f:04d}.md"), "w") as fh:
        fh.write("\n".join(parts))
PY
fi

best() {  # best wall time of $runs runs of: kcs check --jobs $1
    local best=""
    for _ in $(seq "$runs"); do
        local start end t
        start=$(date +%s.%N)
        "$kcs" check --jobs "$1" "$dir" > /tmp/kcs-bench-check.out 2>&1 || { echo "check failed:"; tail -20 /tmp/kcs-bench-check.out; exit 1; }
        end=$(date +%s.%N)
        t=$(python3 -c "print(f'{$end - $start:.3f}')")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $t < $best else 1)"; then best=$t; fi
    done
    echo "$best"
}
echo "machine: $(nproc) cores; $(tail -1 /tmp/kcs-bench-check.out 2>/dev/null || true)"
one=$(best 1)
two=$(best 2)
echo "result: $(tail -1 /tmp/kcs-bench-check.out)"
printf "%-8s %-10s %-12s\n" jobs "wall best" "files/s"
printf "%-8s %-10s %-12s\n" 1 "${one} s" "$(python3 -c "print(int($files / $one))")"
printf "%-8s %-10s %-12s\n" 2 "${two} s" "$(python3 -c "print(int($files / $two))")"
echo "speed-up with --jobs 2: $(python3 -c "print(f'{$one / $two:.2f}x')")"
