#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# churn.sh - create namespace, write, exit, again: 2,000 times, and 1,000 in
# a user namespace.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh churn
#
#   host: ns_test churn -n N -j 2
#     worker --fork--> child: unshare(CLONE_NEWIPC)
#                             open /dev/log_main: empty? (no old record)
#                             write "churn PID I", read back exactly that
#                             exit -> the namespace dies, its set is reaped
#     (the next child's namespace may get the same address and inode number)
#
# Loads the module with ns_grace_ms=100 gc_interval_ms=50 so dead sets go
# soon.  Checks that no new namespace ever reads a record (ns_test fails the
# cycle), that the sets drain to none after the run, that the module's
# memory comes back to its baseline within the bounds below (vmalloc: the
# /proc/vmallocinfo areas nslogger allocated; slab: the kmalloc-cg-* caches
# of /proc/slabinfo, and SUnreclaim of /proc/meminfo), first privileged
# (host root's unshare) and then in a user namespace, and that rmmod
# succeeds at the end.
#
# NSLOG_CHURN_CYCLES (default 2000; 200 with NSLOG_REPEAT=once) and
# NSLOG_CHURN_USERNS_CYCLES (default 1000; 50 once) change the counts.
# 2,000 is enough for what the counts are for: the kernel reuses 512
# namespace ids under this churn, so some 1,500 cycles get an id an earlier
# one had (the case that must not read an old record), and one set leaked
# per cycle (1 kB or more each) is twice the slab bound below. 10,000, as
# before, found nothing more and took 4.5 min of the test budget.
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
T=$top/build/tests/ns_test
ko=${NSLOG_KO:?NSLOG_KO is not set}
cycles=${NSLOG_CHURN_CYCLES:-$(repeat 2000 200)}
ucycles=${NSLOG_CHURN_USERNS_CYCLES:-$(repeat 1000 50)}
# Bounds on what may be left after the run, in kB: no ring at all (every
# cycle's ring is vmalloc'ed, 64 KiB, and all of them must be gone), and
# 1 MiB of slab, half a kB per cycle of 2,000, while one leaked set per
# cycle would leave 3 MiB or more, 1,000 cycles in a user namespace as much
# (each set is a kmalloc-cg-1k or larger object, each namespace a
# kmalloc-cg-2k one).
vmalloc_bound=0
slab_bound=1024
tmp=$(mktemp -d "/tmp/nslog-churn.$$.XXXXXX")
chmod 755 "$tmp"

cleanup() {
	local rc=$?

	trap - EXIT
	[ -z "${max_ipc:-}" ] || echo "$max_ipc" >/proc/sys/user/max_ipc_namespaces
	unload 2>/dev/null || true
	# shellcheck disable=SC2086 # word splitting is wanted
	insmod "$ko" ${NSLOG_PARAMS:-} || echo "churn.sh: cannot reload $ko" >&2
	umount "$tmp/nodes" 2>/dev/null || true
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT

# vmalloc space nslogger holds, in kB: the /proc/vmallocinfo areas whose
# caller is in the module (its rings).
nslog_vmalloc_kb() {
	awk '/\[nslogger\]/ { b += $2 } END { printf "%d\n", b / 1024 }' /proc/vmallocinfo
}

# Slab memory of the caches every nslogger object goes to, in kB: all its
# allocations are GFP_KERNEL_ACCOUNT (the set, the files, the payload
# buffers), so they land in the kmalloc-cg-* caches, as do the IPC
# namespaces themselves.  Other kernel users share these caches: the bound
# below allows for their noise.
cg_slab_kb() {
	awk '$1 ~ /^kmalloc-cg-/ { b += $2 * $4 } END { printf "%d\n", b / 1024 }' /proc/slabinfo
}

wait_drained() {	# at most 20 s; prints the time it took, in ms
	local t0 end=$((SECONDS + 20))

	t0=$(date +%s%N)
	while ! drained && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.05
	done
	echo $(( ($(date +%s%N) - t0) / 1000000 ))
	drained
}

# Let deferred frees finish (RCU, the kernel's own freeing of dead IPC
# namespaces, one synchronize_rcu() each on 6.1, slow under TCG), drop
# reclaimable caches and shrink the slab caches (drop_caches, lib.sh), and
# wait until SUnreclaim holds still (two readings 2 s apart within 64 kB;
# 120 s at most), so two samples compare like with like.
settle() {
	local a b i

	sync
	drop_caches
	b=$(meminfo SUnreclaim)
	for ((i = 0; i < 60; i++)); do
		sleep 2
		a=$b
		drop_caches
		b=$(meminfo SUnreclaim)
		[ $((a - b)) -lt 64 ] && [ $((b - a)) -lt 64 ] && break
	done
}

sample() {	# NAME: remember the module's vmalloc, kmalloc-cg-*, SUnreclaim as NAME_*
	settle
	printf -v "${1}_vmal" %s "$(nslog_vmalloc_kb)"
	printf -v "${1}_slab" %s "$(cg_slab_kb)"
	printf -v "${1}_sunr" %s "$(meminfo SUnreclaim)"
}

# run_churn WHAT N COMMAND...: the churn, its memory before and after.
run_churn() {
	local what=$1 n=$2 t0 out ms base_slab base_sunr base_vmal
	local after_slab after_sunr after_vmal d_sunr d_vmal d_slab

	shift 2
	# Warm the caches up (slab pages, pid and IPC namespace caches) first.
	if ! "$@" -n 200 >/dev/null 2>"$tmp/churn.err"; then
		not_ok "$what: 200 warm-up cycles, no new namespace read an old record"
		sed 's/^/#   /' "$tmp/churn.err" | head -n 20
	fi
	wait_drained >/dev/null || true
	sample base
	echo "# $what baseline: nslogger vmalloc ${base_vmal} kB, kmalloc-cg-* ${base_slab} kB, SUnreclaim ${base_sunr} kB, sets $(sets)"
	t0=$(date +%s%N)
	if out=$("$@" -n "$n" 2>"$tmp/churn.err"); then
		ok "$what: $n cycles, no new namespace read an old record"
	else
		not_ok "$what: $n cycles, no new namespace read an old record"
		sed 's/^/#   /' "$tmp/churn.err" | head -n 20
	fi
	echo "# $out"
	echo "# $what took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
	if ms=$(wait_drained); then
		ok "$what: every set reaped after the run (${ms} ms)"
	else
		not_ok "$what: every set reaped after the run ($(sets) left after ${ms} ms)"
	fi
	# Frees may trail the reaper (RCU, the namespaces' own work items):
	# give them a few tries.
	for _ in 1 2 3 4 5; do
		sample after
		d_slab=$((after_slab - base_slab))
		d_sunr=$((after_sunr - base_sunr))
		d_vmal=$((after_vmal - base_vmal))
		[ "$d_vmal" -gt "$vmalloc_bound" ] || [ "$d_slab" -gt "$slab_bound" ] ||
			[ "$d_sunr" -gt "$slab_bound" ] || break
	done
	echo "# $what after: nslogger vmalloc ${after_vmal} kB (${d_vmal}), kmalloc-cg-* ${after_slab} kB (${d_slab}), SUnreclaim ${after_sunr} kB (${d_sunr}), sets $(sets)"
	check "$what: nslogger's vmalloc back to baseline (${d_vmal} kB, bound ${vmalloc_bound})" \
		test "$d_vmal" -le "$vmalloc_bound"
	check "$what: kmalloc-cg-* slab back to baseline (${d_slab} kB, bound ${slab_bound})" \
		test "$d_slab" -le "$slab_bound"
	check "$what: SUnreclaim back to baseline (${d_sunr} kB, bound ${slab_bound})" \
		test "$d_sunr" -le "$slab_bound"
}

# The kernel frees a dead IPC namespace in a work item, one at a time
# behind an RCU grace period; a fast loop runs ahead of it to the limit
# max_ipc_namespaces (ENOSPC from unshare, on which ns_test waits and
# retries).  A lower limit keeps that backlog, and the time it takes to
# drain before memory is compared, small.
max_ipc=$(cat /proc/sys/user/max_ipc_namespaces)
echo 512 >/proc/sys/user/max_ipc_namespaces

# Every namespace of the user-namespace run below has one owner, and a
# loop this fast keeps more than ns_per_owner (128) of its sets alive or
# in their grace period at once: the quota would refuse it, as it should
# (tenants.sh tests that).  This scenario is about reused keys, so the
# quota is lifted to the registry's cap.
unload
insmod "$ko" ns_grace_ms=100 gc_interval_ms=50 ns_per_owner=4096

run_churn "privileged" "$cycles" "$T" churn -j 2

# The same from inside a user namespace (0 -> 100000): the container's root
# unshares the IPC namespaces, which its user namespace then owns, through
# a node of its own (the host's is not readable by it).
nodes=$tmp/nodes
mkdir -p "$nodes"
# /tmp is nodev: the node goes on a tmpfs of its own.
mount -t tmpfs -o mode=755 nslog-nodes "$nodes"
read -r maj min <<<"$(stat -c "%t %T" /dev/log_main)"
mknod -m 0622 "$nodes/log_main" c $((16#$maj)) $((16#$min))
chown 100000:100000 "$nodes/log_main"
chmod 755 "$nodes"
run_churn "user namespace" "$ucycles" "$T" userns -- "$T" churn -j 2 -d "$nodes/log_main"

t0=$(date +%s%N)
if unload; then
	ok "rmmod after the churn ($(( ($(date +%s%N) - t0) / 1000000 )) ms)"
else
	not_ok "rmmod after the churn"
fi

echo "churn.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
