#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftest.sh - check the test guest itself; needs no module.
#
#   tests/containers/vm.sh -- tests/containers/selftest.sh
#
# Prints TAP ("ok N - ..." / "not ok N - ...") and fails if any check fails.

set -euo pipefail

n=0
failed=0
tmp=

cleanup() {
	[ -z "$tmp" ] || rm -f "$tmp"
}
trap cleanup EXIT

check() {	# DESCRIPTION COMMAND...
	local what=$1

	shift
	n=$((n + 1))
	if "$@" >/dev/null 2>&1; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		failed=$((failed + 1))
	fi
}

in_guest() {
	[ "${NSLOG_VM:-}" = 1 ] && [ "$(uname -r)" = "${NSLOG_KVER:-}" ] &&
		grep -q 'nslog_init=' /proc/cmdline
}

cgroup2_mounted() {
	[ "$(findmnt -n -o FSTYPE /sys/fs/cgroup)" = cgroup2 ] &&
		grep -qw memory /sys/fs/cgroup/cgroup.subtree_control
}

# In fresh user, PID and IPC namespaces we are root, pid 1, and see an IPC
# namespace other than the one we came from.
unshare_works() {
	local outer inner

	outer=$(readlink /proc/self/ns/ipc)
	# shellcheck disable=SC2016 # expanded by the inner shell
	inner=$(unshare --ipc --pid --user --map-root-user --fork --mount-proc \
		sh -c 'echo "$(id -u) $$ $(readlink /proc/self/ns/ipc)"')
	[ "$inner" != "${inner#0 1 ipc:}" ] && [ "${inner#0 1 }" != "$outer" ]
}

out_writable() {
	[ -n "${NSLOG_OUT:-}" ] || return 1
	tmp=$NSLOG_OUT/selftest-$$
	echo "selftest $$" >"$tmp" && [ "$(cat "$tmp")" = "selftest $$" ] &&
		[ "$(findmnt -n -o FSTYPE --target "$NSLOG_OUT")" = 9p ]
}

echo "TAP version 13"
echo "1..6"
check "runs in the guest kernel ${NSLOG_KVER:-?}" in_guest
check "runs as root" test "$(id -u)" = 0
check "/proc/self/ns/ipc exists" test -e /proc/self/ns/ipc
check "cgroup2 on /sys/fs/cgroup with memory delegated" cgroup2_mounted
check "unshare --ipc --pid --user --map-root-user --fork" unshare_works
check "NSLOG_OUT is a writable 9p share" out_writable

[ $failed -eq 0 ] || { echo "# $failed of $n failed"; exit 1; }
