#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# plot.sh - draw bench/results/*.png from the CSV files (gnuplot).
#
#   bench/plot.sh [RESULTS_DIR]
#
# Values are bns_med: the median over the rounds of each sample's batch
# median (see bench/writebench.c), the cost while the vCPU runs.
# payload.png: ns per write against payload, every writer.
# readers.png: ns per write against open readers (idle and reading)
#              for the writers that have readers of their own (nslogger,
#              /dev/kmsg); the others at 100 bytes as flat references.

set -euo pipefail

dir=${1:-$(dirname "$0")/results}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v gnuplot >/dev/null || { echo "plot.sh: no gnuplot (scripts/deps.sh bench)" >&2; exit 1; }

# CSV columns: 3 writer, 4 payload, 5 readers, 6 active, 18-20 bns_med,
# bns_min, bns_max
for w in null nslog nslogv kmsg marker unix pipe; do
	awk -F, -v w="$w" '$3 == w && $18 != "NA" { print $4, $18, $19, $20 }' \
		"$dir/writers.csv" >"$tmp/p-$w.dat"
done

plots=
for w in null nslog nslogv kmsg marker unix pipe; do
	[ -s "$tmp/p-$w.dat" ] || continue
	plots+="${plots:+, }'$tmp/p-$w.dat' using 1:2:3:4 with yerrorlines title '$w'"
done
gnuplot <<GP
set terminal pngcairo size 900,600 font ",10"
set output '$dir/payload.png'
set title "ns per write against payload (median of batch medians, bars min-max; QEMU TCG guest)"
set xlabel "payload bytes"
set ylabel "ns per write"
set logscale xy
set xtics (20, 100, 1000, 4076)
set key top left
set grid
plot $plots
GP

# Readers: positions 0..4 for 0, 1, 16, 256, 1024.
pos='BEGIN { p["0"] = 0; p["1"] = 1; p["16"] = 2; p["256"] = 3; p["1024"] = 4 }'
for w in nslog nslogv kmsg; do
	for a in 0 1; do
		awk -F, -v w="$w" -v a="$a" "$pos"' $3 == w && $6 == a && $18 != "NA" {
			print p[$5], $18 }' "$dir/readers.csv" | sort -n >"$tmp/r-$w-$a.dat"
		# 0 readers is the same case idle or not.
		if [ "$a" = 1 ]; then
			awk -F, -v w="$w" "$pos"' $3 == w && $5 == 0 && $18 != "NA" {
				print 0, $18; exit }' "$dir/readers.csv" >"$tmp/r0"
			cat "$tmp/r0" "$tmp/r-$w-$a.dat" >"$tmp/x" && mv "$tmp/x" "$tmp/r-$w-$a.dat"
		fi
	done
done
plots=
for w in nslog nslogv kmsg; do
	plots+="${plots:+, }'$tmp/r-$w-0.dat' using 1:2 with linespoints title '$w, readers idle'"
	plots+=", '$tmp/r-$w-1.dat' using 1:2 with linespoints dashtype 2 title '$w, readers reading'"
done
for w in null marker unix pipe; do
	v=$(awk -F, -v w="$w" '$3 == w && $4 == 100 { print $18 }' "$dir/writers.csv")
	if [ -z "$v" ] || [ "$v" = NA ]; then
		continue
	fi
	plots+=", $v with lines dashtype 3 title '$w (100 B, no readers of its own)'"
done
gnuplot <<GP
set terminal pngcairo size 900,600 font ",10"
set output '$dir/readers.png'
set title "ns per 100-byte write against open readers (median; QEMU TCG guest)"
set xlabel "open readers"
set ylabel "ns per write"
set logscale y
set xtics ("0" 0, "1" 1, "16" 2, "256" 3, "1024" 4)
set xrange [-0.2:4.2]
set key top left
set grid
plot $plots
GP
echo "plot.sh: $dir/payload.png $dir/readers.png"
