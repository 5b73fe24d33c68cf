/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_DEVICE_H
#define _NSLOG_DEVICE_H

int nslog_device_init(void);
void nslog_device_exit(void);

#endif /* _NSLOG_DEVICE_H */
