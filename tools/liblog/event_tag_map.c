// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * event_tag_map: Android's event-log-tags file, parsed into a table sorted
 * by tag number.  The file's text is kept whole; the table points into it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <log/event_tag_map.h>
#include "internal.h"

struct nslog_event_tag {
	unsigned int num;
	const char *name;
	size_t name_len;
	const char *format;	/* NULL if none */
	size_t format_len;
};

struct EventTagMap {
	char *text;
	struct nslog_event_tag *tags;
	size_t count;
};

static char *nslog_read_file(const char *path)
{
	size_t len = 0, size = 4096;
	char *buf = malloc(size), *bigger;
	FILE *f;

	if (!buf)
		return NULL;
	f = fopen(path, "re");
	if (!f)
		goto err_free;
	for (;;) {
		len += fread(buf + len, 1, size - 1 - len, f);
		if (len < size - 1)
			break;
		size *= 2;
		bigger = realloc(buf, size);
		if (!bigger)
			goto err_close;
		buf = bigger;
	}
	if (ferror(f)) {
		errno = EIO;
		goto err_close;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;

err_close:
	len = (size_t)errno;
	fclose(f);
	errno = (int)len;
err_free:
	len = (size_t)errno;
	free(buf);
	errno = (int)len;
	return NULL;
}

/*
 * One line, NUL-terminated at its end: 1 and @t set for a tag, 0 for a
 * blank or comment line, -EINVAL if malformed.
 */
static int nslog_tag_line(char *line, struct nslog_event_tag *t)
{
	char *p = line, *end;
	unsigned long num;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	num = strtoul(p, &end, 10);
	if (errno || num > 0xffffffffUL || !isspace((unsigned char)*end))
		return -EINVAL;
	p = end;
	while (isspace((unsigned char)*p))
		p++;
	t->num = (unsigned int)num;
	t->name = p;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	t->name_len = (size_t)(p - t->name);
	if (!t->name_len || (*p && !isspace((unsigned char)*p)))
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	t->format = NULL;
	t->format_len = 0;
	if (*p && *p != '#') {
		t->format = p;
		end = strchr(p, '#');
		if (!end)
			end = p + strlen(p);
		while (end > p && isspace((unsigned char)end[-1]))
			end--;
		t->format_len = (size_t)(end - p);
	}
	return 1;
}

static int nslog_tag_cmp(const void *a, const void *b)
{
	const struct nslog_event_tag *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	/* equal numbers: keep the file's order (the first line wins) */
	return x->name < y->name ? -1 : x->name > y->name;
}

static int nslog_map_parse(EventTagMap *map)
{
	struct nslog_event_tag t, *bigger;
	size_t size = 0, i, j;
	char *line = map->text, *nl;
	int ret;

	while (*line) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		ret = nslog_tag_line(line, &t);
		if (ret < 0)
			return ret;
		if (ret) {
			if (map->count == size) {
				size = size ? size * 2 : 64;
				bigger = realloc(map->tags,
						 size * sizeof(*bigger));
				if (!bigger)
					return -ENOMEM;
				map->tags = bigger;
			}
			map->tags[map->count++] = t;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (map->count)
		qsort(map->tags, map->count, sizeof(*map->tags), nslog_tag_cmp);
	/* The same number twice: the same name is a repeat, else an error. */
	for (i = 0, j = 0; i < map->count; i++) {
		if (j && map->tags[j - 1].num == map->tags[i].num) {
			if (map->tags[j - 1].name_len != map->tags[i].name_len ||
			    memcmp(map->tags[j - 1].name, map->tags[i].name,
				   map->tags[i].name_len))
				return -EINVAL;
			continue;
		}
		map->tags[j++] = map->tags[i];
	}
	map->count = j;
	return 0;
}

NSLOG_EXPORT
EventTagMap *android_openEventTagMap(const char *fileName)
{
	EventTagMap *map = calloc(1, sizeof(*map));
	int ret;

	if (!map)
		return NULL;
	map->text = nslog_read_file(fileName ? fileName : EVENT_TAG_MAP_FILE);
	if (!map->text)
		goto err_free;
	ret = nslog_map_parse(map);
	if (ret) {
		errno = -ret;
		goto err_free;
	}
	return map;

err_free:
	ret = errno;
	android_closeEventTagMap(map);
	errno = ret;
	return NULL;
}

NSLOG_EXPORT
void android_closeEventTagMap(EventTagMap *map)
{
	if (!map)
		return;
	free(map->tags);
	free(map->text);
	free(map);
}

static const struct nslog_event_tag *nslog_tag_find(const EventTagMap *map,
						    unsigned int num)
{
	size_t lo = 0, hi, mid;

	if (!map)
		return NULL;
	hi = map->count;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (map->tags[mid].num == num)
			return &map->tags[mid];
		if (map->tags[mid].num < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

NSLOG_EXPORT
const char *android_lookupEventTag_len(const EventTagMap *map, size_t *len,
				       unsigned int tag)
{
	const struct nslog_event_tag *t = nslog_tag_find(map, tag);

	if (len)
		*len = t ? t->name_len : 0;
	return t ? t->name : NULL;
}

NSLOG_EXPORT
const char *android_lookupEventFormat_len(const EventTagMap *map, size_t *len,
					  unsigned int tag)
{
	const struct nslog_event_tag *t = nslog_tag_find(map, tag);

	if (len)
		*len = t ? t->format_len : 0;
	return t ? t->format : NULL;
}

NSLOG_EXPORT
int android_lookupEventTagNum(EventTagMap *map, const char *tagname,
			      const char *format, int prio)
{
	const struct nslog_event_tag *t;
	size_t i;

	(void)prio;
	for (i = 0; map && tagname && i < map->count; i++) {
		t = &map->tags[i];
		if (strlen(tagname) != t->name_len ||
		    memcmp(tagname, t->name, t->name_len))
			continue;
		if (format && (strlen(format) != t->format_len ||
			       (t->format_len &&
				memcmp(format, t->format, t->format_len))))
			continue;
		return (int)t->num;
	}
	errno = ESRCH;
	return -1;
}
