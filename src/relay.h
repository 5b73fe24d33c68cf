/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_RELAY_H
#define _NSLOG_RELAY_H

#include <linux/types.h>
#include <linux/uidgid.h>

struct file;
struct pid;
struct nslog_log;
struct nslog_logset;
struct nslog_rec;
struct nslog_rec_relay;
struct nslog_relay;

/* Every flag NSLOG_IOC_RELAY knows. */
#define NSLOG_RELAY_FLAGS	(NSLOG_RELAY_KEEP_EXITED | NSLOG_RELAY_WRITER_SET | \
				 NSLOG_RELAY_FILE_LOG)

int nslog_relay_check(const struct nslog_relay *arg);
unsigned int nslog_relay_log(const struct nslog_relay *arg);
void nslog_relay_stamp(struct nslog_rec *rec, struct nslog_rec_relay *rel,
		       const struct nslog_relay *arg, struct pid *writer,
		       kuid_t euid);
long nslog_relay_ioctl(struct file *file, struct nslog_log *log,
		       struct nslog_relay __user *uarg);

#endif /* _NSLOG_RELAY_H */
