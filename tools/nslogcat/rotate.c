// SPDX-License-Identifier: GPL-2.0
/*
 * rotate: the output file of nslogcat -f, rotated as logcat rotates it.
 *
 * FILE is opened for appending; its size counts from what it held.  Once
 * it holds KB kilobytes or more (checked after each record, so a file
 * ends on a whole record), FILE.COUNT-1 becomes FILE.COUNT, and so on
 * down to FILE becoming FILE.1, and a new FILE is started.  The numbers
 * have as many digits as COUNT, zero-padded: with -n 10, FILE.01 ...
 * FILE.10.  -c with -f removes FILE and its rotated files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rotate.h"

static int nslog_digits(size_t n)
{
	int d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/**
 * nslog_rotate_name() - the name of rotated file @i
 * @buf: where to write it
 * @size: its size
 * @path: FILE
 * @count: how many rotated files are kept (sets the digits)
 * @i: 0 for FILE itself, else 1 to @count
 *
 * Context: any.
 * Return: 0, or -ENAMETOOLONG.
 */
int nslog_rotate_name(char *buf, size_t size, const char *path, size_t count,
		      size_t i)
{
	int n;

	if (!i)
		n = snprintf(buf, size, "%s", path);
	else
		n = snprintf(buf, size, "%s.%0*zu", path, nslog_digits(count),
			     i);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int nslog_rotate_reopen(struct nslog_rotate *r)
{
	int fd = open(r->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
		      0600);

	if (fd < 0)
		return -errno;
	r->f = fdopen(fd, "a");
	if (!r->f) {
		close(fd);
		return -ENOMEM;
	}
	return 0;
}

/**
 * nslog_rotate_open() - open FILE for appending
 * @r: the state, filled in
 * @path: FILE
 * @kb: rotate at this size; 0 never
 * @count: rotated files kept
 *
 * Context: process context.
 * Return: 0, or a negative errno of open().
 */
int nslog_rotate_open(struct nslog_rotate *r, const char *path, size_t kb,
		      size_t count)
{
	r->path = path;
	r->kb = kb;
	r->count = count;
	r->f = NULL;
	return nslog_rotate_reopen(r);
}

static int nslog_rotate_shift(struct nslog_rotate *r)
{
	char from[4096], to[4096];
	size_t i;

	for (i = r->count; i > 0; i--) {
		if (nslog_rotate_name(to, sizeof(to), r->path, r->count, i) ||
		    nslog_rotate_name(from, sizeof(from), r->path, r->count,
				      i - 1))
			return -ENAMETOOLONG;
		if (rename(from, to) && errno != ENOENT)
			return -errno;
	}
	return 0;
}

/**
 * nslog_rotate_check() - rotate if FILE has reached its size
 * @r: the state
 *
 * Context: process context, after each record.
 * Return: 0, or a negative errno (-EIO for a write error).
 */
int nslog_rotate_check(struct nslog_rotate *r)
{
	off_t size;
	int ret;

	if (fflush(r->f))
		return -EIO;
	if (!r->kb)
		return 0;
	size = ftello(r->f);
	if (size < 0)
		return -errno;
	if ((size_t)size / 1024 < r->kb)
		return 0;
	ret = nslog_rotate_close(r);
	if (ret)
		return ret;
	ret = nslog_rotate_shift(r);
	if (ret)
		return ret;
	return nslog_rotate_reopen(r);
}

/**
 * nslog_rotate_close() - close FILE
 * @r: the state
 *
 * Context: process context.
 * Return: 0, or -EIO if the last writes failed.
 */
int nslog_rotate_close(struct nslog_rotate *r)
{
	int ret = 0;

	if (r->f && fclose(r->f))
		ret = -EIO;
	r->f = NULL;
	return ret;
}

/**
 * nslog_rotate_clear() - remove FILE and its rotated files (-c with -f)
 * @path: FILE
 * @count: rotated files kept
 *
 * Context: process context.
 * Return: 0, or the first negative errno other than -ENOENT.
 */
int nslog_rotate_clear(const char *path, size_t count)
{
	char name[4096];
	size_t i;
	int ret = 0;

	for (i = 0; i <= count; i++) {
		if (nslog_rotate_name(name, sizeof(name), path, count, i))
			return -ENAMETOOLONG;
		if (unlink(name) && errno != ENOENT && !ret)
			ret = -errno;
	}
	return ret;
}
