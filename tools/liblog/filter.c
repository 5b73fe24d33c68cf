// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * filter: __android_log_is_loggable(), from the configuration Android
 * keeps in properties.
 *
 * Android asks the properties log.tag.TAG (the tag's level) and log.tag
 * (every tag's).  Without properties, the same levels come from:
 *
 *  1. $ANDROID_LOG_TAGS, logcat's filterspecs, as Android's host liblog
 *     reads them: "TAG:P ... *:P", P one of V D I W E F S, a bare TAG
 *     meaning TAG:V;
 *  2. the log.tag file ($NSLOG_LOG_TAG_FILE, else /etc/nslogger/log.tag):
 *     "log.tag.TAG=LEVEL" and "log.tag=LEVEL" lines, LEVEL one of
 *     VERBOSE DEBUG INFO WARN ERROR ASSERT SUPPRESS (only its first
 *     letter counts, in either case, as Android reads the property), '#'
 *     comments.
 *
 * A tag's own level, from either, beats every tag's level, from either;
 * between the two sources, the environment wins; within one, the last
 * setting does.  An unknown level is ignored, as Android ignores one.
 *
 * The write path asks this for every record, so both are read once, on
 * the first question, and kept; __android_log_close() forgets them and
 * the next question reads them again.  The cache is behind a rwlock:
 * questions take it for reading, loading and forgetting for writing.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <android/log.h>
#include "internal.h"

enum nslog_src { NSLOG_SRC_ENV, NSLOG_SRC_FILE, NSLOG_SRC_COUNT };

struct nslog_tag_level {
	char *tag;
	size_t len;
	int level;
	enum nslog_src src;
};

struct nslog_filter {
	int loaded;
	struct nslog_tag_level *tags;
	size_t count;
	size_t cap;
	int global[NSLOG_SRC_COUNT];	/* -1: not set */
};

static struct nslog_filter nslog_filter;
static pthread_rwlock_t nslog_filter_lock = PTHREAD_RWLOCK_INITIALIZER;
static int32_t nslog_min_prio = ANDROID_LOG_DEFAULT;

/* A logcat filterspec priority letter; -1 if none. */
static int nslog_spec_level(int c)
{
	switch (toupper(c)) {
	case 'V': return ANDROID_LOG_VERBOSE;
	case 'D': return ANDROID_LOG_DEBUG;
	case 'I': return ANDROID_LOG_INFO;
	case 'W': return ANDROID_LOG_WARN;
	case 'E': return ANDROID_LOG_ERROR;
	case 'F': return ANDROID_LOG_FATAL;
	case 'S': return ANDROID_LOG_SILENT;
	}
	return -1;
}

/* A log.tag property value, by its first letter as Android reads it. */
static int nslog_prop_level(const char *value)
{
	if (toupper((unsigned char)*value) == 'A')
		return ANDROID_LOG_FATAL;
	return nslog_spec_level((unsigned char)*value);
}

static int nslog_filter_set(struct nslog_filter *f, enum nslog_src src,
			    const char *tag, size_t len, int level)
{
	struct nslog_tag_level *t;
	size_t i;

	if (level < 0)
		return 0;
	if (!len) {
		f->global[src] = level;
		return 0;
	}
	for (i = 0; i < f->count; i++) {
		t = &f->tags[i];
		if (t->src == src && t->len == len && !memcmp(t->tag, tag, len)) {
			t->level = level;
			return 0;
		}
	}
	if (f->count == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;

		t = realloc(f->tags, cap * sizeof(*t));
		if (!t)
			return -ENOMEM;
		f->tags = t;
		f->cap = cap;
	}
	t = &f->tags[f->count];
	t->tag = strndup(tag, len);
	if (!t->tag)
		return -ENOMEM;
	t->len = len;
	t->level = level;
	t->src = src;
	f->count++;
	return 0;
}

/* "TAG:P *:P TAG" as logcat takes its filterspecs. */
static void nslog_filter_parse_env(struct nslog_filter *f, const char *s)
{
	const char *tok, *colon;
	size_t n;
	int level;

	while (*s) {
		s += strspn(s, " \t\n");
		n = strcspn(s, " \t\n");
		if (!n)
			break;
		tok = s;
		s += n;
		colon = memchr(tok, ':', n);
		if (!colon) {
			level = ANDROID_LOG_VERBOSE;
		} else {
			/* One letter after the colon, as logcat. */
			level = tok + n - colon == 2 ?
				nslog_spec_level((unsigned char)colon[1]) : -1;
			n = (size_t)(colon - tok);
		}
		if (n == 1 && *tok == '*')
			n = 0;
		else if (!n)
			continue;
		nslog_filter_set(f, NSLOG_SRC_ENV, tok, n, level);
	}
}

static char *nslog_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* One "log.tag[.TAG]=LEVEL" line; anything else is ignored. */
static void nslog_filter_parse_line(struct nslog_filter *f, char *line)
{
	char *eq = strchr(line, '=');
	char *key, *value;

	if (!eq || *nslog_trim(line) == '#')
		return;
	*eq = '\0';
	key = nslog_trim(line);
	value = nslog_trim(eq + 1);
	if (strncmp(key, "log.tag", 7))
		return;
	if (!key[7])
		nslog_filter_set(f, NSLOG_SRC_FILE, NULL, 0,
				 nslog_prop_level(value));
	else if (key[7] == '.' && key[8])
		nslog_filter_set(f, NSLOG_SRC_FILE, key + 8, strlen(key + 8),
				 nslog_prop_level(value));
}

static void nslog_filter_parse_file(struct nslog_filter *f, const char *path)
{
	size_t cap = 0;
	char *line = NULL;
	FILE *in;

	in = fopen(path, "re");
	if (!in)
		return;
	while (getline(&line, &cap, in) >= 0)
		nslog_filter_parse_line(f, line);
	free(line);
	fclose(in);
}

/* Called with nslog_filter_lock held for writing. */
static void nslog_filter_load(struct nslog_filter *f)
{
	const char *env = getenv(NSLOG_LOG_TAGS_ENV);
	const char *path = getenv(NSLOG_LOG_TAG_FILE_ENV);

	f->global[NSLOG_SRC_ENV] = -1;
	f->global[NSLOG_SRC_FILE] = -1;
	if (env)
		nslog_filter_parse_env(f, env);
	nslog_filter_parse_file(f, path && *path ? path : NSLOG_LOG_TAG_FILE);
	f->loaded = 1;
}

/* Called with nslog_filter_lock held; tags of the environment come first. */
static int nslog_filter_lookup(const struct nslog_filter *f, const char *tag,
			       size_t len)
{
	const struct nslog_tag_level *t, *found = NULL;
	size_t i;

	for (i = 0; tag && len && i < f->count; i++) {
		t = &f->tags[i];
		if (t->len != len || memcmp(t->tag, tag, len))
			continue;
		if (!found || t->src < found->src)
			found = t;
	}
	if (found)
		return found->level;
	if (f->global[NSLOG_SRC_ENV] >= 0)
		return f->global[NSLOG_SRC_ENV];
	return f->global[NSLOG_SRC_FILE];
}

/**
 * nslog_filter_tag_level() - the level configured for a tag
 * @tag: the tag, or NULL
 * @len: its length (@tag need not be NUL-terminated)
 *
 * Reads the configuration on the first call after start or a reset.
 *
 * Context: any thread; the first call reads a file.
 * Return: an android_LogPriority, or -1 if nothing is configured.
 */
int nslog_filter_tag_level(const char *tag, size_t len)
{
	int level;

	pthread_rwlock_rdlock(&nslog_filter_lock);
	while (!nslog_filter.loaded) {
		pthread_rwlock_unlock(&nslog_filter_lock);
		pthread_rwlock_wrlock(&nslog_filter_lock);
		if (!nslog_filter.loaded)
			nslog_filter_load(&nslog_filter);
		pthread_rwlock_unlock(&nslog_filter_lock);
		pthread_rwlock_rdlock(&nslog_filter_lock);
	}
	level = nslog_filter_lookup(&nslog_filter, tag, len);
	pthread_rwlock_unlock(&nslog_filter_lock);
	return level;
}

/**
 * nslog_filter_reset() - forget the configuration; the next question
 * reads it again
 *
 * Context: any thread.
 */
void nslog_filter_reset(void)
{
	size_t i;

	pthread_rwlock_wrlock(&nslog_filter_lock);
	for (i = 0; i < nslog_filter.count; i++)
		free(nslog_filter.tags[i].tag);
	free(nslog_filter.tags);
	memset(&nslog_filter, 0, sizeof(nslog_filter));
	pthread_rwlock_unlock(&nslog_filter_lock);
}

/*
 * As Android R's: a configured level and a minimum priority both set, the
 * lower wins; else whichever is set; else @default_prio.
 */
NSLOG_EXPORT int __android_log_is_loggable_len(int prio, const char *tag,
					       size_t len, int default_prio)
{
	int32_t min = __atomic_load_n(&nslog_min_prio, __ATOMIC_RELAXED);
	int level = nslog_filter_tag_level(tag, tag ? len : 0);

	if (level >= 0 && min != ANDROID_LOG_DEFAULT)
		return prio >= (level < min ? level : min);
	if (level >= 0)
		return prio >= level;
	if (min != ANDROID_LOG_DEFAULT)
		return prio >= min;
	return prio >= default_prio;
}

NSLOG_EXPORT int __android_log_is_loggable(int prio, const char *tag,
					   int default_prio)
{
	return __android_log_is_loggable_len(prio, tag, tag ? strlen(tag) : 0,
					     default_prio);
}

NSLOG_EXPORT int32_t __android_log_set_minimum_priority(int32_t priority)
{
	return __atomic_exchange_n(&nslog_min_prio, priority,
				   __ATOMIC_RELAXED);
}

NSLOG_EXPORT int32_t __android_log_get_minimum_priority(void)
{
	return __atomic_load_n(&nslog_min_prio, __ATOMIC_RELAXED);
}

/* No ro.debuggable to read: a production build's answer. */
NSLOG_EXPORT int __android_log_is_debuggable(void)
{
	return 0;
}
