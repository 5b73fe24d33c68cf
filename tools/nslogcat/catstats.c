// SPDX-License-Identifier: GPL-2.0
/*
 * catstats: nslogcat -S.
 *
 * logcat -S prints logd's statistics (by uid, pid, tag); the kernel
 * driver never had them.  nslogger counts, for each log of each log set,
 * the ring's size, the bytes its records use, the records ever written and
 * those it holds, and lists them in /proc/nslogger/namespaces (one line a
 * log: ns_id user_ns_id state files log allocated used written stored
 * set_id; readable with CAP_SYSLOG in the initial user namespace).  -S
 * prints the lines of the reader's IPC namespace (or --ns's):
 *
 *   statistics of ipc:[ID] (set SET, live, N open files)
 *   buffer          ring       used    written     stored
 *   main          262144       1234         30         30
 *   ...
 *   total         524288       2345         50         45
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catstats.h"

/**
 * nslog_catstats_parse() - the lines of one namespace's set
 * @text: the listing, NUL-terminated
 * @ns_id: the namespace
 * @st: filled in, indexed by log id; ->found for each line seen
 *
 * Context: any.
 * Return: 0, or -ENOENT if no line is of @ns_id.
 */
int nslog_catstats_parse(const char *text, uint64_t ns_id,
			 struct nslog_catstat st[NSLOG_BUF_COUNT])
{
	unsigned long long ns, user_ns, size, used, written, stored, set;
	const char *line = text;
	char state[8], log[16];
	struct nslog_catstat *s;
	bool any = false;
	unsigned int files;
	int id;

	memset(st, 0, sizeof(*st) * NSLOG_BUF_COUNT);
	for (; line && *line; line = strchr(line, '\n'), line += !!line) {
		if (*line == '#' || *line == '\n')
			continue;
		if (sscanf(line, "%llu %llu %7s %u %15s %llu %llu %llu %llu %llu",
			   &ns, &user_ns, state, &files, log, &size, &used,
			   &written, &stored, &set) != 10 || ns != ns_id)
			continue;
		id = nslog_buf_from_name(log);
		if (id < 0)
			continue;
		s = &st[id];
		s->found = true;
		memcpy(s->state, state, sizeof(s->state));
		s->files = files;
		s->set_id = set;
		s->size = size;
		s->used = used;
		s->written = written;
		s->stored = stored;
		any = true;
	}
	return any ? 0 : -ENOENT;
}

/**
 * nslog_catstats_print() - print the statistics of the selected logs
 * @out: where
 * @ns_id: the namespace
 * @st: from nslog_catstats_parse()
 * @ids: the logs to print, in order
 * @count: how many
 *
 * Context: any.
 */
void nslog_catstats_print(FILE *out, uint64_t ns_id,
			  const struct nslog_catstat st[NSLOG_BUF_COUNT],
			  const int *ids, size_t count)
{
	struct nslog_catstat total = { 0 };
	const struct nslog_catstat *first = NULL;
	size_t i;

	for (i = 0; i < count && !first; i++)
		if (st[ids[i]].found)
			first = &st[ids[i]];
	if (!first)
		return;
	fprintf(out, "statistics of ipc:[%" PRIu64 "] (set %" PRIu64
		", %s, %u open files)\n", ns_id, first->set_id, first->state,
		first->files);
	fprintf(out, "%-8s %10s %10s %10s %10s\n", "buffer", "ring", "used",
		"written", "stored");
	for (i = 0; i < count; i++) {
		const struct nslog_catstat *s = &st[ids[i]];

		if (!s->found)
			continue;
		fprintf(out, "%-8s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 "\n", nslog_buf_name(ids[i]), s->size,
			s->used, s->written, s->stored);
		total.size += s->size;
		total.used += s->used;
		total.written += s->written;
		total.stored += s->stored;
	}
	fprintf(out, "%-8s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
		" %10" PRIu64 "\n", "total", total.size, total.used,
		total.written, total.stored);
}

/**
 * nslog_catstats_self_ns() - the caller's IPC namespace id
 * @ns_id: set to it
 *
 * Context: process context.
 * Return: 0, or a negative errno.
 */
int nslog_catstats_self_ns(uint64_t *ns_id)
{
	char link[64];
	unsigned long long id;
	ssize_t n;

	n = readlink("/proc/self/ns/ipc", link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	if (sscanf(link, "ipc:[%llu]", &id) != 1)
		return -EINVAL;
	*ns_id = id;
	return 0;
}

/**
 * nslog_catstats_read() - the listing's text
 * @path: the file
 * @text: set to a NUL-terminated copy; the caller frees it
 *
 * Context: process context.
 * Return: 0, or a negative errno.
 */
int nslog_catstats_read(const char *path, char **text)
{
	size_t len = 0, size = 8192;
	char *buf = malloc(size), *bigger;
	FILE *f;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		free(buf);
		return -errno;
	}
	for (;;) {
		len += fread(buf + len, 1, size - 1 - len, f);
		if (len < size - 1)
			break;
		bigger = realloc(buf, size * 2);
		if (!bigger) {
			ret = -ENOMEM;
			break;
		}
		buf = bigger;
		size *= 2;
	}
	if (!ret && ferror(f))
		ret = -EIO;
	fclose(f);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}
