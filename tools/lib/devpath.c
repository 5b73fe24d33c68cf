// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * devpath: resolve the device node of a log buffer.
 *
 * Resolution, first match wins:
 *  1. an explicit directory (nslogcat --dev-dir), else $NSLOG_DEV_DIR if set
 *     and not empty: the first of DIR/<name>, DIR/log_<name> and
 *     DIR/log/<name> that exists; if none does, the same form as the main
 *     node has, else DIR/<name> (so an error names the node expected).
 *     DIR can thus be the nodes' own directory or a /dev-like root;
 *  2. /dev/log/<name> if /dev/log is a directory (Android, and containers
 *     that bind-mount the nodes there);
 *  3. /dev/log_<name>, the devtmpfs name on a host where /dev/log is the
 *     syslog socket.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devpath.h"

static const char *const nslog_buf_names[NSLOG_BUF_COUNT] = {
	[NSLOG_BUF_MAIN]	= "main",
	[NSLOG_BUF_RADIO]	= "radio",
	[NSLOG_BUF_EVENTS]	= "events",
	[NSLOG_BUF_SYSTEM]	= "system",
};

/**
 * nslog_buf_name() - the short name of a buffer id
 * @id: an enum nslog_buf_id
 *
 * Context: any.
 * Return: "main", "radio", "events" or "system"; NULL for a bad id.
 */
const char *nslog_buf_name(int id)
{
	if (id < 0 || id >= NSLOG_BUF_COUNT)
		return NULL;
	return nslog_buf_names[id];
}

/**
 * nslog_buf_from_name() - the buffer id of a short name
 * @name: "main", "radio", "events" or "system"
 *
 * Context: any.
 * Return: the enum nslog_buf_id, or -1 if @name is none of them.
 */
int nslog_buf_from_name(const char *name)
{
	int id;

	for (id = 0; id < NSLOG_BUF_COUNT; id++)
		if (!strcmp(name, nslog_buf_names[id]))
			return id;
	return -1;
}

static int nslog_put(char *buf, size_t size, const char *a, const char *b,
		     const char *c)
{
	int n = snprintf(buf, size, "%s%s%s", a, b, c);

	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

static const char *const nslog_dir_forms[] = { "/", "/log_", "/log/" };

/* The first form under which DIR holds a node @name, or NULL. */
static const char *nslog_dir_form(char *buf, size_t size, const char *dir,
				  const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(nslog_dir_forms) / sizeof(char *); i++) {
		if (nslog_put(buf, size, dir, nslog_dir_forms[i], name))
			return NULL;
		if (!access(buf, F_OK))
			return nslog_dir_forms[i];
	}
	return NULL;
}

static int nslog_path_in_dir(char *buf, size_t size, const char *dir,
			     const char *name)
{
	const char *form;

	form = nslog_dir_form(buf, size, dir, name);
	if (!form)
		form = nslog_dir_form(buf, size, dir, "main");
	return nslog_put(buf, size, dir, form ? form : "/", name);
}

/**
 * nslog_dev_path_root() - default device path below a /dev-like root
 * @buf: where to write the path
 * @size: size of @buf
 * @id: buffer id
 * @root: "/dev", or a test directory standing in for it
 *
 * Uses ROOT/log/<name> if ROOT/log is a directory, else ROOT/log_<name>.
 *
 * Context: process context; calls stat().
 * Return: 0, -EINVAL for a bad @id, -ENAMETOOLONG if @buf is too small.
 */
int nslog_dev_path_root(char *buf, size_t size, int id, const char *root)
{
	const char *name = nslog_buf_name(id);
	struct stat st;
	int ret;

	if (!name)
		return -EINVAL;
	ret = nslog_put(buf, size, root, "/log", "");
	if (ret)
		return ret;
	if (!stat(buf, &st) && S_ISDIR(st.st_mode))
		return nslog_put(buf, size, root, "/log/", name);
	return nslog_put(buf, size, root, "/log_", name);
}

/**
 * nslog_dev_path() - the device node of a buffer
 * @buf: where to write the path
 * @size: size of @buf
 * @id: buffer id
 * @dir: directory holding the nodes, or NULL for $NSLOG_DEV_DIR or /dev
 *
 * See the top of this file for the resolution order.
 *
 * Context: process context; reads the environment and calls stat().
 * Return: 0, -EINVAL for a bad @id, -ENAMETOOLONG if @buf is too small.
 */
int nslog_dev_path(char *buf, size_t size, int id, const char *dir)
{
	const char *name = nslog_buf_name(id);

	if (!name)
		return -EINVAL;
	if (!dir || !*dir)
		dir = getenv(NSLOG_DEV_DIR_ENV);
	if (dir && *dir)
		return nslog_path_in_dir(buf, size, dir, name);
	return nslog_dev_path_root(buf, size, id, "/dev");
}
