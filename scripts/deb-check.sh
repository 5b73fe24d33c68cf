#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-check.sh - install the Debian packages in a fresh Debian 12 root, and
# make install from the same sources there (make test-deb).
#
#   scripts/deb-check.sh     test build/deb/*.deb (scripts/deb-build.sh)
#
# Each step is timed; each check prints "ok N - ..." or "not ok N - ...",
# and the last line is "N passed, N failed" (exit status 1 if any failed):
#
#   1. debootstrap --variant=minbase bookworm, made anew every run
#   2. apt-get install ./*.deb, as a user would (with Recommends: dkms pulls
#      in linux-headers-amd64 and the compiler), and pkgconf for the checks
#   3. the packages' files, the log group, the units enabled, DKMS's module
#      for the root's kernel, the tools, a program built with
#      pkg-config libnslog, Android code built with pkg-config liblog
#   4. apt-get install --reinstall nslogger-dkms: the module is rebuilt
#   5. apt-get purge of the four packages: nothing of them is left
#   6. make install and make uninstall from the packages' sources
#   7. make dkms-install twice, the sources changed in between: the second
#      module replaces the first; make uninstall removes it
#
# A chroot's uname -r is the host's kernel, which the root does not have;
# DKMS then builds for no kernel when a package is installed, unless told
# to build for every kernel of the root (autoinstall_all_kernels, as in
# /etc/dkms/framework.conf), which apt-get is given in its environment.
# Likewise KVER= is given to make install. Nothing runs the module: the
# VM test does (a booted guest, later).
#
# Everything lives in build/deb-check/: root/ (800 MB, removed when every
# check passed, else kept until the next run), cache/ (debootstrap's and
# apt's downloads, 150 MB, kept), check.log (every command's output).
# Needs root. Environment:
#   NSLOG_DEB_MIRROR=URL   the Debian archive (default http://deb.debian.org/debian)

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
project=$(cd "$here/.." && pwd -P)
debs=$project/build/deb
work=$project/build/deb-check
root=$work/root
cache=$work/cache
log=$work/check.log
mirror=${NSLOG_DEB_MIRROR:-http://deb.debian.org/debian}
packages=(nslogger-dkms nslogger-tools libnslog0 libnslog-dev)

case "${1:-}" in
"") ;;
*)
	sed -n '/^#   scripts\/deb-check.sh/,/^#   scripts\/deb-check.sh/s/^# \{0,1\}/ /p' "$0" >&2
	exit 2 ;;
esac

say() {
	echo "deb-check: $*" >&2
}

die() {
	say "$*"
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
version=$(cat "$project/VERSION")
src=$debs/nslogger-$version
for p in "${packages[@]}"; do
	ls "$debs/${p}_${version}_"*.deb >/dev/null 2>&1 ||
		die "no $p $version in build/deb (make deb)"
done
[ -d "$src" ] || die "no $src (make deb)"

# in_root CMD...: CMD in the root, in a mount namespace of its own with
# /proc, /sys, /dev, a fresh /tmp and apt's cache; output to check.log.
in_root() {
	echo "# $*" >>"$log"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private /bin/bash -c '
		set -e
		root=$1 cache=$2
		shift 2
		mount -t proc proc "$root/proc"
		mount -t sysfs -o ro sysfs "$root/sys"
		mount --rbind /dev "$root/dev"
		mount -t tmpfs tmpfs "$root/tmp"
		mkdir -p "$cache/apt" "$root/var/cache/apt/archives"
		mount --bind "$cache/apt" "$root/var/cache/apt/archives"
		exec chroot "$root" /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
			"$@"
	' deb-check "$root" "$cache" "$@" >>"$log" 2>&1
}

# sh_root SCRIPT: a shell script in the root, its output to check.log.
sh_root() {
	in_root /bin/sh -ec "$1"
}

passed=0
failed=0
n=0

# check DESCRIPTION SCRIPT: SCRIPT (sh -e, in the root) must succeed.
check() {
	n=$((n + 1))
	if sh_root "$2"; then
		passed=$((passed + 1))
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		echo "#   see ${log#"$project"/}, after '# /bin/sh -ec ...' for this check"
	fi
}

t_start=$(date +%s)
t_step=$t_start

# step NAME: print how long the last step took, start the next.
step() {
	local now

	now=$(date +%s)
	if [ -n "${step_name:-}" ]; then
		say "$step_name: $((now - t_step)) s"
	fi
	t_step=$now
	step_name=$1
	echo "# $1" | tee -a "$log"
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

"$here/deps.sh" deb
mkdir -p "$work" "$cache/debootstrap"
: >"$log"

step "1. debootstrap --variant=minbase bookworm"
remove_root
unshare -m --propagation private \
	debootstrap --variant=minbase --cache-dir="$cache/debootstrap" \
	bookworm "$root" "$mirror" >>"$log" 2>&1 ||
	die "debootstrap failed (${log#"$project"/})"

step "2. apt-get install ./*.deb (with Recommends)"
mkdir -p "$root/debs"
for p in "${packages[@]}"; do
	cp "$debs/${p}_${version}_"*.deb "$root/debs/"
done
sh_root 'apt-get update -q' || die "apt-get update failed in the root"
n=$((n + 1))
if sh_root 'cd /debs && autoinstall_all_kernels=1 apt-get install -y -q ./*.deb pkgconf'; then
	passed=$((passed + 1))
	echo "ok $n - apt-get install ./*.deb in a fresh bookworm root"
else
	failed=$((failed + 1))
	echo "not ok $n - apt-get install ./*.deb in a fresh bookworm root"
	tail -n 30 "$log" >&2
	die "the packages do not install; nothing else to check"
fi

# The root's kernel: the one whose headers linux-headers-amd64 brought
# (lib/modules/KREL/build is a link to them, absolute in the root).
krel=$(cd "$root/lib/modules" && for k in *; do
	if [ -e "$root/usr/src/linux-headers-$k/Makefile" ]; then echo "$k"; fi
done | sort -V | tail -n1)
[ -n "$krel" ] || die "no kernel headers in the root"
say "the root's kernel: $krel"

step "3. what the packages installed"
check "the four packages are installed, at $version" "
	for p in ${packages[*]}; do
		test \"\$(dpkg-query -W -f='\${db:Status-Status} \${Version}' \$p)\" = 'installed $version'
	done"
check "dkms status: nslogger/$version installed for $krel" "
	dkms status -m nslogger | tee /dev/stderr |
		grep -qx 'nslogger/$version, $krel, x86_64: installed'"
check "the module DKMS built is version $version, for $krel" "
	ko=\$(ls /lib/modules/$krel/updates/dkms/nslogger.ko*)
	test \"\$(modinfo -F version \$ko)\" = $version
	modinfo -F vermagic \$ko | grep -q '^$krel '
	grep -q '^updates/dkms/nslogger.ko' /lib/modules/$krel/modules.dep"
check "DKMS's sources: /usr/src/nslogger-$version with dkms.conf at $version" "
	grep -qx 'PACKAGE_VERSION=\"$version\"' /usr/src/nslogger-$version/dkms.conf
	! grep -q '^CLEAN' /usr/src/nslogger-$version/dkms.conf || exit 1
	grep -q '^BUILD_EXCLUSIVE_KERNEL=' /usr/src/nslogger-$version/dkms.conf"
check "the log group has gid 1007" "
	getent group log | tee /dev/stderr | grep -q '^log:x:1007:'"
check "nslogger-limits.service is enabled: wanted by log_main's device" "
	test -L /etc/systemd/system/sys-devices-virtual-misc-log_main.device.wants/nslogger-limits.service"
check "nslog-collector.service is enabled too; its output drop-in a conffile, all comments" "
	test -L /etc/systemd/system/sys-devices-virtual-misc-log_main.device.wants/nslog-collector.service
	grep -qx 'ExecStart=/usr/sbin/nslog-collector \$NSLOG_COLLECTOR_OPTIONS' /lib/systemd/system/nslog-collector.service
	dpkg-query -W -f='\${Conffiles}\n' nslogger-tools | grep -q ' /etc/systemd/system/nslog-collector.service.d/output.conf '
	! grep -v '^#' /etc/systemd/system/nslog-collector.service.d/output.conf | grep -q . || exit 1
	nslog-collector --help >/dev/null"
check "nslog-syslogd.service is enabled too; nslog-syslogd runs" "
	test -L /etc/systemd/system/sys-devices-virtual-misc-log_main.device.wants/nslog-syslogd.service
	grep -qx 'ExecStart=/usr/sbin/nslog-syslogd \$NSLOG_SYSLOGD_OPTIONS' /lib/systemd/system/nslog-syslogd.service
	nslog-syslogd --help >/dev/null"
check "udev rule, modules-load.d, sysusers.d, the unit; modprobe.d a conffile" "
	grep -q 'GROUP=\"log\", MODE=\"0662\"' /lib/udev/rules.d/60-nslogger.rules
	grep -qx nslogger /usr/lib/modules-load.d/nslogger.conf
	grep -qx 'g log 1007' /usr/lib/sysusers.d/nslogger.conf
	grep -qx 'ExecStart=/usr/sbin/nslogctl apply --watch' /lib/systemd/system/nslogger-limits.service
	dpkg-query -W -f='\${Conffiles}\n' nslogger-tools | grep -q ' /etc/modprobe.d/nslogger.conf '
	test -d /etc/nslogger/limits.d"
check "man pages: nslog(1), nslogcat(1), nslogctl(8), nslog-collector(8), nslogd(8), nslog-syslogd(8), nslogger(4)" "
	ls /usr/share/man/man1/nslog.1.gz /usr/share/man/man1/nslogcat.1.gz \
	   /usr/share/man/man8/nslogctl.8.gz /usr/share/man/man8/nslog-collector.8.gz \
	   /usr/share/man/man8/nslogd.8.gz /usr/share/man/man8/nslog-syslogd.8.gz \
	   /usr/share/man/man4/nslogger.4.gz"
check "nslogd: in /usr/lib/nslogger, static, not in PATH, runs" "
	test -x /usr/lib/nslogger/nslogd
	if command -v nslogd; then exit 1; fi
	readelf -lW /usr/lib/nslogger/nslogd >/tmp/nslogd.ph
	if grep -q INTERP /tmp/nslogd.ph; then exit 1; fi
	/usr/lib/nslogger/nslogd --version | grep -qx 'nslogd $version'"
check "nslog writes a record (to a regular file standing in for the device)" "
	mkdir /tmp/dev && : >/tmp/dev/main
	NSLOG_DEV_DIR=/tmp/dev nslog -t T hello
	printf '\\004T\\000hello\\000' | cmp - /tmp/dev/main"
check "nslogctl apply --dry-run reads /etc/nslogger/limits.d" "
	echo 'set --unit foo records=10/s' >/etc/nslogger/limits.d/50-test.conf
	mkdir -p /tmp/cg/system.slice/foo.service
	NSLOG_CGROUP_DIR=/tmp/cg nslogctl apply --dry-run | tee /dev/stderr |
		grep -qx '/etc/nslogger/limits.d/50-test.conf:1: set /system.slice/foo.service records=10/s'
	rm /etc/nslogger/limits.d/50-test.conf"
check "a program built with pkg-config libnslog runs against libnslog.so.0" "
	test \"\$(pkg-config --modversion libnslog)\" = $version
	cat >/tmp/t.c <<-'EOF'
	#include <android/log.h>
	#include <linux/nslogger.h>
	int main(void)
	{
		return __android_log_write(ANDROID_LOG_WARN, \"T\", \"x\") == 5 ? 0 : 1;
	}
	EOF
	gcc -o /tmp/t /tmp/t.c \$(pkg-config --cflags --libs libnslog)
	objdump -p /tmp/t | grep -q 'NEEDED *libnslog.so.0'
	mkdir -p /tmp/d && : >/tmp/d/main
	NSLOG_DEV_DIR=/tmp/d /tmp/t
	printf '\\005T\\000x\\000' | cmp - /tmp/d/main"
check "Android code built with pkg-config liblog runs against liblog.so.0" "
	test \"\$(pkg-config --modversion liblog)\" = $version
	cat >/tmp/a.c <<-'EOF'
	#define LOG_TAG \"A\"
	#include <log/log.h>
	int main(void)
	{
		ALOGW(\"n=%d\", 1);
		return 0;
	}
	EOF
	gcc -o /tmp/a /tmp/a.c \$(pkg-config --cflags --libs liblog)
	objdump -p /tmp/a | grep -q 'NEEDED *liblog.so.0'
	mkdir -p /tmp/e && : >/tmp/e/main
	NSLOG_DEV_DIR=/tmp/e /tmp/a
	printf '\\005A\\000n=1\\000' | cmp - /tmp/e/main"

step "4. apt-get install --reinstall nslogger-dkms"
check "reinstalled: the module is removed and built again" "
	cd /debs
	autoinstall_all_kernels=1 apt-get install -y -q --reinstall ./nslogger-dkms_${version}_all.deb
	dkms status -m nslogger | grep -qx 'nslogger/$version, $krel, x86_64: installed'
	test \"\$(modinfo -F version /lib/modules/$krel/updates/dkms/nslogger.ko*)\" = $version"

step "5. apt-get purge"
check "purged: no module, no DKMS registration, no files but the log group" "
	apt-get purge -y -q ${packages[*]}
	test -z \"\$(dkms status -m nslogger)\"
	! ls /lib/modules/$krel/updates/dkms/nslogger.ko* 2>/dev/null || exit 1
	! grep -q nslogger /lib/modules/$krel/modules.dep || exit 1
	! ls -d /usr/src/nslogger-* 2>/dev/null || exit 1
	! ls /etc/modprobe.d/nslogger.conf /lib/udev/rules.d/60-nslogger.rules \
	     /usr/sbin/nslogctl /usr/lib/x86_64-linux-gnu/libnslog.so.0 \
	     /usr/lib/nslogger/nslogd \
	     /usr/lib/x86_64-linux-gnu/liblog.so.0 2>/dev/null || exit 1
	! test -e /etc/nslogger || exit 1
	! test -e /etc/systemd/system/sys-devices-virtual-misc-log_main.device.wants/nslogger-limits.service || exit 1
	! test -e /etc/systemd/system/sys-devices-virtual-misc-log_main.device.wants/nslog-collector.service || exit 1
	! test -e /etc/systemd/system/sys-devices-virtual-misc-log_main.device.wants/nslog-syslogd.service || exit 1
	! test -e /etc/systemd/system/nslog-collector.service.d || exit 1
	getent group log"

step "6. make install and make uninstall from the sources"
mkdir -p "$root/root/nslogger"
(cd "$src" && tar --exclude=./debian --exclude=./build -cf - .) |
	(cd "$root/root/nslogger" && tar -xf -)
sh_root 'apt-get install -y -q --no-install-recommends make gcc libcgroup-dev libsystemd-dev pkg-config musl-tools' ||
	die "cannot install make, gcc, libcgroup-dev, libsystemd-dev and musl-tools in the root"
check "make install KVER=$krel: no apt-get, files in /usr/local and the module in extra/" "
	cd /root/nslogger
	make install KVER=$krel >/tmp/install.log 2>&1 || { cat /tmp/install.log; exit 1; }
	cat /tmp/install.log
	! grep -q 'deps.sh' /tmp/install.log || exit 1
	test \"\$(modinfo -F version /lib/modules/$krel/extra/nslogger.ko)\" = $version
	grep -q '^extra/nslogger.ko' /lib/modules/$krel/modules.dep
	ls /usr/local/bin/nslog /usr/local/bin/nslogcat /usr/local/sbin/nslogctl \
	   /usr/local/sbin/nslog-collector /usr/local/lib/nslogger/nslogd \
	   /usr/local/lib/libnslog.so.0 /usr/local/lib/pkgconfig/libnslog.pc \
	   /usr/local/lib/liblog.so.0 /usr/local/lib/pkgconfig/liblog.pc \
	   /usr/local/include/nslog/log/log.h \
	   /usr/local/include/nslog/android/log.h /usr/local/include/linux/nslogger.h \
	   /usr/local/share/man/man8/nslogctl.8 /usr/local/share/man/man8/nslog-collector.8 \
	   /usr/local/share/man/man8/nslogd.8 /usr/local/share/man/man8/nslog-syslogd.8 \
	   /usr/local/sbin/nslog-syslogd /usr/local/lib/systemd/system/nslog-syslogd.service \
	   /usr/local/lib/udev/rules.d/60-nslogger.rules \
	   /usr/local/lib/systemd/system/nslogger-limits.service \
	   /usr/local/lib/systemd/system/nslog-collector.service \
	   /etc/systemd/system/nslog-collector.service.d/output.conf \
	   /usr/local/lib/modules-load.d/nslogger.conf /etc/modprobe.d/nslogger.conf
	grep -qx 'ExecStart=/usr/local/sbin/nslogctl apply --watch' \
		/usr/local/lib/systemd/system/nslogger-limits.service
	grep -qx 'ExecStart=/usr/local/sbin/nslog-collector \$NSLOG_COLLECTOR_OPTIONS' \
		/usr/local/lib/systemd/system/nslog-collector.service
	ldconfig -p | grep -q 'libnslog.so.0 .*/usr/local/lib/libnslog.so.0'
	/usr/local/sbin/nslogctl --help >/dev/null"
check "make uninstall KVER=$krel: no file left, modules.dep without it" "
	cd /root/nslogger
	make uninstall KVER=$krel
	! ls /lib/modules/$krel/extra/nslogger.ko 2>/dev/null || exit 1
	! grep -q nslogger /lib/modules/$krel/modules.dep || exit 1
	test -z \"\$(find /usr/local /etc/modprobe.d /etc/nslogger /etc/systemd/system -type f -o -type l 2>/dev/null | grep -i nslog)\""

step "7. make dkms-install, twice"
check "make dkms-install KVER=$krel: installed for $krel" "
	cd /root/nslogger
	make dkms-install KVER=$krel
	dkms status -m nslogger | grep -qx 'nslogger/$version, $krel, x86_64: installed'
	modinfo -F srcversion /lib/modules/$krel/updates/dkms/nslogger.ko* >/tmp/srcversion.1"
check "make dkms-install again after a change: the new module replaces the old" "
	cd /root/nslogger
	echo '/* changed */' >>src/main.c
	make dkms-install KVER=$krel
	dkms status -m nslogger | grep -qx 'nslogger/$version, $krel, x86_64: installed'
	modinfo -F srcversion /lib/modules/$krel/updates/dkms/nslogger.ko* >/tmp/srcversion.2
	! cmp -s /tmp/srcversion.1 /tmp/srcversion.2 || exit 1"
check "make uninstall: the DKMS registration and sources are gone" "
	cd /root/nslogger
	make uninstall KVER=$krel
	test -z \"\$(dkms status -m nslogger)\"
	! ls -d /usr/src/nslogger-* 2>/dev/null || exit 1
	! ls /lib/modules/$krel/updates/dkms/nslogger.ko* 2>/dev/null || exit 1"

step "done"
say "total: $(($(date +%s) - t_start)) s"
if [ "$failed" -eq 0 ]; then
	remove_root
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
