/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_FILE_H
#define _NSLOG_FILE_H

#include <linux/fs.h>
#include <linux/poll.h>

struct nslog_log;
struct nslog_logset;

/**
 * struct nslog_opener - what the way a file was opened decides
 * @may_flush: asked at each LOGGER_FLUSH_LOG, with the caller's credentials
 *	at that time: a write descriptor passed to another process, or kept
 *	across setuid(), carries no right to flush
 * @resize: does NSLOG_IOC_SET_SIZE once the caller's right to it is
 *	checked; NULL for nslog_log_resize()
 */
struct nslog_opener {
	bool (*may_flush)(struct file *file);
	int (*resize)(struct file *file, u32 size);
};

int nslog_file_open(struct file *file, struct nslog_log *log, bool all,
		    const struct nslog_opener *opener);
struct nslog_log *nslog_file_log(struct file *file);

int nslog_file_release(struct inode *inode, struct file *file);
ssize_t nslog_file_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos);
ssize_t nslog_file_write_iter(struct kiocb *iocb, struct iov_iter *from);
__poll_t nslog_file_poll(struct file *file, poll_table *wait);
long nslog_file_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/*
 * The operations of every log file; a file_operations that opens log files
 * by path adds its .open (nslog_file_open()).
 */
#define NSLOG_FILE_OPS						\
	.owner		= THIS_MODULE,				\
	.release	= nslog_file_release,			\
	.read		= nslog_file_read,			\
	.write_iter	= nslog_file_write_iter,		\
	.poll		= nslog_file_poll,			\
	.unlocked_ioctl	= nslog_file_ioctl,			\
	.compat_ioctl	= compat_ptr_ioctl

extern const struct file_operations nslog_file_fops;

#endif /* _NSLOG_FILE_H */
