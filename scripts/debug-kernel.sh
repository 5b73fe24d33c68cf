#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh - the KASAN/UBSAN/lockdep/kmemleak kernel of `make test-debug`.
#
#   scripts/debug-kernel.sh kernel     build the kernel (cached), print its dir
#   scripts/debug-kernel.sh module     build nslogger.ko against it twice,
#                                      with its KUnit suites and without,
#                                      print the paths of both
#   scripts/debug-kernel.sh env        print KERNEL=, MODDIR=, KREL=, KO=,
#                                      KUNIT_KO= lines
#
# The kernel is the same for every checkout, so it is kept outside the clone,
# in the cache folder (scripts/cache-dir.sh: /var/cache/nslogger/debug-kernel
# for root), and a clean clone finds it built; the module is the checkout's
# own and is built in the clone each time:
#
#   CACHE/linux-source-6.1/   Debian's linux-source-6.1.tar.xz, unpacked
#   CACHE/out/                the kernel's objects (O=): bzImage, .config
#   CACHE/modroot/lib/modules/KREL/   modules_install: modules.dep,
#                             modules.builtin (vm.sh --moddir; every driver
#                             is built in)
#   CACHE/out/nslog.sums      the key, and the checksums of bzImage and
#                             modules.builtin, checked before every use
#   build/debug-kernel/nslogger-src/  a copy of the module's sources, built
#                             with M= there, so no objects land in the cache
#   build/debug-kernel/nslogger-kunit-src/  the same, for the KUnit build
#   build/ko-debug/nslogger.ko        the module as it ships (KO=)
#   build/ko-debug/kunit/nslogger.ko  the module with its KUnit suites, which
#                             run at every insmod (KUNIT_KO=): loaded once
#                             for them, then the other one for everything else
#
# A lock (CACHE/.lock) keeps two checkouts from building it at once.
#
# The tree is Debian's, less Debian's exports for Android drivers: right
# after unpacking, every EXPORT line that scripts/debian-only-exports.txt
# names a file for is replaced by a comment, so the kernel exports what
# mainline 6.1 exports and make test-debug proves the module on that (issue
# 15). A line the list expects and the tree lacks stops the build, and the
# built kernel's Module.symvers must name none of the listed symbols.
#
# The config is "make allnoconfig" with tests/debug/kernel.config forced in
# (KCONFIG_ALLCONFIG), then olddefconfig. Every symbol the fragment sets must
# be in the final .config as it is written there, or the build fails. The
# kernel is built again only when the key changes: the tarball's sha256, the
# fragment's and the export list's contents and build_steps below.
# Environment:
#   NSLOG_DEBUG_JOBS=N     make -jN (default 2), always under nice -n 10
#   NSLOG_DEBUG_TARBALL=F  another linux-source tarball
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
root=$(cd "$here/.." && pwd -P)
tarball=${NSLOG_DEBUG_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
fragment=$root/tests/debug/kernel.config
exports=$here/debian-only-exports.txt
build=$("$here/cache-dir.sh" debug-kernel)
tree=$build/linux-source-6.1
out=$build/out
modroot=$build/modroot
msrc=$root/build/debug-kernel/nslogger-src
ksrc=$root/build/debug-kernel/nslogger-kunit-src
kodir=$root/build/ko-debug
jobs=${NSLOG_DEBUG_JOBS:-2}
# Part of the cache key: change it when build_kernel builds differently.
build_steps=2

say() {
	echo "debug-kernel: $*" >&2
}

die() {
	say "$*"
	exit 1
}

kmake() {
	nice -n 10 make -C "$tree" O="$out" -j"$jobs" "$@"
}

# The tarball's checksum, remembered by size and mtime (hashing 140 MB on
# every run of make test-debug would be most of the cached path).
tarball_sum() {
	local id cache=$build/tarball.sha256

	id=$(stat -Lc '%s %Y' "$tarball")
	if [ -s "$cache" ] && [ "$(sed -n 1p "$cache")" = "$id" ]; then
		sed -n 2p "$cache"
		return
	fi
	printf '%s\n%s\n' "$id" "$(sha256sum <"$tarball" | cut -d' ' -f1)" >"$cache"
	sed -n 2p "$cache"
}

# Each "CONFIG_X=v" line of the fragment must be in .config as it is, and
# each "# CONFIG_X is not set" must not be =y or =m there.
verify_config() {
	local line sym bad=0

	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF -- "$line" "$out/.config" && continue
			say "MISSING: $line (.config has: $(grep -E "^(# )?${line%%=*}[= ]" \
				"$out/.config" || echo nothing))"
			bad=1
			;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			grep -qE "^$sym=[ym]\$" "$out/.config" || continue
			say "MISSING: $line (.config has: $(grep -E "^$sym=" "$out/.config"))"
			bad=1
			;;
		esac
	done <"$fragment"
	[ $bad = 0 ] || die "the config lacks options asked for in ${fragment#"$root"/}"
}

# The list's "SYMBOL FILE" lines that have a FILE: the exports to remove.
listed_exports() {
	sed -e 's/#.*//' "$exports" | awk 'NF >= 2 && $2 != "-" { print $1, $2 }'
}

# What an export line becomes: a comment, so line numbers stay as they are
# (KASAN and lockdep reports quote them).
removed_line() {
	echo "/* nslogger debug kernel: Debian-only export of $1 removed */"
}

# Replace each listed EXPORT_SYMBOL*(SYMBOL); line in its file with
# removed_line. Idempotent: a line replaced before counts as done. Anything
# else (no such file, no such line, more than one) is fatal, so a tarball
# whose Debian patches changed cannot keep an export silently.
strip_debian_exports() {
	local sym file path n bad=0 nrm=0

	while read -r sym file; do
		if ! [[ "$sym" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
			say "bad symbol '$sym' in ${exports#"$root"/}"
			bad=1
			continue
		fi
		path=$tree/$file
		if [ ! -f "$path" ]; then
			say "NOT FOUND: $file (for $sym)"
			bad=1
			continue
		fi
		n=$(grep -cE "^EXPORT_SYMBOL(_GPL)?\($sym\);\$" "$path" || true)
		if [ "$n" = 1 ]; then
			sed -i -E "s|^EXPORT_SYMBOL(_GPL)?\($sym\);\$|$(removed_line "$sym")|" "$path"
			nrm=$((nrm + 1))
		elif [ "$n" = 0 ] && grep -qxF "$(removed_line "$sym")" "$path"; then
			nrm=$((nrm + 1))
		else
			say "EXPECTED one EXPORT_SYMBOL(_GPL)($sym); line in $file, found $n"
			bad=1
		fi
	done < <(listed_exports)
	[ $bad = 0 ] || die "the tree does not match ${exports#"$root"/}: update the list"
	[ $nrm -gt 0 ] || die "${exports#"$root"/} lists no export to remove"
	say "removed $nrm Debian-only exports (${exports#"$root"/})"
}

# The built kernel must export none of the listed symbols, with or without
# a FILE (Module.symvers: CRC, symbol, module, export type, namespace).
verify_exports() {
	local left

	left=$(sed -e 's/#.*//' "$exports" | awk 'NF { print $1 }' |
		grep -xF -f - <(cut -f2 "$out/Module.symvers") || true)
	[ -z "$left" ] || die "the kernel still exports: $(echo "$left" | tr "\n" " ")"
}

# What a usable build is: the key it was made for, its release and the
# checksums of what a boot uses (a cache folder is outside the clone, so
# anything may have happened to it).
sums() {
	local krel

	echo "key $1"
	krel=$(cat "$modroot/krel" 2>/dev/null) || return 0
	echo "krel $krel"
	sha256sum "$out/arch/x86/boot/bzImage" "$modroot/lib/modules/$krel/modules.builtin" \
		"$modroot/lib/modules/$krel/modules.dep" "$out/Module.symvers" 2>/dev/null |
		cut -d' ' -f1
}

build_kernel() {
	local key t0 t1 krel treekey

	command -v xz >/dev/null || die "xz is missing (scripts/deps.sh debug)"
	[ -r "$tarball" ] || die "no $tarball (scripts/deps.sh debug)"
	mkdir -p "$build"
	key=$( { tarball_sum; sha256sum <"$fragment"; sha256sum <"$exports"
		echo "steps $build_steps"; } | sha256sum | cut -d' ' -f1)
	if [ -s "$out/nslog.sums" ] && [ "$(sums "$key")" = "$(cat "$out/nslog.sums")" ]; then
		say "cached: $out ($(cat "$modroot/krel"))"
		return 0
	fi
	[ ! -e "$out/nslog.sums" ] || say "the cached kernel is not the one wanted, or damaged: building it again"

	t0=$(date +%s)
	# The unpacked tree is the tarball less the listed exports: unpack
	# again when either changes (an export taken off the list comes back).
	treekey="$(tarball_sum) $(sha256sum <"$exports" | cut -d' ' -f1)"
	if [ ! -s "$build/tree.key" ] || [ "$(cat "$build/tree.key")" != "$treekey" ] ||
	   [ ! -f "$tree/Makefile" ]; then
		say "unpacking $tarball"
		rm -rf "$tree" "$out"
		tar -C "$build" -xf "$tarball"
		[ -f "$tree/Makefile" ] || die "$tarball has no linux-source-6.1/"
	fi
	# On a tree unpacked before, this only checks that it was done.
	strip_debian_exports
	echo "$treekey" >"$build/tree.key"
	rm -f "$out/nslog.sums"
	mkdir -p "$out"
	say "configuring from ${fragment#"$root"/}"
	kmake -s KCONFIG_ALLCONFIG="$fragment" allnoconfig
	kmake -s olddefconfig
	verify_config
	say "building bzImage and modules (make -j$jobs, nice 10)"
	kmake -s bzImage modules
	kmake -s modules_prepare
	verify_exports
	rm -rf "$modroot"
	kmake -s INSTALL_MOD_PATH="$modroot" DEPMOD=/sbin/depmod modules_install
	krel=$(kmake -s kernelrelease)
	[ -r "$modroot/lib/modules/$krel/modules.builtin" ] ||
		die "modules_install left no modules.builtin for $krel"
	echo "$krel" >"$modroot/krel"
	sums "$key" >"$out/nslog.sums.tmp"
	mv -f "$out/nslog.sums.tmp" "$out/nslog.sums"
	t1=$(date +%s)
	say "built $krel in $((t1 - t0)) s"
}

# The project's own KUnit options (config NSLOG_*KUNIT* in Kconfig) as make
# variables for Kbuild and as -D for IS_ENABLED() in the C code.
kunit_opts() {
	local sym flags=

	while read -r sym; do
		echo "CONFIG_$sym=y"
		flags+=" -DCONFIG_$sym=1"
	done < <(sed -n 's/^config \(NSLOG_[A-Z0-9_]*KUNIT[A-Z0-9_]*\)$/\1/p' "$root/Kconfig")
	echo "KCFLAGS=${flags# }"
}

# build_one SRC DEST [MAKEVAR...]: nslogger.ko from a fresh copy of the
# module's sources in SRC, copied to DEST.
build_one() {
	local src=$1 dest=$2

	shift 2
	mkdir -p "$src" "$(dirname "$dest")"
	# A copy, so this build's objects never mix with the shared tree's
	# (the module is small: it is built from scratch every time);
	# module-src.sh empties it first.
	"$here/module-src.sh" "$src"
	say "building $(basename "$(dirname "$dest")")/nslogger.ko against $(cat "$modroot/krel")${*:+ with $*}"
	nice -n 10 make -C "$out" M="$src" -j"$jobs" CONFIG_NSLOG=m W=1 "$@" modules >&2
	cp "$src/nslogger.ko" "$dest"
}

build_module() {
	local -a opts

	mapfile -t opts < <(kunit_opts)
	build_one "$msrc" "$kodir/nslogger.ko"
	build_one "$ksrc" "$kodir/kunit/nslogger.ko" "${opts[@]}"
	echo "$kodir/nslogger.ko"
	echo "$kodir/kunit/nslogger.ko"
}

case "${1:-}" in
kernel)
	exec 9>"$build/.lock"
	flock 9
	build_kernel
	echo "$out"
	;;
module)
	exec 9>"$build/.lock"
	flock 9
	build_kernel
	# The module build only reads the kernel's tree: others may go on.
	flock -u 9
	build_module
	;;
env)
	[ -s "$modroot/krel" ] || die "no kernel built yet (scripts/debug-kernel.sh kernel)"
	krel=$(cat "$modroot/krel")
	# The bzImage: this kernel does not come up through the PVH entry of
	# its vmlinux (nothing on the console at all).
	echo "KERNEL=$out/arch/x86/boot/bzImage"
	echo "MODDIR=$modroot/lib/modules/$krel"
	echo "KREL=$krel"
	echo "KO=$kodir/nslogger.ko"
	echo "KUNIT_KO=$kodir/kunit/nslogger.ko"
	;;
*)
	sed -n '/^#   scripts\/debug-kernel.sh kernel/,/^#   *against it/s/^#//p' "$0" >&2
	exit 2
	;;
esac
