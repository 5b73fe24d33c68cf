#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh - run test suites, keep going after a failure, and end with
# one summary line "N passed, N failed, N skipped" over all of them.
#
#   run-tests.sh NAME=COMMAND ... [NAME&=COMMAND ...] [NAME@=COMMAND ...] [wait] ...
#
# Each COMMAND is run with bash; its output goes to the terminal and to
# build/results/NAME.log.  Its count is the last line of the form
# "... N passed, N failed[, N skipped]".  A suite that exits non-zero, or
# prints no such line, adds one failure, so it cannot be mistaken for a pass.
#
# NAME&=COMMAND starts the suite in the background, beside the ones that
# follow, its output only to its log; "wait" (and the end of the list) waits
# for such suites and then prints their logs and counts them.  NAME@=COMMAND
# is the same for a preparation that is not a test (building a cached
# kernel the suites after the next "wait" boot): it counts nothing when it
# succeeds and one failure when it does not.  For a suite
# that leaves most of the machine to the ones beside it, such as make
# test-fresh (mostly apt-get: network and disk), or a build under nice
# beside a TCG guest (which leaves a CPU idle much of the time); not for two
# TCG guests, which slow each other about as much as they overlap.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
results=$top/build/results
mkdir -p "$results"

pass=0
fail=0
skip=0
summary=()
wholly=()
bg_names=()
bg_pids=()
bg_starts=()
bg_preps=()

# account NAME RC SECS: count a finished suite from its log.
account() {
	local name=$1 rc=$2 secs=$3 log=$results/$1.log line p f k note=

	line=$(grep -aE '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	p=$(sed -nE 's/.*\b([0-9]+) passed, [0-9]+ failed.*/\1/p' <<<"$line")
	f=$(sed -nE 's/.*\b[0-9]+ passed, ([0-9]+) failed.*/\1/p' <<<"$line")
	k=$(sed -nE 's/.*\b[0-9]+ passed, [0-9]+ failed, ([0-9]+) skipped.*/\1/p' <<<"$line")
	p=${p:-0} f=${f:-0} k=${k:-0}
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
}

# Wait for the background suites, print their logs, count them.
wait_bg() {
	local i rc secs

	for i in "${!bg_pids[@]}"; do
		rc=0
		wait "${bg_pids[i]}" || rc=$?
		echo "##### ${bg_names[i]} (ran in the background; its log follows)"
		cat "$results/${bg_names[i]}.log"
		secs=$(($(cat "$results/${bg_names[i]}.end") - bg_starts[i]))
		if [ "${bg_preps[i]}" = 1 ]; then
			summary+=("$(printf '%-8s %s after %ds' "${bg_names[i]}" \
				"$([ "$rc" -eq 0 ] && echo "prepared" || echo "FAILED (exit $rc)")" "$secs")")
			[ "$rc" -eq 0 ] || fail=$((fail + 1))
			continue
		fi
		account "${bg_names[i]}" "$rc" "$secs"
	done
	bg_names=() bg_pids=() bg_starts=() bg_preps=()
}

for spec in "$@"; do
	if [ "$spec" = wait ]; then
		wait_bg
		continue
	fi
	name=${spec%%=*}
	cmd=${spec#*=}
	if [ "${name%[&@]}" != "$name" ]; then
		prep=0
		[ "${name%@}" = "$name" ] || prep=1
		name=${name%[&@]}
		echo "##### $name (in the background): $cmd"
		bg_preps+=("$prep")
		bg_names+=("$name")
		bg_starts+=("$(date +%s)")
		# No terminal, no stdin: it must not read what the others are given.
		( bash -c "$cmd" </dev/null >"$results/$name.log" 2>&1
		  rc=$?
		  date +%s >"$results/$name.end"
		  exit $rc ) &
		bg_pids+=($!)
		continue
	fi
	echo "##### $name: $cmd"
	start=$(date +%s)
	bash -c "$cmd" 2>&1 | tee "$results/$name.log"
	rc=${PIPESTATUS[0]}
	account "$name" "$rc" $(($(date +%s) - start))
done
wait_bg

echo "##### summary"
printf '%s\n' "${summary[@]}"
[ ${#wholly[@]} -eq 0 ] || echo "whole scenarios skipped: ${wholly[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
