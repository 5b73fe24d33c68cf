// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: the host administrator's view, /proc/nslogger/.
 *
 * Files here describe or steer every namespace at once, so opening one
 * needs CAP_SYSLOG in the initial user namespace, checked with the opener's
 * credentials.  procfs shows the same entries in every pid namespace's
 * /proc, containers' included; the check is what keeps them out, whatever
 * the mode bits say.
 *
 *   namespaces   every log set: see nslog_ns_show(); poll() reports
 *                EPOLLPRI | EPOLLERR once the list changed since the file
 *                was last read from its start
 *   owners       how many sets each owner has: nslog_ns_show_owners()
 *   limits       per-cgroup rate limits: read nslog_rl_show(), write
 *                commands for nslog_rl_write()
 *
 * The limits decide whose records are kept, so changing them is the
 * host administrator's alone: opening limits for writing needs
 * CAP_SYS_ADMIN in the initial user namespace, and CAP_SYSLOG, which log
 * shippers are given to read every container, only lets it be read (as
 * does CAP_SYS_ADMIN).
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/user_namespace.h>

#include "proc.h"
#include "ns/registry.h"
#include "ratelimit/ratelimit.h"

static struct proc_dir_entry *nslog_proc_dir;

static int nslog_proc_open(struct inode *inode, struct file *file)
{
	if (!file_ns_capable(file, &init_user_ns, CAP_SYSLOG))
		return -EPERM;
	return single_open(file, pde_data(inode), NULL);
}

static const struct proc_ops nslog_proc_ro_ops = {
	.proc_open	= nslog_proc_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
};

/*
 * The listing of log sets, with poll() for the changes a collector waits
 * for.  Each open file remembers how many changes it last showed.
 */
struct nslog_proc_ns {
	u64 seen;
};

static int nslog_proc_ns_show(struct seq_file *m, void *v)
{
	struct nslog_proc_ns *st = m->private;

	/* Read first: a change while listing shows up at the next poll. */
	st->seen = nslog_ns_changes();
	return nslog_ns_show(m, v);
}

static int nslog_proc_ns_open(struct inode *inode, struct file *file)
{
	struct nslog_proc_ns *st;
	int err;

	if (!file_ns_capable(file, &init_user_ns, CAP_SYSLOG))
		return -EPERM;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->seen = nslog_ns_changes();
	err = single_open(file, nslog_proc_ns_show, st);
	if (err)
		kfree(st);
	return err;
}

static int nslog_proc_ns_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kfree(m->private);
	return single_release(inode, file);
}

static __poll_t nslog_proc_ns_poll(struct file *file, poll_table *wait)
{
	struct seq_file *m = file->private_data;
	struct nslog_proc_ns *st = m->private;

	return nslog_ns_poll(file, wait, READ_ONCE(st->seen));
}

static const struct proc_ops nslog_proc_ns_ops = {
	.proc_open	= nslog_proc_ns_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_poll	= nslog_proc_ns_poll,
	.proc_release	= nslog_proc_ns_release,
};

static int nslog_proc_limits_open(struct inode *inode, struct file *file)
{
	bool admin = file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);

	if (file->f_mode & FMODE_WRITE) {
		if (!admin)
			return -EPERM;
	} else if (!admin && !file_ns_capable(file, &init_user_ns, CAP_SYSLOG)) {
		return -EPERM;
	}
	return single_open(file, nslog_rl_show, NULL);
}

/* Commands are short; a page of them is plenty. */
#define NSLOG_PROC_MAX_WRITE	PAGE_SIZE

static ssize_t nslog_proc_limits_write(struct file *file,
				       const char __user *ubuf, size_t count,
				       loff_t *ppos)
{
	ssize_t err;
	char *text;

	if (count > NSLOG_PROC_MAX_WRITE)
		return -E2BIG;
	text = memdup_user_nul(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	err = nslog_rl_write(text);
	kfree(text);
	return err ?: count;
}

static const struct proc_ops nslog_proc_limits_ops = {
	.proc_open	= nslog_proc_limits_open,
	.proc_read	= seq_read,
	.proc_write	= nslog_proc_limits_write,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
};

/**
 * nslog_proc_init() - make /proc/nslogger and its files
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int nslog_proc_init(void)
{
	nslog_proc_dir = proc_mkdir("nslogger", NULL);
	if (!nslog_proc_dir)
		return -ENOMEM;
	if (!proc_create("namespaces", 0400, nslog_proc_dir,
			 &nslog_proc_ns_ops))
		goto err_remove_dir;
	if (!proc_create_data("owners", 0400, nslog_proc_dir,
			      &nslog_proc_ro_ops, nslog_ns_show_owners))
		goto err_remove_dir;
	if (!proc_create("limits", 0600, nslog_proc_dir,
			 &nslog_proc_limits_ops))
		goto err_remove_dir;
	return 0;

err_remove_dir:
	proc_remove(nslog_proc_dir);
	return -ENOMEM;
}

/**
 * nslog_proc_exit() - remove /proc/nslogger
 *
 * Context: module exit.
 */
void nslog_proc_exit(void)
{
	proc_remove(nslog_proc_dir);
}
