#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stress.sh - the stress and fuzz campaign, bad user memory and fault
# injection (tests/stress/run.sh), as a VM scenario.
#
# Runs in the QEMU guest (tests/containers/vm.sh) as root with the module
# loaded.  Two stress runs of NSLOG_STRESS_SECONDS (default 30) each, one
# with a fixed seed and one with a random one (both printed), then badmem,
# then faults.sh, which is a SKIP on a kernel without fault injection
# (Debian's).  Under TCG the whole takes about two minutes.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
grep -q '^nslogger ' /proc/modules || insmod "${NSLOG_KO:?NSLOG_KO is not set}"
exec "$top/tests/stress/run.sh"
