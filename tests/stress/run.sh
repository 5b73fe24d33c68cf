#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the stress, bad-memory and fault-injection tests, in the guest.
#
# Runs as root in the QEMU guest with nslogger loaded (tests/containers/
# stress.sh on Debian's kernel, tests/debug/guest.sh on the debug kernel):
#   1. build/tests/stress twice: with a fixed seed, then a random one with
#      --nslogfs (each group's files opened through its node or a mount of
#      its set, at random); each prints its seed and the command that
#      replays it;
#   2. build/tests/badmem;
#   3. tests/stress/faults.sh (a SKIP unless the kernel injects faults).
# Prints TAP lines and exits non-zero if any failed.
#
#   NSLOG_STRESS_SECONDS   length of each stress run (default 30; 15 with
#                          NSLOG_REPEAT=once)
#   NSLOG_STRESS_SEED      the fixed seed (default 1)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
bin=$here/../../build/tests
# shellcheck source=tests/containers/lib.sh
. "$here/../containers/lib.sh"
secs=${NSLOG_STRESS_SECONDS:-$(repeat 30 15)}
rc=0

for s in stress badmem faultinj; do
	if [ ! -x "$bin/$s" ]; then
		echo "not ok - $bin/$s is not built (make test-progs)"
		exit 1
	fi
done

# stress SEED-ARGS...: one run, its lines prefixed so two runs can be told apart.
stress() {
	"$bin/stress" --seconds "$secs" "$@" 2>&1 |
		sed -u 's/^\(ok\|not ok\) - /\1 - stress '"${*:+$* }"'/'
	[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
}
echo "# stress, fixed seed"
stress --seed "${NSLOG_STRESS_SEED:-1}"
echo "# stress, random seed, nodes and nslogfs files mixed"
stress --nslogfs

echo "# badmem"
"$bin/badmem" || rc=1

echo "# faults"
"$here/faults.sh" || rc=1

exit $rc
