/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: every difference between supported kernels, in one place.
 *
 * Force-included into every file by Kbuild.  Differences are detected by
 * feature (probes in Kbuild set NSLOG_HAVE_* from the kernel's exports or
 * sources), not by version number.  Kbuild also compares the kernel's
 * version with the floor and sets NSLOG_KERNEL_TOO_OLD below it.
 */
#ifndef _NSLOG_COMPAT_H
#define _NSLOG_COMPAT_H

#ifdef NSLOG_KERNEL_TOO_OLD
#error "nslogger needs Linux 6.1 or later"
#endif

/*
 * Holding an IPC namespace, on kernels that export put_ipc_ns() and on
 * those that do not.
 *
 * The registry must keep each IPC namespace it has a log set for from being
 * freed (so that its address cannot be reused by a new namespace while an
 * entry still names it), and must notice when nobody but itself holds it
 * any more.  Three calls do that:
 *
 *  nslog_ipc_hold()         take a hold on a namespace the caller has alive
 *  nslog_ipc_unhold()       give it back
 *  nslog_ipc_held_by_us_only()  nothing else keeps it alive
 *
 * With put_ipc_ns() exported (6.12), the hold is a plain reference: the
 * namespace is ours alone when its count is 1.
 *
 * Without it (6.1), a module may take a reference but never drop one.  So
 * the hold is an nsfs file instead, made with open_related_ns() exactly as
 * opening /proc/self/ns/ipc would, and taken straight out of the fd table
 * again.  The nsfs inode holds the one namespace reference that every
 * opener of that namespace's nsfs files shares; our file holds the dentry.
 * fput() of the file ends in the kernel's own put_ipc_ns().  The namespace
 * is ours alone when its count is 1 (only the nsfs inode) and the dentry's
 * count is 1 (only our file: no other open ns file or bind mount).  Once
 * both are 1 nobody can take a new reference: that needs a task in the
 * namespace or an nsfs file of it.
 */
#include <linux/dcache.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/ipc_namespace.h>
#include <linux/proc_fs.h>
#include <linux/proc_ns.h>

struct nslog_ipc_hold {
	struct ipc_namespace *ns;
#ifndef NSLOG_HAVE_PUT_IPC_NS
	struct file *nsfs;
#endif
};

#ifdef NSLOG_HAVE_PUT_IPC_NS

static inline int nslog_ipc_hold(struct nslog_ipc_hold *hold,
				 struct ipc_namespace *ns)
{
	hold->ns = get_ipc_ns(ns);
	return 0;
}

static inline void nslog_ipc_unhold(struct nslog_ipc_hold *hold)
{
	put_ipc_ns(hold->ns);
	hold->ns = NULL;
}

static inline bool nslog_ipc_held_by_us_only(const struct nslog_ipc_hold *hold)
{
	return refcount_read(&hold->ns->ns.count) == 1;
}

#else /* !NSLOG_HAVE_PUT_IPC_NS */

static inline struct ns_common *nslog_ipc_get_ns(struct ns_common *ns)
{
	get_ipc_ns(container_of(ns, struct ipc_namespace, ns));
	return ns;
}

static inline int nslog_ipc_hold(struct nslog_ipc_hold *hold,
				 struct ipc_namespace *ns)
{
	struct file *file;
	int fd;

	fd = open_related_ns(&ns->ns, nslog_ipc_get_ns);
	if (fd < 0)
		return fd;
	/*
	 * Take it back out of the fd table at once.  Another thread of the
	 * caller could have closed fd and reused the number in between: then
	 * what we took is not ours, and we give up rather than keep it.
	 */
	file = close_fd_get_file(fd);
	if (!file)
		return -EAGAIN;
	if (file_inode(file)->i_private != &ns->ns) {
		filp_close(file, current->files);
		return -EAGAIN;
	}
	/* Keep a reference of our own; close the fd table's one properly. */
	hold->nsfs = get_file(file);
	filp_close(file, current->files);
	hold->ns = ns;
	return 0;
}

static inline void nslog_ipc_unhold(struct nslog_ipc_hold *hold)
{
	fput(hold->nsfs);
	hold->nsfs = NULL;
	hold->ns = NULL;
}

static inline bool nslog_ipc_held_by_us_only(const struct nslog_ipc_hold *hold)
{
	return refcount_read(&hold->ns->ns.count) == 1 &&
	       d_count(hold->nsfs->f_path.dentry) == 1;
}

#endif /* NSLOG_HAVE_PUT_IPC_NS */

#endif /* _NSLOG_COMPAT_H */
