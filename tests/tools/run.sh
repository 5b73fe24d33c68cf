#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh TEST...: run each test program (or *.sh script), show its output,
# and finish with the total "N passed, N failed, N skipped" over all of
# them ("ok ... # SKIP why" lines are skips, not passes).  A test
# that exits non-zero without a "not ok" line (a crash, a valgrind error)
# counts as one failure.  $VALGRIND, if set, wraps the C test programs;
# the scripts use it to wrap the tools they run.
set -u

passed=0
failed=0
skipped=0
out=$(mktemp /tmp/nslog_run.XXXXXX)
trap 'rm -f "$out"' EXIT

for t in "$@"; do
	echo "# $t"
	case $t in
	*.sh)	sh "$t" >"$out"; rc=$? ;;
	*)	${VALGRIND:-} "$t" >"$out"; rc=$? ;;
	esac
	cat "$out"
	k=$(grep -c '^ok .* # SKIP' "$out")
	p=$(($(grep -c '^ok ' "$out") - k))
	f=$(grep -c '^not ok ' "$out")
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + k))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $t exited with status $rc"
		failed=$((failed + 1))
	fi
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
