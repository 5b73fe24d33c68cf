#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# summary.sh - markdown tables from bench/results/*.csv, for
# docs/benchmarks.md: every case with its median, spread and its ratio to
# the /dev/null case of the same run (label), by median and by minimum.
#
#   bench/summary.sh [RESULTS_DIR]

set -euo pipefail

dir=${1:-$(dirname "$0")/results}

# ratio table of one CSV: each case against the null case of the same run
# (label) and payload, or of 100 bytes when that run has no null of the
# payload.  "batch" is bns_med (the cost while the vCPU runs), "wall" is
# ns_med (wall time, all interruptions included).
table() {
	awk -F, '
	NR == 1 { next }
	{ n++; lab[n] = $1; name[n] = $2; p[n] = $4; med[n] = $12; wps[n] = $17
	  b[n] = $18; bmin[n] = $19; bmax[n] = $20
	  if ($3 == "null" && $7 == 1) { nw[$1 "," $4] = $12; nb[$1 "," $4] = $18 } }
	END {
		print "| run | case | bytes | ns/write (batch) | min-max over rounds | x null (batch) | ns/write (wall) | x null (wall) | writes/s (wall) |"
		print "|---|---|---:|---:|---:|---:|---:|---:|---:|"
		for (i = 1; i <= n; i++) {
			k = lab[i] "," p[i]
			if (!(k in nb)) k = lab[i] ",100"
			if (b[i] == "NA") {
				printf "| %s | %s | %s | n/a | | | | | |\n", lab[i], name[i], p[i]
				continue
			}
			r1 = (k in nb) ? sprintf("%.2f", b[i] / nb[k]) : "-"
			r2 = (k in nw) ? sprintf("%.2f", med[i] / nw[k]) : "-"
			printf "| %s | %s | %d | %.0f | %.0f-%.0f | %s | %.0f | %s | %d |\n",
				lab[i], name[i], p[i], b[i], bmin[i], bmax[i], r1, med[i], r2, wps[i]
		}
	}' "$1"
}

for f in headline writers host-writers readers threads namespaces ratelimit drain ab; do
	[ -s "$dir/$f.csv" ] || continue
	echo "### $f.csv"
	echo
	table "$dir/$f.csv"
	echo
done
for f in nscreate mem kbench uring env host; do
	[ -s "$dir/$f.csv" ] || continue
	echo "### $f.csv"
	echo
	awk -F, 'NR == 1 { s = "|"; t = "|"; for (i = 1; i <= NF; i++) { s = s " " $i " |"; t = t "---|" }
		print s; print t; next }
		{ s = "|"; for (i = 1; i <= NF; i++) s = s " " $i " |"; print s }' "$dir/$f.csv"
	echo
done
