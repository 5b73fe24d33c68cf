#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kver.sh - print the release of Debian's packaged kernel to test against,
# e.g. 6.1.0-57-amd64.
#
#   scripts/kver.sh             the default kernel (Debian 12's 6.1)
#   scripts/kver.sh 6.12        the newest installed 6.12 LTS kernel of Debian 12
#                               (6.12.N+deb12-amd64) that has its headers
#   scripts/kver.sh --packages  the packages that make the default kernel
#                               usable (scripts/deps.sh build and vm install them)
#
# A usable kernel is one the project can both build against and boot under
# QEMU: its image (/boot/vmlinuz-KVER), its modules (modules.dep: a kernel
# still being installed has none) and its headers (build/Makefile).
# The default kernel is the one the linux-image-amd64 metapackage pulls in,
# and nothing else: not uname -r (the host may run any kernel, often one that
# cannot load modules), and not whatever else happens to be in /boot, so the
# answer depends only on what scripts/deps.sh installs. --packages names the
# metapackages and, once linux-image-amd64 is in, that release's own image
# and headers, so that a headers metapackage held at another version cannot
# leave the kernel without its headers.
# Debian replaces the 6.12 packages with every stable update and the archive
# keeps only the last few, so that series is never pinned to one release:
# scripts/deps.sh kernel-6.12 installs the newest one when none is here.

set -euo pipefail

usable() {
	[ -n "$1" ] && [ -e "/boot/vmlinuz-$1" ] && [ -e "/lib/modules/$1/modules.dep" ] &&
		[ -e "/lib/modules/$1/build/Makefile" ]
}

# The release linux-image-amd64 depends on, installed or not; empty when the
# metapackage is not installed.
default_release() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' linux-image-amd64 2>/dev/null)" = installed ] ||
		return 0
	# Depends looks like "linux-image-6.1.0-57-amd64 (= 6.1.192-3)".
	dpkg-query -W -f='${Depends}' linux-image-amd64 |
		tr ',|' '\n' |
		sed -n 's/^ *linux-image-\([0-9][^ ]*\).*/\1/p' | head -n1
}

if [ "${1:-}" = --packages ] && [ $# -eq 1 ]; then
	kver=$(default_release)
	echo linux-image-amd64 linux-headers-amd64 ${kver:+linux-image-$kver linux-headers-$kver}
	exit 0
fi

if [ $# -gt 0 ]; then
	if [ "$1" != 6.12 ] || [ $# -ne 1 ]; then
		echo "usage: scripts/kver.sh [6.12|--packages]" >&2
		exit 2
	fi
	for k in $(find /boot -maxdepth 1 -name 'vmlinuz-6.12.*+deb12-amd64' -printf '%f\n' 2>/dev/null |
		   sed 's/^vmlinuz-//' | sort -rV); do
		if usable "$k"; then
			echo "$k"
			exit 0
		fi
	done
	echo "kver.sh: no Debian 6.12 kernel with headers (scripts/deps.sh kernel-6.12 installs one)" >&2
	exit 1
fi

kver=$(default_release)
if [ -z "$kver" ]; then
	echo "kver.sh: linux-image-amd64 is not installed (scripts/deps.sh build installs it)" >&2
	exit 1
fi
if ! usable "$kver"; then
	echo "kver.sh: $kver is not whole: it needs /boot/vmlinuz-$kver, /lib/modules/$kver/modules.dep" \
		"and its headers (scripts/deps.sh build installs them)" >&2
	exit 1
fi
echo "$kver"
