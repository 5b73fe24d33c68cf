// SPDX-License-Identifier: GPL-2.0
/*
 * eventtag: the event-log-tags file, read whole at start and on reinit.
 *
 * A line is "NUMBER NAME [FORMAT]" (FORMAT the rest of the line, spaces
 * included); "#" starts a comment line; a line that does not start with
 * a number is skipped. The text is kept, cut into NUL-terminated fields,
 * and a table of the tags points into it: memory is the file's size and
 * 24 bytes a tag, the file at most NSLOGD_EVENTTAG_FILE_MAX.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eventtag.h"

static char *read_file(const char *path, int *err)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	if (fstat(fd, &st)) {
		*err = errno;
		goto out;
	}
	if (st.st_size > NSLOGD_EVENTTAG_FILE_MAX) {
		*err = EFBIG;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		*err = ENOMEM;
		goto out;
	}
	while (len < (size_t)st.st_size) {
		n = read(fd, buf + len, (size_t)st.st_size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
out:
	close(fd);
	return buf;
}

static int parse(struct nslogd_eventtags *t)
{
	char *p = t->text, *line, *end;
	size_t cap = 0;
	unsigned long num;
	void *bigger;

	while (*p) {
		line = p;
		p = strchr(line, '\n');
		if (p)
			*p++ = '\0';
		else
			p = line + strlen(line);
		if (*line < '0' || *line > '9')
			continue;
		num = strtoul(line, &end, 10);
		if (end == line || (*end != ' ' && *end != '\t') ||
		    num > 0xffffffffUL)
			continue;
		while (*end == ' ' || *end == '\t')
			end++;
		if (!*end)
			continue;
		if (t->n == cap) {
			cap = cap ? 2 * cap : 256;
			bigger = realloc(t->tags, cap * sizeof(*t->tags));
			if (!bigger)
				return -ENOMEM;
			t->tags = bigger;
		}
		t->tags[t->n].num = (unsigned int)num;
		t->tags[t->n].name = end;
		end += strcspn(end, " \t");
		if (*end) {
			*end++ = '\0';
			end += strspn(end, " \t");
		}
		t->tags[t->n].format = end;
		t->n++;
	}
	return 0;
}

/**
 * nslogd_eventtags_load() - read an event-log-tags file
 * @t: the tags, empty or loaded before (replaced)
 * @path: the file; NULL for $NSLOG_EVENT_TAGS, else NSLOGD_EVENTTAG_FILE
 *
 * A file that cannot be read leaves @t empty, with the reason in @t->err:
 * getEventTag then finds nothing, and nslogd goes on.
 *
 * Context: process; reads a file.
 * Return: 0, or -errno.
 */
int nslogd_eventtags_load(struct nslogd_eventtags *t, const char *path)
{
	int err = 0;

	nslogd_eventtags_free(t);
	if (!path)
		path = getenv(NSLOGD_EVENTTAG_ENV);
	if (!path)
		path = NSLOGD_EVENTTAG_FILE;
	t->text = read_file(path, &err);
	if (!t->text) {
		t->err = err;
		return -err;
	}
	err = parse(t);
	if (err) {
		nslogd_eventtags_free(t);
		t->err = -err;
	}
	return err;
}

/**
 * nslogd_eventtags_free() - forget the tags
 * @t: the tags
 *
 * Context: any.
 */
void nslogd_eventtags_free(struct nslogd_eventtags *t)
{
	free(t->text);
	free(t->tags);
	memset(t, 0, sizeof(*t));
}

/**
 * nslogd_eventtag_by_num() - a tag by number
 * @t: the tags
 * @num: its number
 *
 * Context: any.
 * Return: the first tag of that number, or NULL.
 */
const struct nslogd_eventtag *
nslogd_eventtag_by_num(const struct nslogd_eventtags *t, unsigned int num)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->tags[i].num == num)
			return &t->tags[i];
	return NULL;
}

/**
 * nslogd_eventtag_by_name() - a tag by name
 * @t: the tags
 * @name: its name
 *
 * Context: any.
 * Return: the first tag of that name, or NULL.
 */
const struct nslogd_eventtag *
nslogd_eventtag_by_name(const struct nslogd_eventtags *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->tags[i].name, name))
			return &t->tags[i];
	return NULL;
}
