#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nslogd-run.sh - the guest side of bench/nslogd.sh:
#
#   nslogd-run.sh LOGDBENCH NSLOGD LOGD_TEST
#
# Runs in an IPC namespace of its own (it re-executes itself under
# unshare), as an Android container's logd would: nslogd, the writers and
# the bare receiver all see that namespace's log set, whose rings are
# ns_size (64 KiB) unless set otherwise.
#
#   nslogd   NSLOGD --socket-dir $tmp/nslogd: logdw, logd, logdr there
#   bare     LOGDBENCH recv on $tmp/bare/logdw, counting into a file
#   writers  LOGDBENCH send (to either socket) or dev (/dev/log_main)
#
# Rounds (NSLOG_LOGDB_ROUNDS, default 5): in each, for 1, 2 and 4 writer
# threads, COUNT records (NSLOG_LOGDB_COUNT, default 20000) through nslogd,
# through the bare receiver and straight to the node, one after the
# other; the target that leads turns each round.  CSV to
# $NSLOG_OUT/nslogd.csv.  Then SIGUSR1's counters of nslogd and the memory
# of both receivers (rss.csv), and, unless NSLOG_LOGDB_RSS=0, a fresh nslogd
# for each main ring size, 64 KiB and 16 MiB: its memory at start, once the
# ring has wrapped twice, and after getStatistics (timed).
# NSLOG_LOGDB_PERF=LINES: then perf record -a over a run of 4 threads
# through nslogd and one through the bare receiver, the top LINES commands
# and symbols of each in perf-nslogd.txt and perf-bare.txt.
# net.unix.max_dgram_qlen is NSLOG_LOGDB_QLEN (default 600, what Android's
# init.rc writes; the kernel's default is 10).

set -uo pipefail

lb=${1:?usage: nslogd-run.sh LOGDBENCH NSLOGD LOGD_TEST}
nslogd=${2:?usage: nslogd-run.sh LOGDBENCH NSLOGD LOGD_TEST}
ldt=${3:?usage: nslogd-run.sh LOGDBENCH NSLOGD LOGD_TEST}
out=${NSLOG_OUT:?run me through tests/containers/vm.sh --out}
rounds=${NSLOG_LOGDB_ROUNDS:-5}
count=${NSLOG_LOGDB_COUNT:-20000}
qlen=${NSLOG_LOGDB_QLEN:-600}
params=/sys/module/nslogger/parameters
node=/dev/log_main

if [ -z "${NSLOG_LOGDB_IPC:-}" ]; then
	NSLOG_LOGDB_IPC=1 exec unshare --ipc "$0" "$@"
fi

tmp=/tmp/nslogd-bench.$$
pids=()
rc=0

say() {
	echo "nslogd-bench: $*"
}

cleanup() {
	local p

	for p in "${pids[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# wait_sock PATH: until the socket exists, at most 10 s.
wait_sock() {
	local _

	for _ in $(seq 100); do
		[ -S "$1" ] && return 0
		sleep 0.1
	done
	say "no socket $1"
	return 1
}

# start_nslogd DIR: an nslogd with its sockets in DIR; its pid in $nslogd_pid.
start_nslogd() {
	mkdir -p "$1"
	"$nslogd" --socket-dir "$1" --property-socket "" 2>>"$out/nslogd.err" &
	nslogd_pid=$!
	pids+=("$nslogd_pid")
	wait_sock "$1/logdw"
}

stop() {
	kill -TERM "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# mem WHAT RING PID: a line of rss.csv, from /proc/PID/status.
mem() {
	awk -v what="$1" -v ring="$2" '
		/^VmRSS:/ { rss = $2 } /^VmHWM:/ { hwm = $2 }
		END { print what "," ring "," rss "," hwm }' "/proc/$3/status" \
		>>"$out/rss.csv"
}

# ctl DIR COMMAND: one control command to the nslogd of DIR, its reply.
ctl() {
	"$ldt" ctl -s "$1" "$2"
}

mkdir -p "$tmp"
rm -f "$out"/*.csv "$out/nslogd.err"
echo 16M >"$params/ns_max_size" || rc=1
echo "$qlen" >/proc/sys/net/unix/max_dgram_qlen || rc=1

{
	echo "key,value"
	echo "kernel,$(uname -r)"
	echo "vcpus,$(nproc)"
	echo "cpu,\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')\""
	echo "cmdline,\"$(cat /proc/cmdline)\""
	echo "max_dgram_qlen,$(cat /proc/sys/net/unix/max_dgram_qlen)"
	echo "ns_size,$(cat $params/ns_size)"
	echo "ns_max_size,$(cat $params/ns_max_size)"
	echo "ipc_ns,$(readlink /proc/self/ns/ipc)"
	echo "rounds,$rounds"
	echo "count,$count"
} >"$out/env.csv"

# --- records per second --------------------------------------------------
start_nslogd "$tmp/nslogd" || exit 1
main_pid=$nslogd_pid
mkdir -p "$tmp/bare"
"$lb" recv -s "$tmp/bare/logdw" -c "$tmp/bare/count" &
bare_pid=$!
pids+=("$bare_pid")
wait_sock "$tmp/bare/logdw" || exit 1
echo "main_ring,$(ctl "$tmp/nslogd" 'getLogSize 0')" >>"$out/env.csv"

run_one() {	# TARGET THREADS LABEL
	case $1 in
	nslogd)	"$lb" send -s "$tmp/nslogd/logdw" -c ring:$node -j "$2" \
			-n "$count" -p "$main_pid" -l "$3" -N nslogd ;;
	bare)	"$lb" send -s "$tmp/bare/logdw" -c "file:$tmp/bare/count" \
			-j "$2" -n "$count" -p "$bare_pid" -l "$3" -N bare ;;
	dev)	"$lb" dev -d $node -c ring:$node -j "$2" -n "$count" \
			-l "$3" -N dev ;;
	esac
}

"$lb" -H >"$out/nslogd.csv"
# Warm-up, not kept: page cache, the receivers' buffers touched.
for t in nslogd bare dev; do
	run_one $t 1 warm >/dev/null || rc=1
done
targets=(nslogd bare dev)
for r in $(seq "$rounds"); do
	for th in 1 2 4; do
		for t in "${targets[@]}"; do
			run_one "$t" "$th" "r$r" >>"$out/nslogd.csv" || rc=1
		done
	done
	targets=("${targets[@]:1}" "${targets[0]}")
	say "round $r done"
done

# Where the time goes: perf over every CPU while 4 threads write through
# nslogd, then through the bare receiver (NSLOG_LOGDB_PERF=LINES).
if [ -n "${NSLOG_LOGDB_PERF:-}" ]; then
	"$lb" -H >"$out/perf.csv"
	for t in nslogd bare; do
		c=ring:$node
		[ $t = bare ] && c=file:$tmp/bare/count
		perf record -q -a -e cpu-clock -F 10000 -o "$tmp/perf.data" -- \
			"$lb" send -s "$tmp/$t/logdw" -c "$c" -j 4 \
			-n $((count * 5)) -l perf -N $t >>"$out/perf.csv" || rc=1
		{
			echo "== $t: by command"
			perf report -i "$tmp/perf.data" --stdio --no-children \
				--sort comm -g none 2>/dev/null | grep -v -e '^$' -e '^#'
			echo "== $t: by command and symbol"
			perf report -i "$tmp/perf.data" --stdio --no-children \
				--sort comm,sym -g none 2>/dev/null |
				grep -v -e '^$' -e '^#' | sed -n "1,${NSLOG_LOGDB_PERF}p"
		} >"$out/perf-$t.txt"
	done
fi

kill -USR1 "$main_pid"
sleep 0.5
echo "what,ring_bytes,vmrss_kb,vmhwm_kb" >"$out/rss.csv"
mem nslogd-after-rate "$(ctl "$tmp/nslogd" 'getLogSize 0')" "$main_pid"
mem bare-after-rate 0 "$bare_pid"
stop "$main_pid"
stop "$bare_pid"

# --- nslogd's memory at 64 KiB and at 16 MiB -----------------------------
if [ "${NSLOG_LOGDB_RSS:-1}" = 1 ]; then
	echo "ring_bytes,records_written,statistics_ms,statistics_bytes" \
		>"$out/statistics.csv"
	"$lb" -H >"$out/fill.csv"
	for size in 65536 16777216; do
		d=$tmp/rss-$size
		start_nslogd "$d" || { rc=1; continue; }
		got=$(ctl "$d" "setLogSize 0 $size")
		ring=$(ctl "$d" 'getLogSize 0')
		[ "$got" = success ] && [ "$ring" = "$size" ] ||
			{ say "setLogSize 0 $size: $got, size $ring"; rc=1; }
		mem start "$ring" "$nslogd_pid"
		# Twice the ring's worth: a record takes more than 100 bytes.
		n=$((2 * size / 100 + 1000))
		"$lb" send -s "$d/logdw" -c ring:$node -j 4 -n $n -w 60000 \
			-l fill -N "fill-$size" >>"$out/fill.csv" || rc=1
		mem filled "$ring" "$nslogd_pid"
		t0=$(date +%s%N)
		"$ldt" ctl -s "$d" -L 'getStatistics 0' >"$out/statistics-$size.txt" || rc=1
		t1=$(date +%s%N)
		mem statistics "$ring" "$nslogd_pid"
		echo "$ring,$n,$(((t1 - t0) / 1000000)),$(wc -c <"$out/statistics-$size.txt")" \
			>>"$out/statistics.csv"
		stop "$nslogd_pid"
	done
fi
exit $rc
