#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# relay-run.sh - the guest side of bench/relay.sh:
#
#   relay-run.sh WRITEBENCH        (NSLOG_RELAY_ROUNDS rounds, default 3)
#
# Each round is one interleaved writebench of, at every payload, /dev/null,
# plain write() to /dev/log_main, NSLOG_IOC_RELAY through the same log's fd
# naming a live process, a bare datagram receiver (its sender included) and
# the same receiver relaying each datagram into the same log.  CSV to
# $NSLOG_OUT/relay.csv, the guest's particulars to $NSLOG_OUT/env.csv.

set -uo pipefail

wb=${1:?usage: relay-run.sh WRITEBENCH}
out=${NSLOG_OUT:?run me through tests/containers/vm.sh --out}
rounds=${NSLOG_RELAY_ROUNDS:-3}
reps=9
ms=30

cases=()
for p in 32 128 1024; do
	cases+=("w=null,p=$p" "w=nslog,p=$p" "w=relay,p=$p" "w=recv,p=$p"
		"w=recvrelay,p=$p")
	# With two vCPUs, a sender and a receiver on different ones wake each
	# other across vCPUs, which TCG makes dear and erratic: also both on
	# one vCPU, as they are in the one-vCPU (-icount) guest.
	if [ "$(nproc)" -gt 1 ]; then
		cases+=("w=recv,p=$p,cpu=0,name=recv1cpu-$p"
			"w=recvrelay,p=$p,cpu=0,name=recvrelay1cpu-$p")
	fi
done

{
	echo "key,value"
	echo "kernel,$(uname -r)"
	echo "vcpus,$(nproc)"
	echo "cpu,\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')\""
	echo "cmdline,\"$(cat /proc/cmdline)\""
	echo "max_dgram_qlen,$(cat /proc/sys/net/unix/max_dgram_qlen)"
	echo "rounds,$rounds"
	echo "reps,$reps"
	echo "sample_ms,$ms"
} >"$out/env.csv"

rc=0
"$wb" -H >"$out/relay.csv"
for r in $(seq "$rounds"); do
	"$wb" -r "$reps" -t "$ms" -l "r$r" "${cases[@]}" >>"$out/relay.csv" || rc=1
	echo "relay: round $r done"
done
exit $rc
