// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: module init and exit.
 *
 * Each concern sets itself up in order and is undone in reverse.
 */

#include <linux/module.h>

#include "device.h"
#include "log.h"

static int __init nslog_init(void)
{
	int err;

	err = nslog_log_init();
	if (err)
		return err;
	/* Devices last: once they exist, files can be opened. */
	err = nslog_device_init();
	if (err)
		goto err_log_exit;
	return 0;

err_log_exit:
	nslog_log_exit();
	return err;
}

static void __exit nslog_exit(void)
{
	/* No file is open (each holds a module reference): nothing races. */
	nslog_device_exit();
	nslog_log_exit();
}

module_init(nslog_init);
module_exit(nslog_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Android-compatible logger devices for containers");
