#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# journal_test.sh: journalpos_test against a real systemd-journald of its
# own: a private mount namespace (and a user namespace when not root)
# with fresh tmpfs on /run/systemd, /run/log and /var/log/journal, so
# that sd_journal_sendv() reaches this journald, which keeps its files in
# memory (Storage=volatile), and nothing of the host's journal is seen
# or touched.  Skips, saying why, without journald, namespaces or
# /etc/machine-id.
#
# Needs $NSLOG_BIN, the directory holding tests/journalpos_test.
set -u

bin=${NSLOG_BIN:?set NSLOG_BIN to the directory of the tools}
jd=/lib/systemd/systemd-journald

# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

skip_all() {
	skip "journalpos against systemd-journald" "$1"
	tap_done
	exit
}

[ -x "$jd" ] || skip_all "no $jd"
[ -s /etc/machine-id ] || skip_all "no /etc/machine-id (journald needs one)"
[ -d /run/systemd ] || skip_all "no /run/systemd to mount over"
command -v unshare >/dev/null || skip_all "no unshare(1)"
if [ "$(id -u)" = 0 ]; then
	ns="unshare -m --propagation private"
else
	ns="unshare -r -m --propagation private"
fi
$ns true 2>/dev/null || skip_all "cannot make a mount namespace ($ns)"

# In the namespace: the mounts, journald, the test; journald's own
# messages (it runs without /dev/kmsg or audit) go to a file, shown on a
# failure.
# shellcheck disable=SC2016
exec $ns sh -c '
	set -u
	jd=$1 test=$2
	mount -t tmpfs tmpfs /run/systemd || exit 1
	mount -t tmpfs tmpfs /run/log 2>/dev/null ||
		{ mkdir -p /run/log && mount -t tmpfs tmpfs /run/log; } || exit 1
	[ ! -d /var/log/journal ] || mount -t tmpfs tmpfs /var/log/journal || exit 1
	mkdir -p /run/systemd/journal /run/systemd/journald.conf.d
	printf "%s\n" "[Journal]" Storage=volatile RateLimitIntervalSec=0 \
		ReadKMsg=no Audit=no ForwardToSyslog=no ForwardToKMsg=no \
		ForwardToConsole=no ForwardToWall=no \
		>/run/systemd/journald.conf.d/test.conf
	"$jd" >/run/systemd/journald.out 2>&1 &
	pid=$!
	i=0
	until [ -S /run/systemd/journal/socket ] &&
	      [ -S /run/systemd/journal/io.systemd.journal ]; do
		i=$((i + 1))
		if [ $i -gt 200 ] || ! kill -0 $pid 2>/dev/null; then
			echo "ok - journalpos against systemd-journald # SKIP journald did not start here"
			sed "s/^/# journald: /" /run/systemd/journald.out
			kill $pid 2>/dev/null
			exit 0
		fi
		sleep 0.05
	done
	${VALGRIND:-} "$test" /run/log/journal $pid
	rc=$?
	kill $pid
	wait $pid
	[ $rc = 0 ] || sed "s/^/# journald: /" /run/systemd/journald.out
	exit $rc' journal_test "$jd" "$bin/tests/journalpos_test"
