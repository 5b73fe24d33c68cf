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

/* What Kconfig's "depends on" says, for builds out of tree, which skip it. */
#include <linux/kconfig.h>
#if !IS_ENABLED(CONFIG_SYSVIPC)
#error "nslogger needs CONFIG_SYSVIPC: a log set belongs to an IPC namespace"
#endif
#if !IS_ENABLED(CONFIG_CGROUPS)
#error "nslogger needs CONFIG_CGROUPS: rate limits are per cgroup"
#endif
#if !IS_ENABLED(CONFIG_PROC_FS)
#error "nslogger needs CONFIG_PROC_FS: /proc/nslogger is its admin interface"
#endif

#include <linux/ipc_namespace.h>
#include <linux/refcount.h>
#include <linux/workqueue.h>

/*
 * How many references an IPC namespace has: ns_common.count until 6.17,
 * read with ns_ref_read() since it became __ns_ref (6.18).
 */
#ifndef NSLOG_HAVE_NS_REF_READ
#define ns_ref_read(__ns)	refcount_read(&(__ns)->ns.count)
#endif

/*
 * A namespace's type (CLONE_NEWIPC, ...): its operations' until 6.17, its
 * own ns_common.ns_type since 6.18.
 */
#include <linux/proc_ns.h>

#ifdef NSLOG_HAVE_NS_COMMON_TYPE
#define nslog_ns_type(ns)	((ns)->ns_type)
#else
#define nslog_ns_type(ns)	((ns)->ops->type)
#endif

/*
 * 6.17 named the system workqueues for what they are and 7.x warns about
 * the old names: system_percpu_wq is system_wq, system_dfl_wq (unbound)
 * is system_unbound_wq.
 */
#ifndef NSLOG_HAVE_SYSTEM_DFL_WQ
#define system_percpu_wq	system_wq
#define system_dfl_wq		system_unbound_wq
#endif

/*
 * The idmapping of the mount a file was opened through, as the
 * i_uid_into_vfsuid() family takes it: a struct mnt_idmap from 6.3, the
 * mount's user namespace before.
 */
#include <linux/fs.h>

#ifdef NSLOG_HAVE_MNT_IDMAP
#define nslog_idmap		mnt_idmap
#define nslog_file_idmap(file)	file_mnt_idmap(file)
#else
#define nslog_idmap		user_namespace
#define nslog_file_idmap(file)	file_mnt_user_ns(file)
#endif

/*
 * A new inode's times: simple_inode_init_ts() from 6.7; 6.6 put i_ctime
 * behind inode_set_ctime_current(); before, three plain fields.
 */
static inline void nslog_inode_init_ts(struct inode *inode)
{
#if defined(NSLOG_HAVE_SIMPLE_INODE_INIT_TS)
	simple_inode_init_ts(inode);
#elif defined(NSLOG_HAVE_INODE_SET_CTIME_CURRENT)
	inode->i_atime = inode_set_ctime_current(inode);
	inode->i_mtime = inode->i_atime;
#else
	inode->i_ctime = current_time(inode);
	inode->i_atime = inode->i_ctime;
	inode->i_mtime = inode->i_ctime;
#endif
}

/*
 * A superblock's dentry operations: set_default_d_op() from 6.17, before
 * it a plain field.
 */
#ifdef NSLOG_HAVE_SET_DEFAULT_D_OP
#define nslog_set_default_d_op(sb, op)	set_default_d_op(sb, op)
#else
#define nslog_set_default_d_op(sb, op)	((sb)->s_d_op = (op))
#endif

/*
 * d_revalidate() is told its parent and name from 6.14: the arguments of
 * a definition, of which the body uses @dentry and @flags.
 */
#ifdef NSLOG_HAVE_D_REVALIDATE_DIR
#define NSLOG_D_REVALIDATE_ARGS						\
	struct inode *dir, const struct qstr *name, struct dentry *dentry, \
	unsigned int flags
#else
#define NSLOG_D_REVALIDATE_ARGS	struct dentry *dentry, unsigned int flags
#endif

#endif /* _NSLOG_COMPAT_H */
