#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install the Debian packages a part of the project needs.
#
#   scripts/deps.sh GROUP...
#
# Groups:
#   build       build the module against Debian's default kernel: its image
#               and headers, as scripts/kver.sh wants them (kver.sh --packages)
#   vm          boot Debian's kernel under QEMU (tests/containers/vm.sh), the
#               same kernel packages
#   kunit       run the KUnit suites on UML from linux-source-6.1
#   debug       build the debug kernel of make test-debug (linux-source-6.1)
#   check       checkpatch.pl (from linux-source-6.1) and sparse
#   containers  LXC and cgroup tools used by the container tests
#   collector   the real consumers nslog-collector's VM tests ship to:
#               journald (systemd), rsyslog, jq
#   tools       build the user-space tools (libsystemd for the collector,
#               musl-gcc for the static nslogd) and test them (jq checks
#               the JSON lines; clang and its libFuzzer, libclang-rt, build
#               the fuzz harnesses whose corpus make test-host replays)
#   bench       plot benchmark results
#   dkms        install through DKMS (make dkms-install)
#   deb         build the Debian packages (make deb) and install them in a
#               fresh Debian 12 root (make test-deb)
#   reboot      install them in a Debian 12 guest disk and boot it twice
#               under QEMU (make test-reboot)
#   kernel-6.12 Debian's 6.12 kernel and headers (make test-vm-6.12): none
#               if one is installed (scripts/kver.sh 6.12), else the newest
#               6.12.N+deb12-amd64 the archive has
#   sid         make Debian sid's chroot (scripts/sid.sh) and boot its kernel
#   fresh       make a clean Debian 12 root (make test-fresh)
#   all         every group above
#
# Idempotent: each package is checked with dpkg-query, and apt-get runs
# (update once, then one install) only when something is missing. Meant for
# root on Debian 12; as another user it goes through sudo when that exists.
# After build or vm, scripts/kver.sh must name a usable kernel: if it does
# not, the two disagree, and that is an error here rather than later.

set -euo pipefail

usage() {
	# The header comment, from the usage line to the end of the group list.
	echo "usage:" >&2
	sed -n '/^#   scripts\/deps.sh/,/^#   all/s/^# \{0,1\}/ /p' "$0" >&2
	exit 2
}

sudo=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then
	sudo=(sudo)
fi
updated=
kver_sh=$(dirname "$0")/kver.sh

apt_update() {
	[ -z "$updated" ] || return 0
	"${sudo[@]}" apt-get update -q >&2
	updated=1
}

# The newest 6.12 release of Debian 12 the package lists know, e.g.
# 6.12.118+deb12-amd64 (Debian keeps only the last few in the archive).
newest_612() {
	apt-cache pkgnames linux-headers-6.12. 2>/dev/null |
		sed -n 's/^linux-headers-\(6\.12\.[0-9]*+deb12-amd64\)$/\1/p' |
		sort -V | tail -n1
}

kernel_612_pkgs() {
	local v

	v=$("$kver_sh" 6.12 2>/dev/null) || v=$(newest_612)
	if [ -z "$v" ]; then
		apt_update
		v=$(newest_612)
	fi
	if [ -z "$v" ]; then
		echo "deps.sh: no linux-headers-6.12.*+deb12-amd64 in the package lists" >&2
		return 1
	fi
	echo "linux-image-$v linux-headers-$v"
}

group_pkgs() {
	case "$1" in
	build)      echo make gcc kmod bc flex bison libelf-dev libssl-dev
		    "$kver_sh" --packages ;;
	vm)         echo qemu-system-x86 busybox-static cpio util-linux kmod xz-utils
		    "$kver_sh" --packages ;;
	kunit)      echo linux-source-6.1 xz-utils python3 bc flex bison gcc make ;;
	debug)      echo linux-source-6.1 xz-utils bc flex bison gcc make libelf-dev libssl-dev kmod ;;
	check)      echo linux-source-6.1 sparse ;;
	containers) echo lxc cgroup-tools libcgroup-dev uidmap ;;
	collector)  echo systemd rsyslog jq ;;
	tools)      echo gcc make libcgroup-dev libsystemd-dev pkg-config jq musl-tools \
			 clang libclang-rt-14-dev ;;
	bench)      echo gnuplot-nox ;;
	dkms)       echo dkms linux-headers-amd64 ;;
	deb)        echo dpkg-dev debhelper dh-dkms libcgroup-dev libsystemd-dev pkg-config jq musl-tools gcc make debootstrap ;;
	reboot)     echo qemu-system-x86 debootstrap e2fsprogs zstd util-linux ;;
	kernel-6.12) kernel_612_pkgs ;;
	sid)        echo debootstrap util-linux xz-utils ;;
	fresh)      echo debootstrap util-linux git ;;
	all)        local g
		    for g in build vm kunit debug check containers collector tools bench kernel-6.12 sid fresh dkms deb reboot; do
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
	case "$g" in
	build|vm|kunit|debug|check|containers|collector|tools|bench|dkms|deb|reboot|kernel-6.12|sid|fresh|all) ;;
	*) echo "deps.sh: unknown group '$g'" >&2; usage ;;
	esac
	pkgs=$(group_pkgs "$g") || exit 1
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

# kver.sh's kernel must be usable once build or vm is installed.
check_kernel() {
	local g

	for g in "$@"; do
		case "$g" in
		build|vm|all)
			"$kver_sh" >/dev/null && return 0
			echo "deps.sh: $g is installed, yet scripts/kver.sh finds no usable kernel" >&2
			return 1
			;;
		esac
	done
}

if [ ${#missing[@]} -eq 0 ]; then
	echo "deps.sh: $*: all ${#seen[@]} packages present" >&2
	check_kernel "$@"
	exit
fi

if [ "$(id -u)" -ne 0 ] && [ ${#sudo[@]} -eq 0 ]; then
	echo "deps.sh: not root and no sudo; missing: ${missing[*]}" >&2
	exit 1
fi

# make test runs some suites side by side: one apt-get at a time, and the
# ones that waited look again at what is still missing.
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p /run/lock
	exec 7>/run/lock/nslogger-deps.lock
	flock 7
	left=()
	for p in "${missing[@]}"; do
		is_installed "$p" || left+=("$p")
	done
	missing=("${left[@]}")
	if [ ${#missing[@]} -eq 0 ]; then
		check_kernel "$@"
		exit
	fi
fi

echo "deps.sh: installing ${missing[*]}" >&2
apt_update
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
check_kernel "$@"
