#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reboot.sh - the Debian packages across a reboot, in a Debian 12 guest that
# boots its own kernel, initramfs and systemd under QEMU (make test-reboot).
#
#   tests/install/reboot.sh [--timeout SECS] [--mem SIZE] [--keep-root]
#
# Every phase is timed:
#
#   1. base: debootstrap --variant=minbase bookworm with systemd, udev, kmod,
#      linux-image-amd64, linux-headers-amd64, dkms, gcc, make, util-linux
#      and what the packages depend on; set up to boot from /dev/vda with a
#      small initramfs of its own. Cached as build/reboot/base-KEY.tar.zst,
#      KEY a hash of the package list and of make_base() below: a rerun
#      downloads nothing (the .debs debootstrap fetched are kept in
#      build/reboot/cache/ too, for when the list changes).
#   2. image: the base, build/deb/*.deb (make deb) in /root/nslogger/debs,
#      reboot-guest.sh as /usr/local/sbin/nslogger-reboot-test and the unit
#      that runs it once per boot, made into build/reboot/disk.raw (ext4,
#      mkfs.ext4 -d: no loop mount).
#   3. boot 1: QEMU (TCG) boots the image's /boot/vmlinuz and initrd with
#      root=/dev/vda, no network. The unit installs the packages offline
#      with apt-get (DKMS builds the module there, for that kernel),
#      declares rate-limit rules in /etc/nslogger/limits.d and reboots.
#   4. boot 2: the same QEMU, the same kernel; the unit checks the module,
#      the nodes, the log group, nslogger-limits.service, the rules on a
#      service running before the module was loaded and on services
#      started after boot, containers (new IPC namespaces, one of them
#      rootless) started after boot, and powers off. reboot-guest.sh
#      lists it all.
#
# The verdict, from the console (build/reboot/console.log): the guest's TAP
# lines ("ok - ..." / "not ok - ..."), and the host's own: exactly two boots,
# each boot's test ran to its end and the console has every check it
# counted, no oops, BUG, WARN or panic on the console, the guest powered off
# before --timeout (default 1500 s, for both boots). The last line is
# "reboot: N passed, N failed"; the exit status is 1 if any failed.
#
# Needs root (debootstrap, chroot), qemu-system-x86_64, debootstrap and
# mkfs.ext4 (scripts/deps.sh reboot); zstd compresses the cached base if
# installed.
# --keep-root keeps the image's tree in build/reboot/root. Environment:
#   NSLOG_DEB_MIRROR=URL   the Debian archive (default http://deb.debian.org/debian)
#   NSLOG_VM_ACCEL         QEMU's -accel (default tcg,thread=multi)

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
project=$(cd "$here/../.." && pwd -P)
debdir=$project/build/deb
work=$project/build/reboot
cache=$work/cache
root=$work/root
disk=$work/disk.raw
console=$work/console.log
log=$work/reboot.log
mirror=${NSLOG_DEB_MIRROR:-http://deb.debian.org/debian}
packages=(nslogger-dkms nslogger-tools libnslog0 libnslog-dev)
timeout=1500
mem=1536M
keep_root=0

usage() {
	sed -n '/^#   tests\/install\/reboot.sh/p' "$0" | sed 's/^#  */usage: /' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	--timeout)	[ $# -ge 2 ] || usage; timeout=$2; shift ;;
	--mem)		[ $# -ge 2 ] || usage; mem=$2; shift ;;
	--keep-root)	keep_root=1 ;;
	*)		usage ;;
	esac
	shift
done
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || usage

say() {
	echo "reboot: $*" >&2
}

die() {
	say "$*"
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
for t in qemu-system-x86_64 debootstrap mkfs.ext4 dpkg-deb timeout; do
	command -v "$t" >/dev/null || die "$t is missing (scripts/deps.sh reboot)"
done
version=$(cat "$project/VERSION")
debs=()
for p in "${packages[@]}"; do
	found=("$debdir/${p}_${version}_"*.deb)
	[ -e "${found[0]}" ] || die "no $p $version in build/deb (make deb)"
	debs+=("${found[0]}")
done

mkdir -p "$work" "$cache"
exec 9>"$work/.lock"
flock -n 9 || die "another reboot.sh runs on $work"
: >"$log"

qemu_pid=
# shellcheck disable=SC2317 # called from the trap
cleanup() {
	local rc=$?

	trap - EXIT INT TERM
	if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill -TERM "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	rm -rf --one-file-system "$work/base.tmp"
	if [ "$keep_root" = 0 ]; then
		rm -rf --one-file-system "$root"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'say interrupted; exit 130' INT TERM

t_start=$(date +%s)
declare -A took=()
# phase NAME: start timing NAME; phase_end NAME: stop it.
phase() { took[$1]=$(date +%s); }
phase_end() { took[$1]=$(($(date +%s) - took[$1])); }

# ---------------------------------------------------------------------------
# 1. The base root.

# What the packages need at run time: the first of each alternative of
# their Depends, without the packages themselves (an offline install has
# only what the image holds; Recommends are not installed).
deb_depends() {
	local f

	for f in "${debs[@]}"; do
		dpkg-deb -f "$f" Depends
	done | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:any//; s/[[:space:]]//g' |
		grep -vxE "$(IFS='|'; echo "${packages[*]}")|" | sort -u
}

mapfile -t base_pkgs < <({
	printf '%s\n' systemd systemd-sysv udev kmod linux-image-amd64 \
		linux-headers-amd64 dkms gcc make util-linux
	deb_depends
} | sort -u)

# make_base DIR: the guest's root in DIR. Its text is part of the cache key.
make_base() {
	local dir=$1

	unshare -m --propagation private debootstrap --variant=minbase \
		--include="$(IFS=,; echo "${base_pkgs[*]}")" --cache-dir="$cache" \
		bookworm "$dir" "$mirror"
	echo nslogger-guest >"$dir/etc/hostname"
	printf '127.0.1.1\tnslogger-guest\n' >>"$dir/etc/hosts"
	echo '/dev/vda / ext4 errors=remount-ro 0 1' >"$dir/etc/fstab"
	# An initramfs that only mounts the root from virtio-blk: 36 MB less
	# to load and unpack at each boot than MODULES=most.
	sed -i 's/^MODULES=.*/MODULES=list/' "$dir/etc/initramfs-tools/initramfs.conf"
	printf '%s\n' virtio_pci virtio_blk ext4 crc32c_generic \
		>>"$dir/etc/initramfs-tools/modules"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private sh -ec \
		'mount -t proc proc "$1/proc"; chroot "$1" update-initramfs -u -k all' \
		sh "$dir"
	# Nothing at boot but the test: no timers (apt-daily would take
	# dpkg's lock in the middle of the install), no login on the console.
	rm -f "$dir"/etc/systemd/system/timers.target.wants/*
	ln -sf /dev/null "$dir/etc/systemd/system/serial-getty@ttyS0.service"
	# The guest has no network: no package lists, no downloads.
	rm -f "$dir"/var/cache/apt/archives/*.deb "$dir"/var/cache/apt/*.bin
	find "$dir/var/lib/apt/lists" -maxdepth 1 -type f ! -name lock -delete
}

zext=tar
tar_z=()
if command -v zstd >/dev/null; then
	zext=tar.zst
	tar_z=(-I 'zstd -T0 -3')
fi
key=$({ echo bookworm; printf '%s\n' "${base_pkgs[@]}"; declare -f make_base; } |
	sha256sum | cut -c1-16)
base=$work/base-$key.$zext

phase base
if [ -s "$base" ]; then
	say "1. base: cached, ${base#"$project"/}"
else
	say "1. base: debootstrap bookworm (${#base_pkgs[@]} packages asked for) ..."
	rm -rf --one-file-system "$work/base.tmp"
	make_base "$work/base.tmp" >>"$log" 2>&1 || {
		tail -n 20 "$log" >&2
		die "debootstrap failed (${log#"$project"/})"
	}
	tar "${tar_z[@]}" -C "$work/base.tmp" -cf "$base.tmp" .
	mv -f "$base.tmp" "$base"
	rm -rf --one-file-system "$work/base.tmp"
	find "$work" -maxdepth 1 -name 'base-*.tar*' ! -name "${base##*/}" -delete
fi
phase_end base
say "1. base: ${took[base]} s"

# ---------------------------------------------------------------------------
# 2. The image.

phase image
rm -rf --one-file-system "$root"
mkdir -p "$root"
tar "${tar_z[@]}" -C "$root" -xf "$base"
mkdir -p "$root/root/nslogger/debs"
cp "${debs[@]}" "$root/root/nslogger/debs/"
cp "$project/VERSION" "$root/root/nslogger/VERSION"
install -m 0755 "$here/reboot-guest.sh" "$root/usr/local/sbin/nslogger-reboot-test"
cat >"$root/etc/systemd/system/nslogger-reboot-test.service" <<'EOF'
# tests/install/reboot.sh: the test, once per boot.
[Unit]
Description=nslogger reboot test
# Late in the boot: after multi-user.target (which, without this, would
# order itself after a unit it wants) and after the limits watcher.
DefaultDependencies=no
Requires=sysinit.target
After=multi-user.target nslogger-limits.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/nslogger-reboot-test
StandardOutput=tty
StandardError=inherit
TTYPath=/dev/console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOF
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/nslogger-reboot-test.service \
	"$root/etc/systemd/system/multi-user.target.wants/"

kernels=("$root"/lib/modules/*)
[ ${#kernels[@]} = 1 ] || die "the base has ${#kernels[@]} kernels in /lib/modules, not one"
krel=${kernels[0]##*/}
if [ ! -r "$root/boot/vmlinuz-$krel" ] || [ ! -r "$root/boot/initrd.img-$krel" ]; then
	die "no /boot/vmlinuz-$krel and initrd.img-$krel in the base"
fi
cp "$root/boot/vmlinuz-$krel" "$root/boot/initrd.img-$krel" "$work/"
rm -f "$disk"
mkfs.ext4 -q -F -L root -d "$root" "$disk" 3G >>"$log" 2>&1 ||
	die "mkfs.ext4 -d failed (${log#"$project"/})"
[ "$keep_root" = 1 ] || rm -rf --one-file-system "$root"
phase_end image
say "2. image: ${took[image]} s ($krel; $(du -m "$disk" | cut -f1) MB used of 3 GB)"

# ---------------------------------------------------------------------------
# 3. and 4. The boots.

# The TSC's rate, when the host knows it exactly (as tests/containers/vm.sh
# does): the guest's own measurement goes wrong when the host is busy.
tsc_khz=$(awk -F': *' '
	$1 ~ /^flags/ { known = / tsc_known_freq( |$)/; aperf = / aperfmperf( |$)/ }
	$1 ~ /^cpu MHz/ { mhz = $2 }
	/^$/ { exit }
	END { if (known && !aperf && mhz > 0) printf "%d", mhz * 1000; else print 0 }
' /proc/cpuinfo)
# watchdog_thresh=60: a soft lockup is reported after 120 s instead of 20;
# under TCG on a busy host a vCPU that is not scheduled for 20 s is
# reported as locked up (seen at boot, before any module was loaded). A
# real one still is, well within --timeout, and a hang fails by --timeout.
cmdline="root=/dev/vda rw console=ttyS0 tsc=reliable watchdog_thresh=60"
[ "$tsc_khz" = 0 ] || cmdline+=" tsc_early_khz=$tsc_khz"
bios=()
[ ! -e /usr/share/qemu/qboot.rom ] || bios=(-bios qboot.rom)
# x86-64-v2, not -cpu max: the same two boots and module build took 301 s
# of QEMU's user time with max and 202 s with this (glibc's AVX2 string
# functions, which max offers and TCG emulates slowly, are the likely
# reason). Debian 12 needs x86-64 only.
cpu=qemu64,+ssse3,+sse4.1,+sse4.2,+popcnt

# No -no-reboot: the guest's reboot resets the machine, which boots the
# same -kernel and -initrd again, from the same disk.
qemu=(
	qemu-system-x86_64
	"${bios[@]}"
	-accel "${NSLOG_VM_ACCEL:-tcg,thread=multi}"
	-cpu "$cpu" -m "$mem" -smp 2
	-nographic -nodefaults -monitor none -nic none -parallel none
	-kernel "$work/vmlinuz-$krel" -initrd "$work/initrd.img-$krel"
	-append "$cmdline"
	-drive "file=$disk,format=raw,if=virtio,cache=unsafe"
	-chardev "file,id=con,path=$console"
	-serial chardev:con
)

# The console as text: no carriage returns, no colours.
console_text() {
	tr -d '\r' <"$console" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g'
}

: >"$console"
t_qemu=$(date +%s)
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >>"$log" 2>&1 &
qemu_pid=$!
say "3. boot 1 (console: ${console#"$project"/}) ..."

# The host's clock at each marker of the console, seconds after QEMU started.
declare -A at=()
markers=(
	"boot1 start|NSLOG-REBOOT boot=1 start"
	"boot1 installed|NSLOG-REBOOT boot=1 installed"
	"boot1 end|NSLOG-REBOOT boot=1 end"
	"boot2 kernel|Linux version .*Linux version"
	"boot2 start|NSLOG-REBOOT boot=2 start"
	"boot2 end|NSLOG-REBOOT boot=2 end"
)
while kill -0 "$qemu_pid" 2>/dev/null; do
	sleep 1
	text=$(console_text | tr '\n' ' ')
	for m in "${markers[@]}"; do
		name=${m%%|*}
		[ -z "${at[$name]:-}" ] || continue
		grep -Eq "${m#*|}" <<<"$text" || continue
		at[$name]=$(($(date +%s) - t_qemu))
		say "  ${at[$name]} s: $name"
	done
done
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
qemu_pid=
t_end=$(date +%s)

# ---------------------------------------------------------------------------
# The verdict.

text=$(console_text)
passed=0
failed=0
host_ok() { passed=$((passed + 1)); echo "ok - $*"; }
host_not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }

echo "# the guest's checks (build/reboot/console.log):"
grep -aE '^(ok|not ok) - |^#' <<<"$text" | grep -av '^# *$' || true
guest_passed=$(grep -acE '^ok - ' <<<"$text" || true)
guest_failed=$(grep -acE '^not ok - ' <<<"$text" || true)
passed=$((passed + guest_passed))
failed=$((failed + guest_failed))

echo "# the host's checks:"
boots=$(grep -acE 'Linux version [0-9]' <<<"$text" || true)
if [ "$boots" = 2 ]; then
	host_ok "the guest booted twice"
else
	host_not_ok "the guest booted twice (it booted $boots times)"
fi
# The guest's own count of each boot's checks against the TAP lines read
# here: a line lost or broken on the console is a failure, not a pass.
said_checks=0
said_failed=0
for b in 1 2; do
	want=$(grep -aoE "NSLOG-REBOOT boot=$b end checks=[0-9]+ failed=[0-9]+ next=[a-z]+" \
		<<<"$text" | tail -n1 || true)
	if [ -n "$want" ]; then
		host_ok "boot $b: the test ran to its end (${want#* end })"
		c=${want#* checks=}
		f=${want#* failed=}
		said_checks=$((said_checks + ${c%% *}))
		said_failed=$((said_failed + ${f%% *}))
	else
		host_not_ok "boot $b: the test ran to its end"
	fi
done
if [ "$said_checks $said_failed" = "$((guest_passed + guest_failed)) $guest_failed" ]; then
	host_ok "the console has every check the guest counted ($said_checks, $said_failed failed)"
else
	host_not_ok "the console has every check the guest counted: it counted" \
		"$said_checks, $said_failed failed; the console has" \
		"$((guest_passed + guest_failed)), $guest_failed failed"
fi
if grep -aE 'WARNING: CPU|BUG: |Oops|Kernel panic|general protection fault|Call Trace:' \
	<<<"$text" >"$work/oops.txt"; then
	host_not_ok "no oops, BUG, WARN or panic on the console"
	head -n 5 "$work/oops.txt" | sed 's/^/#   /'
else
	host_ok "no oops, BUG, WARN or panic on the console"
fi
if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
	host_not_ok "the guest powered off within ${timeout} s (QEMU killed)"
elif [ "$qemu_rc" != 0 ]; then
	host_not_ok "the guest powered off within ${timeout} s (QEMU exit $qemu_rc)"
else
	host_ok "the guest powered off within ${timeout} s"
fi
if [ "$passed$failed" = 00 ] || [ "$guest_passed$guest_failed" = 00 ]; then
	grep -aE 'Kernel panic|not syncing|FAILED|Error|error' <<<"$text" | tail -n 10 |
		sed 's/^/#   console: /' || true
fi

qemu_s=$((t_end - t_qemu))
b2=${at[boot2 kernel]:-$qemu_s}
echo "# timings (host clock; build/reboot/console.log):"
echo "#   base root:  ${took[base]} s$([ "${took[base]}" -gt 5 ] || echo ' (cached)')"
echo "#   image:      ${took[image]} s"
echo "#   boot 1:     ${b2} s: test unit at ${at[boot1 start]:-?} s, install" \
	"(apt-get, DKMS build) until ${at[boot1 installed]:-?} s, reboot at ${at[boot1 end]:-?} s"
echo "#   boot 2:     $((qemu_s - b2)) s: test unit $(( ${at[boot2 start]:-b2} - b2 )) s" \
	"after the kernel, done $(( ${at[boot2 end]:-qemu_s} - b2 )) s after it"
echo "#   total:      $((t_end - t_start)) s"
echo "reboot: $passed passed, $failed failed"
[ "$failed" = 0 ]
