#!/usr/bin/env bash
# Benchmark of `kcs run` on large generated scenarios (not a test).
#
#   scripts/bench.sh [--workload 200000] [--sizes 400000,1000000] [--runs 3]
#                    [--finds 100000] [--hidden 200000] [--no-build] [--lint]
#                    [--startup 300]
#
# Start-up first: `kcs run` of a small shipped example, --startup times
# (0 skips it) under hyperfine (installed when missing), beside /bin/true,
# the floor of starting any process: median, best and mean wall time, and
# the page faults of one run.
# Then the judged figure: ../shared/bench/gen_workload.py writes one
# scenario of --workload calls as work.kcs and as work.lua (a minimal Lua 5.4
# model of the same rules; lua5.4 is installed when missing). Both run --runs times,
# alternating, and the script prints each one's median wall and CPU time,
# peak memory, and the ratio kcs/Lua (on CPU time, which machine load
# disturbs less than wall time), always with lint on, as `kcs run` runs by
# default (--lint applies to the sections after it);
# then kcs's phase split (kcs-bench --phases: lexing, parsing, engine calls
# in process; lint and session glue as the rest). --workload 0 skips it.
#
# Builds kcs in release mode into its own scratch path (KCS_BENCH_BUILD,
# default /tmp/build-bench; never the repository's .build), generates the
# scenarios with scripts/gen-bench.py into KCS_BENCH_DIR (default
# /tmp/kcs-bench), runs each one --runs times and prints wall time (median
# and best), statements/s, calls/s and peak resident memory. Every run must
# exit 0; otherwise the first failures are shown and the script exits 1.
#
# Then the isolation measurement: finds by an app with few visible items
# while another app's private group holds 0 and then --hidden items; the
# per-call cost is (best run with the finds - best run without them) / finds
# (--finds 0 skips it).
set -euo pipefail

workload=200000
sizes="400000,1000000"
runs=3
finds=100000
hidden=200000
build=1
lint="--no-lint"   # lint has a cost of its own; --lint measures with it
startup=300
while [ $# -gt 0 ]; do
    case "$1" in
        --workload) workload="$2"; shift 2 ;;
        --sizes) sizes="$2"; shift 2 ;;
        --sizes=*) sizes="${1#*=}"; shift ;;
        --runs) runs="$2"; shift 2 ;;
        --finds) finds="$2"; shift 2 ;;
        --hidden) hidden="$2"; shift 2 ;;
        --no-build) build=0; shift ;;
        --lint) lint=""; shift ;;
        --startup) startup="$2"; shift 2 ;;
        -h|--help) sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench.sh: unknown argument $1 (try --help)" >&2; exit 64 ;;
    esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${KCS_BENCH_BUILD:-/tmp/build-bench}"
work="${KCS_BENCH_DIR:-/tmp/kcs-bench}"
gen="$root/scripts/gen-bench.py"
mkdir -p "$work"
cd "$root"

if [ "$build" = 1 ]; then
    echo "building kcs (release) into $scratch ..."
    if ! scripts/release-build.sh "$scratch" >"$work/build.log" 2>&1; then
        tail -n 20 "$work/build.log" >&2
        echo "bench.sh: release build failed (log: $work/build.log)" >&2
        exit 1
    fi
    tail -n 1 "$work/build.log"
fi
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/kcs"
[ -x "$bin" ] || { echo "bench.sh: no kcs binary at $bin (run without --no-build)" >&2; exit 1; }

have_time=0
if /usr/bin/time -f %M true >/dev/null 2>&1; then have_time=1; fi

# generate FILE ARGS...: (re)generates FILE unless it is newer than the generator.
generate() {
    local file="$1"; shift
    if [ ! -s "$file" ] || [ ! -s "$file.json" ] || [ "$gen" -nt "$file" ]; then
        python3 "$gen" "$@" "$file"
    fi
}

# measure FILE: runs kcs once; sets wall (seconds), rss (KB), rc.
measure() {
    local file="$1" t0 t1
    t0=$(date +%s%N)
    if [ "$have_time" = 1 ]; then
        set +e
        /usr/bin/time -f %M -o "$work/rss" "$bin" run $lint "$file" >"$work/out" 2>"$work/err"
        rc=$?
        set -e
        t1=$(date +%s%N)
        rss=$(tail -n 1 "$work/rss")
    else
        set +e
        rss=$(python3 -c '
import resource, subprocess, sys
with open(sys.argv[3], "w") as o, open(sys.argv[4], "w") as e:
    rc = subprocess.call([sys.argv[1], "run"] + sys.argv[5:] + [sys.argv[2]], stdout=o, stderr=e)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$bin" "$file" "$work/out" "$work/err" $lint)
        rc=$?
        set -e
        t1=$(date +%s%N)
    fi
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
}

# bench FILE: runs it $runs times; sets med, best, peak; fails loudly on rc != 0.
bench() {
    local file="$1" walls="" i
    peak=0
    for ((i = 0; i < runs; i++)); do
        measure "$file"
        if [ "$rc" != 0 ]; then
            echo >&2
            echo "bench.sh: kcs run $file exited $rc; first failures:" >&2
            head -n 40 "$work/err" >&2
            exit 1
        fi
        walls="$walls $wall"
        [ "$rss" -gt "$peak" ] && peak=$rss
    done
    med=$(echo $walls | tr ' ' '\n' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    best=$(echo $walls | tr ' ' '\n' | sort -g | head -n 1)
}

meta() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1.json" "$2"; }

# cpu_of CMD...: runs it once; sets wall and cpu (seconds), rss (KB), rc.
cpu_of() {
    local t0 t1
    t0=$(date +%s%N)
    set +e
    /usr/bin/time -f "%U %S %M" -o "$work/time" "$@" >"$work/out" 2>"$work/err"
    rc=$?
    set -e
    t1=$(date +%s%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    read -r u s rss < <(tail -n 1 "$work/time")
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.3f", u + s }')
}
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

if [ "$startup" != 0 ]; then
    "$root/scripts/need-debian.sh" hyperfine:hyperfine
    small="$root/examples/01-private-default-group.kcs"
    echo "start-up: kcs run ${small#$root/}, $startup runs (hyperfine; /bin/true is the floor of any process)"
    # Every run must exit 0 (hyperfine stops otherwise); its warnings about
    # outliers, on a shared machine, are kept out of the summary.
    if ! hyperfine -N --warmup 20 --runs "$startup" --export-json "$work/startup.json" \
        "$bin run $small" /bin/true >/dev/null 2>"$work/startup.err"; then
        cat "$work/startup.err" >&2
        echo "bench.sh: the start-up measurement failed" >&2
        exit 1
    fi
    python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    name = "kcs run" if "kcs" in r["command"] else "/bin/true"
    print("%-10s median %5.2f ms  best %5.2f ms  mean %5.2f ms" % (name, r["median"] * 1e3, r["min"] * 1e3, r["mean"] * 1e3))
' "$work/startup.json"
    if [ "$have_time" = 1 ]; then
        /usr/bin/time -f "%R page faults (minor), %M KB peak" "$bin" run "$small" 2>&1 >/dev/null | tail -n 1
    fi
    echo "(goal: under 7 ms)"
    echo
fi

if [ "$workload" != 0 ]; then
    shared="$root/../shared/bench"
    [ -f "$shared/gen_workload.py" ] || { echo "bench.sh: no $shared/gen_workload.py" >&2; exit 1; }
    # The Lua model runs under Debian's lua5.4: installed when missing.
    "$root/scripts/need-debian.sh" lua5.4:lua5.4
    [ "$have_time" = 1 ] || { echo "bench.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }
    wl="$work/workload-$workload"
    if [ ! -s "$wl/work.kcs" ] || [ "$shared/gen_workload.py" -nt "$wl/work.kcs" ]; then
        python3 "$shared/gen_workload.py" "$workload" "$wl" >/dev/null
    fi
    kw="" kc="" kr=0 lw="" lc="" lr=0
    for ((i = 0; i < runs; i++)); do
        cpu_of "$bin" run "$wl/work.kcs"
        [ "$rc" = 0 ] || { echo "bench.sh: kcs run work.kcs exited $rc" >&2; head -n 20 "$work/err" >&2; exit 1; }
        kw="$kw $wall"; kc="$kc $cpu"; [ "$rss" -gt "$kr" ] && kr=$rss
        cpu_of lua5.4 "$wl/work.lua"
        [ "$rc" = 0 ] || { echo "bench.sh: lua5.4 work.lua exited $rc" >&2; exit 1; }
        grep -q ' 0 failed' "$work/out" || { echo "bench.sh: the Lua model failed expectations" >&2; exit 1; }
        lw="$lw $wall"; lc="$lc $cpu"; [ "$rss" -gt "$lr" ] && lr=$rss
    done
    km=$(echo $kc | median); lm=$(echo $lc | median)
    echo "workload: $workload calls (../shared/bench/gen_workload.py), $runs runs each, alternating; kcs run with lint"
    printf '%-8s %-10s %-10s %-9s\n' "" "wall med" "CPU med" "peak RSS"
    printf '%-8s %-10s %-10s %.0f MB\n' kcs "$(echo $kw | median) s" "$km s" "$(awk -v r="$kr" 'BEGIN { print r / 1024 }')"
    printf '%-8s %-10s %-10s %.0f MB\n' lua5.4 "$(echo $lw | median) s" "$lm s" "$(awk -v r="$lr" 'BEGIN { print r / 1024 }')"
    awk -v k="$km" -v l="$lm" 'BEGIN { printf "ratio kcs/Lua (CPU): %.2f  (goal: at most 0.25)\n", k / l }'
    bench_bin="$(dirname "$bin")/kcs-bench"
    if [ -x "$bench_bin" ]; then "$bench_bin" --phases "$wl/work.kcs"; "$bench_bin" --repl; fi
    echo
fi

echo "kcs: $bin"
echo "machine: $(nproc) cores, $(uname -sm), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "runs per file: $runs; wall time median and best; rates from the best run; kcs run ${lint:-(with lint)}"
[ -n "$sizes" ] && echo && printf '%-10s %-8s %-9s %-9s %-12s %-12s %-9s\n' statements calls "wall med" "wall best" "stmts/s" "calls/s" "peak RSS"
for n in ${sizes//,/ }; do
    f="$work/mixed-$n.kcs"
    generate "$f" mixed "$n"
    stmts=$(meta "$f" statements)
    calls=$(meta "$f" calls)
    bench "$f"
    awk -v s="$stmts" -v c="$calls" -v m="$med" -v b="$best" -v r="$peak" 'BEGIN {
        printf "%-10d %-8d %-9s %-9s %-12.0f %-12.0f %.0f MB\n", s, c, m " s", b " s", s / b, c / b, r / 1024 }'
done
if [ -n "$sizes" ]; then
    echo "(statements = calls + expectations; the largest file ends with $(meta "$work/mixed-${sizes##*,}.kcs" items_at_end) items in the keychain)"
    # The same calls through the embedding API, in process, without parsing.
    bench_bin="$(dirname "$bin")/kcs-bench"
    if [ -x "$bench_bin" ]; then
        echo
        for n in ${sizes//,/ }; do "$bench_bin" "$work/mixed-$n.kcs"; done
    fi
fi

# --finds 0 skips the isolation measurement (a per-find cost of no finds is no figure).
[ "$finds" -gt 0 ] || exit 0
echo
echo "isolation: $finds finds by Few (few visible items) while Big's private group holds 0 or $hidden items"
echo "(best of $runs runs; per find = (with finds - setup only) / $finds)"
printf '%-14s %-12s %-12s %-14s %-9s\n' "hidden items" "setup only" "with finds" "per find" "peak RSS"
for h in 0 "$hidden"; do
    f0="$work/iso-$h-0.kcs"; f1="$work/iso-$h-$finds.kcs"
    generate "$f0" isolation "$h" 0
    generate "$f1" isolation "$h" "$finds"
    bench "$f0"; base=$best
    bench "$f1"; with=$best
    awk -v h="$h" -v a="$base" -v b="$with" -v n="$finds" -v r="$peak" 'BEGIN {
        printf "%-14d %-12s %-12s %-14s %.0f MB\n", h, a " s", b " s", sprintf("%.0f ns", (b - a) / n * 1e9), r / 1024 }'
done
