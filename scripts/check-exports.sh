#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-exports.sh - does a built module link on mainline's exports alone?
#
#   scripts/check-exports.sh KO...
#
# Fails if `nm -u KO` names any symbol of scripts/debian-only-exports.txt:
# symbols only Debian's kernels export (for Android's binder and ashmem),
# so a module that needs one loads on Debian's kernels and on no other
# (issue 15). Prints the offending symbols, with the file Debian's 6.1
# exports each from. Run it on the module built for every kernel: which
# symbols a module needs depends on the kernel it was built for.
#
# Exit status: 0 all clean, 1 some module needs a listed symbol, 2 usage
# or a module that cannot be read.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
list=$here/debian-only-exports.txt

if [ $# -eq 0 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
	echo "usage: scripts/check-exports.sh KO..." >&2
	exit 2
fi
command -v nm >/dev/null || { echo "check-exports: nm is missing (binutils)" >&2; exit 2; }
[ -r "$list" ] || { echo "check-exports: no $list" >&2; exit 2; }

# "SYMBOL FILE" for every listed symbol (FILE is "-" where 6.1 has none).
listed=$(sed -e 's/#.*//' "$list" | awk 'NF { print $1, ($2 == "" ? "-" : $2) }')
nlisted=$(echo "$listed" | wc -l)

status=0
for ko in "$@"; do
	if [ ! -r "$ko" ]; then
		echo "check-exports: cannot read $ko" >&2
		status=2
		continue
	fi
	if ! undef=$(nm -u "$ko" | awk '{ print $NF }'); then
		echo "check-exports: nm -u $ko failed" >&2
		status=2
		continue
	fi
	bad=$(echo "$listed" | awk 'NR == FNR { u[$1] = 1; next } ($1 in u)' \
		<(echo "$undef") -)
	if [ -z "$bad" ]; then
		echo "ok - $ko needs none of the $nlisted Debian-only exports"
		continue
	fi
	echo "not ok - $ko needs $(echo "$bad" | wc -l) Debian-only export(s):"
	echo "$bad" | while read -r sym file; do
		if [ "$file" = - ]; then
			echo "  $sym"
		else
			echo "  $sym (Debian's 6.1 exports it from $file)"
		fi
	done
	[ $status = 2 ] || status=1
done
exit $status
