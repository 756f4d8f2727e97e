#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers with libFuzzer (see Fuzz/README.md).
#
#   Fuzz/fuzz.sh build                 build every target into .build-fuzz/
#   Fuzz/fuzz.sh run [TARGET…]         fuzz each target for FUZZ_SECONDS (default 300), or FUZZ_RUNS executions
#                                      (FUZZ_JOBS=N: N fuzzers per target on one corpus)
#   Fuzz/fuzz.sh smoke                 CI: regression inputs, then FUZZ_SECONDS (default 10) per target (-Onone build)
#   Fuzz/fuzz.sh regress               replay Fuzz/regressions/ only (fails on any crash)
#   Fuzz/fuzz.sh leaks                 one --explain run of the CLI built with ASan, leaks fatal
#
# Targets are built by calling swiftc directly into .build-fuzz/, so `swift build` and its
# .build/ are never touched (only ZIPFoundation's sources are read from .build/checkouts/).
# Libraries are compiled from Sources/ with -sanitize=fuzzer,address (coverage +
# AddressSanitizer); each target links only the modules it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFTC=${SWIFTC:-swiftc}
OPT=${FUZZ_OPT:--O}
# CI's smoke (`smoke`: the regressions, then seconds per target) builds without the optimiser unless
# FUZZ_OPT says otherwise: compiling every module at -O was most of its time (about 10 of its 13
# minutes on 2 cores; -Onone about 3), and a few seconds per target find as much either way. Campaigns
# (`run`) keep -O. Each level builds into its own folder, so objects of the two are never linked together.
if [[ ${1:-} == smoke && -z ${FUZZ_OPT:-} ]]; then OPT=-Onone; fi
OPT_SUFFIX=
[[ $OPT == -Onone ]] && OPT_SUFFIX=-onone
# Sanitizers the targets are built with: libFuzzer's coverage plus AddressSanitizer (and its
# LeakSanitizer) by default. FUZZ_SANITIZE=fuzzer drops ASan for long campaigns where its
# allocator is most of the cost (Swift's own checks still trap); such builds go to their own
# folder (.build-fuzz-fuzzer), so objects of the two kinds are never linked together.
SANITIZE=${FUZZ_SANITIZE:-fuzzer,address}
if [[ $SANITIZE == fuzzer,address ]]; then OUT=${FUZZ_BUILD_DIR:-$ROOT/.build-fuzz$OPT_SUFFIX}; else OUT=${FUZZ_BUILD_DIR:-$ROOT/.build-fuzz-${SANITIZE//,/-}$OPT_SUFFIX}; fi
CXX_SANITIZE=()
[[ $SANITIZE == *address* ]] && CXX_SANITIZE=(-fsanitize=address)
TARGETS=(text-report ips metrickit sample swift-backtrace debugger macho dwarf zip kscrash sentry plcrash demangle explain pasted)
# Corpus of real reports: /work/shared/corpus here, ../shared/corpus beside the clone in CI.
CORPUS_DIR=${SYMBOLICATE_CORPUS:-}
if [[ -z "$CORPUS_DIR" ]]; then
    for candidate in "$ROOT/../shared/corpus" /work/shared/corpus; do
        [[ -d "$candidate" ]] && { CORPUS_DIR=$candidate; break; }
    done
fi

# ZIPFoundation (inflating zip entries) is a package dependency: its sources are the ones
# SwiftPM checked out (`swift package resolve` fetches them when this checkout has none yet).
zipfoundation_dir() {
    local dir=${FUZZ_ZIPFOUNDATION:-$ROOT/.build/checkouts/ZIPFoundation}
    if [[ ! -d "$dir/Sources/ZIPFoundation" ]]; then
        echo "fuzz: fetching package dependencies (swift package resolve)" >&2
        swift package resolve >&2
    fi
    echo "$dir"
}

# swift-protobuf (PLCrashReporter's `.plcrash` messages) likewise: the SwiftProtobuf library's
# sources from SwiftPM's checkout.
swiftprotobuf_dir() {
    local dir=${FUZZ_SWIFTPROTOBUF:-$ROOT/.build/checkouts/swift-protobuf}
    if [[ ! -d "$dir/Sources/SwiftProtobuf" ]]; then
        echo "fuzz: fetching package dependencies (swift package resolve)" >&2
        swift package resolve >&2
    fi
    echo "$dir"
}

# One package name for every module, as SwiftPM gives them, so `package` declarations are shared.
# Whole-module (-wmo, as SwiftPM's release builds): one compiler process per module that reads its
# files once, instead of one per file, each of which parses and type-checks the module's other
# files again; its code generation runs on JOBS threads.
# The system zlib's module map (Sources/CSystemZlib, the pure-Swift ELF reader's) and LLVM's demangler's
# (reached through SymbolicateDemangling) are on every module's path.
MODULES_BEFORE=()
build_module() {  # name, extra flags… (sources: Sources/NAME, or SOURCES=dir, SWIFT_VERSION=5 for a dependency)
    local name=$1; shift
    local sources=${SOURCES:-$ROOT/Sources/$name}
    # Stale when a source changed, or when a module built before it (its dependencies are) was
    # rebuilt since: -O inlines across modules and a struct's layout is compiled into its users,
    # so a library kept over a changed dependency links but reads the wrong fields.
    local earlier=() stale= mod
    for mod in "${MODULES_BEFORE[@]}"; do earlier+=("$OUT/$mod.swiftmodule"); done
    MODULES_BEFORE+=("$name")
    if [[ -f "$OUT/lib$name.a" && -z "$(find "$sources" -newer "$OUT/lib$name.a" -name '*.swift' | head -1)" ]]; then
        for mod in "${earlier[@]}"; do [[ "$mod" -nt "$OUT/lib$name.a" ]] && stale=1; done
        [[ -z $stale ]] && return
    fi
    echo "fuzz: compiling $name" >&2
    shopt -s globstar nullglob
    "$SWIFTC" -emit-library -static -parse-as-library -swift-version "${SWIFT_VERSION:-6}" $OPT -g -wmo -num-threads "$JOBS" \
        -sanitize="$SANITIZE" -module-name "$name" -package-name symbolicate \
        -emit-module -emit-module-path "$OUT/$name.swiftmodule" -I "$OUT" -I "$ROOT/Sources/CSystemZlib" -I "$ROOT/Sources/CLLVMDemangle/include" "$@" \
        -o "$OUT/lib$name.a" "$sources"/**/*.swift
}

# LLVM's demangler (Sources/CLLVMDemangle over llvm-19-dev's libLLVMDemangle.a), which
# SymbolicateDemangling calls: its one C++ file compiled here, linked into every target.
build_llvm_demangle() {
    local source=$ROOT/Sources/CLLVMDemangle/LLVMDemangle.cpp
    [[ -f "$OUT/CLLVMDemangle.o" && "$OUT/CLLVMDemangle.o" -nt "$source" ]] && return
    echo "fuzz: compiling CLLVMDemangle" >&2
    clang++ -std=c++17 -O1 -g "${CXX_SANITIZE[@]}" -I "$ROOT/Sources/CLLVMDemangle/include" -I /usr/lib/llvm-19/include \
        -c "$source" -o "$OUT/CLLVMDemangle.o"
}

link_target() {  # target name, harness, modules…
    local target=$1 harness=$2; shift 2
    local libs=() mod
    for mod in "$@"; do libs+=("$OUT/lib$mod.a"); done
    local newest
    newest=$(ls -t "$ROOT/Fuzz/Targets/$harness" "${libs[@]}" | head -1)
    [[ -x "$OUT/fuzz-$target" && "$OUT/fuzz-$target" -nt "$newest" ]] && return
    echo "fuzz: linking fuzz-$target" >&2
    "$SWIFTC" -parse-as-library -swift-version 6 $OPT -g -sanitize="$SANITIZE" \
        -I "$OUT" -I "$ROOT/Sources/CLibDwarf" -I "$ROOT/Sources/CLibElf" -I "$ROOT/Sources/CSystemZlib" \
        -I "$ROOT/Sources/CLLVMDemangle/include" -I "$CZLIB" \
        -module-name "Fuzz_${target//-/_}" -package-name symbolicate \
        "$ROOT/Fuzz/Targets/$harness" "${libs[@]}" "$OUT/CLLVMDemangle.o" -L /usr/lib/llvm-19/lib -lLLVMDemangle -lstdc++ \
        -ldwarf -lelf -lz -o "$OUT/fuzz-$target" \
        2> >(grep -v "Cannot export local symbol '__asan" >&2)
}

# Up to FUZZ_BUILD_JOBS (default: the cores) commands at once: `background CMD…` starts one when a
# slot is free, `wait_all` waits for every one and fails if any did. Each target's harness compiles
# and links on its own, so the fourteen of them (about a minute of CPU) need not run one by one.
JOBS=${FUZZ_BUILD_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
PIDS=()
background() {
    while (($(jobs -rp | wc -l) >= JOBS)); do sleep 0.2; done
    "$@" &
    PIDS+=($!)
}
wait_all() {
    local pid status=0
    for pid in "${PIDS[@]}"; do wait "$pid" || status=1; done
    PIDS=()
    return $status
}

build() {
    mkdir -p "$OUT"
    ZIPFOUNDATION=$(zipfoundation_dir)
    CZLIB=$ZIPFOUNDATION/Sources/CZLib
    build_module SymbolicateCore
    build_module SymbolicateJSON
    build_llvm_demangle
    build_module SymbolicateDemangling -I "$ROOT/Sources/CLLVMDemangle/include"
    # The PLCrash trait (on by default) brings the `.plcrash` reader and swift-protobuf.
    SOURCES=$(swiftprotobuf_dir)/Sources/SwiftProtobuf build_module SwiftProtobuf -enable-upcoming-feature ExistentialAny
    # The crash-text grammar reads the throw-site catalogue's reasons.
    build_module SymbolicateThrowSites
    build_module SymbolicateCrashReport -D PLCrash -I "$ROOT/Sources/CLLVMDemangle/include"
    build_module SymbolicateMachO
    build_module SymbolicateELF -I "$ROOT/Sources/CLibElf"
    build_module SymbolicateDWARF -I "$ROOT/Sources/CLibDwarf" -I "$ROOT/Sources/CLibElf" -I "$ROOT/Sources/CLLVMDemangle/include"
    build_module SymbolicateExplain
    # The zip target reads the central directory again (ZipDirectory, internal) to check every
    # entry's outcome, hence -enable-testing and `@testable import` in its harness.
    SOURCES=$ZIPFOUNDATION/Sources/ZIPFoundation SWIFT_VERSION=5 build_module ZIPFoundation -I "$CZLIB" -Xcc -D_GNU_SOURCE=1
    build_module SymbolicateDiscovery -enable-testing -I "$ROOT/Sources/CLibDwarf" -I "$ROOT/Sources/CLibElf" \
        -I "$ROOT/Sources/CLLVMDemangle/include" -I "$CZLIB"
    local report=(SymbolicateCrashReport SymbolicateThrowSites SwiftProtobuf SymbolicateJSON SymbolicateDemangling SymbolicateCore)
    background link_target text-report FuzzTextReport.swift "${report[@]}"
    background link_target ips FuzzIPS.swift "${report[@]}"
    background link_target metrickit FuzzMetricKit.swift "${report[@]}"
    background link_target sample FuzzSample.swift "${report[@]}"
    background link_target swift-backtrace FuzzSwiftBacktrace.swift "${report[@]}"
    background link_target kscrash FuzzForeignJSON.swift "${report[@]}"
    background link_target sentry FuzzForeignJSON.swift "${report[@]}"
    background link_target plcrash FuzzPLCrash.swift "${report[@]}"
    background link_target pasted FuzzPasted.swift "${report[@]}"
    background link_target explain FuzzExplain.swift SymbolicateExplain "${report[@]}"
    background link_target debugger FuzzDebuggerOutput.swift "${report[@]}"
    background link_target macho FuzzMachO.swift SymbolicateMachO SymbolicateCore
    background link_target dwarf FuzzDWARF.swift SymbolicateDWARF SymbolicateDemangling SymbolicateELF SymbolicateMachO SymbolicateCore
    background link_target demangle FuzzDemangle.swift SymbolicateDemangling
    background link_target zip FuzzZip.swift SymbolicateDiscovery SymbolicateDWARF SymbolicateDemangling \
        SymbolicateELF SymbolicateMachO SymbolicateCore ZIPFoundation
    wait_all || { echo "fuzz: a target failed to build (its errors are above)" >&2; return 1; }
}

# Seeds: the corpus and the fixtures, copied into a writable working corpus per target
# (libFuzzer adds the inputs it finds there; .build-fuzz/ is not in git).
seed() {
    local target=$1 dir="$OUT/corpus/$1"
    mkdir -p "$dir"
    case $target in
        text-report)
            cp -n "$ROOT"/Fixtures/reports/*.crash "$dir"/ 2>/dev/null || true
            [[ -n "$CORPUS_DIR" ]] && find "$CORPUS_DIR/reports" -type f \( -name '*.crash' -o -name '*.txt' \) -exec cp -n {} "$dir"/ \; ;;
        ips)
            # The target puts its own header in front: seeds are the JSON bodies.
            local f
            for f in "$ROOT"/Fixtures/reports/*.ips ${CORPUS_DIR:+"$CORPUS_DIR"/reports/*.ips} ${CORPUS_DIR:+"$CORPUS_DIR"/metrickit/*.json}; do
                [[ -f "$f" ]] || continue
                if head -c1 "$f" | grep -q '{' && [[ $(wc -l <"$f") -gt 1 ]]; then
                    tail -n +2 "$f" >"$dir/$(basename "$f").body"
                else
                    cp -n "$f" "$dir"/
                fi
            done ;;
        metrickit)
            cp -n "$ROOT"/Fixtures/logs/*metrickit*.json "$dir"/
            # Single diagnostics, frames without address or unplaceable, arrays (Fuzz/seeds/metrickit/),
            # and .ips reports cut inside their body (the cut-JSON reading; detection runs first).
            cp -n "$ROOT"/Fuzz/seeds/metrickit/* "$ROOT"/Fixtures/metrickit/*.ips "$dir"/
            local f
            for f in "$ROOT"/Fixtures/reports/*.ips; do
                head -c 3000 "$f" >"$dir/$(basename "$f").cut3000"
                head -c 9000 "$f" >"$dir/$(basename "$f").cut9000"
            done
            [[ -n "$CORPUS_DIR" ]] && find "$CORPUS_DIR/metrickit" -type f -name '*.json' -exec cp -n {} "$dir"/ \; 2>/dev/null || true ;;
        sample)
            cp -n "$ROOT"/Fixtures/logs/macapp-sample.txt "$ROOT"/Fixtures/logs/macapp-spindump.txt "$dir"/ ;;
        swift-backtrace)
            cp -n "$ROOT"/Fixtures/linux/logs/*.txt "$ROOT"/Fixtures/linux/logs/*.json "$dir"/ ;;
        debugger)
            # Xcode console and LLDB output: the fixture crash's forms and the real examples.
            cp -n "$ROOT"/Fixtures/debugger/*.txt "$ROOT"/Fixtures/debugger/real/*.txt "$dir"/ ;;
        kscrash)
            # KSCrash's example reports and the fixture crash in KSCrash form (cut to max_len,
            # most reach the reader damaged: its repair path is the point).
            cp -n "$ROOT"/Fixtures/thirdparty/kscrash/*.json "$ROOT"/Fixtures/thirdparty/own/*.kscrash.json "$dir"/ ;;
        sentry)
            cp -n "$ROOT"/Fixtures/thirdparty/sentry/*.json "$ROOT"/Fixtures/thirdparty/own/*.sentry.* "$dir"/ ;;
        plcrash)
            # PLCrashReporter's published report and the fixture crashes as `.plcrash`.
            cp -n "$ROOT"/Fixtures/thirdparty/plcrashreporter/*.plcrash "$ROOT"/Fixtures/thirdparty/own/*.plcrash "$dir"/ ;;
        pasted)
            # Device log lines and crash services' text (issue 40): the real excerpts, and one
            # line per shape the device-log reader reads (Fuzz/seeds/pasted/).
            cp -n "$ROOT"/Fixtures/pasted/* "$ROOT"/Fuzz/seeds/pasted/* "$dir"/ ;;
        macho | dwarf)
            local f
            for f in "$ROOT"/Fixtures/dsyms/*/Contents/Resources/DWARF/*; do
                cp -n "$f" "$dir/$(basename "$f")"
            done
            if [[ $target == macho ]]; then
                find "$ROOT/Fixtures/bin" -type f -size -2M -exec cp -n {} "$dir"/ \; 2>/dev/null || true
            fi ;;
        demangle)
            # Every name of the naming fixtures (Swift, Rust legacy and v0), one file each.
            cut -f1 "$ROOT"/Fixtures/names/*.tsv | split -l 1 -a 4 - "$dir/name-" ;;
        explain)
            # Reports that reach each diagnosis rule (Fuzz/seeds/explain/, small and hand-written
            # in Apple's layouts), the fixture reports of every layout, and the corpus's reports.
            cp -n "$ROOT"/Fuzz/seeds/explain/* "$ROOT"/Fixtures/reports/*.crash "$ROOT"/Fixtures/reports/*.ips "$dir"/
            cp -n "$ROOT"/Fixtures/linux/logs/*.txt "$ROOT"/Fixtures/thirdparty/kscrash/*.json "$dir"/ 2>/dev/null || true
            cp -n "$ROOT"/Fixtures/debugger/*.txt "$ROOT"/Fixtures/debugger/real/*.txt "$dir"/ 2>/dev/null || true
            cp -n "$ROOT"/Fixtures/pasted/* "$ROOT"/Fuzz/seeds/pasted/* "$dir"/ 2>/dev/null || true
            [[ -n "$CORPUS_DIR" ]] && find "$CORPUS_DIR/reports" -type f -size -32k -exec cp -n {} "$dir"/ \; 2>/dev/null || true ;;
        zip)
            # Small archives made by Fuzz/make-zip-seeds.py (stored, deflated, folders, a dSYM,
            # data descriptors, ZIP64, entries to skip, a bomb, a lying size).
            cp -n "$ROOT"/Fuzz/seeds/zip/*.zip "$dir"/ ;;
    esac
    echo "$dir"
}

# Options shared by every run: a hang is an input taking over 10 s. Leak detection is on, in
# the CI smoke too (libdwarf's allocations included: LibDwarf.swift frees what libdwarf hands
# out). FUZZ_DETECT_LEAKS=0 turns it off for a run. The Swift runtime's own backtracer is off
# so that traps reach libFuzzer as a clean deadly signal with ASan's stack.
export SWIFT_BACKTRACE=enable=no
FUZZ_FLAGS=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -detect_leaks="${FUZZ_DETECT_LEAKS:-1}")
export ASAN_OPTIONS="detect_leaks=${FUZZ_DETECT_LEAKS:-1}${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

# Input size per target: reports (KSCrash and Sentry JSON too) are cut to 16 KiB (a header, a few threads and images: the
# parsers' paths are all there, and small inputs keep executions fast), Mach-O and DWARF
# files to 64 KiB (the fixture dSYMs are 12–44 KB), zips to 64 KiB (the seeds are 0.1–4 KB;
# what they inflate to is bounded by the harness's own unpack limits, 1 MiB per entry and
# 4 MiB per run).
# The explain target gets 32 KiB: a rule that is not linear in a field shows as a unit over
# `-timeout` only when the field can be long (issue 38: 34 KB took 54 s).
max_len() { case $1 in text-report | ips | metrickit | sample | swift-backtrace | debugger | kscrash | sentry | plcrash | pasted) echo 16384 ;; demangle) echo 4096 ;; explain) echo 32768 ;; *) echo 65536 ;; esac; }

# Per-target libFuzzer options: the zip target gets the zip record signatures as a dictionary.
target_flags() { case $1 in zip) echo "-dict=$ROOT/Fuzz/zip.dict" ;; esac; }

# Regression inputs are replayed whole: the demangler's are names of up to 90 KB (the stack
# overflows of issue 54), longer than what the fuzzer makes.
regress_max_len() { case $1 in demangle) echo 131072 ;; *) max_len "$1" ;; esac; }

regress() {
    local target status=0 files
    for target in "${TARGETS[@]}"; do
        files=("$ROOT/Fuzz/regressions/$target"/*)
        [[ ${#files[@]} -gt 0 && -e "${files[0]}" ]] || continue
        echo "fuzz: replaying ${#files[@]} regression input(s) for $target" >&2
        "$OUT/fuzz-$target" "${FUZZ_FLAGS[@]}" -max_len="$(regress_max_len "$target")" "${files[@]}" >"$OUT/regress-$target.log" 2>&1 \
            || { status=1; echo "fuzz: $target FAILED on a regression input:" >&2; tail -40 "$OUT/regress-$target.log" >&2; }
    done
    return $status
}

run() {
    local seconds=$1; shift
    local target dir status=0
    for target in "$@"; do
        dir=$(seed "$target")
        mkdir -p "$OUT/artifacts/$target"
        local budget="${seconds}s"
        if [[ -n "${FUZZ_RUNS:-}" ]]; then
            budget="$FUZZ_RUNS executions"
            if [[ $seconds != 0 ]]; then budget+=" or ${seconds}s"; fi
        fi
        # FUZZ_JOBS=N: N fuzzers on one corpus (each reloads what the others add, libFuzzer's
        # -reload), FUZZ_RUNS split between them; logs run-TARGET.log, or run-TARGET.K.log per job.
        local jobs=${FUZZ_JOBS:-1} job runs=${FUZZ_RUNS:-} logs=() pids=()
        [[ -n "$runs" ]] && runs=$(((runs + jobs - 1) / jobs))
        local in_jobs=""
        ((jobs > 1)) && in_jobs=", $jobs jobs"
        echo "fuzz: $target for $budget (corpus $dir$in_jobs)" >&2
        for ((job = 1; job <= jobs; job++)); do
            local log="$OUT/run-$target.log"
            ((jobs > 1)) && log="$OUT/run-$target.$job.log"
            logs+=("$log")
            # shellcheck disable=SC2046  # target_flags is one word or none
            "$OUT/fuzz-$target" "${FUZZ_FLAGS[@]}" $(target_flags "$target") -max_len="$(max_len "$target")" \
                -max_total_time="$seconds" ${runs:+-runs="$runs"} \
                -artifact_prefix="$OUT/artifacts/$target/" "$dir" >"$log" 2>&1 &
            pids+=($!)
        done
        # An interrupted run stops its jobs too.
        trap 'kill "${pids[@]}" 2>/dev/null' EXIT
        trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM
        for job in "${!pids[@]}"; do
            if ! wait "${pids[$job]}"; then
                status=1
                echo "fuzz: $target found a problem; input saved under $OUT/artifacts/$target/" >&2
                grep -E 'ERROR|error|Fatal|SUMMARY|Test unit written' "${logs[$job]}" | head -20 >&2
            fi
            grep -E 'stat::number_of_executed_units|stat::peak_rss_mb|^Done' "${logs[$job]}" | sed "s/^/fuzz: $target: /" >&2 || true
        done
        if ((jobs > 1)); then
            awk '/stat::number_of_executed_units/ { total += $2 } END { printf "fuzz: '"$target"': %d executions in all jobs\n", total }' "${logs[@]}" >&2
        fi
        trap - EXIT INT TERM
    done
    return $status
}

# The smoke's targets side by side, FUZZ_BUILD_JOBS at once (a libFuzzer process keeps one core
# busy: on two cores the fourteen 10 s runs take half the wall time one by one would), each one's
# lines printed together, in TARGETS order, when all have ended.
run_side_by_side() {
    local seconds=$1 target status=0
    shift
    trap 'kill "${PIDS[@]}" 2>/dev/null; exit 130' INT TERM
    for target in "$@"; do
        background run_logged "$seconds" "$target"
    done
    wait_all || status=1
    trap - INT TERM
    for target in "$@"; do cat "$OUT/smoke-$target.log" >&2; done
    # A CI log shows its last lines: the targets that found a problem are repeated at the end,
    # each with its run's last lines (the input saved, the sanitizer's or libFuzzer's report).
    if ((status)); then
        for target in "$@"; do
            grep -q "found a problem" "$OUT/smoke-$target.log" || continue
            echo "fuzz: FAILED: $target; the end of $OUT/run-$target.log:" >&2
            tail -60 "$OUT/run-$target.log" >&2
        done
    fi
    return $status
}
run_logged() { run "$1" "$2" 2>"$OUT/smoke-$2.log"; }

# --explain once on a fixture with the CLI built with AddressSanitizer (its own build dir);
# LeakSanitizer makes any leak fatal.
leaks() {
    swift build --build-path "$ROOT/.build-asan" -Xswiftc -sanitize=address --product symbolicate >&2
    local bin="$ROOT/.build-asan/debug/symbolicate"
    ASAN_OPTIONS=detect_leaks=1:exitcode=23 "$bin" --explain "$ROOT/Fixtures/reports/swift-trap.ips" "$ROOT/Fixtures/dsyms" >/dev/null
    echo "fuzz: --explain run under ASan: no leaks" >&2
}

command=${1:-run}
shift || true
case $command in
    build) build ;;
    regress) build; regress ;;
    # FUZZ_RUNS alone: that many executions, however long they take (max_total_time=0).
    run) default_seconds=300; [[ -n "${FUZZ_RUNS:-}" ]] && default_seconds=0
        build; regress; run "${FUZZ_SECONDS:-$default_seconds}" "${@:-${TARGETS[@]}}" ;;
    smoke) build; regress; run_side_by_side "${FUZZ_SECONDS:-10}" "${TARGETS[@]}" ;;
    leaks) leaks ;;
    *) echo "usage: Fuzz/fuzz.sh build|run [TARGET…]|smoke|regress|leaks" >&2; exit 64 ;;
esac
