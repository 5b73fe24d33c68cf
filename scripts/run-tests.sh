#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh - run test suites, keep going after a failure, and end with
# one summary line "N passed, N failed, N skipped" over all of them.
#
#   run-tests.sh NAME=COMMAND ...
#
# Each COMMAND is run with bash; its output goes to the terminal and to
# build/results/NAME.log.  Its count is the last line of the form
# "... N passed, N failed[, N skipped]".  A suite that exits non-zero, or
# prints no such line, adds one failure, so it cannot be mistaken for a pass.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
results=$top/build/results
mkdir -p "$results"

pass=0
fail=0
skip=0
summary=()
wholly=()
for spec in "$@"; do
	name=${spec%%=*}
	cmd=${spec#*=}
	log=$results/$name.log
	echo "##### $name: $cmd"
	start=$(date +%s)
	bash -c "$cmd" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	secs=$(($(date +%s) - start))
	line=$(grep -aE '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	p=$(sed -nE 's/.*\b([0-9]+) passed, [0-9]+ failed.*/\1/p' <<<"$line")
	f=$(sed -nE 's/.*\b[0-9]+ passed, ([0-9]+) failed.*/\1/p' <<<"$line")
	k=$(sed -nE 's/.*\b[0-9]+ passed, [0-9]+ failed, ([0-9]+) skipped.*/\1/p' <<<"$line")
	p=${p:-0} f=${f:-0} k=${k:-0}
	note=
	# A suite that skipped a whole scenario says so on its count line.
	if [[ "$line" == *"whole scenarios skipped: "* ]]; then
		note=" (whole scenarios skipped: ${line##*whole scenarios skipped: })"
		wholly+=("$name: ${line##*whole scenarios skipped: }")
	fi
	if [ -z "$line" ]; then
		f=$((f + 1))
		note+=" (no result line)"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		note+=" (exit $rc)"
	fi
	summary+=("$(printf '%-8s %4d passed, %3d failed, %3d skipped  %5ds%s' \
		"$name" "$p" "$f" "$k" "$secs" "$note")")
	pass=$((pass + p))
	fail=$((fail + f))
	skip=$((skip + k))
done

echo "##### summary"
printf '%s\n' "${summary[@]}"
[ ${#wholly[@]} -eq 0 ] || echo "whole scenarios skipped: ${wholly[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
