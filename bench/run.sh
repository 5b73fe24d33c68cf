#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - the benchmark, run inside the guest by `make bench`:
#
#   tests/containers/vm.sh --out DIR ... -- bench/run.sh WRITEBENCH [KBENCH_KO]
#
# Every phase runs one writebench, whose cases are interleaved round-robin;
# each phase has a /dev/null case, so every ratio is one of two numbers
# taken in the same minute.  Phases that change something global (how many
# namespaces or rules exist) run once per setting, each with its own
# /dev/null reference.  CSV files go to $NSLOG_OUT (vm.sh --out).
# NSLOG_BENCH_QUICK=1 runs fewer cases and repetitions, to try the harness out.

set -uo pipefail

wb=${1:?usage: run.sh WRITEBENCH [KBENCH_KO]}
kbench=${2:-}
out=${NSLOG_OUT:?run me through tests/containers/vm.sh --out}
tmp=/tmp/bench.$$
mkdir -p "$tmp"
cg=/sys/fs/cgroup

reps=9
ms=30
payloads="20 100 1000 4076"
readers="0 1 16 256 1024"
nscounts="1 100 10000"
memn=2000
if [ "${NSLOG_BENCH_QUICK:-0}" = 1 ]; then
	reps=3
	ms=10
	payloads="100 4076"
	readers="0 16"
	nscounts="1 100"
	memn=100
fi

hdr=$("$wb" -H)
failed=0

say() {
	echo "bench: $*"
}

# bench LABEL CSV CASE...: one interleaved run, appended to CSV.
bench() {
	local label=$1 csv=$2

	shift 2
	[ -s "$out/$csv" ] || echo "$hdr" >"$out/$csv"
	say "$label: $# cases"
	if ! "$wb" -r "$reps" -t "$ms" -l "$label" "$@" >"$tmp/run.csv"; then
		say "$label: writebench failed"
		failed=1
	fi
	cat "$tmp/run.csv" >>"$out/$csv"
}

rm -f "$out"/*.csv
# 10,000 IPC namespaces: the default cap is threads-max / 2.
echo 40000 >/proc/sys/user/max_ipc_namespaces

# --- environment ------------------------------------------------------------
{
	echo "key,value"
	echo "kernel,$(uname -r)"
	echo "vcpus,$(nproc)"
	echo "cpu,\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')\""
	echo "mem_kb,$(awk '/MemTotal/ {print $2}' /proc/meminfo)"
	echo "module_params,\"${NSLOG_PARAMS:-}\""
	echo "reps,$reps"
	echo "sample_ms,$ms"
} >"$out/env.csv"

# --- 0. the headline: 100 bytes, short samples, many rounds -----------------
reps_save=$reps ms_save=$ms
reps=$((reps * 4 + 1)) ms=$((ms / 4))
bench headline headline.csv w=null w=nslog w=nslogv w=marker w=unix w=pipe w=kmsg
reps=$reps_save ms=$ms_save

# --- 1. every writer, every payload, nothing else going on ------------------
cases=()
for p in $payloads; do
	for w in null nslog nslogv kmsg marker unix pipe; do
		cases+=("w=$w,p=$p")
	done
done
bench writers writers.csv "${cases[@]}"

# --- 2. readers: each case in its own IPC namespace, so its readers are its
# own; /dev/kmsg's readers are global, so its counts run one at a time -------
cases=(w=null)
for n in $readers; do
	for a in 0 1; do
		[ "$n" = 0 ] && [ "$a" = 1 ] && continue
		for w in nslog nslogv; do
			cases+=("w=$w,ns=new,rd=$n,act=$a,name=$w-rd$n-act$a")
		done
	done
done
bench readers readers.csv "${cases[@]}"
for n in $readers; do
	for a in 0 1; do
		[ "$n" = 0 ] && [ "$a" = 1 ] && continue
		bench "readers-kmsg-$n-$a" readers.csv w=null \
			"w=kmsg,rd=$n,act=$a,name=kmsg-rd$n-act$a"
	done
done

# --- 3. one and two writers, same log or logs of different namespaces -------
bench writers2 threads.csv w=null,th=1 w=null,th=2 \
	w=nslog,th=1,name=nslog-same-1 w=nslog,th=2,name=nslog-same-2 \
	w=nslog,ns=each,th=1,name=nslog-ns-1 w=nslog,ns=each,th=2,name=nslog-ns-2 \
	w=marker,th=1 w=marker,th=2 w=unix,th=1 w=unix,th=2

# --- 4. live namespaces: N-1 held by one process, plus the writer's ---------
for n in $nscounts; do
	rm -f "$tmp/ready"
	"$wb" hold $((n - 1)) "$tmp/ready" &
	holder=$!
	while [ ! -e "$tmp/ready" ] && kill -0 $holder 2>/dev/null; do
		sleep 0.2
	done
	if [ ! -e "$tmp/ready" ]; then
		say "could not hold $((n - 1)) namespaces"
		failed=1
		continue
	fi
	[ -s "$out/nscreate.csv" ] || echo "namespaces,ns_per_create_and_open" >"$out/nscreate.csv"
	cat "$tmp/ready" >>"$out/nscreate.csv"
	bench "ns-$n" namespaces.csv w=null w=nslog,name=nslog-init \
		w=nslog,ns=new,name=nslog-newns w=open,name=open-init \
		w=open,ns=new,name=open-newns
	kill -KILL $holder
	wait $holder 2>/dev/null
done

# --- 5. rate-limit rules ------------------------------------------------------
deep=a/b/c/d/e/f/g
mkdir -p $cg/nsb1 $cg/nsb1l $cg/nsb8/$deep $cg/nsb8l/$deep
# shellcheck disable=SC2054 # the commas are part of each case
rl_cases=(w=null w=nslog,name=root "w=nslog,cg=$cg/nsb1,name=d1"
	"w=nslog,cg=$cg/nsb8/$deep,name=d8")
lim=records=100000000/1s
# No rule at all: the write path skips the walk.
bench rules-0 ratelimit.csv "${rl_cases[@]}"
# The limited writers' own rules (limits far above what they write).
printf 'set /nsb1l %s\nset /nsb8l/%s %s\n' $lim $deep $lim >/proc/nslogger/limits ||
	failed=1
rl_cases+=("w=nslog,cg=$cg/nsb1l,name=d1-limited"
	"w=nslog,cg=$cg/nsb8l/$deep,name=d8-limited")
bench rules-own ratelimit.csv "${rl_cases[@]}"
for n in 1 10000; do
	[ "${NSLOG_BENCH_QUICK:-0}" = 1 ] && [ $n = 10000 ] && n=100
	[ -s "$out/mem.csv" ] || echo "what,count,field,delta_kb,bytes_each" >"$out/mem.csv"
	# One rule is below what /proc/meminfo can resolve: only 10,000 are kept.
	if [ $n -ge 100 ]; then
		"$wb" rules $n $cg/nsbr >>"$out/mem.csv" || failed=1
	else
		"$wb" rules $n $cg/nsbr >/dev/null || failed=1
	fi
	bench "rules-own+$n" ratelimit.csv "${rl_cases[@]}"
done

# --- 6. a reader draining a full ring -----------------------------------------
bench drain drain.csv w=drain,p=100,dev=/dev/log_radio w=drain,p=1000,dev=/dev/log_radio

# --- 7. memory per namespace --------------------------------------------------
[ -s "$out/mem.csv" ] || echo "what,count,field,delta_kb,bytes_each" >"$out/mem.csv"
for mode in none open write; do
	# Let the previous run's namespaces and sets go (ns_grace_ms, GC).
	sleep 7
	"$wb" mem $memn $mode >>"$out/mem.csv" || failed=1
done

# --- 8. the in-kernel append path against memcpy ------------------------------
if [ -n "$kbench" ] && [ -r "$kbench" ]; then
	if insmod "$kbench"; then
		echo "what,payload,records,ns_per_record" >"$out/kbench.csv"
		dmesg | sed -n 's/.*nslog_kbench: csv,//p' >>"$out/kbench.csv"
		rmmod nslog_kbench || failed=1
	else
		say "insmod $kbench failed"
		failed=1
	fi
else
	say "no in-kernel benchmark module given"
fi

say "done"
for f in "$out"/*.csv; do
	echo "== ${f##*/}"
	cat "$f"
done
rm -rf "$tmp"
exit $failed
