#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# apply_test.sh: "nslogctl apply" from the outside, on a stand-in cgroup
# tree (plain directories, $NSLOG_CGROUP_DIR) and a regular file standing
# in for /proc/nslogger/limits ($NSLOG_PROC_DIR): which commands it
# writes, its errors and exit codes, and --watch putting rules on
# directories made while it runs (inotify reports a mkdir() in a plain
# directory as in cgroupfs). Against the module, in ../containers/.
#
# Needs $NSLOG_BIN, the directory holding nslogctl.
set -u

bin=${NSLOG_BIN:?set NSLOG_BIN to the directory of nslogctl}
vg=${VALGRIND:-}
tmp=$(mktemp -d /tmp/nslog_apply.XXXXXX)
cg=$tmp/cg
conf=$tmp/limits.d
watcher=
trap '[ -z "$watcher" ] || kill "$watcher" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/proc" "$conf"
export NSLOG_CGROUP_DIR="$cg" NSLOG_PROC_DIR="$tmp/proc"

# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

# expect_limits [-u] DESCRIPTION LINE...: the admin file holds these
# commands, in any order; with -u, some maybe twice (a cgroup made while
# its parent is being watched and walked is seen by both: harmless).
expect_limits() {
	uniq=
	if [ "$1" = -u ]; then
		uniq=-u
		shift
	fi
	desc=$1
	shift
	printf '%s\n' "$@" | sort >"$tmp/want"
	sort $uniq "$tmp/proc/limits" >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got"
	ret=$?
	if [ "$ret" -ne 0 ]; then
		echo "#   want: $(tr '\n' '|' <"$tmp/want")"
		echo "#   got:  $(tr '\n' '|' <"$tmp/got")"
	fi
	result "$ret" "$desc"
}

# wait_line FILE LINE: until FILE holds LINE (10 s at most).
wait_line() {
	i=0
	while [ $i -lt 100 ]; do
		grep -qxF -- "$2" "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

fresh_tree() {
	rm -rf "$cg"
	mkdir -p "$cg/system.slice/foo.service" "$cg/system.slice/bar.service" \
		"$cg/system.slice/system-getty.slice/getty@tty1.service" \
		"$cg/user.slice/user-1000.slice/user@1000.service/app.slice/foo.service" \
		"$cg/lxc.payload.web/system.slice/foo.service" \
		"$cg/machine.slice/machine-a.scope/payload"
	: >"$tmp/proc/limits"
}

cat >"$conf/10-services.conf" <<'EOF'
# services of the host's systemd
set --unit foo records=10/s
set --unit getty@*.service records=5/s records_burst=10

set /lxc.payload.*  records=100/s bytes=64K/s
EOF
cat >"$conf/20-more.conf" <<'EOF'
set /lxc.payload.*/system.slice/*.service bytes=8K/s
set /system.slice/foo.service records=20/s
set /machine.slice/*.scope/payload records=1/s
EOF
echo "set /ignored records=1/s" >"$conf/README"

fresh_tree
run $vg "$bin/nslogctl" apply "$conf"
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]
result $? "apply: exit 0, nothing on stderr"
expect_limits "apply: one command per matching cgroup, the last matching line's" \
	"set /system.slice/foo.service records=20/s" \
	"set /system.slice/system-getty.slice/getty@tty1.service records=5/s records_burst=10" \
	"set /lxc.payload.web records=100/s bytes=64K/s" \
	"set /lxc.payload.web/system.slice/foo.service bytes=8K/s" \
	"set /machine.slice/machine-a.scope/payload records=1/s"
grep -qxF "$conf/20-more.conf:2: set /system.slice/foo.service records=20/s" "$tmp/out"
result $? "apply: prints FILE:LINE: and each command"
[ "$(wc -l <"$tmp/out")" -eq 5 ]
result $? "apply: one line per command"

fresh_tree
run $vg "$bin/nslogctl" apply --dry-run "$conf/20-more.conf"
[ "$rc" -eq 0 ] && [ ! -s "$tmp/proc/limits" ] &&
	grep -qxF "$conf/20-more.conf:3: set /machine.slice/machine-a.scope/payload records=1/s" "$tmp/out"
result $? "apply --dry-run: prints the commands, writes none"

fresh_tree
cp "$conf/20-more.conf" "$tmp/bad.conf"
printf 'set /x records_burst=3\nset --unit bar records=1/min\n' >>"$tmp/bad.conf"
run $vg "$bin/nslogctl" apply "$tmp/bad.conf"
[ "$rc" -eq 1 ] && grep -qxF "nslogctl: $tmp/bad.conf:4: records_burst= without records=" "$tmp/err"
result $? "apply: a bad line is reported with its file and line, exit 1"
expect_limits "apply: ... and the other lines are applied" \
	"set /system.slice/foo.service records=20/s" \
	"set /system.slice/bar.service records=1/min" \
	"set /lxc.payload.web/system.slice/foo.service bytes=8K/s" \
	"set /machine.slice/machine-a.scope/payload records=1/s"

fresh_tree
mkdir "$cg/lxc.payload.a b"
run $vg "$bin/nslogctl" apply "$conf/10-services.conf"
[ "$rc" -eq 1 ] && grep -qF "'/lxc.payload.a b' has white space in its name" "$tmp/err" &&
	grep -qxF "set /lxc.payload.web records=100/s bytes=64K/s" "$tmp/proc/limits"
result $? "apply: a cgroup whose name the admin file cannot name is reported"

fresh_tree
run $vg "$bin/nslogctl" apply "$tmp/none.conf"
[ "$rc" -eq 1 ] && grep -qF "$tmp/none.conf: No such file or directory" "$tmp/err"
result $? "apply: a missing file given is an error"

rm "$tmp/proc/limits"
run $vg "$bin/nslogctl" apply "$conf"
[ "$rc" -eq 1 ] && grep -qF "is the nslogger module loaded?" "$tmp/err"
result $? "apply: no admin file: the module is not loaded"

run $vg "$bin/nslogctl" apply --watch "$conf"
[ "$rc" -eq 1 ] && grep -qF "is the nslogger module loaded?" "$tmp/err"
result $? "apply --watch: no admin file: fails at once"

run $vg "$bin/nslogctl" apply --bogus
[ "$rc" -eq 2 ] && grep -qF "apply: unknown option '--bogus'" "$tmp/err"
result $? "apply: an unknown option is a usage error"

# --watch: new cgroups get their rule; SIGHUP reads the files again.
fresh_tree
$vg "$bin/nslogctl" apply --watch "$conf" >"$tmp/wout" 2>"$tmp/werr" &
watcher=$!
wait_line "$tmp/proc/limits" "set /machine.slice/machine-a.scope/payload records=1/s"
result $? "apply --watch: the existing cgroups first"
wait_line "$tmp/werr" "nslogctl: 6 rules; watching 9 cgroups for new ones"
ret=$?
cp "$tmp/werr" "$tmp/err"
result $ret "apply --watch: watches the root, the slices and the paths' prefixes"
: >"$tmp/proc/limits"
mkdir -p "$cg/system.slice/new.slice/foo.service"
mkdir -p "$cg/lxc.payload.db/system.slice/x.service"
mkdir -p "$cg/machine.slice/machine-b.scope/payload"
mkdir "$cg/system.slice/other.service" "$cg/lxc.payload.web/system.slice/y.scope" \
	"$cg/user.slice/user-1000.slice/user@1000.service/app.slice/bar.service"
wait_line "$tmp/proc/limits" "set /system.slice/new.slice/foo.service records=10/s"
result $? "apply --watch: a unit in a new slice"
wait_line "$tmp/proc/limits" "set /lxc.payload.db/system.slice/x.service bytes=8K/s"
result $? "apply --watch: a new container and a cgroup made in it at once"
wait_line "$tmp/proc/limits" "set /machine.slice/machine-b.scope/payload records=1/s"
result $? "apply --watch: a pattern three levels deep"
rmdir "$cg/system.slice/foo.service"
mkdir "$cg/system.slice/foo.service"
wait_line "$tmp/proc/limits" "set /system.slice/foo.service records=20/s"
result $? "apply --watch: a cgroup made again (a service restarted)"
expect_limits -u "apply --watch: nothing for cgroups no rule matches" \
	"set /system.slice/new.slice/foo.service records=10/s" \
	"set /lxc.payload.db records=100/s bytes=64K/s" \
	"set /lxc.payload.db/system.slice/x.service bytes=8K/s" \
	"set /machine.slice/machine-b.scope/payload records=1/s" \
	"set /system.slice/foo.service records=20/s"
echo "set --unit other records=7/s" >"$conf/30-new.conf"
kill -HUP "$watcher"
wait_line "$tmp/proc/limits" "set /system.slice/other.service records=7/s"
result $? "apply --watch: SIGHUP reads the files again and applies them"
kill -TERM "$watcher"
wait "$watcher"
rc=$?
watcher=
cp "$tmp/werr" "$tmp/err"
result "$rc" "apply --watch: SIGTERM ends it with status 0"

tap_done
