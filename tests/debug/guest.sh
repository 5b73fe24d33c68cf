#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - the guest's half of `make test-debug` (tests/debug/run.sh).
#
# Runs in the debug kernel's guest with nslogger.ko (built with its KUnit
# suites) loaded by the harness, and prints TAP lines:
#   1. the KUnit results: the suites ran when the module was loaded; their
#      KTAP lines are read back from the kernel log, one line per case; then
#      that module is unloaded and $NSLOG_DEBUG_KO, the same sources built
#      without KUnit, loaded in its place for everything after, so that the
#      suites run once rather than at each of the VM suite's loads;
#   2. the VM suite (tests/containers/suite.sh, its default list, or the
#      scenarios in $NSLOG_DEBUG_SCENARIOS);
#   3. the stress driver tests/stress/run.sh, or a SKIP if there is none;
#   4. rmmod, then a kmemleak scan: any suspected leak fails;
#   5. the kernel log: any KASAN, UBSAN, lockdep, WARN, BUG or Oops report
#      fails, each report on a line of its own.
# The module is loaded again at the end for the harness's rmmod check.
# $NSLOG_OUT/dmesg.txt and kmemleak.txt keep the evidence.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${NSLOG_OUT:-/tmp}
# shellcheck source=tests/containers/lib.sh
. "$top/tests/containers/lib.sh"

# count LOG: add the TAP lines of LOG to the totals.
count() {
	local p k f

	p=$(grep -Ec '^ok [^#]*$' "$1")
	k=$(grep -Ec '^ok .*# SKIP' "$1")
	f=$(grep -Ec '^not ok ' "$1")
	pass=$((pass + p))
	skipped=$((skipped + k))
	fail=$((fail + f))
}

# --- 1. KUnit --------------------------------------------------------------

# KTAP as 6.1 prints it for a module: "    # Subtest: SUITE", one
# "    ok N CASE [# SKIP why]" or "    not ok N CASE" per case (parameterized
# cases have their own sub-lines, one level deeper, not counted), then
# "ok N SUITE" at the left margin.
echo "=== kunit (KTAP from the kernel log)"
dmesg -t >"$out/dmesg-kunit.txt" 2>&1
suite=
suites=0
cases=0
while IFS= read -r line; do
	case "$line" in
	"    # Subtest: "*)
		suite=${line#    # Subtest: }
		suites=$((suites + 1))
		;;
	"    ok "*|"    not ok "*)
		[ -n "$suite" ] || continue
		res=${line#    }
		verdict=ok
		[ "${res#not ok }" = "$res" ] || verdict="not ok"
		res=${res#"$verdict" }
		name=${res#* }
		cases=$((cases + 1))
		case "$name" in
		*" # SKIP"*)
			why=${name#* # SKIP}
			skip "kunit $suite.${name%% # SKIP*}" "${why# }"
			;;
		*)
			if [ "$verdict" = ok ]; then
				ok "kunit $suite.$name"
			else
				not_ok "kunit $suite.$name"
			fi
			;;
		esac
		;;
	"ok "*|"not ok "*)
		suite=
		;;
	esac
done <"$out/dmesg-kunit.txt"
if [ -n "${NSLOG_DEBUG_KUNIT:-}" ] && [ "$suites" -eq 0 ]; then
	not_ok "kunit: the module was built with $NSLOG_DEBUG_KUNIT but no suite ran"
fi
echo "# kunit: $suites suites, $cases cases"

# The module without KUnit from here on (tests/debug/run.sh names it): it
# must not run the suites again.
if [ -n "${NSLOG_DEBUG_KO:-}" ]; then
	before=$(dmesg | grep -c '# Subtest: ' || true)
	if ! unload; then
		not_ok "rmmod the KUnit build of nslogger"
	else
		export NSLOG_KO=$NSLOG_DEBUG_KO
		# shellcheck disable=SC2086 # word splitting is wanted
		if ! insmod "$NSLOG_KO" ${NSLOG_PARAMS:-}; then
			not_ok "insmod $NSLOG_KO, the build without KUnit"
		elif [ "$(dmesg | grep -c '# Subtest: ' || true)" -ne "$before" ]; then
			not_ok "the build without KUnit ran KUnit suites"
		fi
	fi
fi

# --- 2. the VM suite ----------------------------------------------------------

echo "=== vm suite"
# Every scenario once through (lib.sh's repeat): the long repetitions (the
# 10,000-namespace and 10,000-cgroup churns, 100 load/unload cycles, 30 s
# floods) run in full on Debian's 6.1 (make test-vm), where they run four to
# five times as many iterations a second and where the memory they must give
# back is measured without KASAN's quarantine.  What this kernel adds,
# KASAN, lockdep, UBSAN and kmemleak, reports a bad access, a lock order or a
# leak the first time the path runs, and every path runs here.
# NSLOG_REPEAT=full tests/debug/run.sh runs the long ones here too.
export NSLOG_REPEAT=${NSLOG_REPEAT:-once}
# The default list, less "stress": step 3 runs tests/stress/run.sh itself.
# (No process substitution: the guest has no /dev/fd.)
list=${NSLOG_DEBUG_SCENARIOS:-$(sed -n 's/^\[ ${#scenarios\[@\]} -gt 0 \] || scenarios=(\(.*\))$/\1/p' \
	"$top/tests/containers/suite.sh")}
echo "# scenarios: $list"
read -r -a scenarios <<<"$list"
for i in "${!scenarios[@]}"; do
	[ "${scenarios[i]}" != stress ] || unset 'scenarios[i]'
done
"$top/tests/containers/suite.sh" "${scenarios[@]}" 2>&1 | tee /tmp/debug-suite.log
rc=${PIPESTATUS[0]}
count /tmp/debug-suite.log
if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' /tmp/debug-suite.log; then
	not_ok "the VM suite exited $rc"
fi

# --- 3. stress -------------------------------------------------------------------

echo "=== stress"
if [ -x "$top/tests/stress/run.sh" ]; then
	"$top/tests/stress/run.sh" 2>&1 | tee /tmp/debug-stress.log
	rc=${PIPESTATUS[0]}
	count /tmp/debug-stress.log
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' /tmp/debug-stress.log; then
		not_ok "tests/stress/run.sh exited $rc"
	fi
else
	skip stress "tests/stress/run.sh does not exist yet"
fi

# --- 4. kmemleak, with the module out ------------------------------------------

echo "=== kmemleak"
unload || not_ok "rmmod nslogger before the kmemleak scan"
krc=0
kmemleak_scan "$out/kmemleak.txt" || krc=$?
if [ "$krc" -eq 2 ]; then
	not_ok "kmemleak: no /sys/kernel/debug/kmemleak (is this the debug kernel?)"
elif [ "$krc" -ne 0 ] || [ -s "$out/kmemleak.txt" ]; then
	not_ok "kmemleak: $(grep -c '^unreferenced object' "$out/kmemleak.txt") suspected leaks"
	head -n 80 "$out/kmemleak.txt" | sed 's/^/#   /'
else
	ok "kmemleak: no suspected leak"
fi
# shellcheck disable=SC2086 # word splitting is wanted
insmod "$NSLOG_KO" ${NSLOG_PARAMS:-} || not_ok "insmod again for the harness"

# --- 5. the kernel log --------------------------------------------------------------

echo "=== kernel log"
dmesg -t >"$out/dmesg.txt" 2>&1
# The first line of each report; lockdep's start with "WARNING:" or "BUG:".
pattern='BUG: |WARNING: |UBSAN: |KASAN: |Oops|general protection fault|'
pattern+='kmemleak: .*(suspected memory leak|disabled)|'
pattern+='inconsistent lock state|possible recursive locking|'
pattern+='possible circular locking|INFO: task .* blocked|'
pattern+='DEBUG_LOCKS_WARN_ON|list_(add|del) corruption'
reports=$(grep -E "$pattern" "$out/dmesg.txt" | sort | uniq -c | sort -rn)
if [ -n "$reports" ]; then
	while IFS= read -r r; do
		not_ok "kernel log: $r"
	done <<<"$reports"
else
	ok "kernel log: no KASAN, UBSAN, lockdep, kmemleak, WARN or BUG report"
fi

wholly=$(sed -n 's/^vm: .*; whole scenarios skipped: //p' /tmp/debug-suite.log)
echo "debug-guest: $pass passed, $fail failed, $skipped skipped${wholly:+; whole scenarios skipped: $wholly}" |
	tee "$out/summary"
[ "$fail" -eq 0 ]
