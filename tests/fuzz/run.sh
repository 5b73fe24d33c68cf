#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh --replay|--fuzz OUT NAME...: run the libFuzzer harnesses
# OUT/fuzz/NAME_fuzz, built by build.mk beside this file.
#
#   --replay  each input of corpus/NAME/ once (-runs=0): the corpus as a
#             regression test; any crash or broken invariant fails.
#   --fuzz    fuzz each in turn (one process, no -jobs), for $FUZZ_RUNS runs or
#             $FUZZ_SECONDS seconds, whichever comes first when both are
#             set (60 s if neither is), starting
#             from corpus/NAME/ and the inputs earlier runs kept in
#             OUT/corpus/NAME/ (the tree's corpus is only read). A finding
#             stops that harness and fails the run: its input is in
#             OUT/crashes/NAME-crash-... (or -leak-, -timeout-, -oom-),
#             its log in OUT/logs/NAME.log. Each harness's executions,
#             time and coverage (libFuzzer's cov: and ft:) are printed
#             and added to OUT/results.txt.
#
# A dictionary corpus/NAME.dict is used when there is one.
set -u

here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-}
out=${2:-}
[ $# -ge 3 ] && { [ "$mode" = --replay ] || [ "$mode" = --fuzz ]; } || {
	echo "usage: run.sh --replay|--fuzz OUT NAME..." >&2
	exit 2
}
shift 2
mkdir -p "$out/logs" "$out/crashes" "$out/corpus"
failed=0

for name in "$@"; do
	bin=$out/fuzz/${name}_fuzz
	seeds=$here/corpus/$name
	log=$out/logs/$name.log
	dict=
	[ -f "$here/corpus/$name.dict" ] && dict=-dict=$here/corpus/$name.dict
	if [ ! -d "$seeds" ]; then
		echo "fuzz: $name: no corpus in $seeds" >&2
		failed=1
		continue
	fi
	if [ "$mode" = --replay ]; then
		n=$(find "$seeds" -type f | wc -l)
		if "$bin" -runs=0 -rss_limit_mb=2048 $dict "$seeds" >"$log" 2>&1; then
			echo "fuzz-replay: $name: $n inputs, no finding"
		else
			echo "fuzz-replay: $name: FAILED (log: $log)" >&2
			tail -n 30 "$log" >&2
			failed=1
		fi
		continue
	fi

	limit=
	[ -n "${FUZZ_RUNS:-}" ] && limit=-runs=$FUZZ_RUNS
	[ -n "${FUZZ_SECONDS:-}" ] && limit="$limit -max_total_time=$FUZZ_SECONDS"
	[ -n "$limit" ] || limit=-max_total_time=60
	work=$out/corpus/$name
	mkdir -p "$work"
	start=$(date +%s)
	"$bin" $limit -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/crashes/$name-" $dict \
		"$work" "$seeds" >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
	stats=$(grep -E '^#[0-9]+' "$log" | tail -n1 |
		sed -n 's/.*\(cov: [0-9]*\) \(ft: [0-9]*\).*/\1 \2/p')
	line="$name: ${runs:-?} runs in $((end - start)) s, ${stats:-no stats}"
	if [ "$rc" -ne 0 ]; then
		line="$line: FINDING (rc $rc; log $log; input in $out/crashes/)"
		failed=1
	fi
	echo "fuzz: $line"
	echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $line" >>"$out/results.txt"
done

exit "$failed"
