#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# abi.sh - the Android logger ABI, in the guest.
#
# Runs in the QEMU guest (tests/containers/vm.sh) as root, with $NSLOG_KO
# pointing at the freshly built module.  Loads it with an 8 KiB radio ring
# for the lapping cases, runs build/tests/abi_test, then checks what only a
# module load can show: parameter validation, the Android node layout, and
# that an open file pins the module.
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/tests
ko=${NSLOG_KO:?NSLOG_KO is not set}

cleanup() { exec 9>&- 2>/dev/null || true; }
trap cleanup EXIT

unload
insmod "$ko" radio_size=8K
udevadm settle 2>/dev/null || true

# The C suite prints its own ok/not ok lines and "N passed, N failed".
set +e
"$bin/abi_test"
abi_rc=$?
set -e

# An open file holds a module reference: rmmod must refuse, then succeed.
exec 9>/dev/log_main
check "rmmod refused while a log is open" bash -c '! rmmod nslogger 2>/dev/null'
exec 9>&-
check "rmmod succeeds once closed" rmmod nslogger

# Sizes: not a power of two, too small, too big, garbage.
for bad in main_size=1000 events_size=4K radio_size=128M system_size=lots; do
	if insmod "$ko" "$bad" 2>/dev/null; then
		not_ok "insmod $bad rejected"
		rmmod nslogger
	else
		ok "insmod $bad rejected"
	fi
done
check "a rejected size is explained in the kernel log" \
	bash -c 'dmesg | grep -q "nslogger: system_size=lots: a log size is a power of two"'

insmod "$ko" main_size=1M system_size=64K
check "main_size=1M gives a 1 MiB ring" \
	env NSLOG_EXPECT_SIZE=1048576 "$bin/abi_test" buf_size_on_any_fd >/dev/null
rmmod nslogger

insmod "$ko" android_nodes=1
check "android_nodes=1 creates /dev/log/main ... /dev/log/system" \
	bash -c 'for l in main events radio system; do [ -c /dev/log/$l ] || exit 1; done'
check "android_nodes=1 nodes work" \
	env NSLOG_ANDROID_NODES=1 "$bin/abi_test" nodes_exist_and_are_not_world_readable \
	one_record_per_read >/dev/null
rmmod nslogger

# Reload as the harness left it, so its own rmmod check still means something.
insmod "$ko"

echo "abi.sh: $pass passed, $fail failed (abi_test exit $abi_rc)"
[ "$fail" -eq 0 ] && [ "$abi_rc" -eq 0 ]
