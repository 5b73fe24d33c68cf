#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cache-dir.sh - where the builds that outlive a clone are kept.
#
#   scripts/cache-dir.sh [PART]     print the cache folder (or PART's in it),
#                                   making it if it does not exist
#
# Some things the suites need are large, slow to make and the same for every
# checkout of the project: the debug kernel (10 to 16 min), the UML tree of
# the KUnit suites (3 to 5 min), sid's chroot and the fresh Debian 12 base.
# Inside the clone (build/) every clean clone would make them again, so they
# live here instead, one folder each:
#
#   debug-kernel/   linux-source-6.1 less Debian's exports, and its build
#   kunit/          linux-source-6.1 for UML, and kunit.py's build folders
#   sid/            the debootstrap'd sid chroot
#   fresh/          the minbase Debian 12 tarball of make test-fresh
#
# Each user of a part keys what it keeps by what it was made from (the
# tarball's checksum, the config, the steps), checks it before use and makes
# it again on a mismatch; the project's own sources are never kept here, they
# are built on top each time. `make clean-cache` removes the whole folder.
#
# The folder is $NSLOG_CACHE if set, else /var/cache/nslogger for root and
# ${XDG_CACHE_HOME:-~/.cache}/nslogger for anyone else.
set -euo pipefail

if [ -n "${NSLOG_CACHE:-}" ]; then
	dir=$NSLOG_CACHE
elif [ "$(id -u)" -eq 0 ]; then
	dir=/var/cache/nslogger
else
	dir=${XDG_CACHE_HOME:-$HOME/.cache}/nslogger
fi
[ $# -le 1 ] || { echo "usage: scripts/cache-dir.sh [PART]" >&2; exit 2; }
[ -z "${1:-}" ] || dir=$dir/$1
mkdir -p "$dir"
cd "$dir" && pwd -P
