#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-hooks.sh - what make install and uninstall (install.mk) do to the
# running system, besides copying files; never with DESTDIR.
#
#   scripts/install-hooks.sh install SYSUSERS_FILE
#                         make the log group (systemd-sysusers with
#                         SYSUSERS_FILE, else groupadd: gid 1007 if free),
#                         reload udev's rules and systemd's units, enable
#                         nslogger-limits.service, nslog-collector.service and
#                         nslog-syslogd.service;
#                         if the module is loaded, give its nodes the rule's
#                         group and mode and start the services
#   scripts/install-hooks.sh uninstall
#                         disable and stop the three services
#   scripts/install-hooks.sh reload
#                         reload udev's rules and systemd's units
#   scripts/install-hooks.sh package-installed PACKAGE
#                         exit 0 if dpkg has PACKAGE installed
#   scripts/install-hooks.sh dkms-remove [KEEP]
#                         remove every DKMS registration of nslogger, and
#                         the sources in /usr/src of every version but KEEP
#
# Each step is skipped when its tool is missing or, for systemctl, when
# systemd is not the running init (a chroot, a container).

set -euo pipefail

UNITS=(nslogger-limits.service nslog-collector.service nslog-syslogd.service)

usage() {
	echo "usage:" >&2
	sed -n '/^#   scripts\/install-hooks.sh install/,/^#  *the sources/s/^# \{0,1\}/ /p' "$0" >&2
	exit 2
}

say() {
	echo "install-hooks: $*" >&2
}

have() {
	command -v "$1" >/dev/null 2>&1
}

systemd_running() {
	[ -d /run/systemd/system ] && have systemctl
}

make_group() {
	if getent group log >/dev/null; then
		return 0
	fi
	if have systemd-sysusers; then
		systemd-sysusers "$1"
	elif getent group 1007 >/dev/null; then
		groupadd --system log
	else
		groupadd --system --gid 1007 log
	fi
	say "made the log group: $(getent group log)"
}

reload() {
	if have udevadm && [ -d /run/udev ]; then
		udevadm control --reload || true
	fi
	if systemd_running; then
		systemctl daemon-reload
	fi
}

hook_install() {
	[ $# -eq 1 ] || usage
	make_group "$1"
	local unit how

	reload
	if systemd_running; then
		systemctl enable "${UNITS[@]}"
	fi
	if [ -d /sys/module/nslogger ]; then
		if have udevadm && [ -d /run/udev ]; then
			udevadm trigger --action=add --subsystem-match=misc \
				--sysname-match='log_*' --settle || true
		fi
		if systemd_running; then
			for unit in "${UNITS[@]}"; do
				# The syslog listener only starts: a restart would
				# leave the containers' /dev/log bound to sockets
				# nothing serves (nslog-syslogd(8), RESTARTS).
				how=restart
				[ "$unit" != nslog-syslogd.service ] || how=start
				systemctl "$how" "$unit" ||
					say "$unit did not start: systemctl status $unit"
			done
		fi
	fi
}

hook_uninstall() {
	local unit

	for unit in "${UNITS[@]}"; do
		if systemd_running && systemctl cat "$unit" >/dev/null 2>&1; then
			systemctl disable --now "$unit" || true
		fi
	done
}

package_installed() {
	[ $# -eq 1 ] || usage
	have dpkg-query &&
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

# Versions look like "nslogger/0.2.0, 6.1.0-57-amd64, x86_64: installed"
# or "nslogger/0.2.0: added" in dkms status.
dkms_remove() {
	local keep=${1:-} v

	have dkms || return 0
	for v in $(dkms status -m nslogger 2>/dev/null |
		   sed -n 's|^nslogger/\([^,:]*\)[,:].*|\1|p' | sort -u); do
		say "dkms remove nslogger/$v"
		dkms remove -m nslogger -v "$v" --all
		if [ "$v" != "$keep" ]; then
			rm -rf "/usr/src/nslogger-$v"
		fi
	done
}

[ $# -gt 0 ] || usage
cmd=$1
shift
case "$cmd" in
install)		hook_install "$@" ;;
uninstall)		[ $# -eq 0 ] || usage; hook_uninstall ;;
reload)			[ $# -eq 0 ] || usage; reload ;;
package-installed)	package_installed "$@" ;;
dkms-remove)		[ $# -le 1 ] || usage; dkms_remove "$@" ;;
-h|--help)		usage ;;
*)			usage ;;
esac
