#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sid.sh - Debian sid's kernel, the newest Debian ships, from a chroot.
#
#   scripts/sid.sh root        make the chroot (or reuse it), print its dir
#   scripts/sid.sh update      bring the chroot's packages up to date (a new
#                              sid kernel, a new gcc), print the kernel release
#   scripts/sid.sh krel        print sid's kernel release, e.g. 7.2.13+deb14-amd64
#   scripts/sid.sh module [MAKE_ARGS...]
#                              build nslogger.ko against sid's headers inside
#                              the chroot (W=1, and MAKE_ARGS such as C=2),
#                              print the .ko's path
#   scripts/sid.sh vm-args     print "--kernel IMAGE --moddir DIR" for
#                              tests/containers/vm.sh
#   scripts/sid.sh env         print KREL=, KERNEL=, MODDIR=, KO= lines
#   scripts/sid.sh versions    print what the chroot was made with
#   scripts/sid.sh run CMD...  run CMD in the chroot, in the project folder
#
# sid's headers want sid's gcc, so the module is built in a debootstrap'd sid
# chroot and never on the host, whose apt sources stay Debian 12's only. The
# kernel boots under QEMU like Debian 12's (tests/containers/vm.sh --kernel
# --moddir); the guest's userland is still the host's, over 9p.
#
# The chroot is the same for every checkout, so it lives outside the clone,
# in the cache folder (scripts/cache-dir.sh sid: /var/cache/nslogger/sid for
# root); the module is the checkout's own:
#
#   CACHE/root/         the chroot (debootstrap --variant=minbase sid), with
#                       linux-image-amd64 (/boot/vmlinuz-KREL and its
#                       lib/modules/KREL, .ko.xz), linux-headers-amd64, gcc
#   CACHE/root.key      what root/ was made from; another key makes it anew
#   CACHE/versions      the versions of the packages that matter, and times
#   build/sid/nslogger-src/   a copy of the module's sources, built with M=
#                       there as a user would build them, so the objects of
#                       the host's builds in the tree stay as they are
#   build/ko-sid/nslogger.ko  the result of "module"
#
# A command runs in the chroot inside its own mount namespace (unshare -m):
# /proc, /dev, a fresh /tmp and the project (read-only, at the same path; only
# nslogger-src/ is writable) are mounted there and vanish with it, so nothing
# is left mounted on the host whatever happens.
#
# The chroot is made once (about 1 min and 1.1 GB with a near mirror) and kept
# until root.key changes; sid moves on every day, and "update" follows it,
# by itself once the chroot is NSLOG_SID_MAX_DAYS old (an update that fails
# keeps the chroot as it was, and says so).
# Environment:
#   NSLOG_SID_MIRROR=URL   the Debian archive (default http://deb.debian.org/debian)
#   NSLOG_SID_MAX_DAYS=N   update a chroot this many days old (default 7)

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
project=$(cd "$here/.." && pwd -P)
sid=$("$here/cache-dir.sh" sid)
root=$sid/root
msrc=$project/build/sid/nslogger-src
kodir=$project/build/ko-sid
mirror=${NSLOG_SID_MIRROR:-http://deb.debian.org/debian}
# What a module build needs. linux-image-amd64 depends on some initramfs
# generator; tiny-initramfs is the smallest (vm.sh makes its own initramfs).
packages=(linux-image-amd64 linux-headers-amd64 tiny-initramfs gcc make libelf-dev kmod sparse)
# Part of the key: change it when make_root builds differently.
root_steps=1

say() {
	echo "sid: $*" >&2
}

die() {
	say "$*"
	exit 1
}

key() {
	printf '%s\n' "debootstrap --variant=minbase sid $mirror" \
		"packages ${packages[*]}" "steps $root_steps"
}

# chroot_run [-w DIR] CMD...: CMD in the chroot (under nice), in its own
# mount namespace, with cwd the project (read-only there but for DIR).
chroot_run() {
	local rw=

	if [ "${1:-}" = -w ]; then
		rw=$2
		shift 2
	fi
	# shellcheck disable=SC2016 # expanded by the inner shell
	nice -n 10 unshare -m --propagation private /bin/bash -c '
		set -e
		root=$1 project=$2 rw=$3
		shift 3
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		mount -t tmpfs tmpfs "$root/tmp"
		mkdir -p "$root$project"
		mount --bind "$project" "$root$project"
		mount -o remount,bind,ro "$root$project"
		if [ -n "$rw" ]; then
			mount --bind "$rw" "$root$rw"
		fi
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
			DEBIAN_FRONTEND=noninteractive \
			/bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$project" "$@"
	' sid-chroot "$root" "$project" "$rw" "$@"
}

# apt-get in the chroot; its output goes to apt.log, and the end of that to
# stderr when it fails.
apt_in_root() {
	echo "# apt-get $*" >>"$sid/apt.log"
	chroot_run apt-get -q -y "$@" >>"$sid/apt.log" 2>&1 && return 0
	tail -n 20 "$sid/apt.log" >&2
	die "apt-get $* failed in the chroot ($sid/apt.log)"
}

record_versions() {
	local t0=$1 t1=$2 what=$3

	{
		echo "$what $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((t1 - t0)) s, $(du -sh "$root" | cut -f1)"
		dpkg-query --admindir="$root/var/lib/dpkg" -W \
			-f='${db:Status-Abbrev} ${Package} ${Version}\n' "${packages[@]}" \
			'linux-image-[0-9]*' 'linux-headers-[0-9]*' 'gcc-[0-9]*' libc6 binutils \
			pahole 2>/dev/null | awk '$1 == "ii" { print $2, $3 }' | sort -u
	} >"$sid/versions"
}

# Refuses to delete a root that has anything mounted below it.
remove_root() {
	[ -e "$root" ] || return 0
	if awk -v r="$root/" 'index($5 "/", r) == 1 { found = 1 } END { exit !found }' \
	       /proc/self/mountinfo; then
		die "something is mounted below $root; not removing it"
	fi
	rm -rf --one-file-system "$root"
}

make_root() {
	local t0 t1

	"$here/deps.sh" sid
	say "making the sid chroot in $root (debootstrap, then ${packages[*]})"
	t0=$(date +%s)
	rm -f "$sid/root.key" "$sid/apt.log"
	remove_root
	# In a mount namespace of its own: whatever debootstrap mounts goes
	# with it, even when it fails half-way.
	nice -n 10 unshare -m --propagation private \
		debootstrap --variant=minbase sid "$root" "$mirror" >"$sid/debootstrap.log" 2>&1 ||
		die "debootstrap failed ($sid/debootstrap.log)"
	# sid's Release may be past its Valid-Until on a mirror that lags.
	cat >"$root/etc/apt/apt.conf.d/90nslogger" <<-'EOF'
	// written by scripts/sid.sh
	Acquire::Check-Valid-Until "false";
	APT::Install-Recommends "false";
	EOF
	apt_in_root update
	apt_in_root install "${packages[@]}"
	t1=$(date +%s)
	record_versions "$t0" "$t1" made
	key >"$sid/root.key"
	say "made in $((t1 - t0)) s ($(du -sh "$root" | cut -f1)); kernel $(krel)"
}

# The chroot, made or checked under the lock that every command holds.
ensure_root() {
	if [ -s "$sid/root.key" ] && [ "$(cat "$sid/root.key")" = "$(key)" ] &&
	   [ -x "$root/usr/bin/make" ]; then
		if [ -n "$(find "$sid/versions" -mtime +"${NSLOG_SID_MAX_DAYS:-7}" 2>/dev/null)" ]; then
			say "the chroot is over ${NSLOG_SID_MAX_DAYS:-7} days old: updating it"
			( update_root ) || say "the update failed: going on with the chroot as it was"
		fi
		return 0
	fi
	make_root
}

update_root() {
	local t0 t1

	t0=$(date +%s)
	apt_in_root update
	apt_in_root install "${packages[@]}"
	apt_in_root upgrade
	# The kernels sid has moved past.
	apt_in_root autoremove --purge
	t1=$(date +%s)
	record_versions "$t0" "$t1" updated
}

# sid's kernel release, from what linux-image-amd64 depends on, as
# scripts/kver.sh does on the host; it must be whole: image, modules.dep
# and headers.
krel() {
	local k

	k=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Depends}' linux-image-amd64 |
	    tr ',|' '\n' | sed -n 's/^ *linux-image-\([0-9][^ ]*\).*/\1/p' | head -n1)
	[ -n "$k" ] || die "linux-image-amd64 in the chroot names no kernel"
	[ -r "$root/boot/vmlinuz-$k" ] || die "no /boot/vmlinuz-$k in the chroot"
	[ -r "$root/lib/modules/$k/modules.dep" ] || die "no modules.dep for $k in the chroot"
	[ -r "$root/lib/modules/$k/build/Makefile" ] || die "no headers for $k in the chroot"
	echo "$k"
}

build_module() {
	local k=$1

	shift
	mkdir -p "$msrc" "$kodir"
	# A failed build must not leave the last good module behind.
	rm -f "$kodir/nslogger.ko"
	"$here/module-src.sh" "$msrc"
	say "building nslogger.ko against $k"
	chroot_run -w "$msrc" \
		make -C "/lib/modules/$k/build" M="$msrc" CONFIG_NSLOG=m W=1 "$@" \
		modules >&2
	cp "$msrc/nslogger.ko" "$kodir/nslogger.ko"
	echo "$kodir/nslogger.ko"
}

cmd=${1:-}
case "$cmd" in
root|update|krel|module|vm-args|env|run) ;;
versions)
	[ -s "$sid/versions" ] || die "no chroot yet (scripts/sid.sh root)"
	cat "$sid/versions"
	exit 0
	;;
*)
	echo "usage:" >&2
	sed -n '/^#   scripts\/sid.sh root/,/^#   scripts\/sid.sh run/s/^#//p' "$0" >&2
	exit 2
	;;
esac
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
shift

mkdir -p "$sid"
exec 9>"$sid/.lock"
flock 9
ensure_root

case "$cmd" in
root)
	echo "$root"
	;;
update)
	update_root
	krel
	;;
krel)
	krel
	;;
module)
	build_module "$(krel)" "$@"
	;;
vm-args)
	k=$(krel)
	echo "--kernel $root/boot/vmlinuz-$k --moddir $root/lib/modules/$k"
	;;
env)
	k=$(krel)
	echo "KREL=$k"
	echo "KERNEL=$root/boot/vmlinuz-$k"
	echo "MODDIR=$root/lib/modules/$k"
	echo "KO=$kodir/nslogger.ko"
	;;
run)
	[ $# -gt 0 ] || die "run needs a command"
	chroot_run "$@"
	;;
esac
