#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# faults.sh - allocation failures injected into nslogger, in the guest.
#
# Needs a kernel with CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB,
# CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAULT_INJECTION_DEBUG_FS (the debug
# kernel of `make test-debug`; Debian's stock kernel has none of them, and
# then every case is a loud SKIP).  Runs as root with the module loaded.
#
#   1. failslab and fail_page_alloc are told to consider sleeping, highmem
#      and order-0 allocations, with probability 0: only an armed
#      /proc/thread-self/fail-nth fails anything, so one system call of one
#      process is disturbed at a time;
#   2. build/tests/faultinj fails, one by one, every allocation of: an open
#      in a new namespace, a reader's open, the first write (the ring),
#      NSLOG_IOC_OPEN_NS and a rate rule, checking clean errors and the state
#      after each; and checks that a 3000-byte write into an existing ring
#      allocates nothing at all;
#   3. nothing leaks: the namespace and rule lists are back to what they
#      were, and with kmemleak a scan finds nothing of nslogger's;
#   4. the kernel log: allocation-failure reports (warn_alloc's stack dumps)
#      are expected here and would make the harness call the kernel dirty,
#      so when the log holds nothing else they are saved to
#      $NSLOG_OUT/faults-dmesg.txt and the log is cleared; any other report
#      fails.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/tests
dbg=/sys/kernel/debug
out=${NSLOG_OUT:-/tmp}
# shellcheck source=tests/containers/lib.sh
. "$top/tests/containers/lib.sh"
skip_all() {
	echo "ok - fault injection # SKIP $*"
	echo "faults.sh: 0 passed, 0 failed, 1 skipped"
	exit 0
}

[ -d $dbg/failslab ] || mount -t debugfs none $dbg 2>/dev/null
for f in $dbg/failslab $dbg/fail_page_alloc /proc/thread-self/fail-nth; do
	[ -e "$f" ] || skip_all "this kernel has no $f" \
		"(needs CONFIG_FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_DEBUG_FS: the debug kernel)"
done
grep -q '^nslogger ' /proc/modules || { not_ok "nslogger is not loaded"; exit 1; }

# Knobs as they were, to put back.
declare -A saved
knobs=(probability interval times space verbose task-filter ignore-gfp-wait)
for a in failslab fail_page_alloc; do
	for k in "${knobs[@]}"; do
		saved[$a/$k]=$(cat "$dbg/$a/$k")
	done
done
saved[fail_page_alloc/ignore-gfp-highmem]=$(cat $dbg/fail_page_alloc/ignore-gfp-highmem)
saved[fail_page_alloc/min-order]=$(cat $dbg/fail_page_alloc/min-order)
saved_grace=$(cat /sys/module/nslogger/parameters/ns_grace_ms)
restore() {
	for key in "${!saved[@]}"; do
		echo "${saved[$key]}" >"$dbg/$key" 2>/dev/null
	done
	echo "$saved_grace" >/sys/module/nslogger/parameters/ns_grace_ms
}
trap restore EXIT

for a in failslab fail_page_alloc; do
	echo 0 >$dbg/$a/probability
	echo 1 >$dbg/$a/interval
	echo -1 >$dbg/$a/times
	echo 0 >$dbg/$a/space
	echo 0 >$dbg/$a/verbose
	echo N >$dbg/$a/task-filter
	echo N >$dbg/$a/ignore-gfp-wait
done
echo N >$dbg/fail_page_alloc/ignore-gfp-highmem
echo 0 >$dbg/fail_page_alloc/min-order

# Dead namespaces' sets go at once, so the lists can be compared.
echo 0 >/sys/module/nslogger/parameters/ns_grace_ms
nss() { grep -vc '^#' /proc/nslogger/namespaces 2>/dev/null; }
rules() { grep -c . /proc/nslogger/limits 2>/dev/null; }
# The reaper takes a set some passes after its namespace died (two dead
# readings an RCU grace period apart), and marks it dead at the first: let
# a namespace that died just before this see a pass or two, then wait
# until no set is dead, so that the baseline holds no set on its way out.
nodead() { ! grep -Eq '^[0-9]+ [0-9]+ dead ' /proc/nslogger/namespaces; }
sleep 3
wait_for_s=60 wait_for nodead || echo "# faults.sh: a dead set is still listed for the baseline"
ns_before=$(nss)
rules_before=$(rules)
# A mark in the kernel log where the faults begin.  (Counting lines would
# not do: after the KUnit output of a few loads the log buffer is full, and
# each new line pushes an old one out.)
mark="faults.sh: faults begin, pid $$"
echo "$mark" >/dev/kmsg

set +e
"$bin/faultinj"
rc=$?
[ "$rc" -eq 0 ] || echo "# faultinj exited $rc"
# faultinj's own lines are counted by the caller; only failures matter here.
[ "$rc" -eq 0 ] || fail=$((fail + 1))

# faultinj's namespaces died with its children and itself: wait for the
# reaper to take their sets, a minute at most, not for a fixed time.
back() { [ "$(nss)" = "$ns_before" ] && [ "$(rules)" = "$rules_before" ]; }
wait_for_s=60 wait_for back || true
if [ "$(nss)" = "$ns_before" ]; then
	ok "namespace sets back to $ns_before after the faults"
else
	not_ok "namespace sets: $ns_before before, $(nss) after"
	sed 's/^/#   /' /proc/nslogger/namespaces
fi
if [ "$(rules)" = "$rules_before" ]; then
	ok "rate rules back to $rules_before after the faults"
else
	not_ok "rate rules: $rules_before before, $(rules) after"
fi

# Earlier suspects are not this test's: only new ones count.
[ -w $dbg/kmemleak ] && echo clear >$dbg/kmemleak
krc=0
kmemleak_scan "$out/faults-kmemleak.txt" || krc=$?
if [ "$krc" -eq 2 ]; then
	skip "kmemleak scan after the faults" "no $dbg/kmemleak"
elif [ "$krc" -ne 0 ] || grep -q 'nslog' "$out/faults-kmemleak.txt"; then
	not_ok "kmemleak: nslogger objects leaked"
	head -n 60 "$out/faults-kmemleak.txt" | sed 's/^/#   /'
else
	ok "kmemleak: nothing of nslogger's among $(grep -c '^unreferenced object' "$out/faults-kmemleak.txt") suspects"
fi

# The kernel log: what the faults printed, and nothing else.  The report
# patterns are those of tests/debug/guest.sh.
dmesg >"$out/faults-dmesg.txt"
reports='BUG: |WARNING: |UBSAN: |KASAN: |Oops|general protection fault|'
reports+='kmemleak: .*suspected memory leak|inconsistent lock state|'
reports+='possible recursive locking|possible circular locking|'
reports+='DEBUG_LOCKS_WARN_ON|list_(add|del) corruption'
if grep -Eq "$reports" "$out/faults-dmesg.txt"; then
	not_ok "kernel log: a report during or before the faults (left in the log)"
	grep -E "$reports" "$out/faults-dmesg.txt" | head -n 20 | sed 's/^/#   /'
else
	ok "kernel log: no report besides allocation failures"
	# Stack dumps not right after an allocation failure's first line.
	other=$(awk '/page allocation failure|vmalloc error/ { last = NR }
		/Call Trace/ && (!last || NR - last > 6) { n++ }
		END { print n + 0 }' "$out/faults-dmesg.txt")
	# Counted from the mark, or over the whole log if the faults' own
	# reports have pushed the mark out.
	expected=$(awk -v mark="$mark" '
		index($0, mark) { n = 0; next }
		/page allocation failure|vmalloc error/ { n++ }
		END { print n + 0 }' "$out/faults-dmesg.txt")
	if [ "$other" -eq 0 ] && [ "$expected" -gt 0 ]; then
		echo "# faults.sh: $expected allocation-failure reports, saved in $out/faults-dmesg.txt; clearing the log"
		dmesg -C
	elif [ "$expected" -gt 0 ]; then
		echo "# faults.sh: $other stack dumps in the log are not allocation failures: log left as it is"
	fi
fi

echo "faults.sh: $pass passed, $fail failed (faultinj exit $rc)"
[ "$fail" -eq 0 ]
