// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: module init and exit.
 *
 * Each concern sets itself up in order and is undone in reverse: the logs
 * of the initial namespace, the registry of the others, the rate limits,
 * the /proc files that describe and steer them, and last the ways files
 * are opened: nslogfs, then the devices.
 */

#include <linux/module.h>

#include "device.h"
#include "logset.h"
#include "proc.h"
#include "fs/nslogfs.h"
#include "ns/registry.h"
#include "ratelimit/ratelimit.h"

/* From the file VERSION, through Kbuild. */
#ifndef NSLOG_VERSION
#define NSLOG_VERSION "unknown"
#endif

static int __init nslog_init(void)
{
	int err;

	err = nslog_logsets_init();
	if (err)
		return err;
	err = nslog_ns_init();
	if (err)
		goto err_logsets_exit;
	err = nslog_rl_init();
	if (err)
		goto err_ns_exit;
	err = nslog_proc_init();
	if (err)
		goto err_rl_exit;
	err = nslog_fs_init();
	if (err)
		goto err_proc_exit;
	err = nslog_device_init();
	if (err)
		goto err_fs_exit;
	return 0;

err_fs_exit:
	nslog_fs_exit();
err_proc_exit:
	nslog_proc_exit();
err_rl_exit:
	nslog_rl_exit();
err_ns_exit:
	nslog_ns_exit();
err_logsets_exit:
	nslog_logsets_exit();
	return err;
}

static void __exit nslog_exit(void)
{
	/* No file is open (each holds a module reference): nothing races. */
	nslog_device_exit();
	nslog_fs_exit();
	nslog_proc_exit();
	nslog_rl_exit();
	nslog_ns_exit();
	nslog_logsets_exit();
}

module_init(nslog_init);
module_exit(nslog_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Android-compatible logger devices for containers");
MODULE_VERSION(NSLOG_VERSION);
