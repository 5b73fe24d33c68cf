#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - run nslogger's KUnit suites the kernel's own way: kunit.py on UML.
#
#   tests/kunit/run.sh [FILTER_GLOB] [KUNIT_PY_RUN_OPTIONS...]
#
#   tests/kunit/run.sh                            every suite in .kunitconfig
#   tests/kunit/run.sh nslog_ring                 one suite
#   tests/kunit/run.sh 'nslog_ring.*lapped*'      some cases of one suite
#   tests/kunit/run.sh nslog_ring --raw_output=all   with the whole kernel log
#   NSLOG_KUNIT_DEBUG=0 tests/kunit/run.sh        without debug.config
#
# Other arguments go to "kunit.py run" as they are; run.sh itself sets
# --build_dir, --kunitconfig, --json and --jobs.  Environment:
#   NSLOG_KUNIT_DEBUG=0     leave out debug.config (build dir out-nodebug/)
#   NSLOG_KUNIT_JOBS=N      make -jN (default 2)
#   NSLOG_KUNIT_SRC=DIR     link DIR into the tree instead of this checkout
#   NSLOG_KUNIT_TARBALL=F   unpack F instead of Debian's linux-source-6.1
#
# How the tree is set up: in the cache folder outside the clone
# (scripts/cache-dir.sh kunit: /var/cache/nslogger/kunit for root), made on
# the first run and kept, so that a clean clone builds only the project:
#
#   /usr/src/linux-source-6.1.tar.xz --unpack--> CACHE/linux-source-6.1/
#       drivers/nslogger -> <project root>     symlink: the real sources,
#                                              built by the project's Kbuild
#       drivers/Kconfig  += source "drivers/nslogger/Kconfig"
#       drivers/Makefile += obj-$(CONFIG_NSLOG) += nslogger/
#   CACHE/out/               kunit.py's build dir (O=), kept for incremental
#                            builds; out-nodebug/ with NSLOG_KUNIT_DEBUG=0;
#                            its drivers/nslogger/ (the project's objects) is
#                            removed before every run, so they are always
#                            built from the checkout the link points to
#
# One run at a time uses the cache (CACHE/.lock): the link is the run's.
#
# The tree is unpacked again (and the build dirs wiped) only when the
# tarball's checksum differs from the one in linux-source-6.1.stamp.  The
# config is .kunitconfig + uml.config + debug.config (kunit.py concatenates
# repeated --kunitconfig files); every option asked for must be in the
# final .config, or the run fails.  The run also fails if the kernel log
# has a lockdep, KASAN, UBSAN, WARNING or BUG report: in 6.1 only UBSAN
# fails the KUnit case by itself.
#
# Prints kunit.py's results, then "kunit: N passed, N failed, N skipped"
# counted from kunit.py's JSON (a crashed case counts as failed).
# Exit status: 0 only if every test passed and the log is clean.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
root=$(cd "$here/../.." && pwd -P)
# The project tree linked into the kernel; normally this checkout.
src_root=$(cd "${NSLOG_KUNIT_SRC:-$root}" && pwd -P)
tarball=${NSLOG_KUNIT_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
build=$("$root/scripts/cache-dir.sh" kunit)
tree=$build/linux-source-6.1
stamp=$build/linux-source-6.1.stamp
jobs=${NSLOG_KUNIT_JOBS:-2}

kunitconfigs=("$here/.kunitconfig" "$here/uml.config")
if [ "${NSLOG_KUNIT_DEBUG:-1}" = 1 ]; then
	kunitconfigs+=("$here/debug.config")
	out=$build/out
else
	out=$build/out-nodebug
fi

die() {
	echo "run.sh: $*" >&2
	exit 1
}

# --- dependencies -----------------------------------------------------------
if [ -x "$root/scripts/deps.sh" ]; then
	"$root/scripts/deps.sh" kunit
elif [ ! -r "$tarball" ]; then
	die "$tarball not found: install linux-source-6.1 (apt-get install linux-source-6.1)"
fi
[ -r "$tarball" ] || die "$tarball not found although linux-source-6.1 is installed"
for tool in python3 make gcc flex bison bc xz; do
	command -v "$tool" >/dev/null || die "$tool not found (scripts/deps.sh kunit)"
done

# --- the kernel tree, unpacked once per tarball -------------------------------
exec 9>"$build/.lock"
flock 9
sum=$(sha256sum "$tarball")
if [ ! -d "$tree" ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
	echo "run.sh: unpacking $tarball into $tree" >&2
	# Objects built from another tree would look newer than its sources.
	rm -rf "$tree" "$build/unpack" "$build/out" "$build/out-nodebug" "$stamp"
	mkdir "$build/unpack"
	tar -xJf "$tarball" -C "$build/unpack"
	[ -d "$build/unpack/linux-source-6.1" ] ||
		die "$tarball has no linux-source-6.1/ at its top"
	mv "$build/unpack/linux-source-6.1" "$tree"
	rmdir "$build/unpack"
	echo "$sum" >"$stamp"
fi
[ -f "$tree/tools/testing/kunit/kunit.py" ] || die "$tree has no kunit.py"

# --- link the project in (idempotent) ----------------------------------------
link=$tree/drivers/nslogger
if [ "$(readlink "$link" 2>/dev/null || true)" != "$src_root" ]; then
	rm -f "$link"
	ln -s "$src_root" "$link"
fi
add_line() {	# add_line FILE LINE: append LINE unless FILE has it already
	grep -qxF "$2" "$1" || printf '%s\n' "$2" >>"$1"
}
add_line "$tree/drivers/Kconfig" 'source "drivers/nslogger/Kconfig"'
# shellcheck disable=SC2016 # a make variable, for make to expand
add_line "$tree/drivers/Makefile" 'obj-$(CONFIG_NSLOG) += nslogger/'

# The project's objects are this checkout's, never an earlier one's (an
# older clone's objects may look newer than this one's sources).
rm -rf "$out/drivers/nslogger"

# --- run ----------------------------------------------------------------------
json=$out/nslog-results.json
log=$out/test.log
rm -f "$json" "$log"
args=(run --build_dir="$out" --jobs="$jobs" --json="$json")
for k in "${kunitconfigs[@]}"; do
	args+=(--kunitconfig="$k")
done

rc=0
python3 "$tree/tools/testing/kunit/kunit.py" "${args[@]}" "$@" || rc=$?

# Every option asked for must have survived olddefconfig.  kunit.py checks
# this too, but only for the options of its own config and only if it got
# that far; this check says exactly what is missing.
config_ok=1
if [ -f "$out/.config" ]; then
	while IFS= read -r line; do
		case "$line" in
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			grep -Eq "^$opt=[ym]$" "$out/.config" || continue ;;
		CONFIG_*=n)
			grep -Eq "^${line%=n}=[ym]$" "$out/.config" || continue ;;
		CONFIG_*=*)
			grep -qxF "$line" "$out/.config" && continue ;;
		*)
			continue ;;
		esac
		echo "run.sh: not as asked in $out/.config: $line" >&2
		config_ok=0
	done < <(cat "${kunitconfigs[@]}")
else
	echo "run.sh: no $out/.config was generated" >&2
	config_ok=0
fi

# Reports that do not fail a KUnit case by themselves in 6.1: lockdep,
# spinlock debugging, WARN, and KASAN (which fails the case only when
# CONFIG_KASAN_KUNIT_TEST is built in).  UBSAN fails the case itself.
# Each report is named after the case it happened in: KTAP prints a case's
# "ok" line when the case ends.
log_ok=1
report='BUG:|WARNING:|UBSAN:|kernel BUG|Kernel panic|DEBUG_LOCKS_WARN_ON|INFO: possible|INFO: trying to register non-static key|refcount_t:|list_(add|del) corruption'
if [ -f "$log" ] && grep -Eq "$report" "$log"; then
	echo "run.sh: the kernel log has reports:" >&2
	awk -v re="$report" '
		/^ *K?TAP version/ { started = 1 }
		$0 ~ re { hit[++n] = "  " FILENAME ":" FNR ": " $0
			  where[n] = started ? "" : "at boot, before any case" }
		/^ *(not )?ok [0-9]+ / {
			name = $0
			sub(/^ *(not )?ok [0-9]+ (- )?/, "", name)
			for (i = 1; i <= n; i++)
				if (where[i] == "") where[i] = "in " name
		}
		END {
			for (i = 1; i <= n; i++)
				print hit[i] "  [" (where[i] == "" ? "after the last case that ended" : where[i]) "]"
		}' "$log" >&2
	echo "run.sh: first reports in full:" >&2
	awk -v re="$report" '$0 ~ re { left = 25 } left > 0 { print; left--; if (++lines >= 150) exit }' \
		"$log" >&2
	log_ok=0
fi

# Nothing to count when kunit.py was asked not to parse or not to run.
for arg in "$@"; do
	case "$arg" in
	--raw_output*|--list_tests*)
		[ "$rc" -eq 0 ] && [ "$config_ok" -eq 1 ] && [ "$log_ok" -eq 1 ]
		exit ;;
	esac
done

if [ ! -s "$json" ]; then
	echo "run.sh: kunit.py stopped before any test ran (exit $rc)" >&2
	exit 1
fi

# Leaf cases of kunit.py's JSON (the cases of parameterised tests each
# count), as kunit.py counts them: ERROR is a crashed case.
read -r passed failed skipped < <(python3 - "$json" <<'EOF'
import json, sys

counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}

def walk(group):
    for case in group.get("test_cases", []):
        status = case["status"]
        counts[status if status in counts else "FAIL"] += 1
    for sub in group.get("sub_groups", []):
        walk(sub)

with open(sys.argv[1]) as f:
    walk(json.load(f))
print(counts["PASS"], counts["FAIL"], counts["SKIP"])
EOF
)
[ -n "${skipped:-}" ] || die "could not read $json"
echo "kunit: $passed passed, $failed failed, $skipped skipped"

if [ "$rc" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ] ||
   [ "$config_ok" -ne 1 ] || [ "$log_ok" -ne 1 ]; then
	[ "$rc" -eq 0 ] || echo "run.sh: kunit.py exited with $rc" >&2
	exit 1
fi
