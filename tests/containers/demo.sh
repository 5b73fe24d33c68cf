#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - what `make demo` shows, in the guest, for a person watching.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/demo.sh
#
# The module gives every IPC namespace its own four logs behind the same
# device nodes. This starts two "containers" and shows each writing and
# reading only its own records, the host seeing none of them, and a host
# collector reading them on purpose:
#
#   host (initial IPC ns)         web-1                    db-1
#   /dev/log_main ...             /dev/log/main ...        /dev/log/main ...
#      |                          (bind mounts of the host's nodes on a
#      |                           private tmpfs /dev)
#      v                                 v                        v
#   host's log set                web-1's log set          db-1's log set
#      nslogcat --ns PID  ---- NSLOG_IOC_OPEN_NS ----^------------^
#
# Each container is `unshare --ipc --pid --mount --uts --fork --mount-proc`
# running this script again ("container NAME READY"), without CAP_SYSLOG in
# its bounding set, as container runtimes start them.
#
# Every command shown with a prompt is run as shown; its output follows.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
top=$(cd "$here/../.." && pwd)
bin=$top/build/tools
export PATH=$bin:$bin/tests:$top/build/tests:$PATH
unset ANDROID_LOG_TAGS ANDROID_PRINTF_LOG NSLOG_DEV_DIR

prompt="host#"
section=0

heading() {
	section=$((section + 1))
	echo
	echo "=== $section. $* ==="
}

say() { echo "  $*"; }

# quote ARG: the argument as a shell would need it typed.
quote() {
	if [[ "$1" =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then
		printf '%s' "$1"
	else
		printf "'%s'" "${1//\'/\'\\\'\'}"
	fi
}

show() {
	local a line=

	for a in "$@"; do
		line+=" $(quote "$a")"
	done
	echo "$prompt$line"
}

# run COMMAND...: show it, run it; a failure ends the demo.
run() {
	show "$@"
	"$@"
}

# run_refused COMMAND...: show it and run it; it is meant to fail.
run_refused() {
	local rc=0

	show "$@"
	"$@" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		echo "demo.sh: '$*' was meant to fail" >&2
		exit 1
	fi
	echo "  (refused, exit status $rc)"
}

wait_for() {
	local i

	for ((i = 0; i < 200; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# ---------------------------------------------------------------------------
# Inside a container: pid 1 of new IPC, pid, mount and UTS namespaces.

# A private /dev: a tmpfs with the few nodes a shell needs and the host's
# log nodes bound at /dev/log/main ..., moved over the guest's /dev (which
# is the host's devtmpfs: a /dev/log made there would show on the host).
private_dev() {
	local d n b

	d=$(mktemp -d /run/nslog-demo-dev.XXXXXX)
	mount -t tmpfs -o mode=755 "dev-$1" "$d"
	for n in null zero full random urandom tty; do
		: >"$d/$n"
		mount --bind "/dev/$n" "$d/$n"
	done
	mkdir "$d/log"
	for b in main events radio system; do
		: >"$d/log/$b"
		mount --bind "/dev/log_$b" "$d/log/$b"
	done
	mount --move "$d" /dev
}

container() {
	local name=$1 ready=$2

	hostname "$name"
	private_dev "$name"
	prompt="[$name]#"
	say "A shell in new IPC, pid, mount and UTS namespaces, without CAP_SYSLOG."
	say "Its /dev is a private tmpfs with the host's log nodes bound at /dev/log/:"
	run ls -l /dev/log
	run readlink /proc/self/ns/ipc
	echo
	say "It writes with nslog (like Android's log command) ..."
	case "$name" in
	web-1)
		run nslog -t nginx "GET /index.html 200"
		run nslog -p w -t nginx "upstream slow: 1200 ms"
		;;
	*)
		run nslog -t postgres "database system is ready"
		run nslog -p e -t postgres "connection refused from 10.0.0.7"
		;;
	esac
	say "... and with liblog_calls, a C program linked with libnslog (Android's"
	say "liblog calls: __android_log_print, _buf_write, _bwrite, _btwrite). It"
	say "prints its pid and tid:"
	run liblog_calls "${name%-*}-app"
	echo
	say "Reading back with nslogcat (like logcat): only this container's records,"
	say "with pids as the container sees them:"
	run nslogcat -d -b all -v threadtime
	echo
	say "It cannot look at other namespaces' logs, nor list them:"
	run_refused nslogcat --ns "ipc:[4026531839]" -d
	run_refused cat /proc/nslogger/namespaces
	: >"$ready"
	exec sleep 1000
}

if [ "${1:-}" = container ]; then
	container "$2" "$3"
fi

# ---------------------------------------------------------------------------
# On the host.

tmp=$(mktemp -d /tmp/nslog-demo.$$.XXXXXX)
ctrs=()
cgroups_made=

cleanup() {
	local rc=$? p

	trap - EXIT
	# SIGKILL: unshare --fork ignores SIGTERM; --kill-child takes the
	# container's processes with it.
	for p in "${ctrs[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	rm -rf "$tmp"
	rmdir /run/nslog-demo-dev.* 2>/dev/null || true
	if [ -n "$cgroups_made" ]; then
		cgdelete -r -g pids:/demo 2>/dev/null || true
	fi
	exit "$rc"
}
trap cleanup EXIT

# start_container NAME: run one in the background, wait until it is done
# talking; sets $ctr_pid to its shell's pid as the host sees it.
start_container() {
	local name=$1 u

	unshare --ipc --pid --mount --uts --fork --mount-proc --kill-child \
		setpriv --bounding-set -syslog \
		bash "$self" container "$name" "$tmp/$name.ready" &
	u=$!
	ctrs+=("$u")
	if ! wait_for test -e "$tmp/$name.ready"; then
		echo "demo.sh: container $name did not get ready" >&2
		exit 1
	fi
	# The file has no newline at the end, so read fails; ctr_pid is set.
	read -r ctr_pid _ <"/proc/$u/task/$u/children" || [ -n "$ctr_pid" ]
}

echo "nslogger demo: Android's logger devices, one set of logs per container"
echo "(kernel $(uname -r); commands are shown after a prompt, then their output)"

heading "The devices"
say "Four logs, as on Android: main, events, radio, system. Mode 0622:"
say "anyone may write, only root (or the log group, by udev rule) may read."
run ls -l /dev/log_main /dev/log_events /dev/log_radio /dev/log_system
say "Ring sizes: the host's logs, and each container's (ns_size):"
run grep -H . /sys/module/nslogger/parameters/main_size \
	/sys/module/nslogger/parameters/ns_size

heading "The host writes a record"
run nslog -t init "host up, starting containers"
run nslogcat -d -v threadtime

heading "Container web-1"
start_container web-1
web=$ctr_pid

heading "Container db-1"
start_container db-1
db=$ctr_pid
dbid=$(stat -L -c %i "/proc/$db/ns/ipc")

heading "Back on the host: still only its own records"
say "Same device nodes, but the host's IPC namespace has its own log set:"
run nslogcat -d -b all -v threadtime

heading "Every log set, as the host's administrator sees it"
say "/proc/nslogger/namespaces (needs CAP_SYSLOG in the initial user namespace):"
say "one line per log: namespace id, owning user namespace, live or dead, open"
say "files, log, bytes allocated, bytes used, records written, records stored."
run cat /proc/nslogger/namespaces
say "The ids are the containers' IPC namespaces:"
run readlink "/proc/$web/ns/ipc" "/proc/$db/ns/ipc"

heading "A host collector reads a container's log"
say "nslogcat --ns PID|/proc/PID/ns/ipc|ID asks the kernel (ioctl"
say "NSLOG_IOC_OPEN_NS) for a read descriptor on that namespace's log; pids"
say "are shown as the collector's pid namespace sees them: the host's."
run nslogcat --ns "$web" -d -b all -v threadtime
echo
say "By namespace id, with version 2 headers: -v long shows the writer's euid:"
run nslogcat --ns "ipc:[$dbid]" -d -b main -v long --v2
say "The collector can follow a container too. One follows db-1 in the"
say "background while db-1 writes another record:"
echo "$prompt nslogcat --ns $db -v time &"
nslogcat --ns "$db" -v time >"$tmp/follow" 2>&1 &
follower=$!
ctrs+=("$follower")
wait_for grep -q "connection refused" "$tmp/follow"
run nsenter --target "$db" --ipc --pid --mount \
	nslog -t postgres "checkpoint complete"
wait_for grep -q "checkpoint complete" "$tmp/follow"
kill "$follower"
wait "$follower" 2>/dev/null || true
say "What the collector printed, live:"
sed 's/^/  | /' "$tmp/follow"

heading "A rate limit per cgroup"
say "Every record is charged to its writer's cgroup (cgroup v2). Two cgroups,"
say "made with libcgroup's cgcreate: 'flood' gets a rule of 2 records a second"
say "with bursts of 10 (nslogctl writes /proc/nslogger/limits); 'calm' has none."
grep -q " /sys/fs/cgroup cgroup2 " /proc/mounts ||
	mount -t cgroup2 none /sys/fs/cgroup
run cgcreate -g pids:/demo/flood -g pids:/demo/calm
cgroups_made=1
run nslogctl limit set /demo/flood records=2/s records_burst=10
run nslogctl limit show
run nslogcat -c
say "flood writes 64-byte records as fast as it can for one second, while calm"
say "writes 5 records; then flood writes once more, after its bucket refilled:"
show cgexec -g pids:/demo/calm rl_flood trickle main 5 150 calm "&"
cgexec -g pids:/demo/calm rl_flood trickle main 5 150 calm >"$tmp/calm" &
calm=$!
run cgexec -g pids:/demo/flood rl_flood flood main 1 64 flood
wait "$calm"
sleep 0.5
run cgexec -g pids:/demo/flood nslog -t flood "flood is over"
say "The log: the burst of 10 and what the refill let through, calm's 5 records"
say "all kept, and before each flood record that passed after drops, a notice"
say "with the drops' counts (the padding of flood's records is cut short here):"
show nslogcat -d -v brief
nslogcat -d -v brief | sed 's/floodx\{8,\}/floodxxxx.../'
say "The counters: records and bytes accepted and dropped, and the tokens left:"
run nslogctl stats
say "A container's root cannot change or even read the rules (root in a new"
say "user namespace here):"
run_refused unshare -U -r nslogctl limit clear /demo/flood

heading "Done"
for p in "${ctrs[@]}"; do
	kill -KILL "$p" 2>/dev/null || true
	wait "$p" 2>/dev/null || true
done
ctrs=()
say "Containers stopped. Their log sets stay readable by id for ns_grace_ms"
say "($(cat /sys/module/nslogger/parameters/ns_grace_ms) ms), then go with their namespaces."
echo
echo "nslogger demo finished."
