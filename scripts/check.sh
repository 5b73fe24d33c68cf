#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - static checks on the module: checkpatch --strict and sparse.
#
#   scripts/check.sh [KVER]
#
# checkpatch.pl comes from Debian's linux-source-6.1 tarball (only the
# script and its data files are unpacked, into build/checkpatch/); sparse
# runs through kbuild with C=2 against the packaged kernel's headers.
# Exit status: 0 only if both are clean.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:-$("$top/scripts/kver.sh")}
tarball=/usr/src/linux-source-6.1.tar.xz
cpdir=$top/build/checkpatch
cp=$cpdir/linux-source-6.1/scripts/checkpatch.pl

"$top/scripts/deps.sh" check build

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

echo "== checkpatch --strict (${#files[@]} files)"
if ! "$cp" --no-tree --strict --terse --show-types --quiet \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "${files[@]}"; then
	status=1
fi

echo "== sparse (C=2) against $kver"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make -C "/lib/modules/$kver/build" M="$top" CONFIG_NSLOG=m C=2 \
	CHECK="sparse -Wno-unknown-attribute" modules >"$log" 2>&1 || status=1
# sparse reports as warnings on stderr; kbuild's own lines are noise here.
if grep -E '(warning|error):' "$log" | grep -v '^make'; then
	status=1
fi

if [ "$status" -eq 0 ]; then
	echo "check: clean"
else
	echo "check: problems found" >&2
fi
exit "$status"
