#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-init.sh - pid 1 of the test guest booted by tests/containers/vm.sh.
#
# The initramfs has mounted the host's / read-only over 9p and switched to it,
# so this runs from the host's tree with the host's bash and tools. It
#   1. sources the run's env.sh (nslog_env= on the kernel command line),
#   2. mounts proc, sysfs, devpts, cgroup2, debugfs, tracefs and tmpfs on the
#      directories tests write to, and the writable "out" share at $NSLOG_OUT,
#   3. insmods $NSLOG_KO with $NSLOG_PARAMS, if vm.sh was given --ko,
#   4. runs $NSLOG_CMD in $NSLOG_PROJECT, then kills whatever it left behind,
#   5. rmmods the module, checks dmesg and the taint mask,
#   6. prints the result line that vm.sh looks for, and powers off.
#
# No "set -e": if pid 1 exits the kernel panics and vm.sh learns nothing, so
# every step handles its own failure and the script always reaches step 6.
#
# Under TCG every exec of a dynamically linked tool costs 40-130 ms, so the
# plumbing uses bash builtins and the static busybox (busybox-static is in
# the "vm" dependency group) and boots about 2 s sooner than with util-linux.

set -uo pipefail

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LC_ALL=C.UTF-8

say() {
	echo "NSLOG-VM: $*"
}

bb() {
	busybox "$@"
}

poweroff_now() {
	bb sync
	echo o >/proc/sysrq-trigger 2>/dev/null
	bb sleep 10
	bb poweroff -f
	bb sleep 60
}

fatal() {
	echo
	echo "NSLOG-VM-FATAL $*"
	poweroff_now
}

# env.sh lives in the run folder; read it before tmpfs can cover its path.
# shellcheck disable=SC1090
. "${nslog_env:?nslog_env missing from the kernel command line}" ||
	fatal "cannot read $nslog_env"

is_mountpoint() {
	local _id _parent _dev _root where _rest

	while read -r _id _parent _dev _root where _rest; do
		[ "$where" = "$1" ] && return 0
	done </proc/self/mountinfo
	return 1
}

mount_fs() {	# TYPE WHERE [OPTIONS]
	local type=$1 where=$2 opts=${3:-}

	[ -d "$where" ] || { say "no $where, not mounting $type"; return 1; }
	is_mountpoint "$where" && return 0
	bb mount -t "$type" ${opts:+-o "$opts"} "$type" "$where" ||
		{ say "mount $type on $where failed"; return 1; }
}

# First of all, and unconditionally: until the guest's own proc is on /proc,
# /proc is the host's, seen through 9p (the host's mountinfo, uptime, ...).
bb mount -t proc -o nosuid,nodev,noexec proc /proc || fatal "cannot mount /proc"
mount_fs sysfs /sys nosuid,nodev,noexec
mount_fs devtmpfs /dev mode=755
bb mkdir -p /dev/pts /dev/shm /dev/mqueue
mount_fs devpts /dev/pts gid=5,mode=620,ptmxmode=666
mount_fs tmpfs /dev/shm mode=1777,nosuid,nodev
mount_fs mqueue /dev/mqueue

# The 9p root under its submounts, to bring back whatever of the host a tmpfs
# below hides (a project checked out in /tmp, for one). A non-recursive bind
# sees the plain root, not what is mounted on top of it.
mount_fs tmpfs /run mode=755,nosuid,nodev
host=/run/nslog-host
bb mkdir -p "$host" && bb mount --bind / "$host" || host=

for d in /tmp /var/tmp; do
	mount_fs tmpfs "$d" mode=1777,nosuid,nodev
done
for d in /var/log /var/lib/lxc /var/cache/lxc; do
	[ -d "$d" ] && mount_fs tmpfs "$d" mode=755
done

# Keep the host paths the run needs, hidden or not.
for p in "$NSLOG_PROJECT" "$NSLOG_RUN"; do
	[ -e "$p" ] && continue
	if [ -n "$host" ] && [ -e "$host$p" ]; then
		bb mkdir -p "$p" && bb mount --bind "$host$p" "$p"
	else
		say "cannot see $p"
	fi
done
[ -z "$host" ] || bb umount -l "$host"
bb rmdir "$host" 2>/dev/null

[ -d "$NSLOG_OUT" ] || bb mkdir -p "$NSLOG_OUT"
bb mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=mmap out "$NSLOG_OUT" ||
	say "cannot mount the out share on $NSLOG_OUT"

if mount_fs cgroup2 /sys/fs/cgroup nsdelegate; then
	for c in memory pids cpu; do
		echo "+$c" >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
			say "cannot enable the $c controller"
	done
fi
# A kernel booted with --kernel (sid's, the debug one) has its modules in
# its --moddir, not in the host's /lib/modules: put them where modprobe
# looks, so that a scenario can load one (loop, ext4).
krel=$(bb uname -r)
if [ ! -d "/lib/modules/$krel" ] && [ -d "${NSLOG_MODDIR:-}" ] &&
   mount_fs tmpfs /lib/modules mode=755; then
	bb mkdir -p "/lib/modules/$krel" &&
		bb mount --bind "$NSLOG_MODDIR" "/lib/modules/$krel" ||
		say "cannot put $NSLOG_MODDIR at /lib/modules/$krel"
fi
[ -d /sys/kernel/debug ] && mount_fs debugfs /sys/kernel/debug
[ -d /sys/kernel/tracing ] && mount_fs tracefs /sys/kernel/tracing

echo nslog-vm >/proc/sys/kernel/hostname
bb ip link set lo up 2>/dev/null

cd "$NSLOG_PROJECT" 2>/dev/null || cd /

# --- the module and the command --------------------------------------------

rc=0
rmmod_state=none
loaded=0
run_cmd=1
if [ -n "$NSLOG_KO" ]; then
	# Word splitting of the parameters is intended.
	# shellcheck disable=SC2086
	insmod "$NSLOG_KO" $NSLOG_PARAMS
	insmod_rc=$?
	echo "NSLOG-VM-INSMOD rc=$insmod_rc"
	if [ $insmod_rc -eq 0 ]; then
		loaded=1
	else
		run_cmd=0
		rc=$insmod_rc
	fi
fi

if [ $run_cmd = 1 ]; then
	read -r up _ </proc/uptime
	echo "NSLOG-VM-START uptime=$up"
	# stdout stays the console (a tty), so output is line-buffered and
	# lands in order with the kernel's.
	bash "$NSLOG_CMD" </dev/null
	rc=$?
	read -r up _ </proc/uptime
	echo "NSLOG-VM-END uptime=$up rc=$rc"
fi

# Whatever the command left running (a daemon, a container) would keep the
# module busy: kill every user process but this one, and wait for them.
leftovers() {
	local d pid stat rest ppid state

	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$pid" = 1 ] || [ "$pid" = 2 ] || [ "$pid" = $BASHPID ] && continue
		read -r stat 2>/dev/null <"$d/stat" || continue
		rest=${stat##*) }
		read -r state ppid _ <<<"$rest"
		# Kernel threads are children of kthreadd; zombies are gone.
		[ "$ppid" = 2 ] || [ "$state" = Z ] && continue
		echo "$pid"
	done
}
# Again and again: a process may fork while its siblings die.
for try in {1..50}; do
	pids=$(leftovers)
	[ -n "$pids" ] || break
	[ "$try" -gt 1 ] || say "killing leftover processes: ${pids//$'\n'/ }"
	# shellcheck disable=SC2086
	kill -KILL $pids 2>/dev/null
	bb sleep 0.1
done
[ -z "$pids" ] || say "processes survived SIGKILL: ${pids//$'\n'/ }"

if [ $loaded = 1 ]; then
	# A last file reference may be dropped just after its process is
	# reaped; give that a moment rather than fail at once. With no
	# reference left, a failure is final (no exit function, say).
	rmmod_state=fail
	for _ in {1..20}; do
		if rmmod "$NSLOG_KO_NAME" 2>/dev/null; then
			rmmod_state=ok
			break
		fi
		refcnt=0
		read -r refcnt 2>/dev/null </sys/module/"$NSLOG_KO_NAME"/refcnt
		[ "$refcnt" != 0 ] || break
		bb sleep 0.1
	done
	[ $rmmod_state = ok ] || rmmod "$NSLOG_KO_NAME"
fi

# --- kernel health -----------------------------------------------------------

kernel=clean
# The last grep drops the banners of a debug kernel (make test-debug).
bad_dmesg=$(bb dmesg 2>&1 | bb grep -E 'WARNING:|BUG:|Oops|KASAN|UBSAN|possible circular locking|lockdep|kmemleak|general protection|Call Trace' |
	bb grep -vE 'RCU lockdep checking is enabled|kmemleak: Kernel memory leak detector initialized')
[ -n "$bad_dmesg" ] && kernel=dirty

# Only O (12, out-of-tree module), E (13, unsigned module) and N (18, KUnit
# tests ran: the debug kernel's module has them built in) are expected.
read -r tainted </proc/sys/kernel/tainted
bad_taint=$(( tainted & ~((1 << 12) | (1 << 13) | (1 << 18)) ))
[ $bad_taint -ne 0 ] && kernel=dirty

# From here on only emergencies reach the console: nothing gets in the way
# of the lines vm.sh parses.
echo 1 >/proc/sys/kernel/printk
if [ $kernel = dirty ]; then
	[ $bad_taint -eq 0 ] ||
		echo "NSLOG-VM-DMESG tainted=$tainted (unexpected bits $(printf '%#x' $bad_taint))"
	[ -z "$bad_dmesg" ] || while IFS= read -r line; do
		echo "NSLOG-VM-DMESG $line"
	done <<<"$bad_dmesg"
fi
echo
echo "NSLOG-VM-RESULT rc=$rc rmmod=$rmmod_state kernel=$kernel"

bb umount "$NSLOG_OUT" 2>/dev/null
poweroff_now
