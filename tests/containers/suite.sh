#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# suite.sh - every VM scenario, in the guest, one after another.
#
# Each scenario is a script in this folder that prints TAP-style lines
# ("ok ..." / "not ok ..." / "ok ... # SKIP ...") and exits non-zero on a
# failure.  This runs them all, even after a failure, and ends with one line
# "vm: N passed, N failed, N skipped" counted from those lines.  A scenario
# that exits non-zero without printing a "not ok" line is counted as one
# failure of its own, so a crash cannot pass for success.  A scenario that
# passed nothing and skipped something was skipped as a whole: the last line
# names it ("...; whole scenarios skipped: lxc"), so a suite that lost a
# scenario never reads like one that ran it.
#
#   suite.sh [scenario ...]      default: every scenario listed below
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(abi tools namespaces churn lxc ratelimit tenants nslogfs relay nslogd collector stress lifecycle)

pass=0
fail=0
skip=0
wholly=()
for s in "${scenarios[@]}"; do
	log=/tmp/suite-$s.$$.log
	echo "=== scenario $s"
	t0=$(date +%s)
	"$here/$s.sh" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	p=$(grep -Ec '^ok [^#]*$' "$log")
	k=$(grep -Ec '^ok .*# SKIP' "$log")
	f=$(grep -Ec '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - scenario $s exited $rc"
		f=1
	fi
	[ "$p" -gt 0 ] || [ "$f" -gt 0 ] || [ "$k" -eq 0 ] || wholly+=("$s")
	echo "=== scenario $s: $p passed, $f failed, $k skipped ($(($(date +%s) - t0)) s)"
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + k))
done
echo "vm: $pass passed, $fail failed, $skip skipped${wholly[*]:+; whole scenarios skipped: ${wholly[*]}}"
[ "$fail" -eq 0 ]
