// SPDX-License-Identifier: GPL-2.0
/*
 * cstate: the state file, text:
 *
 *   # nslog-collector state (nslog-collector(8)): do not edit
 *   nslog-collector-state 1
 *   boot_id 4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d
 *   set 81985529216486895 4026532301 main=41 system=7
 *   set 81985529216486896 4026531839 main=1022 events=3 radio=0 system=58
 *   set 81985529216486897 4026532302 main=5 audit:8=9 app.x:10=0
 *
 * "set SET_ID NS_ID LOG=SEQ...": for each log of the set that a record
 * was shipped from, the seq of the last one the output has.  A log not
 * named has shipped nothing.  LOG is one of the four fixed logs, or a
 * stream made in an nslogfs mount, by its name (nslog_stream_name_ok();
 * its characters are never ':', '=' or ' ') and its log id:
 * "set 1 2 main=41 audit:8=9".  A name is not a stream: one removed and
 * made again under its name is another log, with another id (the kernel
 * never gives a set's id twice), and the id tells them apart.  A file of
 * an older collector has "audit=9": the id is not known (0).
 * Set ids are unique for one boot only, so a file of another boot
 * (boot_id) is ignored.
 *
 * Saving is atomic: the text goes to PATH.tmp, which is fsync()ed, then
 * renamed over PATH, and the directory is fsync()ed, so that after a
 * crash or a power cut PATH is the old state or the new one, whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/nslogger.h>

#include "cstate.h"

#define NSLOG_CSTATE_MAGIC	"nslog-collector-state 1"

/**
 * nslog_boot_id() - this boot's id
 * @path: /proc/sys/kernel/random/boot_id
 * @buf: NSLOG_BOOT_ID_LEN + 1 bytes, the id and a NUL
 *
 * Context: process context.
 * Return: 0, or a negative errno (-EBADMSG if it is not 36 characters).
 */
int nslog_boot_id(const char *path, char *buf)
{
	char line[64];
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f))
		ret = -EBADMSG;
	fclose(f);
	if (ret)
		return ret;
	line[strcspn(line, "\n")] = '\0';
	if (strlen(line) != NSLOG_BOOT_ID_LEN || strchr(line, ' '))
		return -EBADMSG;
	memcpy(buf, line, NSLOG_BOOT_ID_LEN + 1);
	return 0;
}

/* The set's entry, or NULL. */
struct nslog_cstate_set *nslog_cstate_find(const struct nslog_cstate *st,
					   __u64 set_id)
{
	size_t i;

	for (i = 0; i < st->count; i++)
		if (st->sets[i].set_id == set_id)
			return &st->sets[i];
	return NULL;
}

/**
 * nslog_cstate_add() - the set's entry, made empty if there was none
 * @st: the state
 * @set_id: the set
 * @ns_id: its namespace
 *
 * Context: process context; allocates.  Pointers to entries are valid
 * until the next add or remove.
 * Return: the entry, or NULL if out of memory.
 */
struct nslog_cstate_set *nslog_cstate_add(struct nslog_cstate *st,
					  __u64 set_id, __u64 ns_id)
{
	struct nslog_cstate_set *s = nslog_cstate_find(st, set_id);
	size_t cap;

	if (s)
		return s;
	if (st->count == st->cap) {
		cap = st->cap ? st->cap * 2 : 16;
		s = realloc(st->sets, cap * sizeof(*s));
		if (!s)
			return NULL;
		st->sets = s;
		st->cap = cap;
	}
	s = &st->sets[st->count++];
	memset(s, 0, sizeof(*s));
	s->set_id = set_id;
	s->ns_id = ns_id;
	return s;
}

/* Drop an entry (the last one takes its place). */
void nslog_cstate_remove(struct nslog_cstate *st, struct nslog_cstate_set *s)
{
	free(s->streams);
	*s = st->sets[--st->count];
}

/* Where stream @name of @s stands, or NULL if it shipped nothing. */
const struct nslog_cstate_stream *
nslog_cstate_stream_find(const struct nslog_cstate_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nstreams; i++)
		if (!strcmp(s->streams[i].name, name))
			return &s->streams[i];
	return NULL;
}

/**
 * nslog_cstate_stream_add() - say where a stream of a set stands
 * @s: the set's entry
 * @name: the stream's name (nslog_stream_name_ok())
 * @log_id: its log id (NSLOG_IOC_INFO), 0 if not known
 * @last: the seq of the last record of it the output has
 *
 * Context: process context; allocates.
 * Return: 0; -EEXIST if @s has @name already, -EINVAL for a name that is
 * no stream's, -ENOMEM.
 */
int nslog_cstate_stream_add(struct nslog_cstate_set *s, const char *name,
			    __u32 log_id, __u64 last)
{
	struct nslog_cstate_stream *st;

	if (!nslog_stream_name_ok(name))
		return -EINVAL;
	if (nslog_cstate_stream_find(s, name))
		return -EEXIST;
	st = realloc(s->streams, (s->nstreams + 1) * sizeof(*st));
	if (!st)
		return -ENOMEM;
	s->streams = st;
	st = &s->streams[s->nstreams++];
	memcpy(st->name, name, strlen(name) + 1);
	st->log_id = log_id;
	st->last = last;
	return 0;
}

/* Forget every entry, keeping the array. */
static void nslog_cstate_empty(struct nslog_cstate *st)
{
	while (st->count)
		nslog_cstate_remove(st, &st->sets[st->count - 1]);
}

static int nslog_cstate_set_line(struct nslog_cstate *st, char *line)
{
	unsigned long long set_id, ns_id, seq, id;
	struct nslog_cstate_set *s;
	char *tok, *save = NULL, *eq, *colon, *end;
	int n = 0, k, ret;

	if (sscanf(line, "set %llu %llu%n", &set_id, &ns_id, &n) != 2 ||
	    (line[n] && line[n] != ' '))
		return -EBADMSG;
	if (nslog_cstate_find(st, set_id))
		return -EBADMSG;
	s = nslog_cstate_add(st, set_id, ns_id);
	if (!s)
		return -ENOMEM;
	for (tok = strtok_r(line + n, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		eq = strchr(tok, '=');
		if (!eq)
			return -EBADMSG;
		*eq = '\0';
		k = nslog_klog_from_name(tok);
		if ((k >= 0 && s->has[k]) || eq[1] < '0' || eq[1] > '9')
			return -EBADMSG;
		errno = 0;
		seq = strtoull(eq + 1, &end, 10);
		if (errno || *end)
			return -EBADMSG;
		if (k < 0) {
			/* a stream's, or not a log's name at all */
			id = 0;
			colon = strchr(tok, ':');
			if (colon) {
				*colon = '\0';
				if (colon[1] < '0' || colon[1] > '9')
					return -EBADMSG;
				errno = 0;
				id = strtoull(colon + 1, &end, 10);
				if (errno || *end ||
				    id < NSLOG_STREAM_LOG_ID_MIN ||
				    id > UINT32_MAX)
					return -EBADMSG;
			}
			ret = nslog_cstate_stream_add(s, tok, (__u32)id, seq);
			if (ret)
				return ret == -ENOMEM ? ret : -EBADMSG;
			continue;
		}
		s->has[k] = true;
		s->last[k] = seq;
	}
	return 0;
}

static int nslog_cstate_line(struct nslog_cstate *st, char *line,
			     const char *boot_id)
{
	if (!strncmp(line, "boot_id ", 8)) {
		if (st->boot_id[0] || strlen(line + 8) != NSLOG_BOOT_ID_LEN)
			return -EBADMSG;
		memcpy(st->boot_id, line + 8, NSLOG_BOOT_ID_LEN + 1);
		return strcmp(st->boot_id, boot_id) ? -ESTALE : 0;
	}
	if (!strncmp(line, "set ", 4) && st->boot_id[0])
		return nslog_cstate_set_line(st, line);
	return -EBADMSG;
}

/**
 * nslog_cstate_load() - read the state file
 * @st: emptied, then filled; its boot_id is @boot_id whatever happens
 * @path: the file
 * @boot_id: this boot's id
 * @line: set to the line of a -EBADMSG (0: the file ended early)
 *
 * On any error @st is left empty: the collector then starts every set at
 * its oldest record, which may repeat records but loses none.
 *
 * Context: process context; allocates.
 * Return: 0 (also when the file does not exist: an empty state),
 * -ESTALE for a file of another boot, -EBADMSG for one that does not
 * parse, -ENOMEM, or the negative errno of reading it.
 */
int nslog_cstate_load(struct nslog_cstate *st, const char *path,
		      const char *boot_id, unsigned int *line)
{
	char *buf = NULL;
	unsigned int n = 0;
	bool magic = false;
	size_t len, size = 0;
	ssize_t got;
	FILE *f;
	int ret = 0;

	nslog_cstate_empty(st);
	st->boot_id[0] = '\0';
	*line = 0;
	f = fopen(path, "re");
	if (!f) {
		ret = errno == ENOENT ? 0 : -errno;
		goto out;
	}
	/* a set with many streams makes a long line: no fixed buffer */
	while ((got = getline(&buf, &size, f)) > 0) {
		n++;
		len = strlen(buf);
		if (len != (size_t)got || buf[len - 1] != '\n') {
			ret = -EBADMSG;
			break;
		}
		buf[len - 1] = '\0';
		if (buf[0] == '#')
			continue;
		if (!magic) {
			magic = true;
			ret = strcmp(buf, NSLOG_CSTATE_MAGIC) ? -EBADMSG : 0;
		} else {
			ret = nslog_cstate_line(st, buf, boot_id);
		}
		if (ret)
			break;
	}
	if (!ret && ferror(f))
		ret = -EIO;
	if (!ret && !st->boot_id[0])
		ret = -EBADMSG;	/* no boot_id line: cut short */
	fclose(f);
	free(buf);
	if (ret == -EBADMSG)
		*line = n;
out:
	if (ret)
		nslog_cstate_empty(st);
	memcpy(st->boot_id, boot_id, NSLOG_BOOT_ID_LEN + 1);
	return ret;
}

/**
 * nslog_cstate_format() - the text of the state file
 * @st: the state
 * @text: set to it, allocated (free() it)
 * @len: set to its length
 *
 * Context: process context; allocates.
 * Return: 0 or -ENOMEM.
 */
int nslog_cstate_format(const struct nslog_cstate *st, char **text,
			size_t *len)
{
	const struct nslog_cstate_set *s;
	FILE *f = open_memstream(text, len);
	size_t i, j;
	int k;

	if (!f)
		return -ENOMEM;
	fprintf(f, "# nslog-collector state (nslog-collector(8)): do not edit\n"
		NSLOG_CSTATE_MAGIC "\nboot_id %s\n", st->boot_id);
	for (i = 0; i < st->count; i++) {
		s = &st->sets[i];
		fprintf(f, "set %" PRIu64 " %" PRIu64, (uint64_t)s->set_id,
			(uint64_t)s->ns_id);
		for (k = 0; k < NSLOG_KLOG_COUNT; k++)
			if (s->has[k])
				fprintf(f, " %s=%" PRIu64, nslog_klog_name(k),
					(uint64_t)s->last[k]);
		for (j = 0; j < s->nstreams; j++) {
			fprintf(f, " %s", s->streams[j].name);
			if (s->streams[j].log_id)
				fprintf(f, ":%" PRIu32, s->streams[j].log_id);
			fprintf(f, "=%" PRIu64, (uint64_t)s->streams[j].last);
		}
		putc('\n', f);
	}
	if (fclose(f)) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int nslog_write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int nslog_fsync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd, ret = 0;

	if (!copy)
		return -ENOMEM;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return ret;
}

/**
 * nslog_cstate_save() - write the state file atomically
 * @st: the state
 * @path: the file; PATH.tmp is written first, in the same directory
 *
 * Context: process context; waits for the disk (two fsync()s).
 * Return: 0, or a negative errno: then @path is as it was (PATH.tmp may
 * remain, and is written over next time).
 */
int nslog_cstate_save(const struct nslog_cstate *st, const char *path)
{
	char tmp[4096];
	char *text;
	size_t len;
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	ret = nslog_cstate_format(st, &text, &len);
	if (ret)
		return ret;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = nslog_write_all(fd, text, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (!ret)
		ret = nslog_fsync_dir(path);
	else
		unlink(tmp);
out:
	free(text);
	return ret;
}

void nslog_cstate_free(struct nslog_cstate *st)
{
	size_t i;

	for (i = 0; i < st->count; i++)
		free(st->sets[i].streams);
	free(st->sets);
	st->sets = NULL;
	st->count = 0;
	st->cap = 0;
}
