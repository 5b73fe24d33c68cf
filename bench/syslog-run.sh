#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# syslog-run.sh - the guest side of bench/syslog.sh:
#
#   syslog-run.sh SYSLOGBENCH NSLOG-SYSLOGD
#
# NSLOG_SYSLOG_ROUNDS rounds (default 2) of, with 1 and with 4 senders,
# COUNT datagrams (NSLOG_SYSLOG_COUNT, default 20000) of 96 bytes to each
# receiver in turn: a bare datagram receiver (syslogbench recv), nslog-syslogd
# (a socket tied to the guest's own set, as a container's is to its set)
# and rsyslog's imuxsock writing a file, if rsyslogd is here (journald does
# not run in the guest). The time is from the senders' start until the
# receiver has taken every message (nslog-syslogd's received count, the
# lines of rsyslog's file, polled every 5 ms). CSV to $NSLOG_OUT/syslog.csv
# (receiver,senders,round,count,ns,per_s), the receivers' memory to
# $NSLOG_OUT/rss.csv, the guest's particulars to $NSLOG_OUT/env.csv.
# Every process runs on vCPU 0: with two, TCG makes a sender and a receiver
# waking each other across vCPUs dear and erratic (docs/benchmarks.md, "A
# relayed record").

set -uo pipefail

sb=${1:?usage: syslog-run.sh SYSLOGBENCH NSLOG-SYSLOGD}
sl=${2:?usage: syslog-run.sh SYSLOGBENCH NSLOG-SYSLOGD}
out=${NSLOG_OUT:?run me through tests/containers/vm.sh --out}
rounds=${NSLOG_SYSLOG_ROUNDS:-2}
count=${NSLOG_SYSLOG_COUNT:-20000}
tmp=$(mktemp -d /tmp/syslog-bench.XXXXXX)
rs=$(command -v rsyslogd || true)
pids=()
cleanup() {
	local p

	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

now() { date +%s%N; }
on0=()
[ "$(nproc)" -le 1 ] || on0=(taskset -c 0)
status() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

# The listener, with the guest's init as the tied socket's owner.
"${on0[@]}" "$sl" --dir "$tmp/run" 2>"$tmp/sl.err" &
slpid=$!
pids+=("$slpid")
for _ in $(seq 200); do [ -S "$tmp/run/control" ] && break; sleep 0.01; done
received() { "$sl" ctl --dir "$tmp/run" list | awk -v n="$1" '$1 == n { for (i = 5; i <= NF; i++) if ($i ~ /^received=/) print substr($i, 10) }'; }

if [ -n "$rs" ]; then
	cat >"$tmp/rsyslog.conf" <<-CONF
	global(workDirectory="$tmp")
	module(load="imuxsock" SysSock.Use="off")
	input(type="imuxsock" Socket="$tmp/rs.sock" RateLimit.Interval="0")
	*.* action(type="omfile" file="$tmp/rs.out")
	CONF
	"${on0[@]}" "$rs" -n -f "$tmp/rsyslog.conf" -i "$tmp/rs.pid" 2>"$tmp/rs.err" &
	rspid=$!
	pids+=("$rspid")
	for _ in $(seq 500); do [ -S "$tmp/rs.sock" ] && break; sleep 0.01; done
fi

{
	echo "key,value"
	echo "kernel,$(uname -r)"
	echo "vcpus,$(nproc)"
	echo "cpu,\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')\""
	echo "max_dgram_qlen,$(cat /proc/sys/net/unix/max_dgram_qlen)"
	echo "rounds,$rounds"
	echo "count,$count"
	echo "rsyslog,${rs:-none}"
	echo "pinned,${on0[*]:-no}"
} >"$out/env.csv"

echo "receiver,senders,round,count,ns,per_s" >"$out/syslog.csv"
row() { echo "$1,$2,$3,$count,$4,$((count * 1000000000 / $4))" | tee -a "$out/syslog.csv"; }
n=0
for r in $(seq "$rounds"); do
	for j in 1 4; do
		"${on0[@]}" "$sb" recv "$tmp/bare.sock" "$count" >"$tmp/bare.out" &
		rp=$!
		for _ in $(seq 200); do grep -q ready "$tmp/bare.out" && break; sleep 0.01; done
		t0=$(now)
		"${on0[@]}" "$sb" send "$tmp/bare.sock" "$count" "$j"
		wait "$rp"
		row bare "$j" "$r" $(($(now) - t0))

		n=$((n + 1))
		"$sl" ctl --dir "$tmp/run" add "b$n" 1 >/dev/null
		t0=$(now)
		"${on0[@]}" "$sb" send "$tmp/run/b$n/log" "$count" "$j"
		while [ "$(received "b$n")" -lt "$count" ]; do sleep 0.005; done
		row nslog-syslogd "$j" "$r" $(($(now) - t0))
		"$sl" ctl --dir "$tmp/run" remove "b$n" >/dev/null

		if [ -n "$rs" ]; then
			base=$(wc -l <"$tmp/rs.out" 2>/dev/null || echo 0)
			t0=$(now)
			"${on0[@]}" "$sb" send "$tmp/rs.sock" "$count" "$j"
			while [ "$(wc -l <"$tmp/rs.out")" -lt $((base + count)) ]; do sleep 0.005; done
			row rsyslog "$j" "$r" $(($(now) - t0))
		fi
	done
done

{
	echo "process,vmrss_kb,vmhwm_kb"
	echo "nslog-syslogd,$(status "$slpid" VmRSS),$(status "$slpid" VmHWM)"
	[ -z "$rs" ] || echo "rsyslogd,$(status "$rspid" VmRSS),$(status "$rspid" VmHWM)"
} | tee "$out/rss.csv"
kill -USR1 "$slpid"
sleep 0.2
grep counts "$tmp/sl.err" | tail -n 4
