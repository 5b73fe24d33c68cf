#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm.sh - run one command inside Debian's packaged kernel under QEMU (TCG).
#
#   tests/containers/vm.sh [--kver KVER] [--ko PATH/TO/nslogger.ko]
#                          [--params "modparams"] [--append "kernel cmdline"]
#                          [--timeout SECS] [--mem 1G] [--smp 2]
#                          [--log FILE] [--out DIR] [--quiet] -- command [args...]
#   tests/containers/vm.sh --kernel IMAGE --moddir DIR [options] \
#                          -- command [args...]
#
# The host kernel cannot load modules, so every test of the module boots
# /boot/vmlinuz-KVER (default: scripts/kver.sh) with a tiny initramfs that
# only knows how to reach the host's file system over 9p:
#
#   host                                  guest
#   ----                                  -----
#   /          --9p tag "root", ro-->     /   (switch_root, cache=loose)
#   OUT        --9p tag "out",  rw-->     OUT (same absolute path) = $NSLOG_OUT
#   build/vm/initramfs-KVER-HASH.cpio     busybox, virtio+9p modules, /init
#   build/vm/run-PID/cmd.sh               the command, run with cwd = project
#   build/vm/run-PID/env.sh               NSLOG_* for tests/containers/guest-init.sh
#   build/vm/run-PID/MODULE.ko            copy of --ko, insmod'ed with --params
#
#   /init (busybox) -> insmod virtio/9p -> mount root -> switch_root ->
#   guest-init.sh: mounts, insmod, command, rmmod, dmesg + taint check ->
#   "NSLOG-VM-RESULT rc=N rmmod=ok|fail|none kernel=clean|dirty" -> power off
#
# --kernel boots a kernel built here instead (a vmlinux with the PVH note, or
# a bzImage; scripts/debug-kernel.sh builds one), with DIR its modules'
# lib/modules/KREL (modules.dep, modules.builtin); KVER is then basename DIR.
#
# --quiet shows only what the command prints, as it prints it, and none of
# the kernel's boot log or messages (make demo): the whole console still goes
# to --log, and its last lines are printed when anything fails.
#
# OUT is build/vm/out-PID, deleted on exit, unless --out DIR keeps it.
# The guest's /tmp, /run, /var/tmp, /var/log, /var/lib/lxc and /var/cache/lxc
# are fresh tmpfs; the rest of the host is read-only. Host variables named
# NSLOG_* are passed on to the command.
#
# The kernel runs with panic_on_warn=1 panic=-1 and QEMU with -no-reboot, so a
# WARN ends the guest before it can report: that, like a crash, is a failure.
#
# Exit status: the command's own when the kernel stayed clean and the module
# (if any) unloaded; otherwise one of
VM_EXIT_USAGE=2		# bad arguments or a missing kernel, qemu, ...
VM_EXIT_INSMOD=121	# --ko did not load, the command was not run
VM_EXIT_RMMOD=122	# rmmod of the --ko module failed after the command
VM_EXIT_DIRTY=123	# dmesg had a warning/oops/... or a bad taint bit
VM_EXIT_TIMEOUT=124	# --timeout expired, qemu was killed
VM_EXIT_NORESULT=125	# the guest stopped without a result (panic, WARN)
#
# Tuning knobs (environment): NSLOG_VM_ROOTOPTS, the 9p mount options of the
# root; NSLOG_VM_ACCEL, the -accel argument (default tcg,thread=multi);
# NSLOG_VM_PVH=0 boots the compressed bzImage; NSLOG_VM_QEMU_ARGS, more
# arguments for qemu; NSLOG_VM_TSC_KHZ, the guest's TSC rate (0: measured).
# The console of the last run is kept in --log (default
# build/vm/last-console.log); a run in progress writes build/vm/console-PID.log.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/../.." && pwd)
vmdir=$project/build/vm
guest_init=$here/guest-init.sh

kver=
kernel_opt=
moddir_opt=
ko=
params=
append=
timeout=600
mem=1G
smp=2
log=$vmdir/last-console.log
out=
keep_out=0
quiet=0
# Lines of the console printed when a --quiet run fails.
quiet_tail=60

die() {
	echo "vm.sh: $*" >&2
	exit "$VM_EXIT_USAGE"
}

usage() {
	sed -n '/^#   tests\/containers\/vm.sh/,/-- command/s/^#//p' "$0" >&2
	exit "$VM_EXIT_USAGE"
}

while [ $# -gt 0 ]; do
	opt=$1
	val=
	case "$opt" in
	--*=*)
		val=${opt#*=}
		opt=${opt%%=*}
		;;
	--kver|--kernel|--moddir|--ko|--params|--append|--timeout|--mem|--smp|--log|--out)
		[ $# -ge 2 ] || die "$opt needs an argument"
		val=$2
		shift
		;;
	esac
	case "$opt" in
	--kver)		kver=$val ;;
	--kernel)	kernel_opt=$val ;;
	--moddir)	moddir_opt=$val ;;
	--ko)		ko=$val ;;
	--params)	params=$val ;;
	--append)	append=$val ;;
	--timeout)	timeout=$val ;;
	--mem)		mem=$val ;;
	--smp)		smp=$val ;;
	--log)		log=$val ;;
	--out)		out=$val; keep_out=1 ;;
	--quiet)	quiet=1 ;;
	-h|--help)	usage ;;
	--)		shift; break ;;
	*)		echo "vm.sh: unknown option '$opt'" >&2; usage ;;
	esac
	shift
done
[ $# -gt 0 ] || { echo "vm.sh: no command given" >&2; usage; }

if [ -n "$kernel_opt" ]; then
	[ -n "$moddir_opt" ] || die "--kernel needs --moddir"
	moddir=$(cd "$moddir_opt" && pwd) || die "no $moddir_opt"
	kernel=$kernel_opt
	[ -n "$kver" ] || kver=$(basename "$moddir")
else
	[ -z "$moddir_opt" ] || die "--moddir goes with --kernel"
	[ -n "$kver" ] || kver=$("$project/scripts/kver.sh") || die "no kernel (scripts/deps.sh vm)"
	kernel=/boot/vmlinuz-$kver
	moddir=/lib/modules/$kver
fi
[ -r "$kernel" ] || die "cannot read $kernel"
[ -r "$moddir/modules.dep" ] || die "no $moddir/modules.dep"
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || die "--timeout wants whole seconds"
[[ "$smp" =~ ^[1-9][0-9]*$ ]] || die "--smp wants a count"
for t in qemu-system-x86_64 cpio sha256sum timeout; do
	command -v "$t" >/dev/null || die "$t is missing (scripts/deps.sh vm)"
done
# busybox-static installs /bin/busybox; a dynamic one cannot run in the initramfs.
busybox=/bin/busybox
[ -x "$busybox" ] || busybox=$(command -v busybox || true)
if [ -z "$busybox" ] || [[ "$(LC_ALL=C ldd "$busybox" 2>&1 || true)" != *"not a dynamic"* ]]; then
	die "busybox is missing or not static (scripts/deps.sh vm)"
fi
# Paths travel on the kernel command line, which splits at white space.
case "$project$guest_init" in *[[:space:]]*) die "project path has white space" ;; esac

mkdir -p "$vmdir"
run=$vmdir/run-$$
runlog=$vmdir/console-$$.log
[ -n "$out" ] || out=$vmdir/out-$$
qemu_pid=
filter_pid=
start_ns=$(date +%s%N)

# shellcheck disable=SC2317 # called from the trap
cleanup() {
	local rc=$?

	trap - EXIT INT TERM
	if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill -TERM "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	if [ -n "$filter_pid" ]; then
		kill -TERM "$filter_pid" 2>/dev/null || true
		wait "$filter_pid" 2>/dev/null || true
	fi
	if [ -f "$runlog" ]; then
		mkdir -p "$(dirname "$log")"
		mv -f "$runlog" "$log" 2>/dev/null || cp -f "$runlog" "$log" || true
		rm -f "$runlog"
	fi
	rm -rf "$run"
	[ "$keep_out" = 1 ] || rm -rf "$out"
	exit "$rc"
}
trap cleanup EXIT
trap 'echo "vm.sh: interrupted" >&2; exit 130' INT TERM

mkdir -p "$run" "$out"
out=$(cd "$out" && pwd)
case "$out" in *[[:space:]]*) die "--out path has white space" ;; esac

# ---------------------------------------------------------------------------
# The initramfs: static busybox, the virtio/9p modules in load order, /init.
# Cached per kernel and per hash of everything that goes into it.

# Reaching the root file system needs the PCI transport for the 9p device,
# the 9p transport and the file system; modules.dep supplies the rest.
initramfs_mods=(virtio_pci 9pnet_virtio 9p)

declare -A mod_path=() mod_deps=() mod_done=()
mod_order=()

load_modules_dep() {
	local line path deps name

	while IFS= read -r line; do
		path=${line%%:*}
		deps=${line#*:}
		name=${path##*/}
		name=${name%%.ko*}
		name=${name//-/_}
		mod_path[$name]=$path
		mod_deps[$path]=$deps
	done < "$moddir/modules.dep"
}

# Depth-first, dependencies first, so the order is right whatever order
# modules.dep happens to list them in.
resolve_module() {
	local path=$1 dep

	[ -z "${mod_done[$path]:-}" ] || return 0
	mod_done[$path]=1
	for dep in ${mod_deps[$path]}; do
		resolve_module "$dep"
	done
	mod_order+=("$path")
}

# Prints the /init of the initramfs. It gets nslog_* from the kernel command
# line as environment variables (names with no dot, so the kernel passes them).
init_script() {
	cat <<'INIT'
#!/bin/sh
# /init of the nslogger test initramfs, written by tests/containers/vm.sh.
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1

fatal() {
	echo
	echo "NSLOG-VM-FATAL $*"
	poweroff -f
	sleep 5
	echo o >/proc/sysrq-trigger
}

while read -r m; do
	insmod "/modules/$m" || fatal "insmod $m failed"
done </modules/order

tries=0
until mount -t 9p -o "$nslog_rootopts" root /newroot; do
	tries=$((tries + 1))
	[ $tries -lt 20 ] || fatal "cannot mount the 9p root ($nslog_rootopts)"
	sleep 0.1
done
[ -r "/newroot$nslog_init" ] || fatal "no $nslog_init in the 9p root"
mount -o move /dev /newroot/dev || fatal "cannot move /dev"
exec switch_root /newroot /bin/bash "$nslog_init"
INIT
}

build_initramfs() {
	local m path src dst stage hash file tmp inputs
	local -a files=()

	load_modules_dep
	for m in "${initramfs_mods[@]}"; do
		if [ -n "${mod_path[$m]:-}" ]; then
			resolve_module "${mod_path[$m]}"
		elif grep -qE "/$m\.ko" "$moddir/modules.builtin" 2>/dev/null; then
			:	# built into this kernel
		else
			die "module $m not found for $kver"
		fi
	done

	for path in "${mod_order[@]}"; do
		case "$path" in /*) files+=("$path") ;; *) files+=("$moddir/$path") ;; esac
	done
	inputs=$( { init_script; printf '%s\n' "${mod_order[@]}"; } | sha256sum)
	hash=$( { echo "$inputs"; sha256sum "$busybox" "${files[@]}" | cut -d' ' -f1; } |
		sha256sum | cut -c1-16)
	file=$vmdir/initramfs-$kver-$hash.cpio
	initramfs=$file
	[ -s "$file" ] && return 0

	echo "vm.sh: building $(basename "$file")" >&2
	stage=$run/initramfs
	mkdir -p "$stage"/{bin,dev,modules,newroot,proc}
	cp "$busybox" "$stage/bin/busybox"
	for m in sh mount insmod sleep switch_root poweroff echo; do
		ln -s busybox "$stage/bin/$m"
	done
	# Debian 12 ships plain .ko; later kernels may compress them, and
	# busybox insmod cannot be relied on to decompress, so do it here.
	for src in "${files[@]}"; do
		dst=${src##*/}
		case "$dst" in
		*.ko)		cp "$src" "$stage/modules/$dst" ;;
		*.ko.xz)	xz -dc "$src" >"$stage/modules/${dst%.xz}" ;;
		*.ko.zst)	zstd -qdc "$src" >"$stage/modules/${dst%.zst}" ;;
		*.ko.gz)	gzip -dc "$src" >"$stage/modules/${dst%.gz}" ;;
		*)		die "unknown module format: $src" ;;
		esac
		echo "${dst%.ko*}.ko" >>"$stage/modules/order"
	done
	touch "$stage/modules/order"
	init_script >"$stage/init"
	chmod 755 "$stage/init"
	# The kernel opens /dev/console before /init runs; without the node it
	# only warns, and /init reopens it from devtmpfs anyway.
	mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true

	tmp=$file.tmp-$$
	(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$tmp"
	mv -f "$tmp" "$file"
	rm -rf "$stage"
	# Drop stale images of this kernel (not fresh ones another run may use).
	find "$vmdir" -maxdepth 1 -name "initramfs-$kver-*.cpio" ! -name "${file##*/}" \
		-mmin +60 -delete 2>/dev/null || true
}

build_initramfs

# ---------------------------------------------------------------------------
# The kernel, uncompressed. Under TCG the bzImage's own decompressor takes
# about 4 s of every boot (xz, 66 MB); QEMU boots the ELF vmlinux inside it
# directly through the PVH entry point (CONFIG_PVH), so unpack that once on
# the host and cache it. The same kernel code runs, minus KASLR. Falls back to
# the bzImage when anything is missing; NSLOG_VM_PVH=0 forces the fallback.

le_u() {	# FILE OFFSET BYTES: an unsigned little-endian integer
	od -An -tu"$3" -j "$2" -N "$3" "$1" | tr -d ' '
}

extract_vmlinux() {
	local dst=$vmdir/vmlinux-$kver setup payload len magic tmp size
	local -a unpack

	[ "${NSLOG_VM_PVH:-1}" = 1 ] || return 1
	grep -qx 'CONFIG_PVH=y' "/boot/config-$kver" 2>/dev/null || return 1
	if [ -s "$dst" ] && [ "$dst" -nt "$kernel" ]; then
		vmlinux=$dst
		return 0
	fi

	# The x86 boot protocol (Documentation/x86/boot.rst): "HdrS" at 0x202,
	# version >= 2.08 for payload_offset (0x248) and payload_length
	# (0x24c), which count from the protected-mode code after the
	# setup_sects (0x1f1) + 1 sectors of real-mode setup.
	[ "$(dd if="$kernel" bs=1 skip=$((0x202)) count=4 2>/dev/null)" = HdrS ] || return 1
	[ "$(le_u "$kernel" $((0x206)) 2)" -ge $((0x208)) ] || return 1
	setup=$(le_u "$kernel" $((0x1f1)) 1)
	[ "$setup" -ne 0 ] || setup=4
	payload=$(( (setup + 1) * 512 + $(le_u "$kernel" $((0x248)) 4) ))
	len=$(le_u "$kernel" $((0x24c)) 4)
	magic=$(od -An -tx1 -j "$payload" -N 4 "$kernel" | tr -d ' ')
	case "$magic" in
	fd377a58)	unpack=(xz -dc --single-stream) ;;
	28b52ffd)	unpack=(zstd -qdc) ;;
	1f8b*)		unpack=(gzip -dc) ;;
	*)		return 1 ;;
	esac
	command -v "${unpack[0]}" >/dev/null || return 1

	tmp=$dst.tmp-$$
	# The compressed data ends with its uncompressed size (32-bit LE);
	# the decompressors either stop at the end of the stream or warn.
	tail -c +$((payload + 1)) "$kernel" | head -c "$len" |
		"${unpack[@]}" >"$tmp" 2>/dev/null || true
	size=$(tail -c +$((payload + 1)) "$kernel" | head -c "$len" | tail -c 4 | od -An -tu4 | tr -d ' ')
	if [ "$(head -c 4 "$tmp" | od -An -tx1 | tr -d ' ')" != 7f454c46 ] ||
	   [ "$(stat -c %s "$tmp")" != "$size" ]; then
		rm -f "$tmp"
		echo "vm.sh: cannot unpack $kernel, booting it compressed" >&2
		return 1
	fi
	mv -f "$tmp" "$dst"
	vmlinux=$dst
}

vmlinux=$kernel
# A kernel of --kernel is booted as it is.
[ -n "$kernel_opt" ] || extract_vmlinux || vmlinux=$kernel

# ---------------------------------------------------------------------------
# What the guest runs: the command as a script, and its environment.

{
	echo '#!/bin/bash'
	echo '# written by tests/containers/vm.sh'
	printf 'exec'
	printf ' %q' "$@"
	echo
} >"$run/cmd.sh"

ko_guest=
modname=
if [ -n "$ko" ]; then
	[ -r "$ko" ] || die "cannot read $ko"
	# A copy in the run folder is visible in the guest wherever the
	# original lives (the guest's /tmp is its own tmpfs).
	ko_guest=$run/$(basename "$ko")
	cp "$ko" "$ko_guest"
	modname=$(modinfo -F name "$ko" 2>/dev/null || true)
	[ -n "$modname" ] || { modname=$(basename "$ko"); modname=${modname%%.ko*}; }
	modname=${modname//-/_}
	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null || true)
	case "$vermagic" in
	"$kver "*) ;;
	*) echo "vm.sh: warning: $ko has vermagic '$vermagic', kernel is $kver" >&2 ;;
	esac
fi

{
	echo '# written by tests/containers/vm.sh, sourced by guest-init.sh'
	# Variables from the host's environment first, so ours win.
	while IFS= read -r name; do
		printf 'export %s=%q\n' "$name" "${!name}"
	done < <(compgen -e | grep '^NSLOG_' || true)
	printf 'export NSLOG_PROJECT=%q\n' "$project"
	printf 'export NSLOG_RUN=%q\n' "$run"
	printf 'export NSLOG_CMD=%q\n' "$run/cmd.sh"
	printf 'export NSLOG_OUT=%q\n' "$out"
	printf 'export NSLOG_KO=%q\n' "$ko_guest"
	printf 'export NSLOG_KO_NAME=%q\n' "$modname"
	printf 'export NSLOG_PARAMS=%q\n' "$params"
	printf 'export NSLOG_KVER=%q\n' "$kver"
	# A kernel of its own has its modules here, not in the host's tree.
	printf 'export NSLOG_MODDIR=%q\n' "$moddir"
	printf 'export NSLOG_VM=1\n'
} >"$run/env.sh"

# ---------------------------------------------------------------------------
# Boot.

# cache=loose: the root is read-only and lives only as long as the run, so
# nothing goes stale, and it saves a 9p round trip on most lookups.
rootopts=${NSLOG_VM_ROOTOPTS:-trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro}
# tsc=reliable: QEMU's TCG derives every vCPU's TSC from the host's, so the
# guest need not distrust it; without it the kernel falls back to the HPET
# (each clock read an emulated MMIO access, 3x slower) and spends 0.6 s
# calibrating the second CPU.
cmdline="console=ttyS0 panic_on_warn=1 panic=-1 printk.devkmsg=on tsc=reliable"
cmdline+=" nslog_rootopts=$rootopts nslog_init=$guest_init nslog_env=$run/env.sh"
# The TSC's rate, too, since it is the host's: the guest's own measurement
# against the emulated PIT goes wrong when the host is busy (Debian's 7.2
# once took 202 MHz for 2600, a clock 13 times too fast, and tsc=reliable
# keeps it from ever correcting that). Only when the host knows the rate
# exactly (tsc_known_freq) and "cpu MHz" shows it (no aperfmperf, which
# would make it the current speed instead); NSLOG_VM_TSC_KHZ overrides,
# 0 lets the guest measure.
tsc_khz=${NSLOG_VM_TSC_KHZ:-}
if [ -z "$tsc_khz" ]; then
	tsc_khz=$(awk -F': *' '
		$1 ~ /^flags/ { known = / tsc_known_freq( |$)/; aperf = / aperfmperf( |$)/ }
		$1 ~ /^cpu MHz/ { mhz = $2 }
		/^$/ { exit }
		END { if (known && !aperf && mhz > 0) printf "%d", mhz * 1000; else print 0 }
	' /proc/cpuinfo)
fi
[ "$tsc_khz" = 0 ] || cmdline+=" tsc_early_khz=$tsc_khz"
[ -z "$append" ] || cmdline+=" $append"

# qboot (in qemu-system-data, like SeaBIOS) starts the kernel sooner and
# does not clear the terminal on the way.
bios=()
[ ! -e /usr/share/qemu/qboot.rom ] || bios=(-bios qboot.rom)

qemu=(
	qemu-system-x86_64
	"${bios[@]}"
	-accel "${NSLOG_VM_ACCEL:-tcg,thread=multi}"
	-cpu max -m "$mem" -smp "$smp"
	-nographic -no-reboot -nodefaults -monitor none -nic none -parallel none
	-kernel "$vmlinux" -initrd "$initramfs" -append "$cmdline"
	-chardev "stdio,id=con,signal=off,logfile=$runlog"
	-serial chardev:con
	-virtfs "local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap"
)
# Extra arguments for debugging, e.g. NSLOG_VM_QEMU_ARGS="-s" for gdb.
# shellcheck disable=SC2206 # word splitting is wanted
qemu+=(${NSLOG_VM_QEMU_ARGS:-})

# --quiet: of the console, only the command's own lines, between the
# guest's NSLOG-VM-START and NSLOG-VM-END, less any kernel message
# ("[   12.345678] ...") printed meanwhile.
quiet_filter() {
	local line on=0

	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		case "$line" in
		*NSLOG-VM-START\ uptime=*)
			on=1
			continue
			;;
		*NSLOG-VM-END\ uptime=*)
			# The command's last line may lack its newline.
			line=${line%%NSLOG-VM-END*}
			[ $on = 0 ] || [ -z "$line" ] || printf '%s\n' "$line"
			on=0
			continue
			;;
		esac
		[ $on = 1 ] || continue
		[[ "$line" =~ ^\[\ *[0-9]+\.[0-9]+\]\  ]] && continue
		printf '%s\n' "$line"
	done
}

: >"$runlog"
console_out=/dev/stdout
if [ "$quiet" = 1 ]; then
	console_out=$run/console.fifo
	mkfifo "$console_out"
	quiet_filter <"$console_out" &
	filter_pid=$!
fi
# children_cpu: $cpu_ms, the CPU time (user + system) of the children
# reaped so far, from this shell's `times` (not a subshell's: a forked
# shell starts with none counted). Its change over the run is QEMU's: how
# much of the wall-clock time the guest kept a host CPU busy (the test
# budget, docs/reliability.md).
children_cpu() {
	local t=

	times >"$run/times"
	{ IFS= read -r t && IFS= read -r t; } <"$run/times" || true
	cpu_ms=0
	[[ "$t" =~ ^([0-9]+)m([0-9]+)\.([0-9]{3})s\ ([0-9]+)m([0-9]+)\.([0-9]{3})s ]] || return 0
	cpu_ms=$(( (10#${BASH_REMATCH[1]} * 60 + 10#${BASH_REMATCH[2]}) * 1000 + 10#${BASH_REMATCH[3]} +
		(10#${BASH_REMATCH[4]} * 60 + 10#${BASH_REMATCH[5]}) * 1000 + 10#${BASH_REMATCH[6]} ))
}
children_cpu
cpu0=$cpu_ms
# In the background (stdin is /dev/null) so that the INT/TERM trap can stop it.
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$console_out" &
qemu_pid=$!
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
qemu_pid=
if [ -n "$filter_pid" ]; then
	wait "$filter_pid" || true
	filter_pid=
fi
end_ns=$(date +%s%N)

# ---------------------------------------------------------------------------
# Verdict, from the console. The guest lowers the console log level before it
# reports, but match anywhere in a line in case a kernel message got in front.

console=$(tr -d '\r' <"$runlog")
result=$(grep -aoE 'NSLOG-VM-RESULT rc=[0-9]+ rmmod=(ok|fail|none) kernel=(clean|dirty)' \
	<<<"$console" | tail -n1 || true)
started=$(grep -aoE 'NSLOG-VM-START uptime=[0-9.]+' <<<"$console" | tail -n1 || true)
insmod=$(grep -aoE 'NSLOG-VM-INSMOD rc=[0-9]+' <<<"$console" | tail -n1 || true)

total=$(( (end_ns - start_ns) / 1000000 ))
children_cpu
cpu=$((cpu_ms - cpu0))
timing="total $((total / 1000)).$(printf '%03d' $((total % 1000)))s, QEMU's CPU $((cpu / 1000))s"
[ -z "$started" ] || timing="command started at ${started#*uptime=}s guest uptime, $timing"
[ "$quiet" = 1 ] || echo "vm.sh: $kver, $timing" >&2

# Before a failure's verdict, in a --quiet run: where the console is and
# its end, what the kernel said.
show_console() {
	[ "$quiet" = 1 ] || return 0
	echo "vm.sh: $kver, $timing; the last $quiet_tail lines of the console ($log):" >&2
	tail -n "$quiet_tail" <<<"$console" | sed 's/^/vm.sh: | /' >&2
}

if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
	show_console
	echo "vm.sh: TIMEOUT after ${timeout}s, qemu killed (console: $log)" >&2
	exit "$VM_EXIT_TIMEOUT"
fi
if [ -z "$result" ]; then
	show_console
	echo "vm.sh: FAIL: the guest stopped without a result line (qemu rc=$qemu_rc)" >&2
	grep -aE 'NSLOG-VM-FATAL|Kernel panic|WARNING:|BUG:|Oops' <<<"$console" |
		head -n 5 | sed 's/^/vm.sh:   /' >&2 || true
	# The first report whole, its call trace included, last on stderr:
	# a CI log that keeps only the end of the output still names where
	# the kernel died and what it was doing.
	awk '!on && /(BUG:|WARNING:|Oops|general protection fault)/ { on = 1 }
	     on && n++ < 80 { print "vm.sh: > " $0 }
	     on && /(---\[ end trace|Kernel panic)/ { exit }' <<<"$console" >&2 || true
	echo "vm.sh: console: $log" >&2
	exit "$VM_EXIT_NORESULT"
fi

if [ -n "$ko" ] && [ "$insmod" != "NSLOG-VM-INSMOD rc=0" ]; then
	show_console
	echo "vm.sh: FAIL: insmod $ko ${params:+($params) }failed: ${insmod:-no report}" >&2
	exit "$VM_EXIT_INSMOD"
fi

[[ "$result" =~ rc=([0-9]+)\ rmmod=([a-z]+)\ kernel=([a-z]+) ]]
cmd_rc=${BASH_REMATCH[1]}
rmmod=${BASH_REMATCH[2]}
kernel_state=${BASH_REMATCH[3]}

if [ "$kernel_state" != clean ]; then
	show_console
	echo "vm.sh: FAIL: kernel dirty (command rc=$cmd_rc):" >&2
	grep -a 'NSLOG-VM-DMESG' <<<"$console" | sed 's/^.*NSLOG-VM-DMESG /vm.sh:   /' >&2 || true
	exit "$VM_EXIT_DIRTY"
fi
if [ "$rmmod" = fail ]; then
	show_console
	echo "vm.sh: FAIL: rmmod $modname failed after the command (rc=$cmd_rc)" >&2
	exit "$VM_EXIT_RMMOD"
fi
if [ "$cmd_rc" != 0 ]; then
	show_console
	echo "vm.sh: command exited with $cmd_rc" >&2
fi
exit "$cmd_rc"
