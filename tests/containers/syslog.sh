#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# syslog.sh - nslog-syslogd: one listener on the host, /dev/log for two
# containers, in the guest.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh syslog
#
#   guest (the host)      nslog-syslogd --dir $tmp/run --socket $tmp/host.sock
#   |  cgroup /syslogd.PID   $tmp/run/control     the runtimes' commands
#   |                        $tmp/run/slA/log     dgram, tied to A's set at add
#   |                        $tmp/run/slB/log     stream, added first, attached
#   |                        $tmp/host.sock       dgram, each sender's own set
#   |  nslogcat --ns, nslog-collector -o rfc5424 -d: the host reading both
#   |
#   +-- container A: user ns (0 -> 100000), ipc, pid, mount ns
#   |     cgroups /lxc.payload.slAPID/{init,app,flood}; flood: 10 records/1h
#   |     /dev = a tmpfs: null, zero, urandom, log_{main,radio,events,system},
#   |            log <- $tmp/run/slA/log bound by the guest (the runtime)
#   +-- container B: the same with 200000 and slB, /dev/log a stream socket
#
# In each container, as uids 1000, 1001 and 1002: glibc's syslog(3)
# (syslog_test send), busybox logger, util-linux logger --rfc5424.  Every
# message must be in its own container's set with the sender's uid,
# priority, tag and (the collector's RFC 5424) facility, and in no other;
# senders gone before the listener reads (the listener stopped meanwhile)
# too; a flood from A held to A's rule while B loses nothing; then the bad
# inputs.  Each section's time is printed (the scenario's budget is 30 s
# on 6.1 under TCG).
# The bash -c scripts and jq programs take their arguments as $1...:
# single quotes wanted.
# shellcheck disable=SC2016
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
SL=$top/build/tools/nslog-syslogd
ST=$top/build/tests/syslog_test
NS=$top/build/tests/ns_test
CAT=$top/build/tools/nslogcat
COLL=$top/build/tools/nslog-collector
tmp=$(mktemp -d "/tmp/nslog-syslog.$$.XXXXXX")
chmod 755 "$tmp"
run=$tmp/run
cgfs=/sys/fs/cgroup
limits=/proc/nslogger/limits
A=slA$$
B=slB$$
daemon=
declare -A host off nsid

need containers nsenter jq logger
for p in "$SL" "$ST" "$NS" "$CAT" "$COLL"; do
	[ -x "$p" ] || { not_ok "syslog.sh: $p missing (make tools test-progs)"; exit 1; }
done
if [ ! -c /dev/log_main ]; then
	skip "nslog-syslogd for containers" "no /dev/log_main: the module is not loaded"
	exit 0
fi
bb=$(command -v busybox || true)
nbb=0
[ -z "$bb" ] || nbb=1

cleanup() {
	local rc=$? d

	trap - EXIT
	[ -z "$daemon" ] || kill -CONT "$daemon" 2>/dev/null || true
	stop_bg
	for d in "$tmp"/dev-*; do umount -l "$d" 2>/dev/null || true; done
	for d in "$cgfs/syslogd.$$" "$cgfs/lxc.payload.$A" "$cgfs/lxc.payload.$B"; do
		[ ! -d "$d" ] || find "$d" -depth -type d -exec rmdir {} + 2>/dev/null || true
	done
	rm -rf "$tmp"
	# A fresh module for the next scenario, as relay.sh leaves it.
	if [ -n "${NSLOG_KO:-}" ]; then
		unload || echo "syslog.sh: cannot unload nslogger" >&2
		# shellcheck disable=SC2086 # word splitting is wanted
		loaded || insmod "$NSLOG_KO" ${NSLOG_PARAMS:-} ||
			echo "syslog.sh: cannot reload $NSLOG_KO" >&2
	fi
	exit "$rc"
}
trap cleanup EXIT

t0=$(date +%s%N)
lap() { echo "# +$((($(date +%s%N) - t0) / 1000000)) ms: $*"; }
is() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; echo "#   got '$2', want '$3'"; fi; }

# incg CGROUP CMD...: CMD in the cgroup CGROUP (a path under $cgfs).
incg() { local c=$1; shift; sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cgfs$c" "$@"; }
# as X UID CGROUP -- CMD...: CMD in container X as UID (gid UID), in
# X's cgroup CGROUP (init, app or flood).
as() {
	local x=$1 u=$2 c=$3

	shift 4
	incg "/lxc.payload.${!x}/$c" nsenter -t "${host[$x]}" -U -i -p -m -S "$u" -G "$u" -- "$@"
}
ctl() { "$SL" ctl --dir "$run" "$@"; }
# count X FIELD: the listener's count FIELD of container X's socket.
count() { ctl list | awk -v n="${!1}" -v f="$2=" '$1 == n { for (i = 5; i <= NF; i++) if (index($i, f) == 1) print substr($i, length(f) + 1) }'; }
received() { [ "$(count "$1" received)" -ge "$2" ]; }
# set X: container X's set as the host reads it, JSON lines.
set_of() { "$CAT" --ns "${nsid[$1]}" -d -v json 2>/dev/null; }
# n X JQ-CONDITION: how many of X's records match.
n() { set_of "$1" | jq -c "select($2)" | wc -l; }

# --- cgroups, rules, the listener ---------------------------------------------
mkdir -p "$cgfs/syslogd.$$" "$cgfs/lxc.payload.$A/init" "$cgfs/lxc.payload.$A/app" \
	"$cgfs/lxc.payload.$A/flood" "$cgfs/lxc.payload.$B/init" "$cgfs/lxc.payload.$B/app"
for c in "/syslogd.$$" "/lxc.payload.$A/init" "/lxc.payload.$A/app" \
	"/lxc.payload.$B/init" "/lxc.payload.$B/app"; do
	echo "set $c records=100000/1h records_burst=100000" >"$limits"
done
echo "set /lxc.payload.$A/flood records=10/1h records_burst=10" >"$limits"

# Not through incg, a function: $! must be the listener itself.
sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' _ "$cgfs/syslogd.$$" \
	"$SL" --dir "$run" --socket "$tmp/host.sock" 2>"$tmp/daemon.err" &
daemon=$!
bg+=("$daemon")
if ! wait_for test -S "$run/control"; then
	not_ok "nslog-syslogd started"
	sed 's/^/#   /' "$tmp/daemon.err"
	exit 1
fi
check "the listener's directory is root's alone (0700), its control socket 0600" \
	test "$(stat -c %a "$run") $(stat -c %a "$run/control")" = "700 600"

# --- two containers -------------------------------------------------------------
# mkdev X OFF: X's /dev, owned by its root (OFF in the guest).
mkdev() {
	local d=$tmp/dev-$1 l majmin

	mkdir "$d"
	mount -t tmpfs -o mode=755 "syslog-dev-$1" "$d"
	mknod -m 0666 "$d/null" c 1 3
	mknod -m 0666 "$d/zero" c 1 5
	mknod -m 0666 "$d/urandom" c 1 9
	for l in main radio events system; do
		majmin=$(stat -c '%t %T' "/dev/log_$l")
		mknod -m 0662 "$d/log_$l" c $((16#${majmin% *})) $((16#${majmin#* }))
		chown "$2:$(($2 + 1007))" "$d/log_$l"
	done
	touch "$d/log"
	chown "$2:$2" "$d" "$d/log"
}
# start X OFF: X's init, which notes its guest pid and mounts /dev and /proc.
start() {
	local x=$1 o=$2

	off[$x]=$o
	mkdev "$x" "$o"
	incg "/lxc.payload.${!x}/init" "$NS" userns -m "0:$o:65536" -x ipc -x pid -x mnt -- bash -c '
		while read -r k v _; do [ "$k" != NSpid: ] || echo "hostpid $v"; done </proc/self/status
		mount --make-rprivate /
		mount --rbind "$1" /dev
		mount -t proc -o nosuid,nodev,noexec proc /proc
		echo ready
		exec sleep 600' _ "$tmp/dev-$x" >"$tmp/$x.init" 2>&1 &
	bg+=($!)
	wait_for grep -q '^ready$' "$tmp/$x.init" || { not_ok "container $x started"; cat "$tmp/$x.init"; exit 1; }
	host[$x]=$(sed -n 's/^hostpid //p' "$tmp/$x.init")
	nsid[$x]=$(stat -L -c %i "/proc/${host[$x]}/ns/ipc")
}
# bind X: the runtime's bind mount of X's socket at X's /dev/log.
bind() { nsenter -t "${host[$1]}" -m -- mount --bind "$run/${!1}/log" /dev/log; }

start A 100000
start B 200000
expect "add: A's socket tied to A's set through its init's pid" \
	"ok $run/$A/log ipc:${nsid[A]}" ctl add "$A" "${host[A]}"
expect "add: B's stream socket made first, for the runtime's bind mount" \
	"ok $run/$B/log writers" ctl add "$B" stream
bind A
bind B
expect "attach: B's socket tied to B's set (made now) once B runs" \
	"ok $run/$B/log ipc:${nsid[B]}" ctl attach "$B" "${host[B]}"
check "in each container /dev/log is a socket, mode 0666" \
	bash -c 'for p; do nsenter -t "$p" -m -- stat -c "%F %a" /dev/log | grep -qx "socket 666" || exit 1; done' \
	_ "${host[A]}" "${host[B]}"
lap containers

# --- the senders -------------------------------------------------------------------
# Each of them in both: glibc syslog(3) as uid 1000, waiting until its
# message was received so that it is alive when stored; busybox logger as
# 1001 and util-linux logger --rfc5424 as 1002, which exit at once.
for x in A B; do
	as "$x" 1000 app -- "$ST" send -t "glibc_$x" -f 19 -p 3 -n 3 -w "$tmp/go1" "hello from $x" \
		>"$tmp/glibc_$x.out" &
	bg+=($!)
done
wait_for received A 3 || true
wait_for received B 3 || true
touch "$tmp/go1"
for x in A B; do
	if [ -n "$bb" ]; then
		as "$x" 1001 app -- "$bb" logger -t "bb_$x" -p local2.warning "busybox from $x"
	fi
	as "$x" 1002 app -- logger --rfc5424 -t "ul_$x" -p local4.info "rfc5424 from $x"
done
wait_for received A $((4 + nbb)) || true
wait_for received B $((4 + nbb)) || true
lap senders
for x in A B; do
	o=${off[$x]}
	read -r cpid _ <"$tmp/glibc_$x.out" || true
	expect "$x: glibc's 3 records: priority E (err), tag, uid $((o + 1000)), tid its pid $cpid, verified" \
		"6 $((o + 1000)) $cpid false hello from $x 0
6 $((o + 1000)) $cpid false hello from $x 1
6 $((o + 1000)) $cpid false hello from $x 2" \
		bash -c '"$1" --ns "$2" -d -v json | jq -r "select(.tag == \"glibc_$3\") | \"\(.priority) \(.uid) \(.tid) \(.unverified // false) \(.message)\""' \
		_ "$CAT" "${nsid[$x]}" "$x"
	if [ -n "$bb" ]; then
		expect "$x: busybox logger's record: W (warning), uid $((o + 1001))" \
			"5 $((o + 1001)) busybox from $x" \
			bash -c '"$1" --ns "$2" -d -v json | jq -r "select(.tag == \"bb_$3\") | \"\(.priority) \(.uid) \(.message)\""' \
			_ "$CAT" "${nsid[$x]}" "$x"
	else
		skip "$x: busybox logger" "no busybox here (scripts/deps.sh vm installs busybox-static)"
	fi
	expect "$x: util-linux logger --rfc5424's record: I (info), uid $((o + 1002)), no stamp, host or SD" \
		"4 $((o + 1002)) rfc5424 from $x" \
		bash -c '"$1" --ns "$2" -d -v json | jq -r "select(.tag == \"ul_$3\") | \"\(.priority) \(.uid) \(.message)\""' \
		_ "$CAT" "${nsid[$x]}" "$x"
	other=A; [ "$x" = B ] || other=B
	is "$x: none of $other's records" "$(n "$x" ".tag | endswith(\"_$other\")")" 0
	is "$x: every record relayed by the listener, with a pid" \
		"$(n "$x" '.relayed != true or .pid <= 0')" 0
done
nsenter -t "${host[A]}" -U -i -p -m -- "$CAT" -d -v json >"$tmp/A.own" 2>&1 || true
is "A reads its own syslog back (nslogcat in A as its root): its own records, none of B's" \
	"$(jq -r .tag "$tmp/A.own" | sort | uniq -c | awk '{ printf "%s %s,", $2, $1 }')" \
	"${bb:+bb_A 1,}glibc_A 3,ul_A 1,"
is "A sees its live glibc sender with the pid A gave it" \
	"$(jq -r 'select(.tag == "glibc_A") | .pid' "$tmp/A.own" | uniq)" "$(sed 's/ .*//' "$tmp/glibc_A.out")"
lap "checked the senders"

# --- the collector: facility and container ----------------------------------------
"$COLL" -o rfc5424 --no-state -d -b main --utc >"$tmp/coll.out" 2>"$tmp/coll.err" || true
for x in A B; do
	check "collector: $x's glibc record as local3.err (<155>) with ns_id and container lxc ${!x}" \
		grep -q "^<155>1 .* glibc_$x .*ns_id=\"${nsid[$x]}\".* runtime=\"lxc\".* container_name=\"${!x}\".*\] hello from $x 0\$" "$tmp/coll.out"
	check "collector: $x's util-linux record as local4.info (<166>)" \
		grep -q "^<166>1 .* ul_$x .*container_name=\"${!x}\".*\] rfc5424 from $x\$" "$tmp/coll.out"
	if [ -n "$bb" ]; then
		check "collector: $x's busybox record as local2.warning (<148>)" \
			grep -q "^<148>1 .* bb_$x .*container_name=\"${!x}\".*\] busybox from $x\$" "$tmp/coll.out"
	fi
done
lap collector

# --- senders gone before their message is read ------------------------------------
kill -STOP "$daemon"
for x in A B; do
	as "$x" 1000 app -- "$ST" send -t "gone_$x" -p 4 "gone from $x" >"$tmp/gone_$x.out"
done
kill -CONT "$daemon"
wait_for bash -c '[ "$("$1" --ns "$2" -d -v json | grep -c gone_A)" = 1 ] &&
	[ "$("$1" --ns "$3" -d -v json | grep -c gone_B)" = 1 ]' _ "$CAT" "${nsid[A]}" "${nsid[B]}" || true
for x in A B; do
	read -r cpid _ <"$tmp/gone_$x.out" || true
	expect "$x: a sender gone before its datagram was read: in its own set, unverified, uid $((${off[$x]} + 1000)), tid $cpid" \
		"5 $((${off[$x]} + 1000)) $cpid true gone from $x 0" \
		bash -c '"$1" --ns "$2" -d -v json | jq -r "select(.tag == \"gone_$3\") | \"\(.priority) \(.uid) \(.tid) \(.unverified // false) \(.message)\""' \
		_ "$CAT" "${nsid[$x]}" "$x"
done
lap "gone senders"

# --- the host: the shared socket, and a host process on a container's socket -------
printf '<14>host_sender: from the guest' | "$ST" dgram "$tmp/host.sock"
el=$(count A elsewhere)
printf '<14>intruder: on A'"'"'s socket' | "$ST" dgram -w "$tmp/go-i" "$run/$A/log" &
bg+=($!)
wait_for bash -c '[ "$("$1" ctl --dir "$2" list | grep -c "^$3 .* elsewhere=$4 ")" = 1 ]' _ "$SL" "$run" "$A" $((el + 1)) || true
touch "$tmp/go-i"
wait_for bash -c '"$1" -d -v json | grep -q intruder' _ "$CAT" || true
is "host: the shared socket's sender (the guest's) in the guest's set" \
	"$("$CAT" -d -v json | jq -r 'select(.tag == "host_sender") | .message')" "from the guest"
is "host: a guest process on A's socket is stored in its own (the guest's) set, not A's" \
	"$("$CAT" -d -v json | jq -r 'select(.tag == "intruder") | .tag') $(n A '.tag == "intruder"')" "intruder 0"

# A set that exists can be named by its id: A's socket tied again, the same.
expect "attach by id: A's socket tied to A's set by ipc:ID" \
	"ok $run/$A/log ipc:${nsid[A]}" ctl attach "$A" "ipc:${nsid[A]}"

# --- a flood from A, held to its rule; B loses nothing ----------------------------
fa=$(count A received)
fb=$(count B received)
as A 1000 flood -- "$ST" send -t flood_A -n 200 -w "$tmp/go2" "flood" >/dev/null &
bg+=($!)
as B 1000 app -- "$ST" send -t calm_B -n 50 -w "$tmp/go2" "calm" >/dev/null &
bg+=($!)
wait_for_s=30 wait_for received A $((fa + 200)) || true
wait_for_s=30 wait_for received B $((fb + 50)) || true
touch "$tmp/go2"
is "flood: A's flooding cgroup held to its rule, 10 records of 200" "$(n A '.tag == "flood_A"')" 10
is "flood: B, at the same time, lost none of its 50" "$(n B '.tag == "calm_B"')" 50
check "flood: the flooding cgroup was charged its 10" \
	grep -q "^/lxc.payload.$A/flood .* accepted=10 " "$limits"
lap flood

# --- bad input ------------------------------------------------------------------------
dg() { as A 0 app -- "$ST" dgram /dev/log; }
printf 'nopri_A: no PRI at all' | dg
printf '<999>badpri_A: PRI out of range' | dg
{ printf '<14>big_A: '; head -c 12000 /dev/zero | tr '\0' x; } | dg
printf '<14>nul_A: a\0b \xff\xfe end' | dg
wait_for bash -c '"$1" --ns "$2" -d -v json | grep -q nul_A' _ "$CAT" "${nsid[A]}" || true
is "bad: no PRI: user.notice, so I, the tag parsed" \
	"$(set_of A | jq -r 'select(.tag == "nopri_A") | "\(.priority) \(.message)"')" "4 no PRI at all"
is "bad: a malformed PRI: the default, no tag (syslog), the text whole" \
	"$(set_of A | jq -r 'select(.message | startswith("<999>")) | "\(.priority) \(.tag) \(.message)"')" \
	"4 syslog <999>badpri_A: PRI out of range"
is "bad: a 12 KB datagram: cut to the 4076-byte payload (4076 - 1 - 6 - 1 - 4 = 4064 bytes of text)" \
	"$(set_of A | jq -r 'select(.tag == "big_A") | .message | length')" 4064
is "bad: a NUL inside became a space, invalid UTF-8 kept (shown as U+FFFD)" \
	"$(set_of A | jq -r 'select(.tag == "nul_A") | .message')" "a b �� end"
check "collector: the no-PRI record ships as user.notice (<13>)" \
	bash -c '"$1" -o rfc5424 --no-state -d -b main | grep -q "^<13>1 .* nopri_A .*\] no PRI at all$"' _ "$COLL"
lap "bad datagrams"

# 1,000 stream connections to B's socket, each with a line never finished:
# 256 are served (one socket's limit), the rest closed at once, B's next
# sender too while they are held; A is served meanwhile; the listener's
# memory stays small.
conns0() { [ "$(count B conns)" = 0 ]; }
wait_for conns0 || true
printf '<13>partial_B: never ended' | as B 0 app -- "$ST" stream /dev/log -n 1000 -w "$tmp/go3" >"$tmp/conns.out" &
bg+=($!)
wait_for grep -q '^closed' "$tmp/conns.out" || true
is "1000 connections: all made, 744 closed at once by the listener (256 on one socket)" \
	"$(tr '\n' ' ' <"$tmp/conns.out")" "connected 1000 closed 744 "
as A 1000 app -- "$ST" send -t during_A "while 1000 were held" >/dev/null
wait_for bash -c '"$1" --ns "$2" -d -v json | grep -q during_A' _ "$CAT" "${nsid[A]}" || true
rss=$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$daemon/status")
echo "# listener's VmRSS with 256 connections held: $rss kB"
check "the listener's resident memory stays under 16 MiB with 256 connections held" test "$rss" -lt 16384
is "the listener served A meanwhile" "$(n A '.tag == "during_A"')" 1
is "the refused connections were counted" "$(count B conns_refused)" 744
touch "$tmp/go3"
wait_for bash -c '[ "$("$1" --ns "$2" -d -v json | grep -c partial_B)" -ge 256 ]' _ "$CAT" "${nsid[B]}" || true
is "unfinished lines: stored when their connections closed, one each of the 256" \
	"$(n B '.tag == "partial_B" and .message == "never ended"')" 256
lap "1000 connections"

# A container replaces its /dev/log: its own mount changes, nothing else.
# (A's root mounts over it: the guest's bind mount is locked below.)
nsenter -t "${host[A]}" -U -m -- mount --bind /dev/null /dev/log || true
check "A replaced its /dev/log (its root mounted /dev/null over it)" \
	bash -c 'nsenter -t "$1" -m -- test -c /dev/log' _ "${host[A]}"
check "... the listener's socket for A is still there and listed" \
	bash -c 'test -S "$1" && "$2" ctl --dir "$3" list | grep -q "^$4 "' _ "$run/$A/log" "$SL" "$run" "$A"
wait_for conns0 || true
as B 1000 app -- "$ST" send -t after_B "B after A's change" >/dev/null
wait_for bash -c '"$1" --ns "$2" -d -v json | grep -q after_B' _ "$CAT" "${nsid[B]}" || true
is "... and B logs as before" "$(n B '.tag == "after_B"')" 1
bind A
as A 1000 app -- "$ST" send -t rebound_A "after the runtime bound it again" >/dev/null
wait_for bash -c '"$1" --ns "$2" -d -v json | grep -q rebound_A' _ "$CAT" "${nsid[A]}" || true
is "... and A logs again once the runtime binds its socket again" "$(n A '.tag == "rebound_A"')" 1

# The system container's mode: A's root runs a listener of its own.
# (No -p: nsenter then execs it, so that $! is the listener and its kill
# frees A's log files for the module's unload.)
nsenter -t "${host[A]}" -U -i -m -- "$SL" --system --socket /dev/own.sock 2>"$tmp/own.err" &
ownl=$!
bg+=("$ownl")
wait_for nsenter -t "${host[A]}" -m -- test -S /dev/own.sock || true
printf '<30>own_A: through A'"'"'s own listener' | as A 1000 app -- "$ST" dgram -w /dev/own.go /dev/own.sock &
own=$!
wait_for bash -c '"$1" --ns "$2" -d -v json | grep -q own_A' _ "$CAT" "${nsid[A]}" || true
nsenter -t "${host[A]}" -m -- touch /dev/own.go
wait "$own" || true
kill "$ownl" 2>/dev/null || true
is "--system: A's own listener (its root) stored A's sender in A's set, verified, daemon.info" \
	"$(set_of A | jq -r 'select(.tag == "own_A") | "\(.priority) \(.uid) \(.unverified // false) \(.message)"')" \
	"4 101000 false through A's own listener"

expect "remove: A's socket and folder gone" "ok" ctl remove "$A"
check "... from the file system too" test ! -e "$run/$A"
lap "replaced /dev/log, remove"

kill -TERM "$daemon"
wait "$daemon" 2>/dev/null || true
check "nslog-syslogd stopped on SIGTERM, its counts printed, no failure logged" \
	bash -c 'grep -q "counts: $1 " "$2" && ! grep -q "a record failed" "$2"' _ "$B" "$tmp/daemon.err"
sed 's/^/#   /' "$tmp/daemon.err"
daemon=
lap end
[ "$fail" -eq 0 ]
