#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# collector.sh - nslog-collector shipping to the real consumers, in the
# guest (issue 17; docs/collecting.md).
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh collector
#
#   containers (come and go)                 host (the guest)
#   ------------------------                 ----------------
#   A unshare --ipc --pid --fork,            J  nslog-collector -o json  -> j.json   (jq)
#     cgroup /lxc.payload.webPID             JR nslog-collector -o journal -> systemd-journald
#   B ns_test userns 0:100000:65536,               -> journalctl -o json     (jq)
#     uid 1000 (101000 on the host),         RS nslog-collector -o rfc5424 --target unix:SOCK
#     cgroup /system.slice/docker-ID.scope         -> rsyslogd (private) -> omfile rs.log
#   C unshare --ipc: made and gone
#   X lxc-execute: made and gone             K1..K4 nslog-collector -o json, one state
#   L unshare --ipc, 16 KiB ring:                file: SIGKILL and SIGTERM mid-flood
#     flooded while J is stopped
#   F unshare --ipc, 512 KiB ring: the flood
#   G unshare --ipc, 512 KiB ring: the     KJ1, KJ2 nslog-collector -o journal,
#     flood shipped to the journal            one state file: SIGKILL mid-flood
#
# 1. A's and B's records in journald, in rsyslog's file and in the JSON
#    lines, every field as each consumer shows it: priority mapping, tag,
#    the container's identity, the log, namespace and set ids, seq and
#    order, the writer's pid, tid and uid as the host sees them.
# 2. C and X appear while the collectors run: their records are shipped,
#    the last one written just before they exit too, and once their sets
#    are reaped each collector has ended their followers (their fds are
#    closed, their lines leave the state file).
# 3. L is flooded while J is stopped (SIGSTOP): J reports as lost exactly
#    the records written that it did not ship, seq ranges and all.
# 4. A collector killed (SIGKILL) mid-flood and restarted with its state
#    file ships every seq; what it repeats is exactly what it had shipped
#    after its last state save.  A SIGTERM'd one repeats nothing.
# 5. The same with -o journal, the state file lagging on purpose: the
#    restarted collector asks the journal and repeats nothing.
# 6. (Between 2 and 3.) S, with its own IPC and mount namespaces, makes an
#    nslogfs stream, writes to it, removes it and makes another of the same
#    name: J ships both by name, from their first records, the journal
#    has them, and J ends their followers with the set.
#
# Needs jq, journald and rsyslog (scripts/deps.sh collector) and LXC
# (scripts/deps.sh containers): the scenario fails when one is missing.
# The host's own logs are flushed first.  Changes ns_size, ns_grace_ms
# and gc_interval_ms (runtime-tunable) and puts them back on exit.
# The bash -c scripts below take their arguments as $1...: single quotes wanted.
# shellcheck disable=SC2016
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"
# Daemons and lxc-execute start slowly under emulation and a debug kernel.
wait_for_s=60

# wait_for COMMAND...: lib.sh's, but bounded by the clock as well: it
# counts polls, and under TCG one poll of several processes takes far
# longer than its 50 ms, so a failing wait would hold the run for many
# times $wait_for_s.
wait_for() {
	local end=$((SECONDS + wait_for_s))

	until "$@" 2>/dev/null; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.05
	done
}

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/tools
coll=$bin/nslog-collector
nslog=$bin/nslog
T=$top/build/tests/ns_test
params=/sys/module/nslogger/parameters
tmp=$(mktemp -d "/tmp/nslog-coll.$$.XXXXXX")
chmod 755 "$tmp"
# Where the containers (B runs as host uid 101000) leave their marks.
sync=$tmp/sync
mkdir -m 1777 "$sync"
cg=/sys/fs/cgroup
a_cg=$cg/lxc.payload.web$$
docker_id=$(printf 'nslog-%s' "$$" | sha256sum)
docker_id=${docker_id%% *}
b_cg=$cg/system.slice/docker-$docker_id.scope
lxc_name=nslog-coll-$$
lxcpath=/var/lib/lxc
boot_id=$(cat /proc/sys/kernel/random/boot_id)
declare -A saved=() cpid=()
jd_pid=
rs_pid=
jd_conf=
made_slice=

unset NSLOG_DEV_DIR

cleanup() {
	local rc=$? p k

	trap - EXIT
	touch "$sync/c.go" "$sync/x.go" "$sync/l.go" 2>/dev/null || true
	for k in "${!cpid[@]}"; do
		kill -KILL "${cpid[$k]}" 2>/dev/null || true
	done
	stop_bg
	for p in "$jd_pid" "$rs_pid"; do
		[ -z "$p" ] || { kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; }
	done
	timeout 10 lxc-stop -n "$lxc_name" -P "$lxcpath" -k >/dev/null 2>&1 || true
	[ -z "$jd_conf" ] || rm -f "$jd_conf"
	for k in "${!saved[@]}"; do
		echo "${saved[$k]}" >"$params/$k" 2>/dev/null || true
	done
	[ -z "${bpid:-}" ] || kill -KILL "$bpid" 2>/dev/null || true
	for k in "$a_cg" "$b_cg" ${made_slice:+"$cg/system.slice"}; do
		for _ in {1..50}; do
			[ -d "$k" ] || break
			rmdir "$k" 2>/dev/null && break
			sleep 0.1
		done
	done
	rm -rf "$tmp" "${lxcpath:?}/$lxc_name"
	exit "$rc"
}
trap cleanup EXIT

setparam() {	# NAME VALUE: set a runtime-tunable parameter, put back on exit
	[ -n "${saved[$1]:-}" ] || saved[$1]=$(cat "$params/$1")
	echo "$2" >"$params/$1"
}

# start_coll NAME OUTPUT-FILE ARGS...: a collector in the background,
# its pid in ${cpid[NAME]}, its stderr in $tmp/name.err (lower case).
start_coll() {
	local name=$1 out=$2

	shift 2
	"$coll" "$@" >"$out" 2>"$tmp/${name,,}.err" &
	cpid[$name]=$!
}

# stop_coll NAME [SIGNAL]: signal it (TERM) and print its exit status.
stop_coll() {
	local rc=0

	kill "-${2:-TERM}" "${cpid[$1]}"
	wait "${cpid[$1]}" || rc=$?
	unset "cpid[$1]"
	echo "$rc"
}

# count FILE PATTERN: lines of FILE with the fixed string PATTERN.
count() { grep -acF -- "$2" "$1" || true; }
# atleast N FILE PATTERN
atleast() { [ "$(count "$2" "$3")" -ge "$1" ]; }

# ipc_of PID: its IPC namespace id.
ipc_of() { stat -L -c %i "/proc/$1/ns/ipc"; }
# set_of NS: the set id /proc/nslogger/namespaces gives it.
# (a dead set may still be listed under the id of a namespace that was
# freed and whose id was given to a new one: the live one's.)
set_of() { awk -v ns="$1" '$1 == ns && $3 == "live" && $5 == "main" { print $10 }' /proc/nslogger/namespaces; }
# written SET: records written to its main log.
# (Compared as strings: awk's numbers would lose the low bits of set ids.)
written() { awk -v s="$1" '$10 "" == s "" && $5 == "main" { print $8 }' /proc/nslogger/namespaces; }

# nfds PID: how many log fds (NSLOG_IOC_OPEN_NS gives anon inodes) it has.
nfds() { find "/proc/$1/fd" -lname 'anon_inode:\[nslogger\]' | wc -l; }

# following PID: it has opened a set's four logs at least.
following() { [ "$(nfds "$1")" -ge 4 ]; }

# ended NAME STATE SET...: the collector NAME follows none of the SETs:
# none is in its state file, and it holds the four fds of each set it has
# there, no more.
ended() {
	local name=$1 state=$2 s

	shift 2
	for s in "$@"; do
		! grep -q "^set $s " "$state" || return 1
	done
	[ "$(nfds "${cpid[$name]}")" = $((4 * $(grep -c '^set ' "$state"))) ]
}

# jqtrue ARGS...: jq -e, quietly.
jqtrue() { jq -e "$@" >/dev/null; }

# at WHAT: the guest's uptime, as a TAP comment, for the run time of parts.
at() {
	local up _

	read -r up _ </proc/uptime
	echo "# $up s: $*"
}

# wait_file NAME: wait for $sync/NAME, which a container makes.
wait_file() { wait_for test -e "$sync/$1"; }

# ---------------------------------------------------------------------------
need collector jq journalctl rsyslogd
need containers lxc-execute
if [ ! -x "$coll" ]; then
	not_ok "nslog-collector is built ($coll: make tools)"
	exit 1
fi
[ -c /dev/log_main ] || { not_ok "the module is loaded"; exit 1; }

"$bin/nslogcat" -c -b all
setparam ns_grace_ms 1000
setparam gc_interval_ms 100

at "start"
# --- the consumers ------------------------------------------------------------
# journald: the guest's if it runs one (systemd as pid 1), else one of our
# own on the guest's fresh /run, in memory, with no rate limit.
have_journal=0
if [ -S /run/systemd/journal/socket ]; then
	have_journal=1
elif [ -x /lib/systemd/systemd-journald ] && command -v journalctl >/dev/null; then
	mkdir -p /run/systemd/journald.conf.d
	jd_conf=/run/systemd/journald.conf.d/nslog-collector-test.conf
	printf '%s\n' '[Journal]' Storage=volatile RateLimitIntervalSec=0 ReadKMsg=no \
		Audit=no ForwardToSyslog=no ForwardToKMsg=no ForwardToConsole=no \
		ForwardToWall=no >"$jd_conf"
	/lib/systemd/systemd-journald >"$tmp/journald.out" 2>&1 &
	jd_pid=$!
	if wait_for test -S /run/systemd/journal/socket; then
		have_journal=1
	else
		not_ok "systemd-journald started"
		sed 's/^/#   journald: /' "$tmp/journald.out"
	fi
else
	not_ok "systemd-journald is installed (scripts/deps.sh collector)"
fi

# rsyslog: a private rsyslogd, docs/collecting.md's configuration with
# this run's socket and file.
have_rsyslog=0
rs_sock=$tmp/syslog.sock
rs_log=$tmp/rs.log
if command -v rsyslogd >/dev/null; then
	mkdir "$tmp/rs"
	cat >"$tmp/rsyslog.conf" <<EOF
global(workDirectory="$tmp/rs")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="$rs_sock" UseSpecialParser="off"
      ParseHostname="on" IgnoreTimestamp="off" RateLimit.Interval="0")
template(name="nslogger" type="string"
         string="%timereported:::date-rfc3339% %hostname% %syslogseverity-text% %app-name%[%procid%] %msgid% %structured-data% %msg%\n")
if \$structured-data contains "[nslogger@32473" then {
	action(type="omfile" file="$rs_log" template="nslogger")
	stop
}
EOF
	rsyslogd -n -f "$tmp/rsyslog.conf" -i "$tmp/rsyslogd.pid" >"$tmp/rsyslogd.out" 2>&1 &
	rs_pid=$!
	if wait_for test -S "$rs_sock"; then
		have_rsyslog=1
	else
		not_ok "rsyslogd started"
		sed 's/^/#   rsyslogd: /' "$tmp/rsyslogd.out"
	fi
else
	not_ok "rsyslogd is installed (scripts/deps.sh collector)"
fi

at "consumers up"
# --- the collectors, then the containers -----------------------------------------
start_coll J "$tmp/j.json" -o json -s "$tmp/j.state" --state-interval 200
[ $have_journal = 0 ] ||
	start_coll JR /dev/null -o journal -s "$tmp/jr.state" --state-interval 200
[ $have_rsyslog = 0 ] ||
	start_coll RS /dev/null -o rfc5424 --target "unix:$rs_sock" --facility local0 \
		-s "$tmp/rs.state" --state-interval 200
# Each is up once it has opened the host's set's four logs.
for k in "${!cpid[@]}"; do
	check "collector $k is up (it follows the host's set)" \
		wait_for following "${cpid[$k]}"
done

[ -d "$cg/system.slice" ] || made_slice=1
mkdir -p "$a_cg" "$b_cg"
# A: pid and IPC namespaces; its shell (pid 1 inside) says its host pid,
# waits to be put in its cgroup, and writes W, E and I.
unshare --ipc --pid --fork --kill-child bash -c '
	while read -r k v _; do [ "$k" = NSpid: ] && echo "$v" >"$1/a.pid"; done </proc/self/status
	while [ ! -e "$1/a.go" ]; do sleep 0.05; done
	printf "\5web\0disk 91%% full\0" >/dev/log_main
	printf "\6web\0upstream timed out\0" >/dev/log_main
	printf "\4web\0GET / 200\0" >/dev/log_main
	: >"$1/a.wrote"
	exec sleep 1000' A "$sync" &
a_unshare=$!
bg+=("$a_unshare")
# B: a user namespace mapping 0-65535 to 100000-165535, uid 1000 inside;
# writes F, D, V and Android's "default" priority 1.
"$T" userns -m 0:100000:65536 -u 1000 -g 1000 -x ipc -- bash -c '
	echo $$ >"$1/b.pid"
	while [ ! -e "$1/b.go" ]; do sleep 0.05; done
	printf "\7app\0segfault at 0\0" >/dev/log_main
	printf "\3app\0cache miss\0" >/dev/log_main
	printf "\2app\0tick\0" >/dev/log_main
	printf "\1app\0default priority\0" >/dev/log_main
	: >"$1/b.wrote"
	exec sleep 1000' B "$sync" &
bg+=("$!")
if ! wait_file a.pid || ! wait_file b.pid; then
	not_ok "containers A and B started"
	exit 1
fi
apid=$(<"$sync/a.pid")
bpid=$(<"$sync/b.pid")
echo "$a_unshare" >"$a_cg/cgroup.procs"
echo "$apid" >"$a_cg/cgroup.procs"
echo "$bpid" >"$b_cg/cgroup.procs"
touch "$sync/a.go" "$sync/b.go"
if ! wait_file a.wrote || ! wait_file b.wrote; then
	not_ok "containers A and B wrote"
	exit 1
fi
aid=$(ipc_of "$apid")
bid=$(ipc_of "$bpid")
aset=$(set_of "$aid")
bset=$(set_of "$bid")
echo "# A: host pid $apid, ipc:[$aid], set $aset; B: host pid $bpid, ipc:[$bid], set $bset, docker $docker_id"

check "json: J shipped A's 3 records and B's 4" \
	wait_for bash -c '[ "$(grep -c "\"set_id\":\"$2\"" "$1")" = 3 ] && [ "$(grep -c "\"set_id\":\"$3\"" "$1")" = 4 ]' \
	_ "$tmp/j.json" "$aset" "$bset"

at "A and B wrote"
# --- 1. journald ---------------------------------------------------------------------
# journal_has N: journalctl's records of A and B, in $tmp/journal.json, are N.
journal_has() {
	journalctl -o json --no-pager "NSLOG_SET_ID=$aset" "NSLOG_SET_ID=$bset" >"$tmp/journal.json" &&
		[ "$(wc -l <"$tmp/journal.json")" = "$1" ]
}
# A's records first, each set's by seq.
jfields='sort_by(.NSLOG_SET_ID != $a, (.NSLOG_SEQ | tonumber))[] |
	[.MESSAGE, .PRIORITY, .SYSLOG_IDENTIFIER, .SYSLOG_PID, .CONTAINER_NAME,
	 .CONTAINER_ID, .CONTAINER_ID_FULL, .NSLOG_RUNTIME, .NSLOG_CGROUP,
	 .NSLOG_LOG, .NSLOG_NS_ID, .NSLOG_SET_ID, .NSLOG_SEQ, .NSLOG_ORDER,
	 .NSLOG_PID, .NSLOG_TID, .NSLOG_UID, .NSLOG_PRIORITY, ._COMM] |
	map(. // "-") | join("|")'
# jrow MESSAGE PRIORITY TAG CONTAINER SEQ ANDROID-PRIORITY: a line of $jfields.
jrow() {
	case $3 in
	web) echo "$1|$2|web|$apid|web$$|-|-|lxc|/lxc.payload.web$$|main|$aid|$aset|$4|$4|$apid|$apid|0|$5|nslog-collector" ;;
	app) echo "$1|$2|app|$bpid|-|${docker_id:0:12}|$docker_id|docker|/system.slice/docker-$docker_id.scope|main|$bid|$bset|$4|$4|$bpid|$bpid|101000|$5|nslog-collector" ;;
	esac
}
want_journal="$(jrow 'disk 91% full' 4 web 0 5)
$(jrow 'upstream timed out' 3 web 1 6)
$(jrow 'GET / 200' 6 web 2 4)
$(jrow 'segfault at 0' 2 app 0 7)
$(jrow 'cache miss' 7 app 1 3)
$(jrow 'tick' 7 app 2 2)
$(jrow 'default priority' 6 app 3 1)"
if [ $have_journal = 1 ]; then
	check "journald: journalctl -o json has A's and B's 7 records" wait_for journal_has 7
	expect "journald: MESSAGE, PRIORITY mapped (F 2, E 3, W 4, I 6, D V 7, other 6), SYSLOG_IDENTIFIER the tag, container and NSLOG_* fields, host pids and uids" \
		"$want_journal" jq -r -s --arg a "$aset" "$jfields" "$tmp/journal.json"
fi

# --- 1. rsyslog ------------------------------------------------------------------------
# rrow SEVERITY TAG SEQ MESSAGE: rs.log's line without its time stamp.
rrow() {
	local sd

	case $2 in
	web) sd="log=\"main\" ns_id=\"$aid\" set_id=\"$aset\" boot_id=\"$boot_id\" seq=\"$3\" order=\"$3\" tid=\"$apid\" uid=\"0\" runtime=\"lxc\" container_name=\"web$$\" cgroup=\"/lxc.payload.web$$\""
	     echo "nslog-vm $1 web[$apid] main [nslogger@32473 $sd] $4" ;;
	app) sd="log=\"main\" ns_id=\"$bid\" set_id=\"$bset\" boot_id=\"$boot_id\" seq=\"$3\" order=\"$3\" tid=\"$bpid\" uid=\"101000\" runtime=\"docker\" container_id=\"$docker_id\" cgroup=\"/system.slice/docker-$docker_id.scope\""
	     echo "nslog-vm $1 app[$bpid] main [nslogger@32473 $sd] $4" ;;
	esac
}
if [ $have_rsyslog = 1 ]; then
	check "rsyslog: its file has A's 3 records and B's 4" \
		wait_for bash -c '[ "$(grep -c "set_id=\"$2\"" "$1")" = 3 ] && [ "$(grep -c "set_id=\"$3\"" "$1")" = 4 ]' \
		_ "$rs_log" "$aset" "$bset"
	expect "rsyslog: each set's records in seq order: severity, APP-NAME the tag, PROCID the host pid, MSGID the log, structured data, message" \
		"$(rrow warning web 0 'disk 91% full')
$(rrow err web 1 'upstream timed out')
$(rrow info web 2 'GET / 200')
$(rrow crit app 0 'segfault at 0')
$(rrow debug app 1 'cache miss')
$(rrow debug app 2 'tick')
$(rrow info app 3 'default priority')" \
		bash -c '{ grep -F "set_id=\"$2\"" "$1"; grep -F "set_id=\"$3\"" "$1"; } | cut -d" " -f2-' \
		_ "$rs_log" "$aset" "$bset"
	check "rsyslog: every time stamp is RFC 3339 with microseconds and a zone" \
		bash -c '! grep -vE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}(Z|[+-][0-9]{2}:[0-9]{2}) " "$1"' _ "$rs_log"
fi

at "come and go"
# --- 2. containers come and go ------------------------------------------------------
# A and B go; C comes, writes, and goes after its last record.
kill -KILL "$bpid" "$a_unshare"
unshare --ipc bash -c '
	printf "\4gone\0first words\0" >/dev/log_main
	: >"$1/c.wrote"
	while [ ! -e "$1/c.go" ]; do sleep 0.05; done
	printf "\4gone\0last words\0" >/dev/log_main' C "$sync" &
c_pid=$!
bg+=("$c_pid")
wait_file c.wrote || true
cid=$(ipc_of "$c_pid" 2>/dev/null || echo none)
cset=$(set_of "$cid")
check "a set made while the collector runs (C) is picked up: its first record shipped" \
	wait_for grep -qF "\"set_id\":\"$cset\",\"seq\":0," "$tmp/j.json"
touch "$sync/c.go"
wait "$c_pid" || true
check "C's last record, written just before it exited, is shipped" \
	wait_for grep -qF "\"set_id\":\"$cset\",\"seq\":1,\"order\":1,\"priority\":4,\"level\":\"info\",\"tag\":\"gone\",\"message\":\"last words\"" "$tmp/j.json"
check "the sets of A, B and C are reaped" \
	wait_for bash -c '! grep -qE " ($1|$2|$3)\$" /proc/nslogger/namespaces' _ "$aset" "$bset" "$cset"
for k in "${!cpid[@]}"; do
	f=$tmp/${k,,}.state
	check "collector $k ended its followers of A, B and C (fds closed, out of its state)" \
		wait_for ended "$k" "$f" "$aset" "$bset" "$cset"
done

# X: an LXC application container, the guest's root read-only, with
# /dev/log_main bound in; it logs with nslog, waits, logs again, exits.
lxc_run() {
	local dir=$lxcpath/$lxc_name why rc

	mkdir -p "$dir"
	cat >"$dir/config" <<EOF
lxc.uts.name = $lxc_name
lxc.rootfs.path = dir:/
lxc.rootfs.options = ro
lxc.net.0.type = empty
lxc.autodev = 1
lxc.mount.auto = proc:mixed sys:ro
lxc.mount.entry = /dev/log_main dev/log_main none bind,create=file 0 0
lxc.mount.entry = $sync ${sync#/} none bind 0 0
lxc.apparmor.profile = unconfined
lxc.log.file = $dir/lxc.log
lxc.log.level = INFO
EOF
	lxc-execute -n "$lxc_name" -P "$lxcpath" -- /bin/bash -c '
		"$1" -t lxcapp "hello from lxc"
		: >"$2/x.wrote"
		while [ ! -e "$2/x.go" ]; do sleep 0.05; done
		"$1" -t lxcapp "bye from lxc"' _ "$nslog" "$sync" >"$tmp/lxc.out" 2>&1 &
	x_pid=$!
	bg+=("$x_pid")
	wait_for bash -c '[ -e "$1/x.wrote" ] || ! kill -0 "$2"' _ "$sync" "$x_pid" || true
	if [ ! -e "$sync/x.wrote" ]; then
		rc=0
		kill -0 "$x_pid" 2>/dev/null || wait "$x_pid" || rc=$?
		why=$(grep -m1 ERROR "$dir/lxc.log" 2>/dev/null || true)
		skip "LXC: a container's set is picked up, labelled and ended" \
			"lxc-execute did not start the container (exit $rc): ${why:-see below}"
		sed 's/^/#   lxc-execute: /' "$tmp/lxc.out"
		return 0
	fi
	check "LXC: its set is picked up, its record shipped" \
		wait_for grep -qF '"tag":"lxcapp","message":"hello from lxc"' "$tmp/j.json"
	xset=$(grep -aF '"tag":"lxcapp"' "$tmp/j.json" | head -n 1 | jq -r .set_id || true)
	touch "$sync/x.go"
	rc=0
	wait "$x_pid" || rc=$?
	check "LXC: lxc-execute exited 0" test "$rc" = 0
	check "LXC: its last record, written just before it exited, is shipped" \
		wait_for grep -qF '"tag":"lxcapp","message":"bye from lxc"' "$tmp/j.json"
	check "LXC: J ended its follower once the set was reaped" \
		wait_for ended J "$tmp/j.state" "$xset"
	expect "LXC: labelled runtime lxc, its name, its cgroup" \
		"lxc $lxc_name /lxc.payload.$lxc_name
lxc $lxc_name /lxc.payload.$lxc_name" \
		jq -r --arg s "$xset" 'select(.set_id == $s) | "\(.runtime) \(.container_name) \(.cgroup)"' "$tmp/j.json"
}
at "lxc"
lxc_run

at "streams"
# --- 2b. nslogfs streams ------------------------------------------------------------
# S: its own IPC and mount namespaces; mounts nslogfs, makes a stream
# "audit" and writes three records to it; then removes it, makes another
# "audit" (a new stream of the old name) and writes one more.
unshare --ipc --mount bash -c '
	mount --make-rprivate /
	mount -t tmpfs tmpfs /mnt && mkdir /mnt/log && mount -t nslogfs nslogfs /mnt/log
	: >/mnt/log/audit
	for i in 0 1 2; do printf "\4aud\0entry $i\0" >>/mnt/log/audit; done
	: >"$1/s.wrote"
	while [ ! -e "$1/s.go" ]; do sleep 0.05; done
	rm /mnt/log/audit
	: >/mnt/log/audit
	printf "\4aud\0second audit\0" >>/mnt/log/audit
	: >"$1/s.again"
	while [ ! -e "$1/s.end" ]; do sleep 0.05; done' S "$sync" &
s_pid=$!
bg+=("$s_pid")
if wait_file s.wrote; then
	sid=$(ipc_of "$s_pid")
	sset=$(set_of "$sid")
	# stream_msgs JSON SET: its "audit" records in JSON, as SEQ:MESSAGE, in order.
	stream_msgs() {
		jq -r --arg s "$2" 'select(.set_id == $s and .log == "audit") | "\(.seq):\(.message)"' "$1" |
			tr '\n' ' '
	}
	export -f stream_msgs
	check "streams: J follows a stream made in a container's mount, labelled by its name" \
		wait_for bash -c '[ "$(stream_msgs "$1" "$2")" = "0:entry 0 1:entry 1 2:entry 2 " ]' \
		_ "$tmp/j.json" "$sset"
	echo "# streams: S ipc:[$sid], set $sset: $(stream_msgs "$tmp/j.json" "$sset")"
	touch "$sync/s.go"
	wait_file s.again || true
	check "streams: removed and made again under its name, the new stream is followed from its first record" \
		wait_for bash -c '[ "$(stream_msgs "$1" "$2")" = "0:entry 0 1:entry 1 2:entry 2 0:second audit " ]' \
		_ "$tmp/j.json" "$sset"
	if [ $have_journal = 1 ]; then
		check "streams: journald has the four audit records, NSLOG_LOG=audit" \
			wait_for bash -c '[ "$(journalctl -o cat --no-pager NSLOG_LOG=audit "NSLOG_SET_ID=$1" | wc -l)" = 4 ]' _ "$sset"
	fi
	touch "$sync/s.end"
	wait "$s_pid" || true
	check "streams: J ended S's followers, streams included, once its set was reaped" \
		wait_for ended J "$tmp/j.state" "$sset"
else
	not_ok "streams: container S wrote to its stream"
fi

for k in JR RS; do
	[ -z "${cpid[$k]:-}" ] || expect "collector $k: SIGTERM stops it, exit 0" 0 stop_coll "$k"
done

at "lapped"
# --- 3. a reader lapped on purpose ------------------------------------------------------
# L: a 16 KiB ring; one record, then 1000 while J is stopped.
setparam ns_size 16K
unshare --ipc bash -c '
	printf "\4lap\0before\0" >/dev/log_main
	: >"$2/l.wrote"
	while [ ! -e "$2/l.go" ]; do sleep 0.05; done
	seq 1 1000 | "$1" -t lap
	: >"$2/l.flooded"
	exec sleep 1000' L "$nslog" "$sync" &
l_pid=$!
bg+=("$l_pid")
wait_file l.wrote || true
lid=$(ipc_of "$l_pid" 2>/dev/null || echo none)
lset=$(set_of "$lid")
check "lapped: J follows L (its first record shipped)" \
	wait_for grep -qF "\"set_id\":\"$lset\",\"seq\":0," "$tmp/j.json"
kill -STOP "${cpid[J]}"
touch "$sync/l.go"
wait_file l.flooded || true
l_written=$(written "$lset")
kill -CONT "${cpid[J]}"
check "lapped: J ships L's last record (seq 1000)" \
	wait_for grep -qF "\"set_id\":\"$lset\",\"seq\":1000," "$tmp/j.json"
expect "collector J: SIGTERM stops it, exit 0" 0 stop_coll J
check "json: J's stderr is empty" test ! -s "$tmp/j.err"

shipped=$(jq --arg s "$lset" 'select(.set_id == $s and .type == "record")' "$tmp/j.json" | jq -s length)
lost=$(jq --arg s "$lset" 'select(.set_id == $s and .type == "lost") | .lost' "$tmp/j.json" | jq -s add)
echo "# lapped: written $l_written, shipped $shipped, reported lost $lost"
check "lapped: the ring did lap J (some records lost)" test "${lost:-null}" != null -a "${lost:-0}" -gt 0
check "lapped: the loss reported equals written minus shipped ($l_written - $shipped)" \
	test "${lost:-x}" = $((l_written - shipped))
expect "lapped: shipped seqs and reported ranges cover 0..$((l_written - 1)), each once" \
	"$(seq 0 $((l_written - 1)))" \
	bash -c 'jq -r --arg s "$2" '\''select(.set_id == $s) |
		if .type == "lost" then range(.lost_first_seq; .lost_last_seq + 1) else .seq end'\'' "$1" | sort -n' \
	_ "$tmp/j.json" "$lset"
kill -KILL "$l_pid"

at "json"
# --- 1. JSON lines -----------------------------------------------------------------------
check "json: every line is one valid JSON object" \
	bash -c '[ "$(jq -c "objects" "$1" | wc -l)" = "$(wc -l <"$1")" ]' _ "$tmp/j.json"
check "json: every time is RFC 3339 with nanoseconds and a zone" \
	jqtrue -s 'all(.[]; .time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{9}(Z|[+-][0-9]{2}:[0-9]{2})$"))' \
	"$tmp/j.json"
check "json: every line has this boot's boot_id and the guest's host name" \
	jqtrue -s --arg b "$boot_id" 'all(.[]; .boot_id == $b and .host == "nslog-vm")' "$tmp/j.json"
jrec() {	# TAG SEQ PRIORITY LEVEL MESSAGE
	case $1 in
	web) echo "record|main|$aid|$aset|$2|$2|$3|$4|web|$5|$apid|$apid|0|false|lxc|web$$|-|/lxc.payload.web$$" ;;
	app) echo "record|main|$bid|$bset|$2|$2|$3|$4|app|$5|$bpid|$bpid|101000|false|docker|-|$docker_id|/system.slice/docker-$docker_id.scope" ;;
	esac
}
expect "json: A's and B's records, each set's in seq order, every field" \
	"$(jrec web 0 5 warning 'disk 91% full')
$(jrec web 1 6 err 'upstream timed out')
$(jrec web 2 4 info 'GET / 200')
$(jrec app 0 7 crit 'segfault at 0')
$(jrec app 1 3 debug 'cache miss')
$(jrec app 2 2 debug 'tick')
$(jrec app 3 1 info 'default priority')" \
	jq -r --arg a "$aset" --arg b "$bset" '[.[] | select(.set_id == $a or .set_id == $b)] |
		sort_by(.set_id != $a)[] | [.type, .log, .ns_id, .set_id, .seq, .order, .priority, .level, .tag,
		 .message, .pid, .tid, .uid, .kernel, .runtime, .container_name,
		 .container_id, .cgroup] | map(if . == null then "-" else tostring end) |
		join("|")' --slurp "$tmp/j.json"
check "json: set_id is a string (64-bit), ns_id and seq numbers" \
	jqtrue -s 'all(.[] | select(.type == "record"); (.set_id | type) == "string" and (.ns_id | type) == "number" and (.seq | type) == "number")' \
	"$tmp/j.json"
if [ $have_journal = 1 ]; then
	# The same record's time in JSON (RFC 3339) and in journald (ns).
	jt=$(jq -r --arg a "$aset" 'select(.set_id == $a and .seq == 0) | .time' "$tmp/j.json")
	nt=$(jq -r --arg a "$aset" 'select(.NSLOG_SET_ID == $a and .NSLOG_SEQ == "0") | .NSLOG_TIME_NS' "$tmp/journal.json")
	check "json: time $jt is the record's (journald's NSLOG_TIME_NS $nt), to the ns" \
		test "$(date -d "$jt" +%s%N)" = "$nt"
fi

# staged_flood L TAG RANGE...: a container (a new IPC namespace) that, for
# each RANGE "FIRST LAST" in turn (the Nth), waits for $sync/LN.go, logs
# FIRST..LAST with TAG, one record a number, and makes $sync/LN.done; then
# it sleeps.  Its pid is left in flood_pid.
staged_flood() {
	local l=$1 tag=$2

	shift 2
	unshare --ipc bash -c '
		l=$1 tag=$2 nslog=$3 sync=$4 b=0
		shift 4
		for r in "$@"; do
			b=$((b + 1))
			while [ ! -e "$sync/$l$b.go" ]; do sleep 0.05; done
			seq $r | "$nslog" -t "$tag"
			: >"$sync/$l$b.done"
		done
		exec sleep 1000' "${l^^}" "$l" "$tag" "$nslog" "$sync" "$@" &
	flood_pid=$!
	bg+=("$flood_pid")
}

# --- 4. SIGKILL and SIGTERM mid-flood ---------------------------------------------------
# F: a ring that holds the whole flood, so that nothing is lost to it.
# It writes seq 0-999; 1000-1499, after which K1 is killed (SIGKILL);
# 1500-1999, which K2 (restarted) ships; 2000-2499, after which K3 is
# stopped (SIGTERM); 2500-2999, which K4 ships.  Each part waits for its
# go, so that each stop lands between two parts of the flood whatever the
# speed of the guest.
at "flood"
setparam ns_size 512K
staged_flood f flood "0 999" "1000 1499" "1500 1999" "2000 2499" "2500 2999"
f_pid=$flood_pid
state=$tmp/k.state
start_coll K1 "$tmp/k1.json" -o json -s "$state"
# Up: it has its signal handling too, so SIGTERM is a clean stop.
check "collector K1 is up" wait_for following "${cpid[K1]}"
touch "$sync/f1.go"
wait_file f1.done || true
fset=$(set_of "$(ipc_of "$f_pid")")
flood="\"set_id\":\"$fset\","
check "flood: K1 ships F's seq 999" wait_for grep -qF "$flood\"seq\":999," "$tmp/k1.json"
# K1 saves at most once a second, the first time a second after it began:
# a SIGKILL before that would test a start without a state file instead.
check "flood: K1's state file has F's set before K1 is killed" \
	wait_for grep -q "^set $fset " "$state"
touch "$sync/f2.go"
check "flood: K1 ships F's seq 1499" wait_for grep -qF "$flood\"seq\":1499," "$tmp/k1.json"
stop_coll K1 KILL >/dev/null
s_kill=$(sed -n "s/^set $fset [0-9]* main=\([0-9]*\).*/\1/p" "$state" 2>/dev/null || true)
touch "$sync/f3.go"
start_coll K2 "$tmp/k2.json" -o json -s "$state"
check "collector K2 is up" wait_for following "${cpid[K2]}"
wait_file f3.done || true
check "flood: K2, restarted, ships F's seq 1999" \
	wait_for grep -qF "$flood\"seq\":1999," "$tmp/k2.json"
expect "collector K2: SIGTERM stops it, exit 0" 0 stop_coll K2
# A SIGKILL can cut K1's last line where stdio's buffer ended.
torn=0
[ ! -s "$tmp/k1.json" ] || [ -z "$(tail -c 1 "$tmp/k1.json")" ] || torn=1
fseqs() {	# FILE: F's seqs in it, one a line
	{ grep -aF "$flood" "$1" || true; } | { grep -a '}$' || true; } |
		jq -r 'select(.type == "record") | .seq'
}
fseqs "$tmp/k1.json" >"$tmp/k1.seq"
fseqs "$tmp/k2.json" >"$tmp/k2.seq"
first2=$(head -n 1 "$tmp/k2.seq")
repeats=$(sort -n "$tmp/k1.seq" "$tmp/k2.seq" | uniq -d | wc -l)
since_save=$(awk -v s="${s_kill:--1}" '$1 > s' "$tmp/k1.seq" | wc -l)
echo "# SIGKILL: K1 shipped seq 0 to $(tail -n 1 "$tmp/k1.seq") (torn last lines: $torn)," \
	"its state file said ${s_kill:-nothing}; K2 began at ${first2:-none}; $repeats repeated"
expect "SIGKILL: every seq 0..1999 of the flood is shipped, none lost" \
	"$(seq 0 1999)" bash -c 'sort -n -u "$1" "$2"' _ "$tmp/k1.seq" "$tmp/k2.seq"
check "SIGKILL: K2 began right after the seq of the state file (${s_kill:-none} + 1)" \
	test "${first2:-none}" = $((${s_kill:--1} + 1))
check "SIGKILL: what repeats ($repeats) is exactly what K1 shipped after its last save ($since_save), each once" \
	test "$repeats" = "$since_save" -a -z "$(sort -n "$tmp/k1.seq" "$tmp/k2.seq" | uniq -c | awk '$1 > 2')"
check "SIGKILL: K1 and K2 each shipped F's records in order, none twice" \
	bash -c 'sort -n -c -u "$1" && sort -n -c -u "$2"' _ "$tmp/k1.seq" "$tmp/k2.seq"

start_coll K3 "$tmp/k3.json" -o json -s "$state"
check "collector K3 is up" wait_for following "${cpid[K3]}"
touch "$sync/f4.go"
check "flood: K3 ships F's seq 2499" wait_for grep -qF "$flood\"seq\":2499," "$tmp/k3.json"
expect "collector K3: SIGTERM mid-flood stops it, exit 0" 0 stop_coll K3
touch "$sync/f5.go"
start_coll K4 "$tmp/k4.json" -o json -s "$state"
check "collector K4 is up" wait_for following "${cpid[K4]}"
wait_file f5.done || true
check "flood: K4, restarted, ships F's seq 2999" \
	wait_for grep -qF "$flood\"seq\":2999," "$tmp/k4.json"
expect "collector K4: SIGTERM stops it, exit 0" 0 stop_coll K4
fseqs "$tmp/k3.json" >"$tmp/k3.seq"
fseqs "$tmp/k4.json" >"$tmp/k4.seq"
echo "# SIGTERM: K3 shipped $(wc -l <"$tmp/k3.seq") records, K4 $(wc -l <"$tmp/k4.seq")"
expect "SIGTERM: seqs 2000..2999 shipped exactly once across K3 and K4, none before" \
	"$(seq 2000 2999)" bash -c 'sort -n "$1" "$2"' _ "$tmp/k3.seq" "$tmp/k4.seq"
check "K1 to K4: no collector reported a loss of F's records" \
	bash -c '! cat "$@" | grep -aF "$0" | grep -qF "\"type\":\"lost\""' "$flood" \
	"$tmp/k1.json" "$tmp/k2.json" "$tmp/k3.json" "$tmp/k4.json"
check "K1 to K4: nothing on stderr" \
	bash -c '! cat "$@" | grep -q .' _ "$tmp/k1.err" "$tmp/k2.err" "$tmp/k3.err" "$tmp/k4.err"
kill -KILL "$f_pid"

# --- 5. SIGKILL mid-flood with -o journal: the journal is asked -----------------------
# G: 2000 records in three parts, to one state file: KJ1 ships the first
# (0-999) and saves; then its saves fail (their temporary file's name is
# taken by a directory) while it ships the second (1000-1499), and it is
# killed: its state file says 999, the journal has 1499.  KJ2, restarted,
# must ask the journal, resume at 1500 and ship the third (1500-1999).
journal_kill() {
	local jstate=$tmp/jk.state g_pid gset s_jkill ahead

	staged_flood g gflood "0 999" "1000 1499" "1500 1999"
	g_pid=$flood_pid
	start_coll KJ1 /dev/null -o journal -s "$jstate" --state-interval 200
	check "collector KJ1 is up" wait_for following "${cpid[KJ1]}"
	touch "$sync/g1.go"
	wait_file g1.done || true
	gset=$(set_of "$(ipc_of "$g_pid")")
	# jseq SEQ: the journal has G's record SEQ
	jseq() { [ -n "$(journalctl -q -o cat --no-pager "NSLOG_SET_ID=$gset" "NSLOG_SEQ=$1")" ]; }
	check "journal flood: KJ1 ships G's seq 999" wait_for jseq 999
	check "journal flood: KJ1's state file has G's seq 999" \
		wait_for grep -q "^set $gset [0-9]* main=999\$" "$jstate"
	mkdir "$jstate.tmp"
	touch "$sync/g2.go"
	check "journal flood: KJ1 ships G's seq 1499" wait_for jseq 1499
	stop_coll KJ1 KILL >/dev/null
	rmdir "$jstate.tmp"
	s_jkill=$(sed -n "s/^set $gset [0-9]* main=\([0-9]*\).*/\1/p" "$jstate" 2>/dev/null || true)
	check "SIGKILL, journal: the state file lags the journal when KJ1 is killed (999, not 1499)" \
		test "${s_jkill:-none}" = 999
	touch "$sync/g3.go"
	start_coll KJ2 /dev/null -o journal -s "$jstate" --state-interval 200
	check "collector KJ2 is up" wait_for following "${cpid[KJ2]}"
	wait_file g3.done || true
	check "journal flood: KJ2, restarted, ships G's seq 1999" wait_for jseq 1999
	expect "collector KJ2: SIGTERM stops it, exit 0" 0 stop_coll KJ2
	journalctl -o json --no-pager "NSLOG_SET_ID=$gset" |
		jq -r 'select(.NSLOG_SEQ != null) | .NSLOG_SEQ' >"$tmp/g.seq"
	ahead=$(sed -n 's/.*: the journal already has what was shipped after the state file was last written: \([0-9]*\) seqs.*/\1/p' "$tmp/kj2.err")
	echo "# SIGKILL, journal: KJ1's state file said ${s_jkill:-nothing} when it was killed after 1499;" \
		"KJ2 found ${ahead:-no} seqs more in the journal; the journal has $(wc -l <"$tmp/g.seq") of G's records," \
		"$(sort -n "$tmp/g.seq" | uniq -d | wc -l) repeated"
	expect "SIGKILL, journal: every seq 0..1999 of G is in the journal exactly once" \
		"$(seq 0 1999)" sort -n "$tmp/g.seq"
	check "SIGKILL, journal: KJ2 says it did not ship again what the journal had (500 of G's and more)" \
		test "${ahead:-0}" -ge 500
	check "SIGKILL, journal: KJ2's stderr has nothing else" \
		bash -c '! grep -v "the journal already has what was shipped" "$1" | grep -q .' _ "$tmp/kj2.err"
	kill -KILL "$g_pid"
}
if [ $have_journal = 1 ]; then
	at "journal flood"
	journal_kill
else
	skip "SIGKILL with -o journal: nothing repeats" "no systemd-journald"
fi
at "done"

echo "collector.sh: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
