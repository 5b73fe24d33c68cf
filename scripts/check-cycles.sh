#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-cycles.sh - fail if the given objects call each other in a circle.
#
#   scripts/check-cycles.sh OBJ...
#
# For each pair of objects, A -> B when A.o has an undefined symbol that
# B.o defines (nm). tsort(1) orders those edges; if it finds a loop, the
# loop is printed, each step with the symbols it takes, and the exit
# status is 1. 0 when the objects form no circle, 2 on a usage error.
#
# Any set of ELF objects will do: a program's, a library's, or the
# kernel module's (make -C tools check runs it over each program and
# liblog). Archives are not taken apart: name their members.

set -euo pipefail

if [ $# -eq 0 ]; then
	echo "usage: $0 OBJ..." >&2
	exit 2
fi
# Each object once, however often it is named.
declare -A seen=()
objs=()
for o in "$@"; do
	[ -f "$o" ] || { echo "$0: $o: no such file" >&2; exit 2; }
	[ -n "${seen[$o]:-}" ] && continue
	seen[$o]=1
	objs+=("$o")
done

tmp=$(mktemp -d /tmp/check-cycles.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# "symbol object" for every global symbol an object defines, and for
# every one it leaves undefined.
for o in "${objs[@]}"; do
	nm -P --defined-only --extern-only "$o" |
		awk -v o="$o" '{ print $1, o }' >>"$tmp/def"
	nm -P --undefined-only "$o" |
		awk -v o="$o" '{ print $1, o }' >>"$tmp/undef"
done

# "user definer symbol": one line per symbol that crosses objects.
sort -k1,1 "$tmp/def" -o "$tmp/def"
sort -k1,1 "$tmp/undef" -o "$tmp/undef"
join "$tmp/undef" "$tmp/def" | awk '$2 != $3 { print $2, $3, $1 }' \
	>"$tmp/uses"

# Every object is a node, even one with no edge.
{
	for o in "${objs[@]}"; do
		echo "$o $o"
	done
	awk '{ print $1, $2 }' "$tmp/uses" | sort -u
} >"$tmp/edges"

if tsort "$tmp/edges" >/dev/null 2>"$tmp/err"; then
	exit 0
fi

# tsort names each loop's members, one "tsort: OBJ" line each, after a
# "tsort: ...: input contains a loop:" line.
echo "check-cycles: the objects call each other in a circle:"
awk '/input contains a loop/ { n++; print "loop " n ":"; next }
     { sub(/^tsort: /, ""); print "  " $0 }' "$tmp/err"
echo "check-cycles: the calls between the loops' members:"
sed -n 's/^tsort: \([^ ]*\)$/\1/p' "$tmp/err" | sort -u >"$tmp/members"
awk 'NR == FNR { in_loop[$1] = 1; next }
     in_loop[$1] && in_loop[$2] { print "  " $1 " -> " $2 " (" $3 ")" }' \
	"$tmp/members" "$tmp/uses"
exit 1
