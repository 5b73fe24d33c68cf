#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nslogd.sh - nslogd as an Android container's logd, in the guest.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh nslogd
#
#   guest (host of the container; cgroups /nslogd.PID/{init,app_a,app_b,flood})
#   |  relay_test read -i NSID, nslogcat --ns NSID: the host collecting it
#   |  /proc/nslogger/limits: rules on app_a, app_b, init (large), flood (5/1h)
#   |
#   |  container: user ns (0 -> 100000, 65536 ids) + ipc + pid + mount ns
#   |  |  /dev   = $tmp/dev (a tmpfs of the guest's): null, zero, urandom,
#   |  |           log/{main,radio,events,system} (root:log 0662, the
#   |  |           container's ids), socket/ (root's, 0755)
#   |  |  /proc  = the container's own
#   |  |  $tmp/android: nslogd's root: /system/bin/logd (nslogd bound),
#   |  |           /system/etc/event-log-tags, /dev, /proc, no libc
#   |  |  pid 1  logd_test init: makes /dev/socket/{logd,logdr,logdw} as
#   |  |         logd.rc does, serves /dev/socket/property_service, starts
#   |  |         (and restarts) nslogd with ANDROID_SOCKET_*; nslogd becomes
#   |  |         logd (1036) keeping CAP_SYSLOG
#   |  |  apps   logd_test write/read/ctl, entered with nsenter as uids
#   |  |         1000, 1001, 2000, 10057, 10058 and root, each in a cgroup
#
# Crash, stats and security go to streams of the set, which nslogd makes in
# a detached nslogfs mount of its own; the kernel log holds nslogd's own
# lines (streams_section).
#
# Every writer's records are read back three ways: through the container's
# nodes with nslogger's header (relay_test read), through logdr as logd's
# version 4 entries (logd_test read), and from the guest (relay_test read
# -i, nslogcat --ns).  nslogd runs chroot()ed in a root of its own that
# holds only /system/bin/logd (build/tools/nslogd bound over it), /dev and
# /proc; the test's programs run in the container with the guest's own
# file system (read-only) as their root, the container's /dev and /proc
# over it.
#
# Then issue 30's bad input and many clients: logdr's start= and
# timeout=; the prune list, event tags, reinit and exit; garbage and
# oversized commands on logd (answered as logd answers them, or closed)
# and on logdr (closed, counted); 1,000 streams open at once against
# README.md's memory bound; a reader that never reads; writers SIGKILLed
# mid-burst, their last datagrams read after they are gone.  After each
# bad-input block nslogd is the same process and stores and gives back a
# record (alive).
#
# The init stand-in keeps the three sockets and passes the same ones to each
# nslogd it starts (systemd's socket activation, not Android's init, which
# makes them afresh for each start): a datagram queued while nslogd is dead
# waits for the next one.
# The bash -c scripts and awk programs take their arguments as $1...:
# single quotes wanted.
# shellcheck disable=SC2016
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
L=$top/build/tests/logd_test
R=$top/build/tests/relay_test
NS=$top/build/tests/ns_test
NSLOGD=$top/build/tools/nslogd
NSLOGCAT=$top/build/tools/nslogcat
tmp=$(mktemp -d "/tmp/nslog-nslogd.$$.XXXXXX")
chmod 755 "$tmp"
dev=$tmp/dev
cgfs=/sys/fs/cgroup
base=/nslogd.$$
cg=$cgfs$base
limits=/proc/nslogger/limits
params=/sys/module/nslogger/parameters
# The container's ids, as the guest sees them.
OFF=100000
init_host=
max0=

need containers nsenter
for p in "$L" "$R" "$NS" "$NSLOGD" "$NSLOGCAT"; do
	[ -x "$p" ] || { not_ok "nslogd.sh: $p missing (make tools test-progs)"; exit 1; }
done
if [ ! -c /dev/log_main ]; then
	skip "nslogd in a container" "no /dev/log_main: the module is not loaded"
	exit 0
fi

cleanup() {
	local rc=$?

	trap - EXIT
	[ -z "$init_host" ] || kill -KILL "$init_host" 2>/dev/null || true
	stop_bg
	umount -l "$dev" 2>/dev/null || true
	if [ -d "$cg" ]; then
		find "$cg" -depth -type d -exec rmdir {} + 2>/dev/null || true
	fi
	[ -z "$max0" ] || echo "$max0" >"$params/ns_max_size" 2>/dev/null || true
	rm -rf "$tmp"
	# A fresh module for the next scenario, as relay.sh leaves it: no dead
	# set of this container kept for ns_grace_ms.
	if [ -n "${NSLOG_KO:-}" ]; then
		unload || echo "nslogd.sh: cannot unload nslogger" >&2
		# shellcheck disable=SC2086 # word splitting is wanted
		loaded || insmod "$NSLOG_KO" ${NSLOG_PARAMS:-} ||
			echo "nslogd.sh: cannot reload $NSLOG_KO" >&2
	fi
	exit "$rc"
}
trap cleanup EXIT

# incg CGROUP CMD...: run CMD in CGROUP (a folder under $cg).
incg() { local c=$1; shift; sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cg/$c" "$@"; }
# in_c CGROUP [nsenter options] -- CMD...: CMD in the container, in CGROUP.
in_c() { local c=$1; shift; incg "$c" nsenter -t "$init_host" -U -i -p -m "$@"; }
# as UID CGROUP -- CMD...: in the container as UID (gid UID, no groups).
as() { local u=$1 c=$2; shift 2; in_c "$c" -S "$u" -G "$u" "$@"; }
# node LOG: the container's records of LOG, as its root reads the node
# ("PID TID EUID RELAY_PID FLAGS TIME_NS MSG").
node() { in_c init -- "$R" read -d "/dev/log/$1"; }
# host LOG: the same, collected by the guest (host pids and uids).
host() { "$R" read -i "$nsid" -d "/dev/log_$1"; }
ctl() { in_c init -- "$L" ctl "$@"; }

mkdir "$cg" "$cg/init" "$cg/app_a" "$cg/app_b" "$cg/flood"
for c in init app_a app_b; do
	echo "set $base/$c records=100000/1h records_burst=100000" >"$limits"
done
echo "set $base/flood records=5/1h records_burst=5" >"$limits"
max0=$(cat "$params/ns_max_size")
echo 128K >"$params/ns_max_size"

# --- the container's /dev, made by the guest (it may make device nodes) ----
mkdir "$dev"
mount -t tmpfs -o mode=755 nslogd-dev "$dev"
mknod -m 0666 "$dev/null" c 1 3
mknod -m 0666 "$dev/zero" c 1 5
mknod -m 0666 "$dev/urandom" c 1 9
mkdir -m 0755 "$dev/log" "$dev/socket"
chown "$OFF:$OFF" "$dev/log" "$dev/socket"
for l in main radio events system; do
	majmin=$(stat -c '%t %T' "/dev/log_$l")
	mknod -m 0662 "$dev/log/$l" c $((16#${majmin% *})) $((16#${majmin#* }))
	chown "$OFF:$((OFF + 1007))" "$dev/log/$l"
done

# nslogd's root, Android's in miniature: /system/bin/logd (nslogd, bound
# over it in the container), the event tags file, /dev and /proc, and
# nothing else: no libc.
aroot=$tmp/android
mkdir -p "$aroot/system/bin" "$aroot/system/etc" "$aroot/dev" "$aroot/proc"
touch "$aroot/system/bin/logd"
# Android's event tags file, which getEventTag answers from and reinit
# reads again.
tags=$aroot/system/etc/event-log-tags
printf '%s\n' '# nslogd.sh' '42 answer (to life|1)' \
	'1005 tag_def (tag|1),(name|3),(format|3)' >"$tags"

# --- the container and its init ------------------------------------------------
# Its first process notes its guest pid (the guest's /proc is still there),
# mounts its /dev and /proc, and Android's root, and becomes the init
# stand-in, which starts nslogd chroot()ed into that root.  The test's
# programs run in the container with the guest's root (their libc).
incg init "$NS" userns -m "0:$OFF:65536" -x ipc -x pid -x mnt -- bash -c '
	while read -r k v _; do [ "$k" != NSpid: ] || echo "hostpid $v"; done </proc/self/status
	mount --make-rprivate /
	mount --rbind "$1" /dev
	mount -t proc -o nosuid,nodev,noexec proc /proc
	mount --bind "$3" "$4/system/bin/logd"
	mount --rbind /dev "$4/dev"
	mount --rbind /proc "$4/proc"
	exec "$2" init -r "$4" -- /system/bin/logd' \
	_ "$dev" "$L" "$NSLOGD" "$aroot" >"$tmp/init.out" 2>"$tmp/nslogd.err" &
bg+=($!)
ready() { grep -c '^property logd.ready=true$' "$tmp/init.out" 2>/dev/null || true; }
ready1() { [ "$(ready)" -ge 1 ]; }
if ! wait_for_s=30 wait_for ready1; then
	not_ok "the container's init started nslogd and it set logd.ready=true"
	sed 's/^/#   init: /' "$tmp/init.out"
	sed 's/^/#   nslogd: /' "$tmp/nslogd.err"
	exit 1
fi
t0=$(date +%s)
lap() { echo "# +$(($(date +%s) - t0)) s: $*"; }
ok "init passed nslogd the three sockets; it set logd.ready=true through the property service"
init_host=$(sed -n 's/^hostpid //p' "$tmp/init.out")
logd_pid=$(awk '$1 == "start" && $2 == 1 { print $3 }' "$tmp/init.out")
nsid=$(stat -L -c %i "/proc/$init_host/ns/ipc")
# (no newline at its end: read returns 1)
read -r logd_host _ <"/proc/$init_host/task/$init_host/children" || true
check "the container is pid-namespaced: nslogd is $logd_pid in it, $logd_host in the guest" \
	test -n "$logd_pid" -a "$logd_pid" -lt 100 -a "$logd_host" != "$logd_pid"
expect "nslogd runs as /system/bin/logd in a root of system, dev and proc only" \
	"/system/bin/logd dev proc system logdw" \
	bash -c 'echo $(tr "\0" " " <"/proc/$1/cmdline") $(ls "/proc/$1/root") $(ls "/proc/$1/root/dev/socket" | grep -x logdw)' \
	_ "$logd_host"
check "nslogd became logd (1036, groups log and readproc) keeping CAP_SYSLOG only" \
	grep -q '^nslogd: privileges: uid 1036 gid 1036 groups 1007,1036,3009 capabilities syslog ' \
	"$tmp/nslogd.err"
expect "the sockets are logd.rc's: logd 0666, logdr 0666, logdw 0222, logd's" \
	"logd 666 socket $((OFF + 1036))
logdr 666 socket $((OFF + 1036))
logdw 222 socket $((OFF + 1036))" \
	bash -c 'cd "$1" && for s in logd logdr logdw; do echo "$s $(stat -c "%a %F %u" $s)"; done' _ "$dev/socket"

# --- writers ------------------------------------------------------------------
lap writers
# Each stays until logdr gives its records back (-W): one gone before nslogd
# reads its datagram would be stored unverified, charged to nslogd.
# write NAME UID CGROUP [logd_test write options] MSG: the writer's "PID UID"
# in $tmp/NAME.w.
write() {
	local name=$1 u=$2 c=$3

	shift 3
	as "$u" "$c" -- "$L" write "$@" >"$tmp/$name.w" 2>"$tmp/$name.err" && return
	not_ok "writer $name (uid $u) sent everything"
	sed 's/^/#   /' "$tmp/$name.err"
}
wpid() { awk '{ print $1 }' "$tmp/$1.w"; }
write a 1000 app_a -W 10000 -j 4 -n 25 -t appA msgA
write b 10057 app_b -W 10000 -n 30 -t appB msgB
write s 2000 app_b -W 10000 -l 3 -n 5 -t sysC msgC
write r 1001 app_a -W 10000 -l 1 -n 5 -t radD msgD
pa=$(wpid a) pb=$(wpid b) ps=$(wpid s) pr=$(wpid r)
# Every record is in before anything is checked: 100 + 30 in main, 5 and 5.
stored() { [ "$(node main | wc -l)" -ge 130 ] && [ "$(node system | wc -l)" -ge 5 ] &&
	[ "$(node radio | wc -l)" -ge 5 ]; }
wait_for stored || true
node main >"$tmp/main.node"
node system >"$tmp/system.node"
node radio >"$tmp/radio.node"

# nmatch FILE AWK-CONDITION: how many lines match.
nmatch() { awk "$2 { n++ } END { print n + 0 }" "$1"; }
check "node: 100 records of app A (4 threads, uid 1000) with its pid $pa, relayed by nslogd ($logd_pid)" \
	test "$(nmatch "$tmp/main.node" "\$1 == $pa && \$3 == 1000 && \$4 == $logd_pid && \$5 == \"r\" && \$6 > 0 && \$7 == \"msgA\"")" = 100
check "node: they are all of app A's records, from 4 threads" \
	test "$(grep -c ' msgA ' "$tmp/main.node")" = 100 -a \
	"$(awk '$7 == "msgA" { print $2 }' "$tmp/main.node" | sort -u | wc -l)" = 4
check "node: 30 records of app B (uid 10057) with its pid $pb" \
	test "$(nmatch "$tmp/main.node" "\$1 == $pb && \$3 == 10057 && \$5 == \"r\" && \$7 == \"msgB\"")" = 30 -a \
	"$(grep -c ' msgB ' "$tmp/main.node")" = 30
check "node: system has uid 2000's 5 records (pid $ps), radio uid 1001's 5 (pid $pr)" \
	test "$(nmatch "$tmp/system.node" "\$1 == $ps && \$3 == 2000 && \$7 == \"msgC\"")" = 5 -a \
	"$(nmatch "$tmp/radio.node" "\$1 == $pr && \$3 == 1001 && \$7 == \"msgD\"")" = 5
# nslogd's own cgroup pays for its own lines only: so far its start, in
# the kernel log (streams_section).
check "each writer's cgroup was charged its records, nslogd's only its start line" \
	bash -c 'grep -q "^$1/app_a .* accepted=105 " "$2" && grep -q "^$1/app_b .* accepted=35 " "$2" &&
		 grep -q "^$1/init .* accepted=1 " "$2"' _ "$base" "$limits"

# A writer claiming another pid (init's) without CAP_SYS_ADMIN over the pid
# namespace's owner: the kernel refuses the sendmsg.
before=$(node main | wc -l)
if as 1000 app_a -- "$L" write -c 1 -e EPERM -n 3 -t forged msgF >/dev/null 2>"$tmp/f.err"; then
	ok "a writer (uid 1000) claiming pid 1 in SCM_CREDENTIALS: sendmsg fails with EPERM"
else
	not_ok "a writer claiming pid 1 in SCM_CREDENTIALS is refused with EPERM"
	sed 's/^/#   /' "$tmp/f.err"
fi
check "... and nothing of it is stored" \
	test "$(node main | wc -l)" = "$before" -a -z "$(node main | grep ' msgF ' || true)"

# --- logdr ----------------------------------------------------------------------
lap logdr
# rd FILE [UID] COMMAND: a logdr reader (root unless UID) into FILE.
rd() {
	local f=$1 u=0

	[ $# -eq 2 ] || { u=$2; shift; }
	as "$u" init -- "$L" read -w 10000 "$2" >"$tmp/$f" 2>&1 || true
}
rd all "dumpAndClose lids=0,1,3"
check "logdr: dumpAndClose ends with end of file" test "$(tail -n 1 "$tmp/all")" = eof
check "logdr: app A's 100 records as v4 entries with its pid $pa and uid 1000, priority 4, tag appA" \
	test "$(nmatch "$tmp/all" "\$1 == 0 && \$2 == $pa && \$3 == 1000 && \$6 == 4 && \$7 == \"appA\" && \$8 == \"msgA\"")" = 100
check "logdr: app B's 30 with pid $pb and uid 10057" \
	test "$(nmatch "$tmp/all" "\$1 == 0 && \$2 == $pb && \$3 == 10057 && \$7 == \"appB\"")" = 30
check "logdr: system's 5 (lid 3, uid 2000) and radio's 5 (lid 1, uid 1001)" \
	test "$(nmatch "$tmp/all" "\$1 == 3 && \$2 == $ps && \$3 == 2000 && \$7 == \"sysC\"")" = 5 -a \
	"$(nmatch "$tmp/all" "\$1 == 1 && \$2 == $pr && \$3 == 1001 && \$7 == \"radD\"")" = 5
awk '$1 == 0 && $8 ~ /^msg/ { print $2, $8, $9 }' "$tmp/all" >"$tmp/all.order"
awk '$7 ~ /^msg/ { print $1, $7, $8 }' "$tmp/main.node" >"$tmp/node.order"
if cmp -s "$tmp/node.order" "$tmp/all.order"; then
	ok "logdr: the same records as the node, in the node's order"
else
	not_ok "logdr: the same records as the node, in the node's order"
	diff "$tmp/node.order" "$tmp/all.order" | head -n 20 | sed 's/^/#   /' || true
fi
rd pid "dumpAndClose pid=$pb"
check "logdr: pid=$pb gives app B's 30 records and nothing else" \
	test "$(grep -vc '^eof$' "$tmp/pid")" = 30 -a "$(nmatch "$tmp/pid" "\$2 == $pb && \$7 == \"appB\"")" = 30
rd lids "dumpAndClose lids=1,3"
check "logdr: lids=1,3 gives radio's and system's 10 records only" \
	test "$(grep -vc '^eof$' "$tmp/lids")" = 10 -a "$(nmatch "$tmp/lids" '$1 == 1 || $1 == 3')" = 10
rd tail "dumpAndClose lids=3 tail=2"
expect "logdr: tail=2 of system gives its last two records" \
	"sysC msgC 0.3
sysC msgC 0.4
eof" awk '{ print ($1 == "eof") ? $1 : $7 " " $8 " " $9 }' "$tmp/tail"
rd app 10057 "dumpAndClose"
check "logdr: an app's reader (uid 10057) gets only its own uid's 30 records" \
	test "$(grep -vc '^eof$' "$tmp/app")" = 30 -a "$(nmatch "$tmp/app" '$3 == 10057')" = 30

# A stream reader: the last stored record, then one written after it, which
# only a wake-up can bring.
as 0 init -- "$L" read -n 2 -w 15000 "stream lids=3 tail=1" >"$tmp/stream" 2>&1 &
sp=$!
bg+=("$sp")
if wait_for grep -q ' msgC 0.4$' "$tmp/stream"; then
	write wake 2000 app_b -W 10000 -l 3 -t sysC wakeup
	rc=0
	wait "$sp" || rc=$?
	expect "logdr: a stream reader is woken by a record written after its dump" \
		"msgC 0.4
wakeup 0.0" bash -c '[ "$1" = 0 ] && awk "{ print \$8, \$9 }" "$2"' _ "$rc" "$tmp/stream"
else
	not_ok "logdr: a stream reader got the stored record"
	sed 's/^/#   /' "$tmp/stream"
fi

# --- control --------------------------------------------------------------------
lap control
ns_size=$(cat "$params/ns_size")
expect "control: getLogSize 0 (an app asks) is the ring's size, ns_size" \
	"$ns_size" as 10057 init -- "$L" ctl "getLogSize 0"
used=$(ctl "getLogSizeUsed 3" "getLogSizeReadable 3")
len=$(in_c init -- "$NS" len -d /dev/log/system)
expect "control: getLogSizeUsed 3 and getLogSizeReadable 3 are the node's GET_LOG_LEN ($len)" \
	"$len"$'\n'"$len" echo "$used"
expect "control: an app may not setLogSize" "Permission Denied" \
	as 10057 init -- "$L" ctl "setLogSize 1 131072"
expect "control: setLogSize 1 16 MiB succeeds, clamped to ns_max_size (128 KiB)" \
	"success"$'\n'"131072" ctl "setLogSize 1 16777216" "getLogSize 1"
expect "control: setLogSize 2 64 KiB" "success"$'\n'"65536" ctl "setLogSize 2 65536" "getLogSize 2"
expect "control: setLogSize below 64 KiB: Range Error" \
	"Range Error" ctl "setLogSize 2 4096"

node main >"$tmp/main.node"
nall=$(wc -l <"$tmp/main.node")
if ctl -L "getStatistics 0" >"$tmp/stats" 2>"$tmp/stats.err"; then
	ok "control: getStatistics is length-prefixed, the total right"
else
	not_ok "control: getStatistics is length-prefixed, the total right"
	sed 's/^/#   /' "$tmp/stats.err"
fi
sed 's/^/#   /' "$tmp/stats" | head -n 20
check "control: getStatistics counts main's $nall records, app A's uid 1000 with 100" \
	bash -c 'head -n 1 "$1" | grep -q "^nslogd statistics" &&
		 awk "\$1 == \"main\" && \$2 == $2 { f = 1 } END { exit !f }" "$1" &&
		 sed -n "/^main: chattiest uids/,/^\$/p" "$1" | awk "\$1 == 1000 && \$2 == 100 { f = 1 } END { exit !f }"' \
	_ "$tmp/stats" "$nall"
as 10057 init -- "$L" ctl -L "getStatistics 0" >"$tmp/stats.app" 2>&1 || true
check "control: an app's getStatistics counts its own 30 records only" \
	awk '$1 == "main" && $2 == 30 { f = 1 } END { exit !f }' "$tmp/stats.app"

expect "control: an app may not clear (Permission Denied), and system keeps its records" \
	"Permission Denied"$'\n'"$len" as 10057 init -- "$L" ctl "clear 3" "getLogSizeUsed 3"
expect "control: root clears system: success, then 0 bytes used" \
	"success"$'\n'"0" ctl "clear 3" "getLogSizeUsed 3"
rd cleared "dumpAndClose lids=3"
expect "logdr: a cleared system gives nothing" "eof" cat "$tmp/cleared"

# --- the guest collecting the container --------------------------------------
lap guest
host main >"$tmp/main.host"
ha=$(awk '$7 == "msgA" { print $1 }' "$tmp/main.host" | sort -u)
check "guest: app A's 100 records with one host pid ($ha, not $pa), uid $((OFF + 1000)), relayed by nslogd ($logd_host)" \
	test "$(nmatch "$tmp/main.host" "\$1 == \"$ha\" && \$1 != $pa && \$3 == $((OFF + 1000)) && \$4 == $logd_host && \$5 == \"r\" && \$7 == \"msgA\"")" = 100
"$NSLOGCAT" -d --ns "$nsid" -b main -v json >"$tmp/main.json" 2>"$tmp/cat.err" || true
check "guest: nslogcat --ns shows them relayed, with the writer's pid and uid" \
	test "$(grep '"tag":"appA"' "$tmp/main.json" | grep '"relayed":true' |
		grep "\"relay_pid\":${logd_host}[,}]" | grep "\"pid\":$ha," |
		grep -c "\"uid\":$((OFF + 1000))[,}]")" = 100

# --- a flood held to its cgroup's rule ----------------------------------------
lap flood
write flood 10058 flood -W 1500 -n 40 -t flood msgE
flooded() { node main | grep -q ' msgE 0.4$'; }
wait_for flooded || true
node main >"$tmp/main.node"
nf=$(grep -c ' msgE ' "$tmp/main.node" || true)
check "a flood (40 records) from cgroup flood is held to its rule's burst of 5 ($nf stored)" \
	test "$nf" -ge 5 -a "$nf" -le 6
check "... while app A lost nothing (100)" test "$(grep -c ' msgA ' "$tmp/main.node")" = 100

# --- bad datagrams: refused, counted, nothing stored, nslogd serving on ---------
lap bad datagrams
nm=$(node main | wc -l)
# bad N UID [options]: writer badN sends one bad datagram as UID.
bad() { write "bad$1" "$2" app_a "${@:3}" -t bad msgG; }
bad 1 1000 -L 0		# empty datagram: short
bad 2 1000 -L 5		# short of the header
bad 3 1000 -L 11		# a header, no payload: empty
bad 4 1000 -L 4080		# 11 + 4069 bytes: oversized
bad 5 1000 -l 8		# log id 8: bad-id
bad 6 1000 -l 7		# the kernel's log: kernel-id
bad 7 10057 -l 6	# security from an app (not system, 1000): security-denied
bad 8 1000 -l 2 -L 13	# events with a 2-byte payload: binary-short
write good 1000 app_a -W 10000 -t good msgH
kill -USR1 "$logd_host"
counted() { grep '^nslogd: received' "$tmp/nslogd.err" | tail -n 1 | grep -q ' refused 8 '; }
wait_for counted || true
expect "bad datagrams: each refused and counted by its class" 	"refused 8 (short 2 empty 1 oversized 1 no-credentials 0 logd-uid 0 bad-id 1 kernel-id 1 security-denied 1 binary-short 1)" 	bash -c 'grep "^nslogd: received" "$1" | tail -n 1 | grep -o "refused [0-9]* ([^)]*)"' _ "$tmp/nslogd.err"
check "... nothing of them stored, and the next record is" 	test "$(node main | wc -l)" = $((nm + 1)) -a "$(node events | wc -l)" = 0 -a \
	"$(node main | grep -c ' msgH ')" = 1

# --- nslogd SIGKILLed mid-flood, restarted by init --------------------------------
lap kill
N=500
as 1000 app_a -- "$L" write -l 1 -n $N -d 4000 -t k kill >"$tmp/k.w" 2>"$tmp/k.err" &
kp=$!
bg+=("$kp")
kcount() { host radio | grep -c ' kill 0\.' || true; }
kfifty() { [ "$(kcount)" -ge 50 ]; }
# All N stored, or (the writer done, so the socket only drains) a count at
# most one batch short that a second look finds unchanged: waiting for all N
# after a kill that lost some would wait out wait_for's whole time, each try
# reading the whole log.
kall() {
	local c
	c=$(kcount)
	[ "$c" -ge $N ] && return 0
	if [ "$c" -ge $((N - 32)) ] && [ "$c" = "${klast:-}" ]; then
		return 0
	fi
	klast=$c
	sleep 1
	return 1
}
wait_for kfifty || true
alive=no
kill -0 "$kp" 2>/dev/null && alive=yes
kill -KILL "$logd_host"
host radio | awk '$7 == "kill" { print $8 }' | sort >"$tmp/before"
nb=$(wc -l <"$tmp/before")
check "nslogd SIGKILLed mid-flood: $nb of $N stored, the writer still sending ($alive)" \
	test "$alive" = yes -a "$nb" -gt 0 -a "$nb" -lt $N
rc=0
wait "$kp" || rc=$?
check "the writer sent all $N (blocking while nslogd was dead)" test "$rc" = 0
ready2() { [ "$(ready)" -ge 2 ]; }
wait_for ready2 || true
check "init restarted nslogd, which set logd.ready=true again" \
	bash -c 'grep -q "^exit $2 signal 9$" "$1" && grep -q "^start 2 " "$1" && [ "$3" -ge 2 ]' \
	_ "$tmp/init.out" "$logd_pid" "$(ready)"
wait_for kall || true
host radio | awk '$7 == "kill" { print $8 }' | sort >"$tmp/after"
na=$(wc -l <"$tmp/after")
check "every record stored before the kill is still stored ($nb)" \
	test -z "$(comm -23 "$tmp/before" "$tmp/after")"
check "none stored twice" test -z "$(uniq -d "$tmp/after")"
# Lost at most: the one batch (32 datagrams) the killed nslogd had read
# from the socket and not stored yet.
check "$na of $N stored in all: at most one batch of 32 lost in the kill" \
	test "$na" -le $N -a $((N - na)) -le 32
check "records relayed by both nslogds" \
	test "$(host radio | awk '$7 == "kill" { print $4 }' | sort -u | wc -l)" = 2

# --- logs 4 to 7: crash, stats and security in streams of the set ---------------
# Written and read back through logd's sockets (lids=4,5,6,7), seen by the
# guest (the streams in /proc/nslogger/namespaces, read with
# NSLOG_IOC_OPEN_STREAM), kept across a SIGKILL of nslogd; the kernel log
# holds nslogd's own lines and nothing of the guest's kernel.
streams_section() {
	local n0 lh pc ps pq

	lap streams
	check "nslogd keeps the streams in a detached nslogfs mount of its own" \
		grep -q '^nslogd: streams: in a detached nslogfs mount$' "$tmp/nslogd.err"
	# First, so that it is read before the records waited for below.
	write secapp 10058 app_b -l 6 -t secT msgR
	write crash 10057 app_b -W 10000 -l 4 -n 3 -t crashT msgK
	write stats 10057 app_b -W 10000 -l 5 -n 2 -t statT msgS
	write sec 1000 app_a -W 10000 -l 6 -n 2 -t secT msgQ
	pc=$(wpid crash) ps=$(wpid stats) pq=$(wpid sec)
	echo "nslogd.sh: a guest kernel message, $$" >/dev/kmsg
	rd s47 1000 "dumpAndClose lids=4,5,6,7"
	check "logdr: crash's 3 records (lid 4) with the writer's pid $pc and uid 10057" \
		test "$(nmatch "$tmp/s47" "\$1 == 4 && \$2 == $pc && \$3 == 10057 && \$7 == \"crashT\" && \$8 == \"msgK\"")" = 3 -a \
		"$(nmatch "$tmp/s47" '$1 == 4')" = 3
	check "logdr: stats' 2 (lid 5, pid $ps, uid 10057)" \
		test "$(nmatch "$tmp/s47" "\$1 == 5 && \$2 == $ps && \$3 == 10057 && \$8 == \"msgS\"")" = 2 -a \
		"$(nmatch "$tmp/s47" '$1 == 5')" = 2
	check "logdr: security's 2 from system (lid 6, pid $pq, uid 1000); an app's refused" \
		test "$(nmatch "$tmp/s47" "\$1 == 6 && \$2 == $pq && \$3 == 1000 && \$8 == \"msgQ\"")" = 2 -a \
		"$(nmatch "$tmp/s47" '$1 == 6')" = 2
	check "logdr: the kernel log (lid 7) holds nslogd's lines (uid 1036), its start among them" \
		test "$(nmatch "$tmp/s47" '$1 == 7 && $3 == 1036 && $7 == "nslogd" && $10 == "started:"')" -ge 1 -a \
		"$(nmatch "$tmp/s47" '$1 == 7 && ($3 != 1036 || $7 != "nslogd")')" = 0
	check "... its counts of refused datagrams, and nothing of the guest's kernel" \
		bash -c 'grep -q "^7 .* nslogd since the last report: refused " "$1" && ! grep -q "a guest kernel message" "$1"' \
		_ "$tmp/s47"
	rd s47app 10057 "dumpAndClose lids=4,5,6,7"
	check "logdr: an app (10057) gets its own 5 crash and stats records, no security, no kernel" \
		test "$(grep -vc '^eof$' "$tmp/s47app")" = 5 -a "$(nmatch "$tmp/s47app" '$3 == 10057 && ($1 == 4 || $1 == 5)')" = 5
	expect "control: the streams are sized to logd's 256 KiB, held to ns_max_size (128 KiB)" \
		"131072"$'\n'"131072"$'\n'"131072" ctl "getLogSize 4" "getLogSize 6" "getLogSize 7"
	check "control: getLogSizeUsed 4 counts crash's records" \
		test "$(ctl "getLogSizeUsed 4")" -gt 0

	# The guest: the streams are the set's, and hold the writers' host ids.
	expect "guest: /proc/nslogger/namespaces lists the set's streams" \
		"crash kernel security stats" \
		bash -c 'echo $(awk -v n="$1" '"'"'$1 == n && $5 !~ /^(main|radio|events|system)$/ { print $5 }'"'"' /proc/nslogger/namespaces | sort)' _ "$nsid"
	read -r lh _ <"/proc/$init_host/task/$init_host/children" || true
	"$R" read -i "$nsid" -s crash >"$tmp/crash.host" 2>&1 || true
	check "guest: crash read through NSLOG_IOC_OPEN_STREAM: uid $((OFF + 10057)), relayed by nslogd ($lh)" \
		test "$(nmatch "$tmp/crash.host" "\$3 == $((OFF + 10057)) && \$4 == $lh && \$5 == \"r\" && \$7 == \"msgK\"")" = 3

	# Killed and started again: nothing stored is lost, nothing made anew.
	n0=$(ready)
	awk '$1 != 7 && $1 != "eof" { print $1, $2, $3, $8, $9 }' "$tmp/s47" >"$tmp/s47.before"
	kill -KILL "$lh"
	restarted() { [ "$(ready)" -gt "$n0" ]; }
	wait_for restarted || true
	write crash2 10057 app_b -W 10000 -l 4 -t crashT msgL
	rd s47b 1000 "dumpAndClose lids=4,5,6,7"
	awk '$1 != 7 && $1 != "eof" && $8 != "msgL" { print $1, $2, $3, $8, $9 }' "$tmp/s47b" >"$tmp/s47.after"
	if cmp -s "$tmp/s47.before" "$tmp/s47.after"; then
		ok "nslogd SIGKILLed and restarted: crash, stats and security keep all 7 records"
	else
		not_ok "nslogd SIGKILLed and restarted: crash, stats and security keep all 7 records"
		diff "$tmp/s47.before" "$tmp/s47.after" | sed 's/^/#   /' || true
	fi
	check "... the restarted nslogd stores into the same crash stream (4 records, one stream)" \
		test "$(nmatch "$tmp/s47b" '$1 == 4')" = 4 -a \
		"$(awk -v n="$nsid" '$1 == n && $5 == "crash"' /proc/nslogger/namespaces | wc -l)" = 1
	check "... and tells its own start in the kernel log" \
		test "$(nmatch "$tmp/s47b" '$1 == 7 && $7 == "nslogd" && $10 == "started:"')" -gt \
		"$(nmatch "$tmp/s47" '$1 == 7 && $7 == "nslogd" && $10 == "started:"')"
}
streams_section

# --- bad input and many clients (issue 30's tests) -----------------------------
# Each block ends with nslogd still the same process, storing a record and
# giving it back (alive).

# The helpers below use bash's builtins only where they can: each program
# started reads the root over 9p, which a loaded host makes slow, and the
# waits run them in rounds.

# logd_now: nslogd's guest pid now (the init stand-in's one child).
logd_now() {
	local p=

	read -r p _ <"/proc/$init_host/task/$init_host/children" || true
	echo "$p"
}
# leaf PID: the guest pid of the program a background `as` or `in_c`
# (PID) runs: the end of its chain of first children.
leaf() {
	local p=$1 c

	for (( ; ; )); do
		c=
		read -r c _ <"/proc/$p/task/$p/children" || true
		[ -n "$c" ] || break
		p=$c
	done
	echo "$p"
}
# status FIELD PID: FIELD of /proc/PID/status (kB for the Vm ones).
status() {
	local k v _

	while read -r k v _; do
		[ "$k" != "$1:" ] || { echo "$v"; return; }
	done <"/proc/$2/status"
}
# alive WHAT PID: nslogd is still PID, and a record written to system
# comes back through logdr (the writer's -W).
nalive=0
alive() {
	local now

	nalive=$((nalive + 1))
	as 1000 app_a -- "$L" write -W 10000 -l 3 -t alive "alive$nalive" \
		>/dev/null 2>"$tmp/alive.err" || true
	now=$(logd_now)
	check "$1: nslogd is still $2 ($now), and a record written is read back" \
		bash -c '[ "$1" = "$2" ] && grep -q "^logd_test: 1 of 1 seen through logdr$" "$3"' \
		_ "$now" "$2" "$tmp/alive.err"
}
# counter_lines LINE: nslogd's counter lines that start with LINE
# ("received", "control", "logdr:"), into $lines.
counter_lines() {
	local l

	lines=()
	mapfile -t l <"$tmp/nslogd.err"
	for l in "${l[@]}"; do
		[[ $l != "nslogd: $1 "* ]] || lines+=("$l")
	done
}
# counters PID: nslogd prints its counters (SIGUSR1); wait for them.
counters() {
	local n lines

	counter_lines logdr:
	n=${#lines[@]}
	kill -USR1 "$1"
	more_lines() { counter_lines logdr:; [ "${#lines[@]}" -gt "$n" ]; }
	wait_for more_lines || true
}
# counter LINE NAME: NAME's count on the last counter line that starts
# with LINE; 0 if it has none.
counter() {
	local lines w v=0 i

	counter_lines "$1"
	if [ "${#lines[@]}" -gt 0 ]; then
		read -r -a w <<<"${lines[-1]}"
		for ((i = 2; i < ${#w[@]} - 1; i++)); do
			[ "${w[i]}" != "$2" ] || { v=${w[i + 1]}; break; }
		done
	fi
	echo "$v"
}
# ms_since NS: milliseconds since NS (date +%s%N).
ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

filters_section() {
	local wp hp

	lap "logdr: start= and timeout="
	# Four records claiming 1000000.0 to 1000003.0 s, of one writer: its
	# pid= keeps every other record out.
	as 1000 app_a -- "$L" burst -l 1 -n 4 -T 1000000 -t when at >"$tmp/when.w" 2>&1 || true
	read -r wp _ <"$tmp/when.w"
	# (the last one read back: all four are stored)
	from2() { rd start "dumpAndClose lids=1 pid=$wp start=1000002.000000000"; grep -q ' at 3$' "$tmp/start"; }
	wait_for_s=3 wait_for from2 || true
	expect "logdr: start= gives the records claiming that time or later" \
		"1000002.000000000 at 2
1000003.000000000 at 3
eof" awk '{ print ($1 == "eof") ? $1 : $5 " " $8 " " $9 }' "$tmp/start"
	# timeout= with start= (logcat's wrap mode): held that long, then
	# served; a stream ends here after its two records.  In the
	# background meanwhile.
	(
		t=$(date +%s%N)
		as 0 init -- "$L" read -n 2 -w 10000 \
			"stream lids=1 pid=$wp start=1000002.000000000 timeout=2" >"$tmp/held" 2>&1 || true
		ms_since "$t" >"$tmp/held.ms"
	) &
	hp=$!
	bg+=("$hp")
	rd start1 "dumpAndClose lids=1 pid=$wp start=1000001.000000001"
	expect "logdr: ... to the nanosecond: one after a record's time leaves it out" \
		"1000002.000000000 at 2
1000003.000000000 at 3
eof" awk '{ print ($1 == "eof") ? $1 : $5 " " $8 " " $9 }' "$tmp/start1"
	# Held 30 s, it would be cut off by the reader's 10 s.
	rd notimeout "dumpAndClose lids=1 pid=$wp timeout=30"
	check "logdr: timeout= without start= holds nothing: its 4 records at once" \
		test "$(grep -c ' at [0-3]$' "$tmp/notimeout")" = 4 -a "$(tail -n 1 "$tmp/notimeout")" = eof
	wait "$hp" || true
	check "logdr: timeout=2 with start= holds the reader 2 s, then sends its 2 records ($(cat "$tmp/held.ms") ms)" \
		test "$(cat "$tmp/held.ms")" -ge 2000 -a "$(awk '{ print $9 }' "$tmp/held" | paste -sd ' ')" = "2 3"
}

control_verbs_section() {
	lap "control: prune list, event tags, reinit"
	expect "control: getPruneList is logd's default at start; getEventTag id= and name= give the file's lines; an app asks, length-prefixed" \
		"~! ~1000/!
42 answer (to life|1)
1005 tag_def (tag|1),(name|3),(format|3)" \
		as 10057 init -- "$L" ctl -L getPruneList "getEventTag id=42" "getEventTag name=tag_def"
	# (and radio cut to 64 KiB for hold_section, in the same connection)
	expect "control: setPruneList with log credentials: success; a bad entry: Invalid" \
		"success"$'\n'"Invalid"$'\n'"success" \
		ctl "setPruneList ~1000/! 10057 /42 ~!" "setPruneList 1000/x" "setLogSize 1 65536"
	echo '4242 nslogd_sh (msg|3)' >>"$tags"
	expect "control: an app may not setPruneList; a tag added to the file is not known yet; an app may not reinit" \
		"Permission Denied"$'\n'"Invalid"$'\n'"Permission Denied" \
		as 10057 init -- "$L" ctl "setPruneList ~!" "getEventTag id=4242" reinit
	expect "control: getPruneList shows the list set, kept through the refusals" \
		"~1000/! 10057 /42 ~!" ctl -L getPruneList
	expect "control: reinit with log credentials: success" "success" ctl reinit
	# logd's reinit reads its settings again: the prune list is its
	# default again
	expect "control: after reinit the prune list is logd's default again, and the tag added to the file is known" \
		"~! ~1000/!"$'\n'"4242 nslogd_sh (msg|3)" ctl -L getPruneList "getEventTag id=4242"
}

junk_ctl_section() {
	local lh un0 ov0

	lap "control: bad input"
	lh=$(logd_now)
	counters "$lh"
	un0=$(counter control unrecognized)
	ov0=$(counter control oversized)
	in_c init -- "$L" junk ctl >"$tmp/junkctl" 2>&1 || true
	# logd (libsysutils' FrameworkListener) answers "500 Command not
	# recognized" to a verb it does not know, the empty one included,
	# and "500 Command too large for buffer" to a command that does not
	# end in its buffer; nslogd closes that connection after it.
	expect "control: unknown verbs and binary junk get logd's reply, a command too long logd's and is closed, exit closes; every other connection goes on" \
		"unknown verbs, an empty command, then one known: 500 Command not recognized | 500 Command not recognized | 500 Command not recognized | $ns_size; open
binary junk, then a command: 500 Command not recognized | 500 Command not recognized | $ns_size; open
no NUL: no reply; the rest: $ns_size; open
no NUL, then end of file: no reply; closed
1,023 bytes, then a command: 500 Command not recognized | $ns_size; open
1,024 bytes: 500 Command too large for buffer; closed
64 KiB without a NUL: 500 Command too large for buffer; closed
exit, then a command: success; closed
65 connections: the newest answered, the idle first: no reply; closed" cat "$tmp/junkctl"
	counters "$lh"
	check "control: counted: 6 commands not recognized, 2 oversized" \
		test $(($(counter control unrecognized) - un0)) = 6 -a $(($(counter control oversized) - ov0)) = 2
	alive "control's bad input" "$lh"
}

junk_logdr_section() {
	local lh g0 o0 s0

	lap "logdr: bad input"
	lh=$(logd_now)
	# the counters junk_ctl_section had printed last: logdr's as they are
	g0=$(counter logdr: garbage)
	o0=$(counter logdr: oversized)
	s0=$(counter logdr: second-command)
	in_c init -- "$L" junk logdr >"$tmp/junkrd" 2>&1 || true
	expect "logdr: garbage, an empty command and 255 bytes: each closed unserved; a second command disconnects" \
		"an unknown word: 0 records, closed
binary junk: 0 records, closed
a NUL inside: 0 records, closed
a number with junk: 0 records, closed
a key twice: 0 records, closed
an unknown verb: 0 records, closed
an empty message: 0 records, closed
255 bytes: 0 records, closed
a second command: at most its tail, closed" cat "$tmp/junkrd"
	counters "$lh"
	check "logdr: counted: 6 garbage, 1 oversized, 1 second command" \
		test $(($(counter logdr: garbage) - g0)) = 6 -a $(($(counter logdr: oversized) - o0)) = 1 -a \
		$(($(counter logdr: second-command) - s0)) = 1
	alive "logdr's bad input" "$lh"
}

# 1,000 streams open at once, each sent its tail and then waiting: a
# socket and a log fd each in nslogd, and its memory, which README.md
# bounds: per connection its struct and a record buffer per log it reads,
# in musl's malloc slots of 1,632 and 4,672 bytes; 64 kB more for the
# allocator's own headers and a page begun.
READERS=1000
RCONN_BYTES=$((1632 + 4672))
readers_section() {
	local lh nfd0 nfd1 rss0 rss1 rp rc bound

	lap "$READERS readers"
	lh=$(logd_now)
	write ev1 1000 app_a -W 10000 -l 2 -t evT first
	nfd0=$(find "/proc/$lh/fd" -mindepth 1 | wc -l)
	rss0=$(status VmRSS "$lh")
	as 0 init -- "$L" readers -n $READERS -g -c 2 -w 30000 "stream lids=2 tail=1" \
		>"$tmp/readers" 2>&1 &
	rp=$!
	bg+=("$rp")
	if ! wait_for_s=60 wait_for grep -q '^ready ' "$tmp/readers"; then
		not_ok "$READERS logdr streams open at once, each sent its tail"
		sed 's/^/#   /' "$tmp/readers"
		return
	fi
	rss1=$(status VmRSS "$lh")
	nfd1=$(find "/proc/$lh/fd" -mindepth 1 | wc -l)
	check "$READERS logdr streams open at once, each sent its tail: nslogd holds a socket and a log fd for each ($nfd0 fds, then $nfd1)" \
		test $((nfd1 - nfd0)) -ge $((2 * READERS))
	bound=$((READERS * RCONN_BYTES / 1024 + 64))
	check "... nslogd's VmRSS grew by $((rss1 - rss0)) kB ($rss0 to $rss1), within README's bound for one log each ($bound kB)" \
		test $((rss1 - rss0)) -le "$bound"
	# With them open: a record to their log, stored and read back by a
	# new reader (the writer's -W), and sent to every one of them.
	write ev2 1000 app_a -W 10000 -l 2 -t evT second
	check "... with them open, a writer's record is stored and a new reader reads it back" \
		grep -q '^logd_test: 1 of 1 seen through logdr$' "$tmp/ev2.err"
	kill -USR1 "$(leaf "$rp")" || true
	rc=0
	wait "$rp" || rc=$?
	expect "... and every one of the $READERS streams is sent it: 2 records each; nslogd is still $lh" \
		"$READERS connections: 2 records" \
		bash -c '[ "$1" = 0 ] && [ "$2" = "$3" ] && grep -v "^ready " "$4"' \
		_ "$rc" "$(logd_now)" "$lh" "$tmp/readers"
}

# A stream reader that never reads: its socket fills, nslogd keeps the
# one record it could not send and reads no more for it; the ring goes on
# without it.
# Radio at 64 KiB (control_verbs_section; about 900 such records)
# overwrites the reader's place with HOLD_N.
HOLD_N=1500
hold_section() {
	local lh rss0 rss1 hp wp rc l0

	lap "a reader that never reads"
	lh=$(logd_now)
	counters "$lh"
	l0=$(counter logdr: lost)
	rss0=$(status VmRSS "$lh")
	as 0 init -- "$L" hold -n 600 -w 5000 "stream lids=1 tail=1" >"$tmp/hold" 2>&1 &
	hp=$!
	bg+=("$hp")
	wait_for grep -q '^[0-9]' "$tmp/hold" || true
	rc=0
	as 1000 app_a -- "$L" burst -l 1 -n $HOLD_N -S 2000 -t hold hb >"$tmp/hb.w" 2>&1 || rc=$?
	wp=$(awk 'NR == 1 { print $1 }' "$tmp/hb.w")
	check "a reader that never reads holds up no writer: $HOLD_N records sent, none blocked 2 s" \
		test "$rc" = 0
	hbtail() { rd hbtail "dumpAndClose lids=1 pid=$wp tail=2"; grep -q " hb $((HOLD_N - 1))\$" "$tmp/hbtail"; }
	wait_for_s=3 wait_for hbtail || true
	expect "... nor another reader: a new one gets the newest two" \
		"hb $((HOLD_N - 2))"$'\n'"hb $((HOLD_N - 1))"$'\n'"eof" \
		awk '{ print ($1 == "eof") ? $1 : $8 " " $9 }' "$tmp/hbtail"
	rss1=$(status VmRSS "$lh")
	check "... nor nslogd's memory: VmRSS $rss0 kB before, $rss1 kB with $HOLD_N records not read (at most 16 kB more: its connection)" \
		test $((rss1 - rss0)) -le 16
	kill -USR1 "$(leaf "$hp")" || true
	rc=0
	wait "$hp" || rc=$?
	check "... let go, it is served on: 600 records ($(tail -n 1 "$tmp/hold"))" \
		bash -c '[ "$1" = 0 ] && grep -q "^got 600, last hb [0-9]*$" "$2"' _ "$rc" "$tmp/hold"
	lostmore() { counters "$lh"; [ "$(counter logdr: lost)" -gt "$l0" ]; }
	wait_for_s=3 wait_for lostmore || true
	check "... what the ring overwrote meanwhile is counted lost ($l0, then $(counter logdr: lost)); nslogd is still $lh" \
		test "$(counter logdr: lost)" -gt "$l0" -a "$(logd_now)" = "$lh"
}

# Writers killed in their loop: each sends 20 records and waits; once
# nslogd has stored those, it is frozen (its cgroup's cgroup.freeze) and
# the writers go on until logdw's queue is full (net.unix.max_dgram_qlen,
# 10: 11 datagrams) and each is blocked in a send; then they are
# SIGKILLed, and nslogd thawed finds 11 datagrams of processes that are
# gone.  Nothing they sent may be lost.  (With SIGSTOP instead of the
# freeze, the writers were seen to go on sending: not looked into.)
vanish_section() {
	local lh i g0 gq n ok=yes un p sent='' got='' idx
	local -a gbg gp gl

	lap "writers that vanish"
	lh=$(logd_now)
	for i in 1 2 3; do
		# (stderr apart: bash says there that the writer was killed)
		as 1000 app_a -- "$L" burst -l 3 -n 0 -g 20 -p -t gone "gone$i" \
			>"$tmp/gone$i" 2>"$tmp/gone$i.err" &
		gbg[i]=$!
		bg+=("${gbg[i]}")
	done
	# gsent I: how many writer I sent (its progress lines); builtins only,
	# as the waits below run it often and every exec reads the root
	# over 9p.
	gsent() {
		local l

		mapfile -t l <"$tmp/gone$1"
		echo $((${#l[@]} - 1))
	}
	gsum() { echo $(($(gsent 1) + $(gsent 2) + $(gsent 3))); }
	gwaiting() { for i in 1 2 3; do [ "$(gsent "$i")" = 20 ] || return 1; done; }
	wait_for gwaiting || true
	for i in 1 2 3; do
		read -r "gp[$i]" _ <"$tmp/gone$i"
		gl[i]=$(leaf "${gbg[i]}")
	done
	gread() { [ "$(node system | grep -c ' gone[123] ')" -ge 60 ]; }
	wait_for_s=3 wait_for gread || true
	echo 1 >"$cg/init/cgroup.freeze"
	frozen() {
		local k v

		while read -r k v; do
			[ "$k $v" != "frozen 1" ] || return 0
		done <"$cg/init/cgroup.events"
		return 1
	}
	wait_for frozen || true
	g0=$(gsum)
	kill -USR1 "${gl[@]}" || true
	gfull() { [ "$(gsum)" -ge $((g0 + 11)) ]; }
	wait_for gfull || true
	kill -KILL "${gl[@]}" || true
	gdead() { for i in 1 2 3; do ! kill -0 "${gbg[i]}" 2>/dev/null || return 1; done; }
	if ! wait_for gdead; then
		echo "# writers not gone:"
		ps -eo pid,ppid,stat,wchan:24,args | sed 's/^/#   /'
	fi
	for i in 1 2 3; do
		wait "${gbg[i]}" 2>/dev/null || true
	done
	gq=$(($(gsum) - g0))
	echo 0 >"$cg/init/cgroup.freeze"
	gstored() {
		node system >"$tmp/gone.node"
		for i in 1 2 3; do
			[ "$(grep -c " gone$i " "$tmp/gone.node")" -ge "$(gsent "$i")" ] || return 1
		done
	}
	wait_for_s=3 wait_for gstored || true
	for i in 1 2 3; do
		p=${gp[i]}
		awk -v p="$p" -v m="gone$i" '$1 == p && $3 == 1000 && $7 == m { print $8 }' \
			"$tmp/gone.node" >"$tmp/gone$i.idx"
		n=$(wc -l <"$tmp/gone$i.idx")
		idx=$(paste -sd ' ' "$tmp/gone$i.idx")
		# 0 to n-1, once each, in order; n the count sent, or one more
		# (killed between a send and its line)
		[ "$idx" = "$(seq -s ' ' 0 $((n - 1)))" ] || ok=no
		[ "$n" -ge "$(gsent "$i")" ] && [ "$n" -le $(($(gsent "$i") + 1)) ] || ok=no
		[ "$(grep -c " gone$i " "$tmp/gone.node")" = "$n" ] || ok=no
		sent+=" $(gsent "$i")" got+=" $n"
	done
	check "3 writers SIGKILLed in their loop, blocked in a send: all each sent is stored, once, in order (sent$sent, stored$got)" \
		test "$ok" = yes
	un=$(awk '$5 ~ /u/ && $7 ~ /^gone[123]$/' "$tmp/gone.node" | wc -l)
	check "... the 11 logdw held while nslogd was frozen ($gq) stored after their writers were gone, with their pids and uid (unverified: $un)" \
		test "$gq" = 11 -a "$un" = 11
	alive "writers that vanish" "$lh"
}

filters_section
control_verbs_section
junk_ctl_section
junk_logdr_section
readers_section
hold_section
vanish_section

# --- the end --------------------------------------------------------------------
lap end
kill -TERM "$init_host"
wait_for bash -c '! kill -0 "$1"' _ "$init_host" || true
check "nslogd ended on SIGTERM (exit 0), its counters with no relay failed" \
	bash -c 'grep -q "^exit [0-9]* status 0$" "$1" &&
		 grep "^nslogd: received" "$2" | tail -n 1 | grep -q " no-log 0 failed 0 "' \
	_ "$tmp/init.out" "$tmp/nslogd.err"
init_host=
grep '^nslogd: ' "$tmp/nslogd.err" | tail -n 4 | sed 's/^/# /'
echo "# nslogd.sh: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
