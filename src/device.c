// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: the four character devices, and who may do what through them.
 *
 * A node reaches the log set of the opener's IPC namespace; the files are
 * those of file.c.
 *
 * Privilege (reading every record, flushing) comes from the log group or
 * from CAP_SYSLOG in the user namespace that owns the log set.  Which group
 * is the log group is the host administrator's choice, never a node
 * owner's: the log_gid parameter, or else the group of the node that was
 * opened, but only if the node belongs to the host's root as the opener's
 * mount shows it (idmapped mounts included).  Anyone who owns a node can
 * give it any group of their own, and a container that shares an IPC
 * namespace it does not own (the host's, or a pod's) must not get read-all
 * that way.
 *
 * When it is decided: reading every record at open, from the opener's
 * credentials, like any permission to read a file; write-only opens decide
 * nothing.  Flushing destroys records, so it is checked on every
 * LOGGER_FLUSH_LOG against the caller's credentials, as Android's driver
 * did: a write descriptor passed to another process, or kept across
 * setuid(), carries no right to flush.
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mnt_idmapping.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/user_namespace.h>

#include "device.h"
#include "file.h"
#include "logset.h"
#include "ns/registry.h"

static bool android_nodes;
module_param(android_nodes, bool, 0444);
MODULE_PARM_DESC(android_nodes,
		 "create /dev/log/main ... as on Android instead of /dev/log_main ...");

static int log_gid = -1;
module_param(log_gid, int, 0644);
MODULE_PARM_DESC(log_gid,
		 "group (of the initial user namespace) that reads every record and flushes; -1: the group of a node owned by root (default -1)");

static struct miscdevice nslog_misc[NSLOG_NR_LOGS];

/*
 * Whether the current task is in the log group, for a file of a node: the
 * log_gid group if one is set, else the node's group if root owns the node
 * as the file's mount shows it.  Effective and supplementary groups count,
 * as with Android's driver.
 */
static bool nslog_in_log_group(struct file *file)
{
	struct inode *inode = file_inode(file);
	int gid = READ_ONCE(log_gid);
	vfsuid_t vfsuid;
	vfsgid_t vfsgid;

	if (gid >= 0)
		return in_egroup_p(make_kgid(&init_user_ns, gid));
	vfsuid = i_uid_into_vfsuid(nslog_file_idmap(file), inode);
	if (!vfsuid_eq_kuid(vfsuid, GLOBAL_ROOT_UID))
		return false;
	vfsgid = i_gid_into_vfsgid(nslog_file_idmap(file), inode);
	return vfsgid_valid(vfsgid) && in_egroup_p(vfsgid_into_kgid(vfsgid));
}

/* Whether the current task may see every record, or flush, of @set. */
static bool nslog_privileged(struct file *file, struct nslog_logset *set,
			     bool audit)
{
	if (nslog_in_log_group(file))
		return true;
	return audit ? ns_capable(set->user_ns, CAP_SYSLOG) :
		       ns_capable_noaudit(set->user_ns, CAP_SYSLOG);
}

/* Flushing destroys records: the caller's privilege at the time of it. */
static bool nslog_may_flush(struct file *file)
{
	return nslog_privileged(file, nslog_file_log(file)->set, true);
}

static const struct nslog_opener nslog_device_opener = {
	.may_flush	= nslog_may_flush,
};

static int nslog_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct nslog_logset *set;
	bool all = false;

	/* The opener's IPC namespace decides which logs this file reaches. */
	set = nslog_ns_current_set();
	if (IS_ERR(set))
		return PTR_ERR(set);
	/*
	 * A reader's view is decided once, with the opener's credentials.  It
	 * is a probe (without privilege it sees its own records), so a
	 * refusal is not audited.
	 */
	if (file->f_mode & FMODE_READ)
		all = nslog_privileged(file, set, false);
	return nslog_file_open(file, &set->logs[misc - nslog_misc], all,
			       &nslog_device_opener);
}

static const struct file_operations nslog_fops = {
	NSLOG_FILE_OPS,
	.open		= nslog_open,
};

/* devtmpfs names: log_main ... or, with android_nodes, log/main ... */
static char nslog_nodenames[NSLOG_NR_LOGS][16];
static char nslog_devnames[NSLOG_NR_LOGS][16];

/**
 * nslog_device_init() - register the four log devices
 *
 * The nodes are created writable by anyone and readable by root only
 * (0622); a udev rule gives read access to the log group.
 *
 * Context: module init.
 * Return: 0 or a negative errno from misc_register().
 */
int nslog_device_init(void)
{
	int i, err;

	for (i = 0; i < NSLOG_NR_LOGS; i++) {
		struct miscdevice *misc = &nslog_misc[i];

		snprintf(nslog_devnames[i], sizeof(nslog_devnames[i]),
			 "log_%s", nslog_log_names[i]);
		misc->minor = MISC_DYNAMIC_MINOR;
		misc->name = nslog_devnames[i];
		misc->fops = &nslog_fops;
		misc->mode = 0622;
		if (android_nodes) {
			snprintf(nslog_nodenames[i], sizeof(nslog_nodenames[i]),
				 "log/%s", nslog_log_names[i]);
			misc->nodename = nslog_nodenames[i];
		}
		err = misc_register(misc);
		if (err)
			goto err_deregister;
	}
	return 0;

err_deregister:
	pr_err("nslogger: cannot register %s: %d\n", nslog_devnames[i], err);
	while (--i >= 0)
		misc_deregister(&nslog_misc[i]);
	return err;
}

/**
 * nslog_device_exit() - remove the log devices
 *
 * Context: module exit.
 */
void nslog_device_exit(void)
{
	int i;

	for (i = NSLOG_NR_LOGS - 1; i >= 0; i--)
		misc_deregister(&nslog_misc[i]);
}
