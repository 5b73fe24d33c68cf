#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# syslog.sh - nslog-syslogd's throughput beside a bare datagram receiver
# (and rsyslog's imuxsock where rsyslogd is installed), in one guest boot.
#
#   bench/syslog.sh [--kver KVER] [--ko PATH] [--rounds N] [--count N] [--out DIR]
#
# The guest (bench/syslog-run.sh) sends COUNT syslog datagrams from 1 and
# from 4 sender processes to each receiver, N rounds, and prints messages
# per second and the listener's resident memory. Two vCPUs on the wall
# clock, as `make bench`. Results in DIR (default build/bench/syslog):
# syslog.csv, rss.csv, env.csv, host.csv. Not part of `make bench`.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
build=$project/build/bench
kver=
ko=$project/nslogger.ko
rounds=2
count=20000
out=$build/syslog

while [ $# -gt 0 ]; do
	case "$1" in
	--kver)		kver=$2; shift ;;
	--ko)		ko=$2; shift ;;
	--rounds)	rounds=$2; shift ;;
	--count)	count=$2; shift ;;
	--out)		out=$2; shift ;;
	*)		echo "usage: bench/syslog.sh [--kver K] [--ko PATH] [--rounds N] [--count N] [--out DIR]" >&2
			exit 2 ;;
	esac
	shift
done
"$project/scripts/deps.sh" vm
[ -n "$kver" ] || kver=$("$project/scripts/kver.sh")

mkdir -p "$out"
make -s -C "$project" bench-progs
make -s -C "$project/tools" O="$project/build/tools" "$project/build/tools/nslog-syslogd"
# Copies, so that a rebuild meanwhile changes none of them.
cp "$ko" "$out/nslogger.ko"
cp "$build/syslogbench" "$project/build/tools/nslog-syslogd" "$out/"

load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
NSLOG_SYSLOG_ROUNDS=$rounds NSLOG_SYSLOG_COUNT=$count \
	"$project/tests/containers/vm.sh" --kver "$kver" --ko "$out/nslogger.ko" \
	--smp 2 --mem 2G --timeout 900 --log "$out/console.log" --out "$out/guest" -- \
	"$here/syslog-run.sh" "$out/syslogbench" "$out/nslog-syslogd"
end=$(date +%s)
cp "$out/guest/syslog.csv" "$out/guest/rss.csv" "$out/guest/env.csv" "$out/"
{
	echo "what,value"
	echo "tree,$(git -C "$project" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "duration_s,$((end - start))"
	echo "loadavg_before,\"$load0\""
	echo "loadavg_after,\"$(cut -d' ' -f1-3 /proc/loadavg)\""
} >"$out/host.csv"

# Per receiver and senders: the median over rounds (min-max), and the
# ratio to the bare receiver of the same round.
python3 - "$out/syslog.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rate = {(r["receiver"], int(r["senders"]), r["round"]): int(r["per_s"]) for r in rows}
def cell(v, fmt):
    return (fmt % statistics.median(v)) + " (" + (fmt % min(v)) + "-" + (fmt % max(v)) + ")"
for j in sorted({k[1] for k in rate}):
    print("%d sender(s)%30s %24s" % (j, "messages/s", "/ bare"))
    for rx in ("bare", "nslog-syslogd", "rsyslog"):
        v = [(rate[k], rate[("bare", j, k[2])]) for k in rate
             if k[0] == rx and k[1] == j]
        if v:
            print("  %-14s %24s %24s" % (rx, cell([a for a, _ in v], "%.0f"),
                                         cell([a / b for a, b in v], "%.3f")))
PY
cat "$out/rss.csv"
echo "syslog: guest $((end - start)) s; results in $out"
