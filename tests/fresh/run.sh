#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - `make test-fresh`: the README's commands on a fresh Debian 12.
#
#   tests/fresh/run.sh [--keep]
#
# A new user has a Debian 12 machine, clones the project and types what the
# README says. This does the same in a clean Debian 12 root and fails if any
# step needs something that was installed by hand:
#
#   1. the base: `debootstrap --variant=minbase --include=git,make bookworm`,
#      made once and kept outside the clone, as base.tar.gz in the cache
#      folder (scripts/cache-dir.sh fresh: /var/cache/nslogger/fresh for
#      root), remade when its key (base.key beside it) changes or it is
#      NSLOG_FRESH_MAX_DAYS old;
#   2. a pristine root: build/fresh/root/ removed, the tarball unpacked, the
#      apt sources (bookworm, bookworm-updates, bookworm-security, from the
#      mirrors the host uses) and the host's resolv.conf written;
#   3. the project: a git clone of the committed HEAD (never the working
#      tree) at /root/nslogger in that root;
#   4. in the root, chrooted, each command as a user would type it:
#        make help                    nothing installed yet
#        make demo                    installs, builds, boots, tells
#        make test-host               the host suite of make test
#        make test-vm VM_SCENARIOS='abi lxc'
#                                     two scenarios of make test-vm's suite
#      and checks that the demo showed its story and no kernel log, and that
#      the clone is still clean (builds write only ignored files).
#
# Of make test, only that much: make demo already installs and uses what the
# VM suite needs; test-host and test-vm go through the same targets, test
# programs, deps groups and harness as make test; abi is the quickest
# scenario (10 s) and lxc the one that needs the most from the packages (LXC
# in the guest, from the chroot's root), 30 s. The other scenarios take 1 to
# 5 min each, KUnit 3 min and the debug kernel 30: that is for make test
# itself, on the CI machine.
#
# Each command runs in a mount namespace of its own (unshare -m, private):
# /proc, /sys, /dev, /dev/pts, a tmpfs /run and a tmpfs /tmp are mounted
# there and go with it, so nothing stays mounted whatever happens. QEMU runs
# in the chroot too: vm.sh boots the chroot's own Debian kernel with the
# chroot's / as the guest's root over 9p. Nothing of the host's tree or of an
# earlier run is visible inside; apt downloads every package again.
#
# Prints one "ok N - STEP (S s)" / "not ok ..." line per step and ends with
# "fresh: N passed, N failed"; the output of each step is in
# build/fresh/logs/STEP.log, and its last lines are printed when it fails.
# The root is removed after a run that passed, kept after one that failed
# (and with --keep).
#
# Environment: NSLOG_FRESH_MIRROR (the Debian archive; default: the one the
# host's apt sources use for bookworm, else debootstrap's own),
# NSLOG_FRESH_SECURITY (the security archive; default: the host's, else
# none), NSLOG_FRESH_MAX_DAYS (default 30), NSLOG_FRESH_STEP_TIMEOUT
# (seconds for one step, default 1800).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
project=$(cd "$here/../.." && pwd -P)
fresh=$project/build/fresh
cache=$("$project/scripts/cache-dir.sh" fresh)
base=$cache/base.tar.gz
root=$fresh/root
logs=$fresh/logs
suite=bookworm
include=git,make
# In the root, where a user would clone it.
clone=/root/nslogger
# Part of the key: change it when make_base builds differently.
base_steps=1
max_days=${NSLOG_FRESH_MAX_DAYS:-30}
step_timeout=${NSLOG_FRESH_STEP_TIMEOUT:-1800}
keep=0

usage() {
	sed -n '/^#   tests\/fresh\/run.sh/p' "$0" | sed 's/^#/usage:/' >&2
	exit 2
}

case "${1:-}" in
"") ;;
--keep) keep=1 ;;
*) usage ;;
esac

say() {
	echo "fresh: $*" >&2
}

die() {
	say "$*"
	exit 1
}

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot, mounts)"
for t in debootstrap unshare chroot git tar gzip; do
	command -v "$t" >/dev/null || die "$t is missing (scripts/deps.sh fresh)"
done

# host_uri SUITE: the URI the host's apt sources use for Debian's SUITE,
# from one-line (.list) or deb822 (.sources) files; empty if none.
host_uri() {
	local want=$1 f

	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk -v s="$want" '
			$1 == "deb" {
				line = $0
				sub(/\[[^]]*\][ \t]*/, "", line)	# [options]
				split(line, f, /[ \t]+/)
				if (f[3] == s) { print f[2]; exit }
			}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v s="$want" '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " s " ") && uri != "")
					{ print uri; found = 1; exit }
				types = suites = uri = ""
			}
			/^[ \t]*$/ { flush(); next }
			tolower($1) == "types:"  { $1 = ""; types = $0 }
			tolower($1) == "suites:" { $1 = ""; suites = $0 }
			tolower($1) == "uris:"   { uri = $2 }
			END { if (!found) flush() }' "$f"
	done | head -n1
}

mirror=${NSLOG_FRESH_MIRROR:-$(host_uri "$suite")}
security=${NSLOG_FRESH_SECURITY-$(host_uri "$suite-security")}

key() {
	printf '%s\n' "debootstrap --variant=minbase --include=$include $suite ${mirror:-default}" \
		"steps $base_steps"
}

# Refuses to delete a root that has anything mounted below it.
remove_root() {
	local dir=$1

	[ -e "$dir" ] || return 0
	if awk -v r="$dir/" 'index($5 "/", r) == 1 { found = 1 } END { exit !found }' \
	       /proc/self/mountinfo; then
		die "something is mounted below $dir; not removing it"
	fi
	rm -rf --one-file-system "$dir"
}

base_ok() {
	[ -s "$base" ] && [ -s "$cache/base.key" ] &&
		[ "$(cat "$cache/base.key")" = "$(key)" ] && gzip -t "$base" &&
		[ -z "$(find "$base" -mtime +"$max_days")" ]
}

make_base() {
	local tmp=$cache/base-root t0

	say "making the base: debootstrap --variant=minbase --include=$include $suite ${mirror:-(default mirror)}"
	t0=$(date +%s)
	rm -f "$cache/base.key" "$base"
	remove_root "$tmp"
	# In a mount namespace of its own: whatever debootstrap mounts goes
	# with it, even when it fails half-way.
	# shellcheck disable=SC2086 # no mirror: debootstrap's default
	unshare -m --propagation private \
		debootstrap --variant=minbase --include="$include" "$suite" "$tmp" $mirror \
		>"$cache/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/debootstrap.log" >&2
		  die "debootstrap failed ($cache/debootstrap.log)"; }
	# What debootstrap fetched is not part of a machine.
	rm -rf "$tmp"/var/cache/apt/archives/*.deb "$tmp"/var/lib/apt/lists/*_*
	tar -C "$tmp" --numeric-owner -cf - . | gzip -1 >"$base.tmp"
	mv -f "$base.tmp" "$base"
	remove_root "$tmp"
	key >"$cache/base.key"
	say "base made in $(($(date +%s) - t0)) s ($(du -h "$base" | cut -f1))"
}

# The apt sources of an installed Debian 12: the release, its updates and
# its security archive.
write_sources() {
	local m=$mirror

	[ -n "$m" ] || m=$(awk '$1 == "deb" { print $2; exit }' "$root/etc/apt/sources.list")
	[ -n "$m" ] || die "no mirror in the root's sources.list"
	{
		echo "# written by tests/fresh/run.sh"
		echo "deb $m $suite main"
		echo "deb $m $suite-updates main"
		[ -z "$security" ] || echo "deb $security $suite-security main"
	} >"$root/etc/apt/sources.list"
	rm -f "$root"/etc/apt/sources.list.d/*
}

# What runs CMD (a shell command line, the last argument) in the root as
# root, in its own mount namespace, with a login's environment and cwd the
# clone.
# shellcheck disable=SC2016 # expanded by the inner shell
in_root=(unshare -m --propagation private /bin/bash -c '
	set -e
	root=$1 clone=$2 cmd=$3
	mount -t proc proc "$root/proc"
	mount --rbind /sys "$root/sys"
	mount --rbind /dev "$root/dev"
	mountpoint -q "$root/dev/pts" ||
		mount -t devpts -o ptmxmode=0666,mode=620 devpts "$root/dev/pts"
	mount -t tmpfs -o mode=755 tmpfs "$root/run"
	mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
	exec chroot "$root" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb LANG=C.UTF-8 \
		/bin/bash -c "cd \"\$0\" && $cmd" "$clone"
' fresh-chroot "$root" "$clone")

# stamp: each line prefixed with the seconds since the step began, "[ 12s] ".
stamp() {
	local line

	SECONDS=0
	while IFS= read -r line || [ -n "$line" ]; do
		printf '[%3ds] %s\n' "$SECONDS" "$line"
	done
}

n=0
pass=0
fail=0

# step NAME CMD: run CMD in the root, log it, time it, report it.
step() {
	local name=$1 cmd=$2 log t0 rc=0 secs

	n=$((n + 1))
	log=$logs/$(printf '%02d' "$n")-$name.log
	echo "# $n. $cmd" >&2
	t0=$(date +%s)
	echo "# in the root, cwd $clone: $cmd" >"$log"
	timeout -k 30 "$step_timeout" "${in_root[@]}" "$cmd" </dev/null 2>&1 | stamp >>"$log" ||
		rc=${PIPESTATUS[0]}
	secs=$(($(date +%s) - t0))
	times+=("$(printf '%-40s %5d s' "$cmd" "$secs")")
	if [ "$rc" = 0 ]; then
		echo "ok $n - $cmd ($secs s)"
		pass=$((pass + 1))
		return 0
	fi
	[ "$rc" != 124 ] || echo "# timed out after $step_timeout s" >>"$log"
	echo "not ok $n - $cmd: exit $rc ($secs s); the end of ${log#"$project"/}:"
	tail -n 30 "$log" | sed 's/^/#   /'
	fail=$((fail + 1))
	return 1
}

# check NAME CMD...: a check on the host, of what a step left.
check() {
	local name=$1

	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
		pass=$((pass + 1))
	else
		echo "not ok $n - $name"
		fail=$((fail + 1))
	fi
}

times=()
t_start=$(date +%s)
mkdir -p "$fresh"
exec 9>"$fresh/.lock"
flock -n 9 || die "another run holds build/fresh/.lock"

# --- the base ---------------------------------------------------------------

t0=$(date +%s)
# The base is shared by every checkout: one makes it, the others wait.
exec 8>"$cache/.lock"
flock 8
if base_ok; then
	say "base: $base ($(du -h "$base" | cut -f1), made $(date -r "$base" +%F))"
else
	make_base
fi
times+=("$(printf '%-40s %5d s' "base (debootstrap or cache)" $(($(date +%s) - t0)))")

# --- a pristine root and the clone --------------------------------------------

t0=$(date +%s)
remove_root "$root"
rm -rf "$logs"
mkdir -p "$root" "$logs"
gzip -dc "$base" | tar -C "$root" --numeric-owner -xf -
flock -u 8
write_sources
rm -f "$root/etc/resolv.conf"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# The hosts file Debian's installer writes; minbase has none, and without it
# "localhost" does not resolve.
[ -e "$root/etc/hosts" ] || printf '%s\n' "127.0.0.1	localhost" \
	"::1		localhost ip6-localhost ip6-loopback" >"$root/etc/hosts"
head=$(git -C "$project" rev-parse --verify HEAD)
[ -z "$(git -C "$project" status --porcelain --untracked-files=no)" ] ||
	say "note: the work tree has changes that are not committed: this tests HEAD, not them"
git init -q "$root$clone"
git -C "$root$clone" fetch -q --no-tags "$project" HEAD
git -C "$root$clone" checkout -q --detach FETCH_HEAD
times+=("$(printf '%-40s %5d s' "unpack the root, clone ${head:0:12}" $(($(date +%s) - t0)))")
say "root unpacked in ${root#"$project"/}, clone of ${head:0:12} at $clone"

# --- the README's commands ------------------------------------------------

# What the checks look at; a line of a log starts with "[ 12s] ".
demo_finished() {
	grep -qE '^\[ *[0-9]+s\] nslogger demo finished\.' "$demo_log"
}

# printk lines start with "[    1.234567] "; none may reach the user.
demo_quiet() {
	! grep -qE '^\[ *[0-9]+s\] \[ *[0-9]+\.[0-9]+\] ' "$demo_log"
}

clone_clean() {
	[ -z "$(git -C "$root$clone" status --porcelain)" ]
}

step help "make help" || true
demo_log=$logs/$(printf '%02d' $((n + 1)))-demo.log
if step demo "make demo"; then
	check "make demo told its story to the end" demo_finished
	check "make demo printed no kernel log" demo_quiet
fi
step test-host "make test-host" || true
step test-vm "make test-vm VM_SCENARIOS='abi lxc'" || true
check "the clone is clean after the builds (git status)" clone_clean

# --- verdict --------------------------------------------------------------

times+=("$(printf '%-40s %5d s' total $(($(date +%s) - t_start)))")
echo "# times:"
printf '#   %s\n' "${times[@]}"
if [ "$fail" = 0 ] && [ "$keep" = 0 ]; then
	remove_root "$root"
else
	say "the root stays in ${root#"$project"/} (logs in ${logs#"$project"/})"
fi
echo "fresh: $pass passed, $fail failed"
[ "$fail" = 0 ]
