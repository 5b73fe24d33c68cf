# SPDX-License-Identifier: GPL-2.0
#
# tap.sh: sourced by the host's shell tests after they set $tmp, a
# directory of their own.  result STATUS DESCRIPTION prints one TAP line
# and counts it; run CMD... runs a command with its exit status in $rc and
# its output in $tmp/out and $tmp/err, which a failed result shows.

n=0
passed=0
failed=0
rc=0

result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		echo "#   exit $rc; stderr: $(cat "$tmp/err")"
	fi
}

run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
