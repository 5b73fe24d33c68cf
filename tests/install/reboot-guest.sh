#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# reboot-guest.sh - the guest's half of tests/install/reboot.sh; runs in the
# Debian 12 guest as nslogger-reboot-test.service, once per boot:
#
#   /usr/local/sbin/nslogger-reboot-test     (no arguments; a unit runs it)
#
# Boot 1 (no /var/lib/nslogger-reboot/boot1): installs the packages of
# /root/nslogger/debs offline with apt-get (DKMS builds the module for the
# running kernel), declares two rate-limit rules for services that only
# exist after the next boot and one for journald (there before the module
# is loaded) in /etc/nslogger/limits.d/test.conf, and
# reboots. Nothing is loaded by hand: the module, the nodes, the group and
# the rules must come from what the packages installed.
#
# Boot 2: checks what the packages set up at boot, starts services and
# "containers" (new IPC namespaces), and powers off.
#
# Each check prints "ok - ..." or "not ok - ..." on the console (the unit's
# output is /dev/console), details as "# " lines. Lines starting with
# "NSLOG-REBOOT " tell the host where the guest is:
#
#   NSLOG-REBOOT boot=N start uptime=SECS kernel=KREL
#   NSLOG-REBOOT boot=1 installed secs=SECS     (apt-get, DKMS's build included)
#   NSLOG-REBOOT boot=N end checks=N failed=N next=reboot|poweroff
#
# /root/nslogger/VERSION is the version the module must report.

# The sh -c scripts below take their arguments as $1, $2: single quotes.
# shellcheck disable=SC2016

set -euo pipefail

state=/var/lib/nslogger-reboot
debs=/root/nslogger/debs
version=$(cat /root/nslogger/VERSION)
tmp=$(mktemp -d)
n=0
failed=0
next=poweroff

ok() { n=$((n + 1)); echo "ok - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok - $*"; }
# check DESCRIPTION COMMAND...: ok if COMMAND succeeds; its output, if it
# failed, as comments.
check() {
	local what=$1

	shift
	if "$@" >"$tmp/out" 2>&1; then
		ok "$what"
	else
		not_ok "$what"
		sed 's/^/#   /' "$tmp/out"
	fi
}
# is DESCRIPTION GOT WANT
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   got:  '$2'"
		echo "#   want: '$3'"
	fi
}
comment() { sed 's/^/# /'; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# wait_for SECS COMMAND...: until COMMAND succeeds, polling every 0.1 s.
wait_for() {
	local secs=$1 i

	shift
	for ((i = 0; i < secs * 10; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

finish() {
	local rc=$?

	trap - EXIT
	if [ "$rc" != 0 ]; then
		not_ok "boot ${boot:-?}: the test script ran to its end (exit $rc)"
		next=poweroff
	fi
	echo "NSLOG-REBOOT boot=${boot:-?} end checks=$n failed=$failed next=$next"
	rm -rf "$tmp"
	sync
	systemctl --no-block "$next"
}
trap finish EXIT

# Kernel messages on the console could break a TAP line in two; the host
# watches the console up to here, the checks read the kernel log below.
dmesg -n 1

# kernel_clean: no oops, BUG, WARN or lockup in this boot's kernel log, and
# no taint but O (out-of-tree module) and E (unsigned module).
kernel_clean() {
	local taint

	taint=$(cat /proc/sys/kernel/tainted)
	if dmesg | grep -E 'WARNING: CPU|BUG:|Oops|Call Trace|general protection'; then
		return 1
	fi
	if [ $((taint & ~(4096 | 8192))) -ne 0 ]; then
		echo "tainted: $taint"
		return 1
	fi
}

first_boot() {
	local t0 t1 rc=0 krel line

	krel=$(uname -r)
	t0=$(date +%s)
	# Each line stamped with the guest's uptime, kept for a look later.
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$debs"/*.deb 2>&1 || echo "exit $?"; } |
		while IFS= read -r line; do
			echo "[$(uptime_s)] $line"
		done >"$state/install.log"
	! grep -q '^\[[0-9.]*\] exit [0-9]*$' "$state/install.log" ||
		rc=$(tail -n1 "$state/install.log" | sed 's/.* exit //')
	t1=$(date +%s)
	echo "NSLOG-REBOOT boot=1 installed secs=$((t1 - t0))"
	if [ "$rc" = 0 ]; then
		ok "apt-get install ./*.deb, offline ($((t1 - t0)) s, DKMS's build included)"
	else
		not_ok "apt-get install ./*.deb, offline (exit $rc)"
		tail -n 40 "$state/install.log" | comment
		return 0
	fi
	grep -E '^\[[0-9.]*\] (Setting up|Building|Signing|Installing|depmod|Running|Processing)' \
		"$state/install.log" | comment || true
	check "dkms status: nslogger/$version installed for the running kernel $krel" \
		grep -qxF "nslogger/$version, $krel, x86_64: installed" <(dkms status -m nslogger)
	check "the module is not loaded yet (the packages load nothing; the reboot does)" \
		test ! -e /sys/module/nslogger

	# Rules for services that do not exist yet: one by unit name, one by
	# a path pattern; and one for journald, whose cgroup exists before the
	# module is loaded and the watcher starts (applied at start, not by the
	# watch). journald writes nothing to nslogger: the rule limits nothing.
	cat >/etc/nslogger/limits.d/test.conf <<-'EOF'
	# tests/install/reboot.sh: services started after the reboot
	set --unit nslogtest-late records=7/s records_burst=21
	set /system.slice/nslogtest-pat-*.service records=5/s records_burst=9
	# and one there from the start
	set /system.slice/systemd-journald.service records=3/s records_burst=4
	EOF
	check "nslogctl apply --dry-run reads /etc/nslogger/limits.d/test.conf without an error" \
		sh -c 'err=$(nslogctl apply --dry-run 2>&1 >/dev/null) && [ -z "$err" ] || { echo "$err"; exit 1; }'
	check "the kernel log of boot 1 is clean" kernel_clean

	echo "kernel=$krel" >"$state/boot1"
	next=reboot
}

# rule_of CGROUP: its line of /proc/nslogger/limits, counters cut off.
rule_of() {
	awk -v p="$1" '$1 == p' /proc/nslogger/limits | sed 's/ accepted=.*//'
}
# has_rule CGROUP: it has a line in /proc/nslogger/limits.
has_rule() {
	[ -n "$(rule_of "$1")" ]
}

second_boot() {
	local krel d node rand unit cg acc drop logged t0 t1 most gid

	krel=$(uname -r)
	is "the same kernel as boot 1, the one DKMS built for" "kernel=$krel" "$(cat "$state/boot1")"

	# The module, from modules-load.d, at DKMS's path, at VERSION.
	check "nslogger is loaded" test -d /sys/module/nslogger
	check "systemd-modules-load loaded it (modules-load.d/nslogger.conf)" \
		grep -qx "Inserted module 'nslogger'" \
		<(journalctl -b -o cat -t systemd-modules-load)
	is "modinfo: version $version (VERSION)" "$(modinfo -F version nslogger)" "$version"
	is "/sys/module/nslogger/version: $version" "$(cat /sys/module/nslogger/version)" "$version"
	# modinfo names the file modprobe would load; the srcversion ties it
	# to the module that is loaded.
	is "the module loaded is DKMS's, for $krel" \
		"$(modinfo -F filename nslogger) $(modinfo -F srcversion nslogger)" \
		"/lib/modules/$krel/updates/dkms/nslogger.ko $(cat /sys/module/nslogger/srcversion)"

	# The group (sysusers.d) and the nodes (the udev rule).
	is "the log group has gid 1007" "$(getent group log | cut -d: -f1,3)" "log:1007"
	gid=$(getent group log | cut -d: -f3) || gid=
	for node in main events radio system; do
		d=/dev/log_$node
		is "$d: character device, owner root, group log (1007), mode 0662" \
			"$(stat -c '%F %U %G %g %a' "$d" 2>&1)" "character special file root log 1007 662"
	done

	# The watcher, started by log_main's device (polled: it may still be
	# starting when this unit runs).
	if wait_for 60 systemctl is-active --quiet nslogger-limits.service; then
		d=$(systemctl show -P ActiveEnterTimestampMonotonic nslogger-limits.service)
		ok "nslogger-limits.service is active (since $((d / 1000000)) s after boot)"
	else
		not_ok "nslogger-limits.service is active"
		systemctl status --no-pager nslogger-limits.service 2>&1 | comment || true
	fi
	is "nslogger-limits.service: enabled, not restarted" \
		"$(systemctl is-enabled nslogger-limits.service) $(systemctl show -P NRestarts nslogger-limits.service)" \
		"enabled 0"

	# The rules of test.conf: on a cgroup there before the watcher
	# started, and on services started now (polled: the watcher writes
	# the rule a moment after the cgroup's mkdir).
	cg=/system.slice/systemd-journald.service
	is "a service running before the module was loaded has its rule ($cg)" \
		"$(rule_of "$cg")" \
		"$cg kind=rule records=3/1s records_burst=4 bytes=- bytes_burst=-"
	unit=nslogtest-late.service
	cg=/system.slice/$unit
	systemd-run --quiet --unit="$unit" sleep 600
	wait_for 10 has_rule "$cg" || true
	is "a service started after boot gets its --unit rule ($cg)" "$(rule_of "$cg")" \
		"$cg kind=rule records=7/1s records_burst=21 bytes=- bytes_burst=-"
	systemctl stop "$unit"

	# A flood from a service of the pattern: it waits for its own rule,
	# writes 200 records at once and keeps its line of the limits file
	# and the flood's start and end (ns). The bucket starts full (burst 9)
	# and refills at 5/s, so it keeps between 9 and 9 + 5 * the flood's
	# length in seconds, rounded up: a slow (busy) guest keeps more, but
	# never more than the rule allows.
	unit=nslogtest-pat-flood.service
	cg=/system.slice/$unit
	cat >"$tmp/flood.sh" <<-'EOF'
	i=0
	until grep -q "^$1 " /proc/nslogger/limits; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "no rule for $1 after 10 s"; exit 1; }
		sleep 0.1
	done
	grep "^$1 " /proc/nslogger/limits | sed "s/ accepted=.*//"
	t0=$(date +%s%N)
	seq 200 | nslog -t rbflood
	t1=$(date +%s%N)
	grep "^$1 " /proc/nslogger/limits
	echo "$t0 $t1"
	echo done
	EOF
	# Not --wait, which needs D-Bus (not in the guest): until its last
	# line, or until it is no longer running.
	systemd-run --quiet --unit="$unit" -p StandardOutput=file:"$tmp/flood" \
		/bin/sh "$tmp/flood.sh" "$cg"
	flood_over() {
		grep -qx 'done' "$tmp/flood" || ! systemctl is-active --quiet "$unit"
	}
	wait_for 30 flood_over || true
	touch "$tmp/flood"
	is "a service started after boot gets its path-pattern rule ($cg)" \
		"$(head -n1 "$tmp/flood")" \
		"$cg kind=rule records=5/1s records_burst=9 bytes=- bytes_burst=-"
	acc=$(sed -n '2s/.* accepted=\([0-9]*\) .*/\1/p' "$tmp/flood")
	drop=$(sed -n '2s/.* dropped=\([0-9]*\) .*/\1/p' "$tmp/flood")
	read -r t0 t1 < <(sed -n 3p "$tmp/flood") || true
	most=
	if [ -n "${t0:-}" ] && [ -n "${t1:-}" ]; then
		most=$((9 + (5 * (t1 - t0) + 999999999) / 1000000000))
	fi
	logged=$(nslogcat -d -b main -v tag | grep -c '/rbflood' || true)
	if [ -n "$acc" ] && [ -n "$drop" ] && [ -n "$most" ] &&
	   [ "$acc" -ge 9 ] && [ "$acc" -le "$most" ] &&
	   [ "$((acc + drop))" = 200 ] && [ "$logged" = "$acc" ]; then
		ok "the rule holds it: 200 records at once, $acc kept (burst 9, at most $most), $drop dropped"
	else
		not_ok "the rule holds it: 200 records at once, 9 to ${most:-?} kept (burst 9, 5/s), the rest dropped"
		echo "#   accepted=${acc:-?} dropped=${drop:-?} in the log: $logged"
		comment <"$tmp/flood"
	fi

	# Containers started now: their own logs, not the host's. Each one
	# writes a record and reads its log; its own record in what it read
	# shows the read worked, so the other's absence means something.
	rand=$RANDOM$$
	nslog -t rbhost "host-$rand"
	unshare --ipc --fork /bin/sh -c \
		'nslog -t rbctr "ctr-$1" && nslogcat -d -b main -v tag' sh "$rand" \
		>"$tmp/ctr" 2>&1 || echo "exit $?" >>"$tmp/ctr"
	check "container (unshare --ipc): reads its own record" grep -q "ctr-$rand" "$tmp/ctr"
	check "container (unshare --ipc): reads its own record, not the host's" \
		sh -c 'grep -q "ctr-$1" "$2" && ! grep "host-$1" "$2"' sh "$rand" "$tmp/ctr"
	nslogcat -d -b main -v tag >"$tmp/host"
	check "host: has its record, not the container's" \
		sh -c 'grep -q "host-$1" "$2" && ! grep "ctr-$1" "$2"' sh "$rand" "$tmp/host"

	# Rootless: nobody, in the log group (which lets it read its own
	# namespace's logs through the node), in a user namespace of its own.
	# The group by its gid, whatever it is (the gid has its own check).
	setpriv --reuid=65534 --regid=65534 --groups="${gid:-1007}" --inh-caps=-all \
		unshare --user --map-root-user --ipc --fork /bin/sh -c \
		'nslog -t rbuser "user-$1" && nslogcat -d -b main -v tag' sh "$rand" \
		>"$tmp/user" 2>&1 || echo "exit $?" >>"$tmp/user"
	check "rootless container (nobody, group log, unshare -Ur --ipc): reads its own record" \
		grep -q "user-$rand" "$tmp/user"
	check "rootless container: reads its own record, neither the host's nor the other container's" \
		sh -c 'grep -q "user-$1" "$2" && ! grep -E "host-$1|ctr-$1" "$2"' sh "$rand" "$tmp/user"
	nslogcat -d -b main -v tag >"$tmp/host"
	check "host: does not have the rootless container's record" \
		sh -c '! grep "user-$1" "$2"' sh "$rand" "$tmp/host"

	# Nothing failed at boot, nothing in the kernel log.
	check "no failed units" sh -c '! systemctl --failed --plain --no-legend | grep .'
	# The watcher's own lines: what it read and what it watches; anything
	# else it says is an error (a rule that did not parse or set, a watch).
	journalctl -b -o cat -u nslogger-limits.service >"$tmp/watcher" 2>&1 || true
	check "nslogctl apply --watch read the 3 rules of test.conf and logged no error" \
		sh -c 'grep -q "^nslogctl: 3 rules; watching [0-9]* cgroups for new ones$" "$1" &&
			! grep "^nslogctl: " "$1" | grep -v "rules; watching [0-9]* cgroups for new ones$"' \
		sh "$tmp/watcher"
	check "udev logged nothing about 60-nslogger.rules" \
		sh -c '! journalctl -b -o cat -t systemd-udevd | grep nslogger'
	check "the kernel log of boot 2 is clean" kernel_clean
	comment <"$tmp/watcher"
	touch "$state/boot2"
}

mkdir -p "$state"
if [ ! -e "$state/boot1" ]; then
	boot=1
elif [ ! -e "$state/boot2" ]; then
	boot=2
else
	boot=3
fi
echo "NSLOG-REBOOT boot=$boot start uptime=$(uptime_s) kernel=$(uname -r)"
case $boot in
1) first_boot ;;
2) second_boot ;;
*) not_ok "no third boot: the test had ended" ;;
esac
