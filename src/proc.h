/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_PROC_H
#define _NSLOG_PROC_H

int nslog_proc_init(void);
void nslog_proc_exit(void);

#endif /* _NSLOG_PROC_H */
