#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kver.sh - print the release of Debian's packaged kernel to test against,
# e.g. 6.1.0-57-amd64.
#
#   scripts/kver.sh          the default kernel (Debian 12's 6.1)
#   scripts/kver.sh 6.12     the newest installed 6.12 LTS kernel of Debian 12
#                            (6.12.N+deb12-amd64) that has its headers
#
# The host may run any kernel (often one that cannot load modules), so this
# never looks at uname -r. It asks the linux-image-amd64 metapackage which
# kernel it pulls in and, failing that, takes the newest /boot/vmlinuz-*-amd64.
# Either way the kernel must be fully there: its image and its modules.dep
# (a kernel still being installed has neither the one nor the other).
# Debian replaces the 6.12 packages with every stable update and the archive
# keeps only the last few, so that series is never pinned to one release:
# scripts/deps.sh kernel-6.12 installs the newest one when none is here.

set -euo pipefail

usable() {
	[ -n "$1" ] && [ -e "/boot/vmlinuz-$1" ] && [ -e "/lib/modules/$1/modules.dep" ]
}

if [ $# -gt 0 ]; then
	if [ "$1" != 6.12 ] || [ $# -ne 1 ]; then
		echo "usage: scripts/kver.sh [6.12]" >&2
		exit 2
	fi
	for k in $(find /boot -maxdepth 1 -name 'vmlinuz-6.12.*+deb12-amd64' -printf '%f\n' 2>/dev/null |
		   sed 's/^vmlinuz-//' | sort -rV); do
		if usable "$k" && [ -e "/lib/modules/$k/build/Makefile" ]; then
			echo "$k"
			exit 0
		fi
	done
	echo "kver.sh: no Debian 6.12 kernel with headers (scripts/deps.sh kernel-6.12 installs one)" >&2
	exit 1
fi

kver=
if [ "$(dpkg-query -W -f='${db:Status-Status}' linux-image-amd64 2>/dev/null)" = installed ]; then
	# Depends looks like "linux-image-6.1.0-57-amd64 (= 6.1.192-3)".
	kver=$(dpkg-query -W -f='${Depends}' linux-image-amd64 |
	       tr ',|' '\n' |
	       sed -n 's/^ *linux-image-\([0-9][^ ]*\).*/\1/p' | head -n1)
	usable "$kver" || kver=
fi

if [ -z "$kver" ]; then
	for k in $(find /boot -maxdepth 1 -name 'vmlinuz-*-amd64' -printf '%f\n' 2>/dev/null |
		   sed 's/^vmlinuz-//' | sort -rV); do
		if usable "$k"; then
			kver=$k
			break
		fi
	done
fi

if [ -z "$kver" ]; then
	echo "kver.sh: no Debian kernel found (scripts/deps.sh vm installs one)" >&2
	exit 1
fi
echo "$kver"
