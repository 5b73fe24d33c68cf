#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lifecycle.sh - load, use and unload the module many times, in the guest.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh lifecycle
#
# 1. rmmod is refused while a log file is open: on the host, in an IPC
#    namespace, and under a reader blocked in read(); it works once they
#    are closed, and leaves no node, /proc/nslogger or /sys/module entry.
# 2. NSLOG_LIFECYCLE_CYCLES (default 100; 3 with NSLOG_REPEAT=once) times: insmod, write records from
#    the host and from two IPC namespaces that outlive every module
#    instance (a bash in each, fed through a FIFO, so a cycle execs few
#    programs), read the host's set back (the namespaces' every 5th cycle)
#    and compare it with what was written, rmmod.
# 3. With the module out, the kernel's unreclaimable slab and vmalloc use
#    are back to what they were before the cycles, within LEAK_KB (a leak
#    of a ring or of ~10 KB a cycle shows; small leaks are kmemleak's job),
#    and on a kernel with kmemleak (make test-debug) a scan finds nothing
#    new.
#
# On exit the module is loaded again as the harness had it ($NSLOG_PARAMS),
# for the harness's own rmmod and dmesg check.

# The bash -c scripts below take their arguments as $1...: single quotes wanted.
# shellcheck disable=SC2016
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
nslogcat=$top/build/tools/nslogcat
ko=${NSLOG_KO:?NSLOG_KO is not set}
cycles=${NSLOG_LIFECYCLE_CYCLES:-$(repeat 100 3)}
leak_kb=1024
kmemleak=/sys/kernel/debug/kmemleak
tmp=$(mktemp -d "/tmp/nslog-lifecycle.$$.XXXXXX")
ns_pid=()
restored=0

cleanup() {
	local rc=$?

	trap - EXIT
	exec 3>&- 4>&- 5>&- 6>&-
	stop_bg
	if [ "$restored" = 0 ]; then
		if loaded; then rmmod nslogger 2>/dev/null || true; fi
		# shellcheck disable=SC2086 # word splitting is wanted
		insmod "$ko" ${NSLOG_PARAMS:-} ||
			echo "lifecycle.sh: cannot reload $ko" >&2
	fi
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT

load() {
	# shellcheck disable=SC2086 # word splitting is wanted
	insmod "$ko" ${NSLOG_PARAMS:-}
}

gone() {
	! loaded && [ ! -e /dev/log_main ] && [ ! -e /proc/nslogger ] &&
		[ ! -e /sys/module/nslogger ]
}

# One Android logger record on stdout: priority, tag, NUL, message, NUL.
# bash's printf writes it with one write(), as one record.
record() {
	printf '\x04%s\x00%s\x00' "$1" "$2"
}

# --- 1. rmmod with files open ------------------------------------------------

loaded || load
check "the module is loaded to begin with" loaded

# Every file_operations of the module names THIS_MODULE as its owner, so an
# open file pins the module: rmmod must be refused, never allowed with the
# file left behind (a later write or close would run freed code).
exec 3>/dev/log_main
if rmmod nslogger 2>"$tmp/err"; then
	not_ok "rmmod is refused while the host has /dev/log_main open (it was allowed)"
	exec 3>&-
	load
else
	ok "rmmod is refused while the host has /dev/log_main open"
	read -r refcnt </sys/module/nslogger/refcnt
	check "the open file holds a module reference (refcnt $refcnt)" test "$refcnt" -gt 0
	check "the open file still takes a record" eval 'record t "still open" >&3'
	exec 3>&-
fi

unshare --ipc bash -c 'exec 3>/dev/log_events; echo >"$1"; exec sleep 1000' _ "$tmp/held" &
bg+=($!)
for _ in {1..100}; do [ -s "$tmp/held" ] && break; sleep 0.1; done
if rmmod nslogger 2>/dev/null; then
	not_ok "rmmod is refused while a process in an IPC namespace has a log open"
	load
else
	ok "rmmod is refused while a process in an IPC namespace has a log open"
fi
stop_bg

# A reader blocked in read(): nslogcat follows (no -d) and waits for records.
# Waited for until it has the log open, not for a fixed time: on a loaded
# guest its exec alone can take a second.
opened() {	# PID: it has /dev/log_main open
	local f

	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f")" = /dev/log_main ] && return 0
	done
	return 1
}
"$nslogcat" -b main -v raw >"$tmp/follow" 2>&1 &
bg+=($!)
wait_for_s=60 wait_for opened "$!" || true
record t "for the blocked reader" >/dev/log_main
wait_for_s=60 wait_for grep -q "blocked reader" "$tmp/follow" || true
check "a following reader got a record" grep -q "for the blocked reader" "$tmp/follow"
if rmmod nslogger 2>/dev/null; then
	not_ok "rmmod is refused under a reader blocked in read()"
	load
else
	ok "rmmod is refused under a reader blocked in read()"
fi
stop_bg

rmmod_ok=0
for _ in {1..20}; do
	if rmmod nslogger 2>/dev/null; then rmmod_ok=1; break; fi
	sleep 0.1
done
check "rmmod works once every file is closed" test $rmmod_ok = 1
check "no node, /proc/nslogger or /sys/module/nslogger is left" gone

# --- 2. load/unload cycles with traffic ---------------------------------------

# Two IPC namespaces, each with a bash that writes on request: it reads
# "CYCLE COUNT" from one FIFO, writes COUNT records to log_main (opened
# anew: the module may be a new instance) and answers "done CYCLE" on the
# other. FIFOs and read -t, not polling: under TCG every exec of sleep
# costs about 0.1 s.
ns_writer='
	exec 7<>"$1" 8<>"$2"
	echo ready >&8
	while read -r c n <&7; do
		i=0
		{
			while [ $i -lt "$n" ]; do
				printf "\x04ns%s\x00cycle %s record %s\x00" "$3" "$c" "$i" >&3
				i=$((i + 1))
			done
		} 3>/dev/log_main && echo "done $c" >&8 || echo "fail $c" >&8
	done'
for n in 0 1; do
	mkfifo "$tmp/cmd$n" "$tmp/ack$n"
	unshare --ipc bash -c "$ns_writer" _ "$tmp/cmd$n" "$tmp/ack$n" "$n" &
	bg+=($!)
	ns_pid[n]=$!
done
# The bash above opens both ends of its FIFOs, so these do not block.
exec 5>"$tmp/cmd0" 6>"$tmp/cmd1" 3<"$tmp/ack0" 4<"$tmp/ack1"
for n in 0 1; do
	got=
	read -r -t 30 got <&$((3 + n)) || true
	[ "$got" = ready ] || not_ok "the writer in IPC namespace $n started"
done

# The first cycle warms the kernel up (caches, sysfs, kernfs) and is not
# counted in the baseline.
per_ns=3
per_host=4
cycle() {	# N: one load, traffic, check, unload; 0 if all went well
	local c=$1 n i want got

	load || { echo "# cycle $c: insmod failed"; return 1; }
	for ((i = 0; i < per_host; i++)); do
		record host "cycle $c record $i" >/dev/log_main || return 1
	done
	for n in 0 1; do
		echo "$c $per_ns" >&$((5 + n))
	done
	for n in 0 1; do
		read -r -t 30 got <&$((3 + n)) || got=
		[ "$got" = "done $c" ] ||
			{ echo "# cycle $c: namespace $n answered '$got'"; return 1; }
	done
	want=$(for ((i = 0; i < per_host; i++)); do echo "cycle $c record $i"; done)
	got=$("$nslogcat" -d -b main -v raw)
	[ "$got" = "$want" ] || { echo "# cycle $c: host read '$got'"; return 1; }
	# The namespaces' sets are read back every 5th cycle: two execs of
	# nslogcat are most of a cycle's time under TCG.
	for n in 0 1; do
		[ $((c % 5)) = 0 ] || [ "$c" -le 1 ] || break
		want=$(for ((i = 0; i < per_ns; i++)); do echo "cycle $c record $i"; done)
		got=$("$nslogcat" --ns "${ns_pid[n]}" -d -b main -v raw)
		[ "$got" = "$want" ] ||
			{ echo "# cycle $c: namespace $n read '$got'"; return 1; }
	done
	rmmod nslogger || { echo "# cycle $c: rmmod failed"; return 1; }
	gone || { echo "# cycle $c: something is left after rmmod"; return 1; }
}

if cycle 0; then
	ok "a warm-up cycle: records from the host and two namespaces read back"
else
	not_ok "a warm-up cycle: records from the host and two namespaces read back"
fi
if loaded; then rmmod nslogger || true; fi

if [ -e "$kmemleak" ]; then
	# Forget what boot and the warm-up left, so only the cycles count.
	echo scan >"$kmemleak"
	echo clear >"$kmemleak"
fi
settle_memory
slab0=$(meminfo SUnreclaim)
vmalloc0=$(meminfo VmallocUsed)

read -r up0 _ </proc/uptime
bad=0
for ((c = 1; c <= cycles; c++)); do
	if ! cycle "$c"; then
		bad=$c
		break
	fi
done
read -r up1 _ </proc/uptime
echo "# the cycles took ${up0%.*} s -> ${up1%.*} s of guest uptime"
if [ $bad = 0 ]; then
	ok "$cycles load/unload cycles, each with $per_host host and 2x$per_ns namespace records (read back every 5th)"
else
	not_ok "$cycles load/unload cycles with traffic (cycle $bad failed)"
fi
if loaded; then rmmod nslogger || true; fi

settle_memory
slab1=$(meminfo SUnreclaim)
vmalloc1=$(meminfo VmallocUsed)
echo "# unreclaimable slab ${slab0} kB -> ${slab1} kB, vmalloc ${vmalloc0} kB -> ${vmalloc1} kB"
check "unreclaimable slab is back to baseline within ${leak_kb} kB" \
	test $((slab1 - slab0)) -lt $leak_kb
check "vmalloc use is back to baseline within ${leak_kb} kB" \
	test $((vmalloc1 - vmalloc0)) -lt $leak_kb

krc=0
kmemleak_scan "$tmp/leaks" || krc=$?
if [ "$krc" -eq 2 ]; then
	skip "kmemleak finds no leak after the cycles" "no $kmemleak (not the debug kernel)"
elif [ "$krc" -ne 0 ] || [ -s "$tmp/leaks" ]; then
	not_ok "kmemleak finds no leak after the cycles"
	sed 's/^/#   /' "$tmp/leaks" | head -n 60
else
	ok "kmemleak finds no leak after the cycles"
fi

stop_bg
load
restored=1

echo "lifecycle.sh: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
