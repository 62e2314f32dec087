#!/usr/bin/env bash
# Builds dcn-lb (standalone, against the installed ns-3) and runs EVERY test:
# all ns-3 TestSuites (test/*.cc, through build/dcn-lb-test-runner) and all
# GoogleTest unit tests (gtest/*.cc, build/dcn-lb-gtest), and the bad-input checks of
# the examples (tools/check-bad-input.sh: corpus test/bad-input/corpus.txt + legacy
# checks) and the determinism check of dcn-lb-compare (tools/check-determinism.sh).
# The last line is
#   dcn-lb tests: ns-3 suites <p> passed, <f> failed | gtest <p> passed, <f> failed | bad-input <p> passed, <f> failed | determinism <p> passed, <f> failed | TOTAL <p> passed, <f> failed
# Exit status 0 only if everything passed.
#   BUILD_DIR (default build), BUILD_TYPE (default Release), JOBS (default nproc)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
BUILD_TYPE=${BUILD_TYPE:-Release}
JOBS=${JOBS:-$(nproc)}

bash tools/install-deps.sh
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >/dev/null
cmake --build "$BUILD_DIR" -j"$JOBS"

ns3_pass=0
ns3_fail=0
ns3_rc=0
echo "=== ns-3 TestSuites: $BUILD_DIR/dcn-lb-test-runner"
out=$("$BUILD_DIR"/dcn-lb-test-runner 2>&1) || ns3_rc=$?
echo "$out"
line=$(echo "$out" | grep '^dcn-lb test suites:' | tail -n1 || true)
if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    ns3_pass=${BASH_REMATCH[1]}
    ns3_fail=${BASH_REMATCH[2]}
fi
if [[ $ns3_rc -ne 0 && $ns3_fail -eq 0 ]]; then
    ns3_fail=$((ns3_fail + 1)) # crashed / aborted before its summary
    echo "!!! dcn-lb-test-runner exited with status $ns3_rc"
fi

g_pass=0
g_fail=0
if [[ -x $BUILD_DIR/dcn-lb-gtest ]]; then
    echo "=== GoogleTest: $BUILD_DIR/dcn-lb-gtest"
    g_rc=0
    gout=$("$BUILD_DIR"/dcn-lb-gtest --gtest_brief=1 2>&1) || g_rc=$?
    echo "$gout" | tail -n 40
    if [[ $gout =~ \[\ \ PASSED\ \ \]\ ([0-9]+)\ test ]]; then g_pass=${BASH_REMATCH[1]}; fi
    if [[ $gout =~ \[\ \ FAILED\ \ \]\ ([0-9]+)\ test ]]; then g_fail=${BASH_REMATCH[1]}; fi
    if [[ $g_rc -ne 0 && $g_fail -eq 0 ]]; then
        g_fail=1
        echo "!!! dcn-lb-gtest exited with status $g_rc"
    fi
else
    echo "=== GoogleTest: no gtest/*.cc or GoogleTest not found, skipped"
fi

echo "=== Bad-input checks: tools/check-bad-input.sh"
b_pass=0
b_fail=0
bout=$(bash tools/check-bad-input.sh "$BUILD_DIR" 2>&1) || true
echo "$bout"
if [[ $bout =~ bad-input\ checks:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    b_pass=${BASH_REMATCH[1]}
    b_fail=${BASH_REMATCH[2]}
else
    b_fail=1
fi

echo "=== Determinism: tools/check-determinism.sh"
d_pass=0
d_fail=0
dout=$(bash tools/check-determinism.sh "$BUILD_DIR" 2>&1) || true
echo "$dout"
if [[ $dout =~ determinism\ checks:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    d_pass=${BASH_REMATCH[1]}
    d_fail=${BASH_REMATCH[2]}
else
    d_fail=1
fi

tp=$((ns3_pass + g_pass + b_pass + d_pass))
tf=$((ns3_fail + g_fail + b_fail + d_fail))
echo "dcn-lb tests: ns-3 suites $ns3_pass passed, $ns3_fail failed | gtest $g_pass passed, $g_fail failed | bad-input $b_pass passed, $b_fail failed | determinism $d_pass passed, $d_fail failed | TOTAL $tp passed, $tf failed"
[[ $tf -eq 0 ]]
