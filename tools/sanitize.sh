#!/usr/bin/env bash
# ASan + UBSan check (issue 9): builds dcn-lb with
#   -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
# in its own build directory (default build-asan, RelWithDebInfo at -O1) and runs
#   1. the ns-3 TestSuites listed in SAN_SUITES (default: all suites except the
#      slow system comparisons, see README "Sanitizers"),
#   2. all GoogleTest unit tests,
#   3. a short system scenario: dcn-lb-compare's default and one failure run.
# Any sanitizer report (or a failing test) fails the script: reports abort the
# process (-fno-sanitize-recover=all, halt_on_error=1) and the log is grepped for
# "ERROR: AddressSanitizer", "runtime error:" and "ERROR: LeakSanitizer".
# ns-3's own libraries (Debian's libns3.37-*) are not instrumented: bugs inside them
# are not seen, and leaks whose allocation stack lies entirely inside them are
# suppressed by tools/sanitize.supp (see the comments there).
# Usage: tools/sanitize.sh [build dir]; last line "sanitize: PASS (<n> checks)" or
# "sanitize: FAIL ...".  Env: SAN_SUITES (space-separated suite names or "all"),
# JOBS (default nproc).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
B=${1:-build-asan}
JOBS=${JOBS:-$(nproc)}
FLAGS="-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer -O1 -g"
SAN_SUITES_DEFAULT="dcn-lb-build dcn-lb-stats dcn-lb-workload dcn-lb-fabric-queue dcn-lb-fabric-routing dcn-lb-fabric-failure dcn-lb-fabric-stats dcn-lb-reps-unit dcn-lb-reps-system dcn-lb-transport-cc dcn-lb-transport-lb dcn-lb-transport-fattree dcn-lb-transport-reliability dcn-lb-workload-sim dcn-lb-options dcn-lb-pfc dcn-lb-heap-scheduler"
SAN_SUITES=${SAN_SUITES:-$SAN_SUITES_DEFAULT}

cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$FLAGS" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined,float-cast-overflow" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined,float-cast-overflow" >/dev/null || {
    echo "sanitize: FAIL (configure)"
    exit 1
}
cmake --build "$B" -j"$JOBS" || {
    echo "sanitize: FAIL (build)"
    exit 1
}

export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$PWD/tools/sanitize.supp:print_suppressions=0"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
n=0
failed=()
run() { # run <name> <command...>
    local name=$1 rc=0 t0
    shift
    t0=$(date +%s)
    "$@" >"$log" 2>&1 || rc=$?
    n=$((n + 1))
    if [[ $rc -ne 0 ]] || grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log"; then
        failed+=("$name")
        echo "FAIL $name (exit $rc, $(($(date +%s) - t0))s):"
        grep -E -A25 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" | head -n 60
        tail -n 5 "$log"
    else
        echo "ok   $name ($(($(date +%s) - t0))s)"
    fi
}

if [[ $SAN_SUITES == all ]]; then
    SAN_SUITES=$("$B"/dcn-lb-test-runner --list | grep '^dcn-lb' | tr '\n' ' ')
fi
for s in $SAN_SUITES; do
    run "suite $s" "$B"/dcn-lb-test-runner --suite="$s"
done
if [[ -x $B/dcn-lb-gtest ]]; then
    run gtest "$B"/dcn-lb-gtest --gtest_brief=1
fi
run "dcn-lb-compare default" "$B"/dcn-lb-compare --quiet
run "dcn-lb-compare silent failure" "$B"/dcn-lb-compare --quiet --lb=ops,reps \
    --failures=silent:link=32:start=10us:end=30us

if [[ ${#failed[@]} -eq 0 ]]; then
    echo "sanitize: PASS ($n checks)"
else
    echo "sanitize: FAIL (${#failed[@]} of $n: ${failed[*]})"
    exit 1
fi
