#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tenants.sh - tenant isolation (issue 14), in the guest: no tenant can
# deny, pin, escape or silence another.  Every attack of the issue is tried
# here as a hostile tenant would; each case says which behaviour of the
# spec it checks.  Before the fix each attack case fails (that was seen on
# the module without it); the controls pass on both.
#
#   tests/containers/vm.sh --timeout 900 --ko $PWD/nslogger.ko -- tests/containers/suite.sh tenants
#   NSLOG_TENANTS_CASES="1 5 9" ... runs only those cases (default: 1 to 9)
#
#   host (initial user ns, IPC ns, root) --------------------------------------+
#   | 1 hoarding    uid 2001: userns -> ipc, ipc, ... until ENOSPC   (own)    |
#   |               uid 2002: the same, gets its own share           (own)    |
#   |               root: unshare --ipc still gets a set              (host)   |
#   |               uid 2001: userns > userns > ... nested: one owner          |
#   |               root: two userns, two owners ("userns:ID")                 |
#   | 2 orphans     ipc -> 4 files kept, ipc -> 4 files kept, ... : the dead   |
#   |               namespaces' sets stay pinned; vmalloc within the bound     |
#   | 3 escape      /ten.PID/t (level 2) -> c1 .. c20: one default bucket      |
#   |               /ten.PID/u delegated to uid 2001, which makes c1 .. c20    |
#   | 4 overflow    /ten.PID/m1..m3 fill max_rules; /ten.PID/mx: (overflow)    |
#   | 5 nodes       NODES/chg  c 10:N 0660 2001:2001  (a tenant's chgrp)       |
#   |               NODES/pub  c 10:N 0666 root:root  (log_gid=3000)           |
#   |               NODES/grp  c 10:N 0640 root:4000  (log_gid=-1)             |
#   |               ext4 on loop, idmapped mounts of it (uid 0 shown as 2001,  |
#   |               uid 2001 shown as 0)                                       |
#   | 6 flush       root's write fd kept after setuid(2001) / sent by          |
#   |               SCM_RIGHTS to uid 2001; the same inside a user namespace   |
#   |               (0 -> 100000) with its uid 1000; no CAP_SYSLOG check on    |
#   |               a write-only open (a kprobe on cap_capable counts them)    |
#   | 7 limits      root without CAP_SYS_ADMIN (CAP_SYSLOG only)               |
#   | 8 flood       /ten.PID/fl 20/s flooder beside /ten.PID/vi 20/s victim,   |
#   |               one 256 KiB main ring, 60 s (15 s with NSLOG_REPEAT=once) |
#   | 9 stuck       a reader stuck in copy_to_user (userfaultfd) vs poll and   |
#   |               the ioctls of another thread                               |
#   +--------------------------------------------------------------------------+
#
# Writers and loops are build/tests/tenant_test (tests/containers/
# tenant_test.c), rl_flood and ns_test.  Unprivileged users are bare
# numeric uids (setpriv --reuid/--regid --clear-groups): the guest's root
# file system is the host's, read-only, so there is no passwd to add to.
#
# The module is loaded again for each case with the parameters it needs;
# a parameter this module does not have (the module before the fix) is
# left out and said so, and the case's assertions then show what its
# absence means.  On exit the module is loaded as the harness had it
# ($NSLOG_PARAMS).
# The bash -c scripts below take their arguments as $1...: single quotes wanted.
# shellcheck disable=SC2016
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
ko=${NSLOG_KO:?NSLOG_KO is not set}
T=$top/build/tests/tenant_test
NT=$top/build/tests/ns_test
flood=$top/build/tests/rl_flood
nslogcat=$top/build/tools/nslogcat
params=/sys/module/nslogger/parameters
limits=/proc/nslogger/limits
owners=/proc/nslogger/owners
cgfs=/sys/fs/cgroup
base=/ten.$$
tr=/sys/kernel/tracing
kprobe=nslog_ten_$$
tmp=$(mktemp -d "/tmp/nslog-ten.$$.XXXXXX")
chmod 755 "$tmp"
# Device nodes of our own: /tmp is nodev, so on a tmpfs mounted without it.
nodes=$tmp/nodes
mkdir "$nodes"
mount -t tmpfs -o mode=755 nslog-ten-nodes "$nodes"
mounts=()
cases=" ${NSLOG_TENANTS_CASES:-1 2 3 4 5 6 7 8 9} "
declare -A hpid=()

unset ANDROID_LOG_TAGS ANDROID_PRINTF_LOG NSLOG_DEV_DIR

cleanup() {
	local rc=$? m i

	trap - EXIT
	stop_bg
	if [ -e "$tr/events/kprobes/$kprobe" ]; then
		echo 0 >"$tr/events/kprobes/$kprobe/enable" 2>/dev/null || true
		echo "-:$kprobe" >>"$tr/kprobe_events" 2>/dev/null || true
	fi
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[i]}" 2>/dev/null || true
	done
	umount "$nodes" 2>/dev/null || true
	if [ -d "$cgfs$base" ]; then
		find "$cgfs$base" -depth -type d -exec rmdir {} + 2>/dev/null || true
	fi
	rm -rf "$tmp"
	# Leave the module as the harness loaded it.
	unload || true
	# shellcheck disable=SC2086 # word splitting is wanted
	insmod "$ko" ${NSLOG_PARAMS:-} || echo "tenants.sh: cannot reload $ko" >&2
	exit "$rc"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------
# Helpers

want() { [[ $cases == *" $1 "* ]]; }
# is WHAT GOT WANT: exact equality, both shown on failure.
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1"; echo "#   got:  '$2'"; echo "#   want: '$3'"; fi
}
# le WHAT A B: A <= B (integers).
le() {
	if [ "$2" -le "$3" ]; then ok "$1 ($2 <= $3)"; else not_ok "$1 ($2 > $3)"; fi
}
# kv TEXT KEY: KEY's value in KEY=VALUE output.
kv() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -n 1; }
# bound B R ELAPSED_NS: floor(B + R * elapsed), plus the tolerance of 1
# (as in ratelimit.sh).
bound() { echo $(( $1 + $2 * $3 / 1000000000 + 1 )); }
# count LOG TAG: records of TAG in the host's LOG.
count() { "$nslogcat" -d -b "$1" -v tag | grep -c "^./$2 *: " || true; }
# The admin file's line of cgroup PATH, and a field of it.
line_of() { awk -v p="$1" '$1 == p' "$limits"; }
field() { line_of "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
admin() { "$flood" admin "$1"; }
# notice_lines PATH: the suppression notices from PATH in the host's main log.
notice_lines() {
	"$nslogcat" -d -b main -v raw |
		sed -n "s|^nslogger: suppressed \([0-9]*\) records (\([0-9]*\) bytes) from $1\$|\1 \2|p"
}
# comment PREFIX: stdin as TAP comments.
comment() { local l; while IFS= read -r l; do echo "#   $1$l"; done; }
as_user() { local u=$1; shift; setpriv --reuid="$u" --regid="$u" --clear-groups -- "$@"; }
# in_cg PATH CMD...: run CMD in cgroup PATH (exec: same process).
in_cg() {
	local cg=$1

	shift
	bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$cgfs$cg" "$@"
}
flush_main() { "$nslogcat" -c -b main; }
# dev_of NODE: "MAJOR MINOR" of a device node.
dev_of() { local t m; read -r t m <<<"$(stat -c '%t %T' "$1")"; echo "$((16#$t)) $((16#$m))"; }
# mknode PATH OWNER:GROUP MODE: a node of /dev/log_main's device.
mknode() {
	local maj min

	read -r maj min <<<"$(dev_of /dev/log_main)"
	mknod -m "$3" "$1" c "$maj" "$min"
	chown "$2" "$1"
	chmod "$3" "$1"	# mknod's -m is masked by nothing, but be plain
}

# vmalloc space nslogger holds, in kB: the /proc/vmallocinfo areas whose
# caller is in the module (its rings), as churn.sh reads them.
nslog_vmalloc_kb() {
	awk '/\[nslogger\]/ { b += $2 } END { printf "%d\n", b / 1024 }' /proc/vmallocinfo
}

# load PARAM=VALUE...: load the module again with these parameters; those
# it does not have (modinfo) are left out, and said so.
known=$(modinfo -F parm "$ko" | cut -d: -f1)
load() {
	local p args=() missing=()

	for p in "$@"; do
		if grep -qx "${p%%=*}" <<<"$known"; then args+=("$p"); else missing+=("${p%%=*}"); fi
	done
	stop_bg
	# unload() waits 5 s for files still being closed; any longer, and
	# something of ours still holds the module: nothing below can work.
	if ! unload; then
		not_ok "the module unloads before the next case"
		exit 1
	fi
	insmod "$ko" "${args[@]}"
	udevadm settle 2>/dev/null || true
	echo "# module loaded with: ${args[*]}"
	[ ${#missing[@]} -eq 0 ] ||
		echo "# NOTE: this module has no parameter ${missing[*]}: left out"
}
# setp NAME VALUE: set a runtime parameter if this module has it.
setp() {
	if [ -e "$params/$1" ]; then
		echo "$2" >"$params/$1"
	else
		echo "# NOTE: this module has no parameter $1: not set to $2"
	fi
}

# holder NAME CMD...: run CMD (a tenant_test loop that ends by printing
# "ready" and holding what it got) in the background until it is ready or
# gone; $res is its first line, hpid[NAME] its pid.
holder_done() { grep -qx ready "$tmp/$1.out" || ! kill -0 "$2" 2>/dev/null; }
holder() {
	local name=$1

	shift
	# Not through the as_user function: a function in the background
	# is a subshell, and killing it would leave the loop running.
	if [ "$1" = as_user ]; then
		set -- setpriv --reuid="$2" --regid="$2" --clear-groups -- "${@:3}"
	fi
	"$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	bg+=($!)
	hpid[$name]=$!
	wait_for_s=180 wait_for holder_done "$name" "$!" || true
	res=$(head -n 1 "$tmp/$name.out")
	echo "# $name: $res"
	if [ -s "$tmp/$name.err" ]; then sed 's/^/#   stderr: /' "$tmp/$name.err"; fi
}
# release: stop every holder, and wait until their sets are gone: out of
# the listing, and out of their owners' counts, which drop only when the
# last reference goes, an RCU grace period after the reaper unhashed them
# (the next holder's quota depends on that).
no_owners() { [ ! -e "$owners" ] || ! grep -qv '^#' "$owners"; }
released() { drained && no_owners; }
release() {
	stop_bg
	wait_for_s=30 wait_for released ||
		echo "# $(sets) sets still there after 30 s, owners: $(grep -v '^#' "$owners" 2>/dev/null | tr '\n' ' ')"
}
user_ns_id() { local l; l=$(readlink "/proc/$1/ns/user"); l=${l#user:[}; echo "${l%]}"; }
# owner_has OWNER N: /proc/nslogger/owners lists OWNER with N sets.
owners_check() {
	local what=$1 owner=$2 n=$3

	if [ ! -e "$owners" ]; then
		skip "$what" "SKIPPED LOUDLY: no $owners in this module"
		return
	fi
	# (Then its streams and their bytes: nslogfs.sh checks those.)
	check "$what" grep -qE "^$owner $n( |\$)" "$owners"
}

# ---------------------------------------------------------------------------
# Setup

if ! grep -q " $cgfs cgroup2 " /proc/mounts; then
	mount -t cgroup2 none "$cgfs"
fi
mkdir "$cgfs$base"

# ---------------------------------------------------------------------------
# 1. Namespace hoarding.

if want 1; then
echo "# --- case 1: namespace hoarding"
echo "# spec: ns_per_owner caps the sets of one owner (uid:N for every user namespace"
echo "# a host uid made, at any depth; userns:ID for each one the host's root made);"
echo "# over it, open() gives ENOSPC for that owner only; the host is not an owner."
per=16
load max_namespaces=64 ns_reserve=8 ns_per_owner=$per ns_grace_ms=0 gc_interval_ms=50

holder h2001 as_user 2001 "$T" hoard -U -H
is "1 uid 2001 in its user namespace hoards: exactly ns_per_owner sets, then ENOSPC" \
	"$res" "sets=$per err=ENOSPC"
holder h2002 as_user 2002 "$T" hoard -U -H
is "1 uid 2002 (another tenant) still gets its own ns_per_owner sets, then ENOSPC" \
	"$res" "sets=$per err=ENOSPC"
is "1 the host (root, unshare --ipc in the initial user namespace) still gets a set" \
	"$("$T" hoard -m 1)" "sets=1 err=none"
owners_check "1 $owners: uid:2001 holds $per" uid:2001 "$per"
owners_check "1 $owners: uid:2002 holds $per" uid:2002 "$per"
if [ -e "$owners" ]; then
	is "1 $owners starts with its header" "$(head -n 1 "$owners")" "# owner sets streams stream_bytes"
fi
release

echo "# nested user namespaces (unshare(CLONE_NEWUSER | CLONE_NEWIPC) at each step, depth < 32)"
holder n2001 as_user 2001 "$T" hoard -n -m 30 -H
is "1 uid 2001, nesting a user namespace per set: still ns_per_owner sets, then ENOSPC" \
	"$res" "sets=$per err=ENOSPC"
is "1 ... and a flat user namespace of the same uid meanwhile gets none (one owner)" \
	"$(as_user 2001 "$T" hoard -U -m 1)" "sets=0 err=ENOSPC"
owners_check "1 $owners: the nested sets are all uid:2001's" uid:2001 "$per"
release

echo "# privileged variant: user namespaces made by the host's root are separate owners"
holder r1 "$T" hoard -U -H
is "1 root's user namespace A: ns_per_owner sets, then ENOSPC" "$res" "sets=$per err=ENOSPC"
holder r2 "$T" hoard -U -H
is "1 root's user namespace B (another owner): its own ns_per_owner sets, then ENOSPC" \
	"$res" "sets=$per err=ENOSPC"
owners_check "1 $owners: userns:A holds $per" "userns:$(user_ns_id "${hpid[r1]}")" "$per"
owners_check "1 $owners: userns:B holds $per" "userns:$(user_ns_id "${hpid[r2]}")" "$per"
is "1 with both at their quota the host still gets a set" "$("$T" hoard -m 1)" "sets=1 err=none"
release
fi

# ---------------------------------------------------------------------------
# 2. Orphans.

if want 2; then
echo "# --- case 2: orphaned sets"
echo "# spec: a set counts against max_namespaces and its owner from creation until its"
echo "# last reference is gone, also once reaped while a file holds it (an orphan), so"
echo "# the rings one owner pins are at most ns_per_owner * 4 * ns_size."
# Each ring is one vmalloc area; /proc/vmallocinfo counts an area with its
# guard page, so a 64 KiB ring shows as 68 KiB: that is the only slack.
# Nothing else of nslogger is vmalloc'ed (sets, files and buffers are
# slab), and the baseline is taken after the load, so the host's own rings
# (none written here) are not in the difference.
ring_kb=$((64 + 4))
per=8
load max_namespaces=64 ns_reserve=8 ns_per_owner=$per ns_size=64K ns_grace_ms=0 gc_interval_ms=50
settle_memory
v0=$(nslog_vmalloc_kb)
n=$((3 * per))
holder o2001 as_user 2001 "$T" orphans -U -n "$n" -s 100
v1=$(nslog_vmalloc_kb)
echo "# uid 2001, $n namespaces each left behind with 4 files: vmalloc $v0 kB -> $v1 kB"
le "2 uid 2001 (user namespace): rings pinned by orphans within ns_per_owner * 4 * (ns_size + guard) kB" \
	$((v1 - v0)) $((per * 4 * ring_kb))
is "2 ... it got ns_per_owner sets, the opens past them ENOSPC" \
	"$(kv "$res" sets) $(kv "$res" err)" "$per ENOSPC"

echo "# privileged variant: the host's root, no user namespace: max_namespaces bounds it"
maxns=8
load max_namespaces=$maxns ns_reserve=2 ns_per_owner=$per ns_size=64K ns_grace_ms=0 gc_interval_ms=50
settle_memory
v0=$(nslog_vmalloc_kb)
n=$((3 * maxns))
holder oroot "$T" orphans -n "$n" -s 100
v1=$(nslog_vmalloc_kb)
echo "# root, $n namespaces each left behind with 4 files: vmalloc $v0 kB -> $v1 kB"
le "2 host root: rings pinned by orphans within max_namespaces * 4 * (ns_size + guard) kB" \
	$((v1 - v0)) $((maxns * 4 * ring_kb))
is "2 ... it got max_namespaces sets, the opens past them ENOSPC" \
	"$(kv "$res" sets) $(kv "$res" err)" "$maxns ENOSPC"
release
fi

# ---------------------------------------------------------------------------
# 3. Escaping the default limit by mkdir.

if want 3; then
echo "# --- case 3: default_limit escape by mkdir"
echo "# spec: with default_limit on, a writer is charged to the default bucket of its"
echo "# cgroup's ancestor at default_level (2): a child cgroup gives no new burst."
load
echo "# default_level: $(cat "$params/default_level" 2>/dev/null || echo "none in this module")"
setp default_limit "records=10/s"
mkdir -p "$cgfs$base/t"
dirs=()
for i in $(seq 1 20); do dirs+=("$cgfs$base/t/c$i"); done
flush_main
out=$(in_cg "$base/t" "$T" hop main 15 hopR$$ "${dirs[@]}")
acc=$(count main "hopR$$")
echo "# root in $base/t: 20 children, 15 records each: $acc of $(kv "$out" attempted) accepted in $(( $(kv "$out" elapsed_ns) / 1000000 )) ms"
le "3 root moving through 20 new children of level-2 $base/t: within one bucket's burst + rate * elapsed" \
	"$acc" "$(bound 10 10 "$(kv "$out" elapsed_ns)")"

echo "# unprivileged variant: a subtree delegated to uid 2001, which makes the children itself"
mkdir "$cgfs$base/u"
chown 2001:2001 "$cgfs$base/u" "$cgfs$base/u/cgroup.procs" "$cgfs$base/u/cgroup.threads" \
	"$cgfs$base/u/cgroup.subtree_control"
dirs=()
for i in $(seq 1 20); do dirs+=("$cgfs$base/u/c$i"); done
flush_main
out=$(in_cg "$base/u" setpriv --reuid=2001 --regid=2001 --clear-groups -- \
	"$T" hop main 15 hopU$$ "${dirs[@]}")
acc=$(count main "hopU$$")
echo "# uid 2001 in $base/u: 20 children, 15 records each: $acc of $(kv "$out" attempted) accepted in $(( $(kv "$out" elapsed_ns) / 1000000 )) ms"
le "3 uid 2001 making and entering 20 children of its delegated $base/u: within one bucket's bound" \
	"$acc" "$(bound 10 10 "$(kv "$out" elapsed_ns)")"
setp default_limit off
fi

# ---------------------------------------------------------------------------
# 4. max_rules exhaustion.

if want 4; then
echo "# --- case 4: max_rules exhaustion"
echo "# spec: when a default bucket cannot be made, the write is charged to one shared"
echo "# overflow bucket with the default limit, listed as '(overflow) kind=overflow'."
load
setp default_limit "records=10/s"
# Rules and default buckets: the overflow bucket's line is not one of them.
buckets() { grep -cE '^[^ ]+ kind=(rule|default) ' "$limits" || true; }
nrules=$(buckets)
setp max_rules $((nrules + 3))
for i in 1 2 3 4; do
	mkdir "$cgfs$base/m$i"
	in_cg "$base/m$i" "$flood" trickle main 1 0 mfill$i >/dev/null
done
is "4 the rule table is full: max_rules buckets (the 4th cgroup got none)" \
	"$(buckets)" $((nrules + 3))
mkdir "$cgfs$base/mx"
flush_main
out=$(in_cg "$base/mx" "$flood" flood main 1 64 ovf$$)
acc=$(count main "ovf$$")
echo "# a new cgroup past max_rules: $acc of $(kv "$out" attempted) accepted in $(( $(kv "$out" elapsed_ns) / 1000000 )) ms"
le "4 a new level-2 cgroup past max_rules is still limited: within the default's bound" \
	"$acc" "$(bound 10 10 "$(kv "$out" elapsed_ns)")"
ovl=$(grep '^(overflow) kind=overflow records=' "$limits" || true)
echo "# overflow line: ${ovl:-none}"
check "4 $limits lists '(overflow) kind=overflow records=...'" test -n "$ovl"
d=$(field "(overflow)" dropped)
check "4 ... with dropped > 0" test "${d:-0}" -gt 0
sleep 1.5
in_cg "$base/mx" "$flood" trickle main 1 0 ovfx$$ >/dev/null
check "4 its drops are reported 'from (overflow)'" \
	bash -c '"$1" -d -b main -v raw | grep -Eq "^nslogger: suppressed [0-9]+ records \([0-9]+ bytes\) from \(overflow\)$"' \
	_ "$nslogcat"
setp max_rules 16384
setp default_limit off
fi

# ---------------------------------------------------------------------------
# 5. Nodes: the log group.

if want 5; then
echo "# --- case 5: a chgrp'ed node, log_gid, idmapped mounts"
echo "# spec: read-all and flush come from log_gid (if >= 0), or from the node's group"
echo "# only on a node owned by the host's uid 0 as the opener's mount shows it."
load
mknode "$nodes/chg" 2001:2001 0660
flush_main
"$NT" write "root-secret-$$" >/dev/null
as_user 2001 "$NT" write -d "$nodes/chg" "u2001-own-$$" >/dev/null
out=$(as_user 2001 "$NT" read -d "$nodes/chg" 2>&1) || true
comment "uid 2001 reads: " <<<"$out"
check "5 uid 2001 through its own node 0660 2001:2001 does not see root's record" \
	bash -c '! grep -q "root-secret-$1" <<<"$2"' _ "$$" "$out"
check "5 ... but sees its own record" grep -q "u2001-own-$$" <<<"$out"
check "5 uid 2001: LOGGER_FLUSH_LOG through that node is EPERM" \
	as_user 2001 "$NT" flush -d "$nodes/chg" -e EPERM
check "5 root's record is still in the host's log" \
	bash -c '"$1" read | grep -q "root-secret-$2"' _ "$NT" "$$"

echo "# log_gid=3000: a member of 3000 reads and flushes whatever the node's group"
setp log_gid 3000
mknode "$nodes/pub" 0:0 0666
"$NT" write "root-for-3000-$$" >/dev/null
out=$(setpriv --reuid=2003 --regid=2003 --groups=3000 -- "$NT" read -d "$nodes/pub" 2>&1) || true
check "5 log_gid=3000: uid 2003 in group 3000 reads root's record through a 0666 root:root node" \
	grep -q "root-for-3000-$$" <<<"$out"
check "5 log_gid=3000: ... and may flush" \
	setpriv --reuid=2003 --regid=2003 --groups=3000 -- "$NT" flush -d "$nodes/pub"
"$NT" write "root-again-$$" >/dev/null
out=$(setpriv --reuid=2004 --regid=2004 --clear-groups -- "$NT" read -d "$nodes/pub" 2>&1) || true
check "5 log_gid=3000: uid 2004 in no group sees nothing of root's" \
	bash -c '! grep -q "root-again-$1" <<<"$2"' _ "$$" "$out"
out=$(as_user 2001 "$NT" read -d "$nodes/chg" 2>&1) || true
check "5 log_gid=3000: the chgrp'ed node still grants uid 2001 nothing" \
	bash -c '! grep -q "root-again-$1" <<<"$2"' _ "$$" "$out"
setp log_gid -1

echo "# log_gid=-1 (control, as today): a root-owned node's group grants read-all"
mknode "$nodes/grp" 0:4000 0640
"$NT" write "root-for-4000-$$" >/dev/null
out=$(setpriv --reuid=2004 --regid=2004 --groups=4000 -- "$NT" read -d "$nodes/grp" 2>&1) || true
check "5 log_gid=-1: uid 2004 in group 4000 reads root's record through a 0640 root:4000 node" \
	grep -q "root-for-4000-$$" <<<"$out"

echo "# idmapped mounts: the owner as the opener's mount shows it (tmpfs has no"
echo "# idmapped mounts before 6.3: an ext4 image on a loop device instead)"
img=$tmp/ext4.img
ext=$tmp/ext
if modprobe -q loop 2>/dev/null; modprobe -q ext4 2>/dev/null &&
   truncate -s 16M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1 &&
   mkdir "$ext" && mount -o loop "$img" "$ext"; then
	mounts+=("$ext")
	mknode "$ext/root-owned" 0:4000 0664	# root's, group 4000, on disk
	mknode "$ext/2001-owned" 2001:4000 0664	# uid 2001's, group 4000, on disk
	mkdir "$tmp/idm-a" "$tmp/idm-b"
	# A: on-disk uid 0 shown as 2001; B: on-disk uid 2001 shown as 0.
	if "$T" idmount "$ext" "$tmp/idm-a" 0:2001:1 4000:4000:1 >/dev/null &&
	   mounts+=("$tmp/idm-a") &&
	   "$T" idmount "$ext" "$tmp/idm-b" 2001:0:1 4000:4000:1 >/dev/null &&
	   mounts+=("$tmp/idm-b"); then
		echo "# idm-a/root-owned: $(stat -c '%u:%g %a' "$tmp/idm-a/root-owned"), idm-b/2001-owned: $(stat -c '%u:%g %a' "$tmp/idm-b/2001-owned")"
		"$NT" write "root-for-idmap-$$" >/dev/null
		out=$(setpriv --reuid=2006 --regid=2006 --groups=4000 -- \
			"$NT" read -d "$tmp/idm-a/root-owned" 2>&1) || true
		check "5 idmapped: a root-owned node shown as uid 2001's grants its group (4000) nothing" \
			bash -c '! grep -q "root-for-idmap-$1" <<<"$2"' _ "$$" "$out"
		out=$(setpriv --reuid=2006 --regid=2006 --groups=4000 -- \
			"$NT" read -d "$tmp/idm-b/2001-owned" 2>&1) || true
		check "5 idmapped: a uid 2001 node shown as root's grants its group (4000) read-all" \
			grep -q "root-for-idmap-$$" <<<"$out"
	else
		skip "5 idmapped mounts" "SKIPPED LOUDLY: cannot make an idmapped mount of ext4 here"
	fi
else
	skip "5 idmapped mounts" "SKIPPED LOUDLY: no loop device or ext4 in this guest"
fi
fi

# ---------------------------------------------------------------------------
# 6. Flush rights do not travel with the file.

if want 6; then
echo "# --- case 6: flush through a kept or passed write fd"
echo "# spec: LOGGER_FLUSH_LOG is checked when called, against the caller's"
echo "# credentials; write-only opens compute no privilege (no capability check)."
load
flushes() {	# PREFIX [helper prefix...]: the three flushpriv runs
	local what=$1 out

	shift
	out=$("$@" flushpriv "${node_opt[@]}" self)
	echo "# $what, self: $out"
	check "6 $what: flushing through its own write fd works (control)" \
		test "$(kv "$out" flush)" = ok -a "$(kv "$out" after)" = 0
	out=$("$@" flushpriv "${node_opt[@]}" setuid "$uid" "$uid")
	echo "# $what, setuid: $out"
	is "6 $what: its write fd kept after setresuid($uid): flush EPERM" "$(kv "$out" flush)" EPERM
	is "6 $what: ... and the records are kept" "$(kv "$out" after)" "$(kv "$out" before)"
	out=$("$@" flushpriv "${node_opt[@]}" scm "$uid" "$uid")
	echo "# $what, scm: $out"
	is "6 $what: its write fd passed by SCM_RIGHTS to uid $uid: flush EPERM" "$(kv "$out" flush)" EPERM
	is "6 $what: ... and the records are kept" "$(kv "$out" after)" "$(kv "$out" before)"
}
node_opt=()
uid=2001
flushes "host root" "$T"
# Root of a user namespace (0 -> 100000), with CAP_SYSLOG over its own IPC
# namespace's set, and its uid 1000; a node of its own to read through.
mknode "$nodes/u6" 100000:100000 0622
node_opt=(-d "$nodes/u6")
uid=1000
flushes "user namespace root" "$NT" userns -m 0:100000:65536 -x ipc -- "$T"

echo "# a write-only open makes no CAP_SYSLOG check (a kprobe on cap_capable counts them)"
if [ -w "$tr/kprobe_events" ] &&
   echo "p:$kprobe cap_capable cap=\$arg3:s32" >>"$tr/kprobe_events" 2>/dev/null; then
	echo 'cap == 34' >"$tr/events/kprobes/$kprobe/filter"
	: >"$tr/trace"
	echo 1 >"$tr/events/kprobes/$kprobe/enable"
	# Root with egid 5000 and no groups: the node's group (0) is not its.
	wpid=$(setpriv --regid=5000 --clear-groups -- "$T" openprobe w | sed -n 's/^pid=//p')
	rpid=$(setpriv --regid=5000 --clear-groups -- "$T" openprobe r | sed -n 's/^pid=//p')
	echo 0 >"$tr/events/kprobes/$kprobe/enable"
	hw=$(grep -cE -- "-$wpid +\[" "$tr/trace" || true)
	hr=$(grep -cE -- "-$rpid +\[" "$tr/trace" || true)
	echo "# CAP_SYSLOG checks: write-only open $hw, read open $hr"
	is "6 root opening for writing only: no CAP_SYSLOG check" "$hw" 0
	check "6 root opening for reading: CAP_SYSLOG is checked (control: the probe works)" \
		test "$hr" -ge 1
	echo "-:$kprobe" >>"$tr/kprobe_events"
else
	skip "6 no capability check on write-only opens" "SKIPPED LOUDLY: no kprobe on cap_capable"
fi
fi

# ---------------------------------------------------------------------------
# 7. The limits file.

if want 7; then
echo "# --- case 7: /proc/nslogger/limits"
echo "# spec: reading needs CAP_SYSLOG or CAP_SYS_ADMIN (initial user ns); opening it"
echo "# for writing needs CAP_SYS_ADMIN there, EPERM otherwise."
load
mkdir "$cgfs$base/l7"
nosa=(setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin --)
nosl=(setpriv --bounding-set=-syslog --inh-caps=-syslog --)
capeff=$("${nosa[@]}" sed -n 's/^CapEff:\t*//p' /proc/self/status)
check "7 the CAP_SYSLOG-only root has CAP_SYSLOG and not CAP_SYS_ADMIN (CapEff $capeff)" \
	test $(( (0x$capeff >> 34 & 1) == 1 && (0x$capeff >> 21 & 1) == 0 )) = 1
is "7 root with CAP_SYSLOG but not CAP_SYS_ADMIN: opening for writing is EPERM" \
	"$("${nosa[@]}" "$flood" admin "set $base/l7 records=5/s")" open:EPERM
is "7 ... and its rule was not set" "$(line_of "$base/l7")" ""
is "7 ... it may still read the file" "$("${nosa[@]}" "$flood" admin-read)" ok
is "7 root with CAP_SYS_ADMIN but not CAP_SYSLOG may read it" "$("${nosl[@]}" "$flood" admin-read)" ok
is "7 root with CAP_SYS_ADMIN writes a rule (control)" "$(admin "set $base/l7 records=5/s")" ok
is "7 ... which is listed" "$(field "$base/l7" records)" 5/1s
admin "clear $base/l7" >/dev/null
fi

# ---------------------------------------------------------------------------
# 8. A limited flooder beside a victim, one 256 KiB ring, 60 s.

if want 8; then
echo "# --- case 8: flood beside a victim in one 256 KiB ring, 60 s"
echo "# spec: at most one notice per bucket and log per notice_interval_ms (1000),"
echo "# carrying every drop since the last one: the flooder's share of the ring is"
echo "# its rate plus one small record a second, and the notices add up to the drops."
# A stored record takes ALIGN(40 + payload, 8) bytes.  Both writers use
# 40-byte payloads: 80 bytes each.  A notice ("nslogger: suppressed N
# records (M bytes) from /ten.PID/fl", with priority and tag, about 80
# bytes of payload) takes at most 128.  Over 60 s:
#   victim    20/s * 60 s                 = 1200 records * 80  =  96000
#   flooder   20 + 20/s * 60 s (the bound) = 1221 records * 80 =  97680
#   notices   one a second, + 2           =   62 records * 128 =   7936
#   total                                                       = 201616
# which is 77% of 262144: all of it stays, with 60 KB to spare (20 s more
# of both writers).  Twice the flooder (a notice before each of its
# records, today's behaviour) is 1200 * 80 + 1221 * (80 + 128) = 349968
# bytes, 133% of the ring: the oldest quarter goes, the victim's first
# records with it.  Even at 80-byte notices it would be 291360 (111%).
# The flood lasts 60 s (15 s once through, lib.sh's repeat): the ring's
# budget above holds a fortiori for a shorter one.
fsecs=$(repeat 60 15)
load main_size=256K
notice_ms=$(cat "$params/notice_interval_ms" 2>/dev/null || echo 1000)
mkdir "$cgfs$base/fl" "$cgfs$base/vi"
is "8 the flooder's rule is set" "$(admin "set $base/fl records=20/s records_burst=20")" ok
flush_main
t0=$(date +%s%N)
in_cg "$base/vi" "$T" pace main $((20 * fsecs)) 20 40 victim$$ >"$tmp/victim" &
vpid=$!
fout=$(in_cg "$base/fl" "$flood" flood main "$fsecs" 40 flood$$)
wait "$vpid"
# Past the notice interval, one more record from the flooder's cgroup
# brings out the last notice.
sleep "$(( (notice_ms + 500) / 1000 )).$(( (notice_ms + 500) % 1000 / 100 ))"
in_cg "$base/fl" "$flood" trickle main 1 0 floodlast$$ >/dev/null
t1=$(date +%s%N)
el_s=$(( (t1 - t0 + 999999999) / 1000000000 ))
vout=$(cat "$tmp/victim")
vn=$(count main "victim$$")
fn=$(count main "flood$$")
notice_lines "$base/fl" >"$tmp/notices"
nn=$(wc -l <"$tmp/notices")
read -r sn sm <<<"$(awk '{ n += $1; m += $2 } END { printf "%d %d\n", n, m }' "$tmp/notices")"
echo "# victim: $vout; flooder: $fout"
echo "# in the ring: $vn victim records, $fn flooder records, $nn notices, over $el_s s"
echo "# bucket: $(line_of "$base/fl" | sed 's/.* accepted=/accepted=/')"
is "8 the victim wrote its $((20 * fsecs)) records" "$(kv "$vout" written)" $((20 * fsecs))
is "8 every victim record is still in the ring" "$vn" $((20 * fsecs))
le "8 notices from the flooder: at most one a second (elapsed + 2)" "$nn" $((el_s + 2))
is "8 the notices sum to the bucket's dropped" "$sn" "$(field "$base/fl" dropped)"
is "8 ... and to its dropped_bytes" "$sm" "$(field "$base/fl" dropped_bytes)"
is "8 every record the flooder's bucket accepted is in the ring" \
	"$((fn + 1))" "$(field "$base/fl" accepted)"
fi

# ---------------------------------------------------------------------------
# 9. A reader stuck in copy_to_user.

if want 9; then
echo "# --- case 9: a reader stuck inside read() (userfaultfd)"
echo "# spec: LOGGER_GET_LOG_LEN, LOGGER_GET_NEXT_ENTRY_LEN and LOGGER_SET_VERSION are"
echo "# interruptible by a signal; poll() returns within its timeout."
load
for p in poll len next setver; do
	out=$("$T" stuck "$p" 1000)
	comment "$p: " <<<"$out"
	if grep -qx died <<<"$out"; then
		not_ok "9 $p: the stuck reader could not be set up (userfaultfd?)"
		continue
	fi
	if grep -qx hung <<<"$out"; then
		not_ok "9 $p beside a stuck reader: hung (killed by the watchdog after 5 s)"
		continue
	fi
	line=$(grep -E '^(poll|ioctl) ' <<<"$out")
	ms=$(kv "$line" ms)
	if [ "$p" = poll ]; then
		check "9 poll(1000 ms) beside a stuck reader returns within its timeout (+2 s: TCG)" \
			test "$(kv "$line" ret)" -ge 0 -a "$ms" -le 3000
	else
		# EINTR from the SIGALRM after 1 s; an answer before it (the
		# ioctl did not wait for the reader at all) is as good.
		check "9 $p ioctl beside a stuck reader: -1/EINTR at the signal, not an uninterruptible sleep" \
			test "$(kv "$line" errno)" = EINTR -o \
			"$(kv "$line" ret)" -ge 0 -a "$ms" -lt 1000
	fi
	check "9 $p: the stuck reader's read() completes once its fault is served" \
		grep -Eq '^reader=[0-9]+$' <<<"$out"
done
fi

echo "# tenants: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
