/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: every difference between supported kernels, in one place.
 *
 * Force-included into every file by Kbuild.  Differences are detected by
 * feature (probes in Kbuild set NSLOG_HAVE_* from the kernel's headers), not
 * by version number.  Kbuild also compares the kernel's version with the
 * floor and sets NSLOG_KERNEL_TOO_OLD below it.
 */
#ifndef _NSLOG_COMPAT_H
#define _NSLOG_COMPAT_H

#ifdef NSLOG_KERNEL_TOO_OLD
#error "nslogger needs Linux 6.1 or later"
#endif

#endif /* _NSLOG_COMPAT_H */
