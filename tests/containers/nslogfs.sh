#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nslogfs.sh - the log set as a filesystem (issue 19), in the guest.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh nslogfs
#
#   host (root, initial namespaces) --------------------------------------+
#   | nslogfs_test: the host's set through a mount; rootless containers   |
#   |   (userns 0 -> 100000, 1 -> 100001; ipc; mnt) mounting their own;   |
#   |   a userns on the host's IPC namespace refused; chmod/chown; stat,  |
#   |   truncate; two containers; host collection; the set freed         |
#   | abi_test against /mnt/log/{main,...} of a mount of the host's set   |
#   |   (private mount namespace): every case but those that need a node  |
#   |   (device checks, own-records-only readers) or another IPC          |
#   |   namespace than the mount's                                        |
#   | nslog and nslogcat unchanged, NSLOG_DEV_DIR at a container's mount  |
#   | a rate limit on a writer's cgroup holding for its writes to a stream |
#   +---------------------------------------------------------------------+
#
# nslogfs_test's stream cases: made, written, listed, sized, flushed and
# removed as files; the mount's limits (ENOSPC) and the owner's across
# containers (EDQUOT, owner_streams, owner_stream_bytes); two mounts of one
# set agreeing; another container never seeing them; the host listing and
# collecting them (NSLOG_IOC_OPEN_STREAM); uid 1 refused by the directory.
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/tests
tools=$top/build/tools
ko=${NSLOG_KO:?NSLOG_KO is not set}

restore() {
	unload
	# shellcheck disable=SC2086
	insmod "$ko" ${NSLOG_PARAMS:-}
}
trap restore EXIT

unload
insmod "$ko" radio_size=8K
echo 100 > /sys/module/nslogger/parameters/ns_grace_ms
echo 100 > /sys/module/nslogger/parameters/gc_interval_ms
check "nslogfs is registered" grep -qw nslogfs /proc/filesystems

# The C cases print their own ok/not ok lines and a count.
set +e
"$bin/nslogfs_test"
fs_rc=$?
set -e
check "nslogfs_test passed" test "$fs_rc" -eq 0

# The ABI suite through a mount of the host's own set.
skip_re='^(nodes_exist_and_are_not_world_readable|unprivileged_reader_sees_own_euid_only|info_identity_and_extent|order_numbers_writes_across_logs_exactly|order_concurrent_writers_every_number_once|set_size_limits_and_keeps_newest)$'
# (No process substitution: the guest has no /dev/fd.)
mapfile -t abi_cases <<<"$(grep -o '^	T(t_[a-z0-9_]*)' "$top/tests/abi/abi_test.c" |
			   sed 's/.*T(t_//; s/)$//' | grep -Ev "$skip_re")"
check "abi cases found" test "${#abi_cases[@]}" -gt 30
set +e
unshare -m bash -c '
	mount --make-rprivate /
	mount -t tmpfs tmpfs /mnt
	mkdir /mnt/log
	mount -t nslogfs nslogfs /mnt/log
	NSLOG_DEV_DIR=/mnt NSLOG_ANDROID_NODES=1 "$@"' abi "$bin/abi_test" "${abi_cases[@]}"
abi_rc=$?
set -e
check "abi_test through nslogfs passed" test "$abi_rc" -eq 0

# The tools unchanged in a rootless container whose only logs are its mount:
# no device node is reached (the nodes' directory is not where they look).
out=$(setpriv --reuid=100000 --regid=100000 --clear-groups \
	unshare -Ur --ipc --mount --pid --fork bash -c '
	set -e
	mount -t tmpfs tmpfs /mnt
	mkdir /mnt/log
	mount -t nslogfs nslogfs /mnt/log
	export NSLOG_DEV_DIR=/mnt
	"$1/nslog" -t fstest "hello from a rootless mount"
	"$1/nslog" -b radio -t fstest "radio too"
	"$1/nslogcat" -d -b main -b radio -v brief "fstest:*" "*:S"
	touch /mnt/log/app && chown 0:0 /mnt/log/app && chmod 0620 /mnt/log/app
	echo "stream: $(stat -c "%a %u %s" /mnt/log/app)"
	rm /mnt/log/app
	echo "after rm: $(ls -U /mnt/log | tr "\n" " ")"' fs "$tools" 2>&1) || true
echo "$out" | sed 's/^/# /'
check "nslog writes, nslogcat reads through a rootless mount" \
	grep -q 'fstest.*hello from a rootless mount' <<<"$out"
check "... on radio too" grep -q 'fstest.*radio too' <<<"$out"
check "touch, chown, chmod make a stream as containers.md says" \
	grep -qx 'stream: 620 0 0' <<<"$out"
check "... and rm removes it" grep -qx 'after rm: main events radio system ' <<<"$out"

# Rate limits hold for a stream as for the devices: a rule of 5 records on
# the writer's cgroup, 30 single-record writes to a stream of the host's set.
rlcg=/nslogfs-rl
limits=/proc/nslogger/limits
need containers cgcreate cgexec cgdelete
cgcreate -g "pids:$rlcg"
echo "set $rlcg records=5/1h records_burst=5" > "$limits"
set +e
cgexec -g "pids:$rlcg" unshare -m bash -c '
	mount --make-rprivate /
	mount -t tmpfs tmpfs /mnt
	mkdir /mnt/log
	mount -t nslogfs nslogfs /mnt/log
	: > /mnt/log/rl
	for i in $(seq 30); do printf "\4rl\0m$i\0" >> /mnt/log/rl; done
	grep " rl " /proc/nslogger/namespaces
	rm /mnt/log/rl'
rl_rc=$?
set -e
rl_line=$(awk -v p="$rlcg" '$1 == p' "$limits")
echo "# $rl_line"
check "writes to a stream were charged to the writer's cgroup" test "$rl_rc" -eq 0
check "... 5 accepted" grep -q " accepted=5 " <<<"$rl_line"
check "... 25 dropped" grep -q " dropped=25 " <<<"$rl_line"
echo "clear $rlcg" > "$limits"
cgdelete -g "pids:$rlcg"

echo "nslogfs.sh: $pass passed, $fail failed (nslogfs_test exit $fs_rc, abi_test exit $abi_rc)"
[ "$fail" -eq 0 ]
