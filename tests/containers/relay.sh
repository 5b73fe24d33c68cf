#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# relay.sh - NSLOG_IOC_RELAY: a logd-protocol relay storing other processes'
# records, in the guest.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh relay
#
#   host (initial user, IPC, pid ns; cgroup /relay.PID) ----------------------+
#   |  /proc/nslogger/limits: flood 5 records an hour, relay 1 an hour         |
#   |  host collector: relay_test read -i NSID (NSLOG_IOC_OPEN_NS)             |
#   |  host relay: -f WRITER_SET into a container writer's own set             |
#   |                                                                          |
#   |  container A: user ns (0 -> 100000, 65536 ids) + ipc + pid, init "hold"  |
#   |  |  relay (root)   in cgroup relay   relay_test relay -p WRITER ...      |
#   |  |  flood (uid 1000) in cgroup flood  a "hold": a process to name       |
#   |  |  quiet (uid 1000) in cgroup quiet  likewise, no rule                  |
#   |  |  other (root, its own ipc ns)      a process of another IPC ns        |
#   |  |  nodes: $tmp/nodes/log_main, owned by A's root                         |
#   |  container B: user ns (0 -> 200000) + ipc + pid: another tenant's root   |
#   +--------------------------------------------------------------------------+
#
# Writers never write: a relay names them by pid, as SCM_CREDENTIALS would.
# Every refusal is checked for its errno and for nothing stored (the host
# collector's record count of A's set before and after).
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/build/tests/relay_test
NS=$top/build/tests/ns_test
ko=${NSLOG_KO:?NSLOG_KO is not set}
tmp=$(mktemp -d "/tmp/nslog-relay.$$.XXXXXX")
chmod 755 "$tmp"
cgfs=/sys/fs/cgroup
base=/relay.$$
cg=$cgfs$base
nodes=$tmp/nodes
limits=/proc/nslogger/limits
CLAIM_NS=1700000000123456789

need containers nsenter
[ -x "$R" ] && [ -x "$NS" ] || { not_ok "relay.sh: build/tests/relay_test or ns_test missing"; exit 1; }

field() { awk -v i="$2" '{ print $i }' "$tmp/$1"; }

cleanup() {
	local rc=$? f

	trap - EXIT
	# The containers' inits take everything in their pid namespaces with
	# them; then the processes started here.
	for f in a-init b-init; do
		[ -s "$tmp/$f" ] && kill -KILL "$(field "$f" 3)" 2>/dev/null
	done
	stop_bg
	umount "$nodes" 2>/dev/null || true
	if [ -d "$cg" ]; then
		find "$cg" -depth -type d -exec rmdir {} + 2>/dev/null || true
	fi
	rm -rf "$tmp"
	if loaded; then rmmod nslogger || true; fi
	# shellcheck disable=SC2086 # word splitting is wanted
	insmod "$ko" ${NSLOG_PARAMS:-} || echo "relay.sh: cannot reload $ko" >&2
	exit "$rc"
}
trap cleanup EXIT

unload
insmod "$ko"
udevadm settle 2>/dev/null || true

mkdir "$cg" "$cg/init" "$cg/relay" "$cg/flood" "$cg/quiet" "$cg/other" "$cg/b"

# incg CGROUP CMD...: run CMD in CGROUP (a folder under $cg).
incg() { local c=$1; shift; sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cg/$c" "$@"; }

# hold NAME CGROUP CMD...: start a process that prints "PID EUID HOSTPID"
# into $tmp/NAME and stays; waits for the line.
hold() {
	local name=$1 c=$2

	shift 2
	incg "$c" "$@" >"$tmp/$name" &
	bg+=($!)
	wait_for test -s "$tmp/$name" || { not_ok "$name started"; exit 1; }
}

# The containers' inits, then nsenter into them (root inside, or -S/-G).
hold a-init init "$NS" userns -m 0:100000:65536 -x ipc -x pid -- "$R" hold
hold b-init b "$NS" userns -m 0:200000:65536 -x ipc -x pid -- "$R" hold
a=$(field a-init 3)
b=$(field b-init 3)
in_a() { local c=$1; shift; incg "$c" nsenter -t "$a" -U -i -p "$@"; }
in_b() { incg b nsenter -t "$b" -U -i -p "$@"; }
a_ns=$(stat -L -c %i "/proc/$a/ns/ipc")

# A's nodes, owned by its root: /tmp is nodev, so a tmpfs of our own.
mkdir "$nodes"
mount -t tmpfs -o mode=755 nslog-nodes "$nodes"
majmin=$(stat -c '%t %T' /dev/log_main)
mknod -m 0660 "$nodes/log_main" c $((16#${majmin% *})) $((16#${majmin#* }))
chown 100000:100000 "$nodes/log_main"
node=$nodes/log_main
# One anyone in A may open for writing, as the devices are (0622).
mknod -m 0622 "$nodes/log_main_w" c $((16#${majmin% *})) $((16#${majmin#* }))
chown 100000:100000 "$nodes/log_main_w"

hold flood flood nsenter -t "$a" -U -i -p -S 1000 -G 1000 -- "$R" hold
hold quiet quiet nsenter -t "$a" -U -i -p -S 1000 -G 1000 -- "$R" hold
hold other other nsenter -t "$a" -U -i -p -- unshare --ipc "$R" hold
flood=$(field flood 1)
quiet=$(field quiet 1)
other=$(field other 1)
flood_host=$(field flood 3)
quiet_host=$(field quiet 3)

check "writers have pids of their own in A ($flood $quiet $other)" \
	test "$flood" -gt 1 -a "$quiet" -gt 1 -a "$flood" != "$flood_host"

collect() { "$R" read -i "$a_ns"; }
count() { collect | wc -l; }

# --- relaying and what readers see -----------------------------------------
echo "set $base/flood records=5/1h records_burst=5" >"$limits"
echo "set $base/relay records=1/1h records_burst=1" >"$limits"

in_a relay -- "$R" relay -d "$node" -p "$quiet" -n 20 quiet >"$tmp/q.out" 2>&1 &&
	ok "relay of 20 quiet records: $(cat "$tmp/q.out")" ||
	{ not_ok "relay of quiet records"; sed 's/^/#   /' "$tmp/q.out"; }
in_a relay -- "$R" relay -d "$node" -p "$flood" -n 50 flood >"$tmp/f.out" 2>&1 &&
	ok "relay of 50 flood records returns the length each time" ||
	{ not_ok "relay of flood records"; sed 's/^/#   /' "$tmp/f.out"; }
relay_pid=$(awk '{ sub(":", "", $2); print $2 }' "$tmp/q.out")

in_a relay -- "$R" read -d "$node" >"$tmp/a.read"
collect >"$tmp/host.read"
nq=$(grep -c ' quiet$' "$tmp/a.read" || true)
nf=$(grep -c ' flood$' "$tmp/a.read" || true)
check "the quiet writer lost nothing ($nq of 20)" test "$nq" = 20
check "the flooder was held to its own cgroup's burst ($nf of 50)" \
	test "$nf" -ge 5 -a "$nf" -le 6
check "the relay's cgroup was charged nothing" \
	grep -q "^$base/relay .* accepted=0 accepted_bytes=0 dropped=0 " "$limits"
check "the flood cgroup was charged 50 records" \
	bash -c "grep \"^$base/flood \" $limits | grep -Eq ' accepted=$nf .* dropped=$((50 - nf)) '"

first_q=$(grep -m1 ' quiet$' "$tmp/a.read")
expect "A's reader: writer's pid, claimed tid, uid 1000, relay, flag, claimed time" \
	"$quiet 77 1000 $relay_pid r $CLAIM_NS quiet" echo "$first_q"
first_hq=$(grep -m1 ' quiet$' "$tmp/host.read")
check "host collector: the writer's host pid and uid, relayed ($first_hq)" \
	bash -c "[[ '$first_hq' == '$quiet_host 77 101000 '[1-9]*' r $CLAIM_NS quiet' ]]"
in_a relay -- "$R" read -d "$node" -v 1 | grep -m1 ' quiet$' >"$tmp/v1" || true
expect "a version 1 reader sees the writer's pid, the claimed tid and time" \
	"$quiet 77 1700000000 123456789 quiet" cat "$tmp/v1"

# --- refusals: each with its errno, nothing stored ---------------------------
# refused WHAT ERRNO CMD...: CMD (a relay_test relay with -e) succeeds, and
# A's set holds as many records as before.
refused() {
	local what=$1 err=$2 before after

	shift 2
	before=$(count)
	if "$@" -e "$err" refused >"$tmp/r.out" 2>&1; then
		after=$(count)
		if [ "$before" = "$after" ]; then
			ok "refused ($err), nothing stored: $what"
		else
			not_ok "refused ($err) but stored: $what ($before -> $after)"
		fi
	else
		not_ok "not refused with $err: $what"
		sed 's/^/#   /' "$tmp/r.out"
	fi
}
refused "A's non-root relays" EPERM \
	in_a relay -S 1000 -G 1000 -- "$R" relay -d "$nodes/log_main_w" -p "$quiet"
refused "B's root relays through A's node (held by root, then B's user ns)" EPERM \
	"$R" relay -d "$node" -I "/proc/$a/ns/ipc" -U "/proc/$b/ns/user" -p "$quiet_host"
refused "a host process without CAP_SYSLOG relays into A's set" EPERM \
	"$R" relay -d "$node" -I "/proc/$a/ns/ipc" -u 1000 -p "$quiet_host"
refused "a host process without CAP_SYSLOG relays into the host's set" EPERM \
	"$R" relay -u 1000 -p $$
refused "A's root names a process of another IPC ns in its pid ns" EPERM \
	in_a relay -- "$R" relay -d "$node" -p "$other"
refused "the host relay names a host process into A's set" EPERM \
	"$R" relay -d "$node" -I "/proc/$a/ns/ipc" -p $$
refused "the host relay names B's init into A's set" EPERM \
	"$R" relay -d "$node" -I "/proc/$a/ns/ipc" -p "$b"
refused "A's root relays into the host's set (fd kept into A's user ns)" EPERM \
	"$R" relay -U "/proc/$a/ns/user" -p $$
refused "A's root asks for the writer's own set" EPERM \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -f 2
refused "A's root relays through a read-only fd" EBADF \
	in_a relay -- "$R" relay -d "$node" -r -p "$quiet"
refused "a gone writer's uid that does not map into A" EOVERFLOW \
	in_a relay -- "$R" relay -d "$node" -p 99999 -i 70000 -f 1
refused "a gone writer without NSLOG_RELAY_KEEP_EXITED" ESRCH \
	in_a relay -- "$R" relay -d "$node" -p 99999 -i 1000
refused "an oversized payload" EMSGSIZE \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -L 4077
refused "an empty payload" EINVAL \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -L 0
refused "log id 5 (stats)" EINVAL \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -l 5
refused "an unknown flag" EINVAL \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -f 8
refused "a reserved word set" EINVAL \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -X
refused "a negative claimed tid" EINVAL \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -t -1
refused "a bad payload address" EFAULT \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -B
refused "a bad argument address" EFAULT \
	in_a relay -- "$R" relay -d "$node" -p "$quiet" -R

# --- a writer that is gone ----------------------------------------------------
hold gone quiet nsenter -t "$a" -U -i -p -S 1000 -G 1000 -- "$R" hold
gone=$(field gone 1)
gone_host=$(field gone 3)
kill -KILL "$gone_host"
wait_for bash -c "! kill -0 $gone_host" || true
in_a relay -- "$R" relay -d "$node" -p "$gone" -i 1000 -f 1 gone >"$tmp/g.out" 2>&1 &&
	ok "a gone writer's record is stored with NSLOG_RELAY_KEEP_EXITED" ||
	{ not_ok "a gone writer's record"; sed 's/^/#   /' "$tmp/g.out"; }
g_relay=$(awk '{ sub(":", "", $2); print $2 }' "$tmp/g.out")
nsenter -t "$a" -U -i -p -- "$R" read -d "$node" | grep ' gone$' >"$tmp/gone.read" || true
expect "A's reader: the relay's pid and uid for it, marked unverified" \
	"$gone 77 1000 $g_relay ru $CLAIM_NS gone" cat "$tmp/gone.read"
check "the host collector sees it unverified, its pid not translatable" \
	bash -c "collect() { \"$R\" read -i $a_ns; }; collect | grep -Eq '^0 77 101000 [0-9]+ ru $CLAIM_NS gone\$'"

# --- the host relay, into the writer's own set ---------------------------------
hb=$(count)
"$R" relay -p "$quiet_host" -f 2 hostrelay >"$tmp/h.out" 2>&1 &&
	ok "the host relay stores into the writer's own set (NSLOG_RELAY_WRITER_SET)" ||
	{ not_ok "host relay with NSLOG_RELAY_WRITER_SET"; sed 's/^/#   /' "$tmp/h.out"; }
check "it is in A's set, once, as the quiet writer's" \
	bash -c "\"$R\" read -i $a_ns | grep -Eq '^$quiet_host 77 101000 [0-9]+ r $CLAIM_NS hostrelay\$'"
check "A's set grew by one" test "$(count)" = $((hb + 1))
check "and not in the host's own set" bash -c "! \"$R\" read | grep -q ' hostrelay\$'"
"$R" relay -d "$node" -I "/proc/$a/ns/ipc" -p "$quiet_host" hostnode >/dev/null 2>&1 &&
	"$R" read -i "$a_ns" | grep -q "^$quiet_host 77 101000 .* hostnode\$" &&
	ok "the host relay stores through a file of A's set" ||
	not_ok "the host relay through a file of A's set"

# --- into a stream of A's set: NSLOG_RELAY_FILE_LOG (4) -------------------------
# in_fs CMD...: CMD as A's root in a mount namespace of its own, with an
# nslogfs mount of A's set on $fs; each call mounts afresh, and the streams,
# which are the set's, are there each time.  A module without the flag
# refuses it as unknown (EINVAL): the first check below fails there.
fs=$tmp/fs
mkdir "$fs"
in_fs() {
	in_a relay -- env FS="$fs" unshare -m sh -c \
		'mount -t nslogfs nslogfs "$FS" && exec "$@"' _ "$@"
}
sread() { in_fs "$R" read -d "$fs/$1"; }
in_fs sh -c ': >"$FS/crash"' || not_ok "A's root makes a stream"
sb=$(count)
in_fs "$R" relay -d "$fs/crash" -p "$quiet" -f 4 -n 3 instream >"$tmp/s.out" 2>&1 &&
	ok "a relay into a stream with NSLOG_RELAY_FILE_LOG: $(cat "$tmp/s.out")" ||
	{ not_ok "a relay into a stream with NSLOG_RELAY_FILE_LOG"; sed 's/^/#   /' "$tmp/s.out"; }
s_relay=$(awk '{ sub(":", "", $2); print $2 }' "$tmp/s.out")
sread crash >"$tmp/crash.read" || true
expect "the stream holds the 3 records, as the quiet writer's (pid, uid 1000), relayed" \
	"3 $quiet 77 1000 $s_relay r $CLAIM_NS instream" \
	bash -c 'uniq -c "$1" | sed "s/^ *//"' _ "$tmp/crash.read"
check "and main has none of them" test "$(count)" = "$sb"
refused "NSLOG_RELAY_FILE_LOG with log id 1" EINVAL \
	in_fs "$R" relay -d "$fs/crash" -p "$quiet" -f 4 -l 1
refused "NSLOG_RELAY_FILE_LOG with NSLOG_RELAY_WRITER_SET" EINVAL \
	in_fs "$R" relay -d "$fs/crash" -p "$quiet" -f 6
check "... nor stored in the stream" test "$(sread crash | wc -l)" = 3
# Removed while open: as write() on that file, the record is stored, for
# the files still open on the stream (reopened through /proc/self/fd).
in_fs bash -c 'exec 5<"$FS/crash" && rm "$FS/crash" &&
	"$1" relay -d /proc/self/fd/5 -p "$2" -f 4 removed >/dev/null &&
	"$1" read -d /proc/self/fd/5' _ "$R" "$quiet" >"$tmp/removed.read" 2>&1 || true
expect "a stream removed while open takes a relayed record as write() does" \
	"4 removed" bash -c 'echo "$(wc -l <"$1") $(tail -n 1 "$1" | awk "{ print \$7 }")"' \
	_ "$tmp/removed.read"

echo "# relay.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
