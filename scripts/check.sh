#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - static checks on the module: checkpatch --strict and sparse.
#
#   scripts/check.sh [KVER|sid ...]
#
# checkpatch.pl comes from Debian's linux-source-6.1 tarball (only the
# script and its data files are unpacked, into build/checkpatch/); sparse
# runs through kbuild with C=2 and W=1 against each kernel's headers: by
# default Debian 12's 6.12, sid's newest (in its chroot, scripts/sid.sh)
# and Debian 12's default (6.1), or the ones given ("sid" for sid's).
# Then scripts/check-cycles.sh over the module's objects: no circle of
# calls among src/'s files. Each of these is one check; the last line is "check: N passed, N failed"
# (make test counts it). Exit status: 0 only if all are clean.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# The packages first: the default kernel may not be installed yet.
"$top/scripts/deps.sh" check build
kver=$("$top/scripts/kver.sh")
# The kernels to check against: the arguments, or every supported one.
if [ $# -gt 0 ]; then
	kvers=("$@")
else
	"$top/scripts/deps.sh" kernel-6.12 sid
	kvers=("$(${top}/scripts/kver.sh 6.12)" sid "$kver")
fi
tarball=/usr/src/linux-source-6.1.tar.xz
cpdir=$top/build/checkpatch
cp=$cpdir/linux-source-6.1/scripts/checkpatch.pl

if [ ! -x "$cp" ] || [ "$tarball" -nt "$cp" ]; then
	rm -rf "$cpdir"
	mkdir -p "$cpdir"
	tar -C "$cpdir" -xJf "$tarball" \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

cd "$top"
mapfile -t files < <(git ls-files 'src/*.[ch]' 'src/**/*.[ch]' 'include/*.h' \
	'include/**/*.h' 'tests/kunit/*.c' | sort -u)
status=0
passed=0
failed=0
# verdict NAME RC: count one check.
verdict() {
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok - $1"
	else
		failed=$((failed + 1))
		status=1
		echo "not ok - $1"
	fi
}

echo "== checkpatch --strict (${#files[@]} files)"
rc=0
"$cp" --no-tree --strict --terse --show-types --quiet \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "${files[@]}" || rc=1
verdict "checkpatch --strict" "$rc"

sparse_args=(C=2 CHECK="sparse -Wno-unknown-attribute")
# sparse_report NAME LOG: sparse's warnings in LOG (kbuild's own lines are
# noise here); 1 if there are any.
sparse_report() {
	if grep -E '(warning|error):' "$2" | grep -v '^make'; then
		echo "$1: problems" >&2
		return 1
	fi
	echo "$1: clean"
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for k in "${kvers[@]}"; do
	echo "== sparse (C=2) and W=1 against $k"
	rc=0
	if [ "$k" = sid ]; then
		"$top/scripts/sid.sh" module "${sparse_args[@]}" >/dev/null 2>"$log" || rc=1
	else
		make -C "/lib/modules/$k/build" M="$top" CONFIG_NSLOG=m W=1 \
			"${sparse_args[@]}" modules >"$log" 2>&1 || rc=1
	fi
	[ "$rc" -eq 0 ] || tail -n 20 "$log"
	sparse_report "$k" "$log" || rc=1
	verdict "sparse and W=1 against $k" "$rc"
done
# The object files are the last kernel's: leave a module for the default.
if [ "${kvers[-1]}" != "$kver" ]; then
	rc=0
	make -C "/lib/modules/$kver/build" M="$top" CONFIG_NSLOG=m W=1 modules \
		>/dev/null 2>&1 || rc=1
	verdict "the module built again for $kver" "$rc"
fi

# No two of the module's files call each other, directly or round a
# circle (scripts/check-cycles.sh over the objects just built).
echo "== call circles among src/'s objects"
rc=0
mapfile -t objs < <(git ls-files 'src/*.c' 'src/**/*.c' | sed 's/\.c$/.o/' | sort -u)
scripts/check-cycles.sh "${objs[@]}" || rc=1
verdict "no call circle among src/'s objects" "$rc"

echo "check: $passed passed, $failed failed"
exit "$status"
