/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_FS_NSLOGFS_H
#define _NSLOG_FS_NSLOGFS_H

int nslog_fs_init(void);
void nslog_fs_exit(void);

#endif /* _NSLOG_FS_NSLOGFS_H */
