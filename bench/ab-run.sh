#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab-run.sh - the guest side of bench/ab.sh:
#
#   ab-run.sh WRITEBENCH A.ko B.ko      (NSLOG_AB_ROUNDS rounds, default 6)
#
# Loads A and B in turn, each time running one interleaved writebench;
# CSV to $NSLOG_OUT/ab.csv.

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

rc=0
"$wb" -H >"$out/ab.csv"
for r in $(seq "$rounds"); do
	for b in A B; do
		ko=$ko_a
		[ $b = B ] && ko=$ko_b
		insmod "$ko" || { echo "ab: insmod $ko failed"; exit 1; }
		"$wb" -r 9 -t 40 -l "$b-$r" "${cases[@]}" >>"$out/ab.csv" || rc=1
		rmmod nslogger || { echo "ab: rmmod failed"; exit 1; }
		echo "ab: round $r build $b done"
	done
done
exit $rc
