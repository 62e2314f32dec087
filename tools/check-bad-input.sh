#!/usr/bin/env bash
# Bad input gets one clear error: runs the flagship example with invalid arguments and
# checks that each run fails (non-zero exit) with a message naming the parameter, the
# value and what is allowed.  Usage: tools/check-bad-input.sh [build dir]
# Last line: "bad-input checks: <p> passed, <f> failed".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
B=${1:-build}
EX=$B/dcn-lb-compare
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '# not monotone\n0 0\n100000 50\n50000 80\n1000000 100\n' >"$tmp/nonmonotone.txt"
printf '0 0\n100000 50\n1000000 90\n' >"$tmp/short.txt"

pass=0
fail=0
check() { # check <regex> <args...>
    local re=$1
    shift
    local out rc
    out=$(timeout 120 "$EX" --quiet "$@" 2>&1)
    rc=$?
    if [[ $rc -ne 0 && $rc -ne 124 ]] && grep -Eq -- "$re" <<<"$out"; then
        pass=$((pass + 1))
        echo "PASS bad input $*: $(grep -E -- "$re" <<<"$out" | head -n1)"
    else
        fail=$((fail + 1))
        echo "FAIL bad input $* (exit $rc), expected /$re/, got:"
        tail -n 3 <<<"$out"
    fi
}

check "--lb: unknown load balancer 'foo'; allowed: .*ecmp.*ops.*reps" --lb=ecmp,foo
check "--workload: unknown workload 'bar'; allowed: permutation" --workload=bar
check "--msgSize: '0' is not a size >= 1 byte" --msgSize=0
check "--load: 1.5 not in \(0, 1\]" --workload=cdf --load=1.5
check "--load: 0 not in \(0, 1\]" --workload=cdf --load=0
check "nonmonotone.txt:4: .*non-decreasing" --workload=cdf --cdf="$tmp/nonmonotone.txt"
check "short.txt.*100" --workload=cdf --cdf="$tmp/short.txt"
check "--cdf: .*nosuchcdf" --workload=cdf --cdf=nosuchcdf
check "--evs: 0 not in \[1, 65536\]" --evs=0
check "--ackRatio: 300 not in \[1, 255\]" --ackRatio=300
check "--evs: 8 not accepted by --lb=reps: .*EvSetSize allowed: .*16:65536" --lb=reps --evs=8
check "Tiers=5 not supported; allowed 2 or 3" --tiers=5
check "--failures: link 99999 not in \[0, [0-9]+\]" --failures=silent:link=99999

echo "bad-input checks: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
