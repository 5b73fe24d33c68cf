#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab-run.sh - the guest side of bench/ab.sh:
#
#   ab-run.sh WRITEBENCH A.ko B.ko      (NSLOG_AB_ROUNDS rounds, default 6)
#
# Loads A and B in turn, each time running one interleaved writebench;
# CSV to $NSLOG_OUT/ab.csv.  Besides the unlimited writers of every payload,
# a limited writer (nslogl: a rule on its cgroup it never reaches) at 20 and
# 100 bytes, and a version 1 reader draining a full log_radio ring (the
# read side, which the writers do not exercise) at 100 and 1000 bytes.

set -uo pipefail

wb=${1:?usage: ab-run.sh WRITEBENCH A.ko B.ko}
ko_a=${2:?}
ko_b=${3:?}
out=${NSLOG_OUT:?run me through tests/containers/vm.sh --out}
rounds=${NSLOG_AB_ROUNDS:-6}

cases=()
for p in 20 100 1000 4076; do
	cases+=("w=null,p=$p" "w=nslog,p=$p" "w=nslogv,p=$p" "w=marker,p=$p")
done
# A limited writer: its cgroup has a rule far above what it writes, so
# every write takes the charging walk and passes.  Its own writebench run,
# with its own /dev/null baseline, after the rule is set: a rule anywhere
# sends every write into the walk, and the cases above are the write path
# with no rule at all.
lcg=/sys/fs/cgroup/nslab
mkdir -p "$lcg"
lcases=()
for p in 20 100; do
	lcases+=("w=null,p=$p" "w=nslog,p=$p,cg=$lcg,name=nslogl-$p")
done

dcases=("w=drain,p=100,dev=/dev/log_radio" "w=drain,p=1000,dev=/dev/log_radio")

rc=0
"$wb" -H >"$out/ab.csv"
for r in $(seq "$rounds"); do
	for b in A B; do
		ko=$ko_a
		[ $b = B ] && ko=$ko_b
		insmod "$ko" || { echo "ab: insmod $ko failed"; exit 1; }
		"$wb" -r 9 -t 40 -l "$b-$r" "${cases[@]}" >>"$out/ab.csv" || rc=1
		"$wb" -r 9 -l "$b-${r}d" "${dcases[@]}" >>"$out/ab.csv" || rc=1
		echo "set /nslab records=100000000/1s" >/proc/nslogger/limits ||
			{ echo "ab: cannot set the limited writer's rule"; exit 1; }
		"$wb" -r 9 -t 40 -l "$b-${r}l" "${lcases[@]}" >>"$out/ab.csv" || rc=1
		rmmod nslogger || { echo "ab: rmmod failed"; exit 1; }
		echo "ab: round $r build $b done"
	done
done
exit $rc
