#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install the Debian packages a part of the project needs.
#
#   scripts/deps.sh GROUP...
#
# Groups:
#   build       build the module against Debian's headers
#   vm          boot Debian's kernel under QEMU (tests/containers/vm.sh)
#   kunit       run the KUnit suites on UML from linux-source-6.1
#   debug       build the debug kernel of make test-debug (linux-source-6.1)
#   check       checkpatch.pl (from linux-source-6.1) and sparse
#   containers  LXC and cgroup tools used by the container tests
#   tools       build the user-space tools
#   bench       plot benchmark results
#   dkms        install through DKMS (make dkms-install)
#   kernel-6.12 Debian's 6.12 kernel and headers (make test-vm-6.12)
#   all         every group above
#
# Idempotent: each package is checked with dpkg-query, and apt-get runs
# (update once, then one install) only when something is missing. Meant for
# root on Debian 12; as another user it goes through sudo when that exists.

set -euo pipefail

usage() {
	# The header comment, from the usage line to the end of the group list.
	echo "usage:" >&2
	sed -n '/^#   scripts\/deps.sh/,/^#   all/s/^# \{0,1\}/ /p' "$0" >&2
	exit 2
}

group_pkgs() {
	case "$1" in
	build)      echo make gcc linux-headers-amd64 kmod bc flex bison libelf-dev libssl-dev ;;
	vm)         echo qemu-system-x86 linux-image-amd64 busybox-static cpio util-linux kmod ;;
	kunit)      echo linux-source-6.1 xz-utils python3 bc flex bison gcc make ;;
	debug)      echo linux-source-6.1 xz-utils bc flex bison gcc make libelf-dev libssl-dev kmod ;;
	check)      echo linux-source-6.1 sparse ;;
	containers) echo lxc cgroup-tools libcgroup-dev uidmap ;;
	tools)      echo gcc make libcgroup-dev ;;
	bench)      echo gnuplot-nox ;;
	dkms)       echo dkms linux-headers-amd64 ;;
	kernel-6.12) echo linux-image-6.12.95+deb12-amd64 linux-headers-6.12.95+deb12-amd64 ;;
	all)        local g
		    for g in build vm kunit debug check containers tools bench kernel-6.12; do
			    group_pkgs "$g"
		    done ;;
	*)          return 1 ;;
	esac
}

is_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

[ $# -gt 0 ] || usage

wanted=()
for g in "$@"; do
	case "$g" in -h|--help) usage ;; esac
	pkgs=$(group_pkgs "$g") || { echo "deps.sh: unknown group '$g'" >&2; usage; }
	# shellcheck disable=SC2206 # word splitting of the package list is wanted
	wanted+=($pkgs)
done

missing=()
declare -A seen=()
for p in "${wanted[@]}"; do
	[ -n "${seen[$p]:-}" ] && continue
	seen[$p]=1
	is_installed "$p" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "deps.sh: $*: all ${#seen[@]} packages present" >&2
	exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo=(sudo)
	else
		echo "deps.sh: not root and no sudo; missing: ${missing[*]}" >&2
		exit 1
	fi
fi

echo "deps.sh: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q --no-install-recommends "${missing[@]}"

still=()
for p in "${missing[@]}"; do
	is_installed "$p" || still+=("$p")
done
if [ ${#still[@]} -ne 0 ]; then
	echo "deps.sh: still missing after install: ${still[*]}" >&2
	exit 1
fi
