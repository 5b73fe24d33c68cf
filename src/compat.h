/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: every difference between supported kernels, in one place.
 *
 * Force-included into every file by Kbuild.  Differences are detected by
 * feature (probes in Kbuild set NSLOG_HAVE_* from the kernel's headers), not
 * by version number; the only version test is the floor below.
 */
#ifndef _NSLOG_COMPAT_H
#define _NSLOG_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "nslogger needs Linux 6.1 or later"
#endif

#endif /* _NSLOG_COMPAT_H */
