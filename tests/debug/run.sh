#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - `make test-debug`: every VM test on a KASAN/UBSAN/lockdep/kmemleak
# kernel.
#
#   tests/debug/run.sh [--quick]
#
# 1. scripts/debug-kernel.sh module: the debug kernel (built once, cached
#    under build/debug-kernel/) and nslogger.ko built against it twice: with
#    the project's KUnit suites (build/ko-debug/kunit/nslogger.ko) and
#    without (build/ko-debug/nslogger.ko);
# 2. one VM boot (tests/containers/vm.sh --kernel) that runs
#    tests/debug/guest.sh: the KUnit suites (run when the harness loads the
#    first module, once: the guest then loads the second, as the VM suite
#    loads and unloads it some 40 times), the VM suite,
#    tests/stress/run.sh, a kmemleak scan after rmmod, and a check of the
#    whole kernel log for KASAN, UBSAN, lockdep, kmemleak, WARN and BUG
#    reports. panic_on_warn is off, so one report does not hide the next;
#    the RCU stall timeout is 300 s, as under TCG this kernel spends some
#    30 s in ACPI's interpreter at boot and would report a false stall.
#
# --quick is a reduced run: the KUnit suites, the abi and lifecycle scenarios
# (5 load/unload cycles), stress runs of 10 s, badmem and the fault
# injection, kmemleak and the log check, about 6 min. The whole run, which
# `make test` does, took 1643 s of VM time under TCG (docs/reliability.md).
#
# Ends with "debug: N passed, N failed, N skipped"; a harness failure (a
# timeout, a dirty kernel the guest did not report, no result) counts as
# one failure. Environment: NSLOG_DEBUG_TIMEOUT (seconds, default 3600),
# NSLOG_DEBUG_MEM (default 2G), NSLOG_DEBUG_SCENARIOS (the VM scenarios to
# run instead of the whole suite; the run is then labelled with them), and
# those of scripts/debug-kernel.sh.
# The evidence stays in build/debug-kernel/results/: dmesg.txt,
# kmemleak.txt, console.log.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
root=$(cd "$here/../.." && pwd -P)
results=$root/build/debug-kernel/results
t0=$(date +%s)
mode=full
if [ "${1:-}" = --quick ]; then
	mode=quick
	export NSLOG_DEBUG_SCENARIOS="abi lifecycle"
	export NSLOG_LIFECYCLE_CYCLES=5
	export NSLOG_STRESS_SECONDS=10
elif [ $# -gt 0 ]; then
	echo "usage: tests/debug/run.sh [--quick]" >&2
	exit 2
elif [ -n "${NSLOG_DEBUG_SCENARIOS:-}" ]; then
	mode="scenarios: $NSLOG_DEBUG_SCENARIOS"
fi

"$root/scripts/debug-kernel.sh" module >/dev/null
eval "$("$root/scripts/debug-kernel.sh" env)"
# The KUnit options the module was built with, for the guest to expect.
NSLOG_DEBUG_KUNIT=$(sed -n 's/^config \(NSLOG_[A-Z0-9_]*KUNIT[A-Z0-9_]*\)$/CONFIG_\1/p' \
	"$root/Kconfig" | tr '\n' ' ')
export NSLOG_DEBUG_KUNIT
t1=$(date +%s)

rm -rf "$results"
mkdir -p "$results"
rc=0
# The guest swaps the KUnit build for the plain one after reading KUnit's
# results.
export NSLOG_DEBUG_KO=$KO
"$root/tests/containers/vm.sh" --kernel "$KERNEL" --moddir "$MODDIR" --ko "$KUNIT_KO" \
	--mem "${NSLOG_DEBUG_MEM:-2G}" --timeout "${NSLOG_DEBUG_TIMEOUT:-3600}" \
	--append "panic_on_warn=0 rcupdate.rcu_cpu_stall_timeout=300" --log "$results/console.log" --out "$results" \
	-- "$here/guest.sh" || rc=$?
t2=$(date +%s)

pass=0 fail=0 skip=0
summary=$(cat "$results/summary" 2>/dev/null || true)
if [[ "$summary" =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped ]]; then
	pass=${BASH_REMATCH[1]}
	fail=${BASH_REMATCH[2]}
	skip=${BASH_REMATCH[3]}
else
	echo "not ok - the guest left no summary (vm.sh exit $rc)"
	fail=1
fi
if [ "$rc" -ne 0 ] && { [ "$rc" -ne 1 ] || [ "$fail" -eq 0 ]; }; then
	echo "not ok - vm.sh exit $rc (121 insmod, 122 rmmod, 123 dirty kernel, 124 timeout, 125 no result)"
	fail=$((fail + 1))
fi
echo "debug ($mode): $KREL, build/check $((t1 - t0)) s, VM $((t2 - t1)) s; evidence in ${results#"$root"/}/"
wholly=
[[ "$summary" != *"whole scenarios skipped: "* ]] ||
	wholly="; whole scenarios skipped: ${summary##*whole scenarios skipped: }"
echo "debug: $pass passed, $fail failed, $skip skipped$wholly"
[ "$fail" -eq 0 ]
