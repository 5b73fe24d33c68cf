#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# module-src.sh - copy the module's sources alone to a folder of its own.
#
#   scripts/module-src.sh DEST
#
# The builds against a kernel other than the host's default (the debug
# kernel, sid's) compile a copy with M=DEST, so their objects never mix with
# the in-tree build's. Only sources are copied: Kbuild, Kconfig, VERSION and
# the .c and .h files of src/, include/ and tests/kunit/, never the objects
# or temporary files of a build running in the tree at the same time (make
# test builds the module in the tree while the debug kernel's run starts).
# DEST is emptied first.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: scripts/module-src.sh DEST" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd -P)
dest=$1

mkdir -p "$dest"
rm -rf "${dest:?}"/*
cd "$root"
{
	printf '%s\0' Kbuild Kconfig
	[ ! -f VERSION ] || printf '%s\0' VERSION
	find src include tests/kunit -type f \( -name '*.c' -o -name '*.h' \) -print0
} | xargs -0 cp --parents -t "$dest"
