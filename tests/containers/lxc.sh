#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lxc.sh - an LXC application container with the nodes at /dev/log/*.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh lxc
#
#   guest (host of the container)           container nslog-PID (lxc-execute)
#   -----------------------------           ---------------------------------
#   /dev/log_main ...  -- lxc.mount.entry -> /dev/log/main ... (bind)
#   initial IPC namespace, its own records   own IPC, pid, mount, uts ns;
#                                             rootfs dir:/ read-only,
#                                             CAP_SYSLOG dropped
#   nslogcat --ns ID, ns_test collect -i ID   nslog, nslogcat, ns_test
#   (host collection, live and after exit)     write and read privately
#
# The container is the guest's own root file system, read-only, so the
# project's tools (over 9p) run in it unchanged; $sync (a directory under
# the guest's /tmp, bind-mounted into it) carries what it prints and when
# it may exit.  The container's root keeps uid 0 but loses CAP_SYSLOG
# (lxc.cap.drop), so reading all of its own records comes from the node's
# group (root), and host collection is refused.  Skips, saying why, when
# lxc-execute is missing or cannot start a container in this guest.
# The bash -c scripts below take their arguments as $1...: single quotes wanted.
# shellcheck disable=SC2016
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"
# lxc-start and lxc-stop take their time under emulation.
wait_for_s=30

top=$(cd "$(dirname "$0")/../.." && pwd)
T=$top/build/tests/ns_test
nslog=$top/build/tools/nslog
nslogcat=$top/build/tools/nslogcat
name=nslog-$$
lxcpath=/var/lib/lxc
dir=$lxcpath/$name
tmp=$(mktemp -d "/tmp/nslog-lxc.$$.XXXXXX")
sync=$tmp/sync
params=/sys/module/nslogger/parameters
cpid=
grace0=

cleanup() {
	local rc=$?

	trap - EXIT
	touch "$sync/go" 2>/dev/null || true
	if [ -n "$cpid" ]; then
		timeout 10 lxc-stop -n "$name" -P "$lxcpath" -k >/dev/null 2>&1 || true
		kill -KILL "$cpid" 2>/dev/null || true
		wait "$cpid" 2>/dev/null || true
	fi
	[ -z "$grace0" ] || echo "$grace0" >"$params/ns_grace_ms" 2>/dev/null || true
	rm -rf "$tmp" "$dir"
	exit "$rc"
}
trap cleanup EXIT

# Say why LXC cannot run here, with what lxc logged, and stop.
skip_all() {
	skip "LXC container" "$1"
	[ ! -f "$tmp/lxc.out" ] || sed 's/^/#   lxc-execute: /' "$tmp/lxc.out"
	[ ! -f "$dir/lxc.log" ] || tail -n 20 "$dir/lxc.log" | sed 's/^/#   lxc.log: /'
	exit 0
}

need containers lxc-execute
[ -c /dev/log_main ] || skip_all "no /dev/log_main: the module is not loaded"

mkdir -p "$dir" "$sync"
chmod 755 "$tmp" "$sync"
# The documented way (docs/containers.md): one lxc.mount.entry per node,
# the host's /dev/log_NAME at the container's /dev/log/NAME.
cat >"$dir/config" <<EOF
lxc.uts.name = $name
lxc.rootfs.path = dir:/
lxc.rootfs.options = ro
lxc.net.0.type = empty
lxc.autodev = 1
lxc.mount.auto = proc:mixed sys:ro
lxc.mount.entry = /dev/log_main dev/log/main none bind,create=file 0 0
lxc.mount.entry = /dev/log_events dev/log/events none bind,create=file 0 0
lxc.mount.entry = /dev/log_radio dev/log/radio none bind,create=file 0 0
lxc.mount.entry = /dev/log_system dev/log/system none bind,create=file 0 0
lxc.mount.entry = $sync ${sync#/} none bind 0 0
lxc.cap.drop = syslog
lxc.apparmor.profile = unconfined
lxc.log.file = $dir/lxc.log
lxc.log.level = INFO
EOF

grace0=$(cat "$params/ns_grace_ms")
# Long enough for the checks between the container's exit and the last
# collection (runtime-tunable, 0644); no check depends on the clock.
echo 60000 >"$params/ns_grace_ms"
"$T" flush
wh=$("$T" write host-before-lxc)

# In the container: the nodes, its IPC namespace id, records from ns_test
# and nslog, what ns_test and nslogcat read back, refused host collection;
# then wait (for the host's checks) until $sync/go appears.
lxc-execute -n "$name" -P "$lxcpath" -- /bin/bash -c '
	T=$1 nslog=$2 nslogcat=$3 sync=$4
	out=$sync/out
	{
	for l in main events radio system; do
		[ -c /dev/log/$l ] && echo "node $l"
	done
	[ -e /dev/log_main ] && echo "host node visible"
	l=$(readlink /proc/self/ns/ipc); l=${l#ipc:[}; echo "id ${l%]}"
	echo "pid $$"
	w=$("$T" write lxc-1 lxc-2) && echo "w $w"
	"$nslog" -t lxctag "from nslog in lxc" && echo "nslog ok"
	"$T" read -v 2 | sed "s/^/r /"
	"$nslogcat" -d -v tag -b main | sed "s/^/c /"
	"$T" collect -i 4026531839 -e EPERM && echo "collect host EPERM"
	"$T" collect -f /proc/self/ns/ipc -e EPERM && echo "collect own EPERM"
	"$T" proc -e EPERM && echo "proc EPERM"
	"$T" flush && echo "flushed own"
	"$T" read | sed "s/^/after flush /"
	# Priority byte 4 first, so that nslogcat filters it as tag lxc-last.
	w=$("$T" write "$(printf "\\004")lxc-last") && echo "w2 $w"
	"$nslog" -t lxctag "lxc-nslog-last" && echo "nslog2 ok"
	} >"$out.tmp" 2>&1
	mv "$out.tmp" "$out"
	while [ ! -e "$sync/go" ]; do sleep 0.1; done' \
	_ "$T" "$nslog" "$nslogcat" "$sync" >"$tmp/lxc.out" 2>&1 &
cpid=$!

if ! wait_for test -e "$sync/out"; then
	if kill -0 "$cpid" 2>/dev/null; then
		skip_all "the container started but printed nothing within 30 s"
	fi
	rc=0
	wait "$cpid" || rc=$?
	cpid=
	why=$(grep -m1 -E 'ERROR' "$dir/lxc.log" 2>/dev/null || true)
	skip_all "lxc-execute failed (exit $rc): ${why:-see below}"
fi
out=$sync/out
sed 's/^/# container: /' "$out"
got() { sed -n "s/^$1 //p" "$out"; }

lid=$(got id)
w=$(got w)
check "LXC: the nodes are at /dev/log/main, events, radio, system" \
	test "$(got node | tr '\n' ' ')" = "main events radio system "
check "LXC: the host's /dev/log_main is not in the container" \
	test -z "$(grep -x 'host node visible' "$out" || true)"
check "LXC: the container has its own IPC namespace" \
	test -n "$lid" -a "$lid" != 4026531839
check "LXC: the container has its own pid namespace (its shell is pid $(got pid))" \
	test -n "$(got pid)" -a "$(got pid)" -lt 100
check "LXC: nslog wrote through /dev/log/main" grep -qx 'nslog ok' "$out"
expect "LXC: the container reads exactly its own records, with its own pids" \
	"$w lxc-1"$'\n'"$w lxc-2" bash -c 'sed -n "s/^r //p" "$1" | head -n 2' _ "$out"
check "LXC: ... then nslog's record and nothing else" \
	test "$(got r | sed -n '3,$p' | grep -c 'lxctag')" = 1 -a "$(got r | wc -l)" = 3
check "LXC: nslogcat in the container shows nslog's record" \
	grep -qx 'c I/lxctag  : from nslog in lxc' "$out"
check "LXC: without CAP_SYSLOG, NSLOG_IOC_OPEN_NS on the host's id: EPERM" \
	grep -qx 'collect host EPERM' "$out"
check "LXC: ... and on its own nsfs file: EPERM" grep -qx 'collect own EPERM' "$out"
check "LXC: /proc/nslogger/namespaces: EPERM" grep -qx 'proc EPERM' "$out"
check "LXC: root in the container flushes its own log (node group)" \
	test "$(grep -c '^flushed own$' "$out")" = 1 -a -z "$(got 'after flush')"
expect "LXC: the host sees only its own logs" "${wh% *} 0 host-before-lxc" "$T" read -v 2

# Host collection while the container runs.
wl=$(got w2)
check "LXC: /proc/nslogger/namespaces lists the container's set as live" \
	test "$(awk -v id="$lid" '$1 == id && $5 == "main" { print $3 }' /proc/nslogger/namespaces)" = live
"$T" collect -i "$lid" -v 2 >"$tmp/live" 2>&1 || true
expect "LXC: ns_test collect -i ID on the host reads exactly the container's two records" \
	'\x04lxc-last'$'\n''\x04lxctag\x00lxc-nslog-last\x00' bash -c 'cut -d" " -f4- "$1"' _ "$tmp/live"
read -r hpid _ heuid _ <"$tmp/live" || true
check "LXC: ... with the writer's host pid (not its container pid ${wl%% *}) and euid 0" \
	test -n "${hpid:-}" -a "${hpid:-0}" != "${wl%% *}" -a "${heuid:-}" = 0
expect "LXC: nslogcat --ns ID on the host reads the container's log" \
	"lxc-nslog-last" bash -c '"$1" -d --ns "$2" -b main -v raw -s lxctag' _ "$nslogcat" "$lid"
expect "LXC: nslogcat --ns PID (the container's init) reads it too" \
	"lxc-nslog-last" bash -c '"$1" -d --ns "$2" -b main -v raw -s lxctag' _ "$nslogcat" \
	"$(lxc-info -n "$name" -P "$lxcpath" -p -H 2>/dev/null || echo none)"

# And after it exited, during the grace period.
touch "$sync/go"
rc=0
wait "$cpid" || rc=$?
cpid=
check "LXC: the container exited cleanly" test "$rc" = 0
check "LXC: its set is dead but kept" wait_for bash -c \
	'[ "$(awk -v id="$1" '\''$1 == id && $5 == "main" { print $3 }'\'' /proc/nslogger/namespaces)" = dead ]' _ "$lid"
expect "LXC: nslogcat --ns ID reads the exited container's last record" \
	"lxc-nslog-last" bash -c '"$1" -d --ns "$2" -b main -v raw -s lxctag' _ "$nslogcat" "$lid"
expect "LXC: the host's own log still has only its record" \
	"${wh% *} 0 host-before-lxc" "$T" read -v 2

echo "lxc.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
