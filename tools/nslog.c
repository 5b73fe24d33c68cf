// SPDX-License-Identifier: GPL-2.0
/*
 * nslog: write records to the nslogger buffers from the shell, in the
 * manner of Android's log and util-linux logger.  Writes through libnslog,
 * so a record is exactly what an Android program would have written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <android/log.h>
#include <linux/nslogger.h>

#include "devpath.h"
#include "logformat.h"
#include "usage.h"

#define PROG	"nslog"

/* Payload room for a STRING value after [tag][type][length]. */
#define NSLOG_EVENT_STRING_MAX	(LOGGER_ENTRY_MAX_PAYLOAD - 9)

enum {
	EXIT_USAGE	= TOOL_EXIT_USAGE,
};

struct nslog_opts {
	int buf;
	int prio;
	const char *tag;
	int32_t event_tag;
};

static const char nslog_help_text[] =
"Usage: " PROG " [-b BUFFER] [-p PRIORITY] [-t TAG] [MESSAGE...]\n"
"Write a record to an nslogger buffer (Android logger device).\n"
"\n"
"  -b BUFFER    main (default), system, radio or events\n"
"  -p PRIORITY  v, d, i (default), w, e or f, or a number from 2 to 7\n"
"  -t TAG       the record's tag (default \"nslog\")\n"
"  -h, --help   show this help\n"
"\n"
"The MESSAGE words, joined by spaces, make one record. Without MESSAGE,\n"
"every line of standard input (newline removed) makes one record.\n"
"\n"
"With -b events, TAG must be a number: the event tag (a 32-bit integer).\n"
"The message is written as one STRING value, [tag][2][length][bytes],\n"
"cut to %d bytes; -p is ignored.\n"
"\n"
"The device is DIR/main, DIR/log_main or DIR/log/main if $NSLOG_DEV_DIR\n"
"is set to DIR, else /dev/log/main if /dev/log is a directory, else\n"
"/dev/log_main (and likewise for the other buffers).\n"
"\n"
"Exit status: 0 on success, 1 if a record cannot be written, 2 for a\n"
"usage error.\n";

static void nslog_help(void)
{
	printf(nslog_help_text, NSLOG_EVENT_STRING_MAX);
}

static bool nslog_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static int nslog_parse_prio(const char *arg)
{
	long v;
	int prio;

	if (arg[0] && !arg[1]) {
		prio = nslog_prio_from_char(arg[0]);
		if (prio >= NSLOG_PRIO_VERBOSE && prio <= NSLOG_PRIO_FATAL)
			return prio;
	}
	if (nslog_parse_long(arg, NSLOG_PRIO_VERBOSE, NSLOG_PRIO_FATAL, &v))
		return (int)v;
	tool_usage(PROG, "bad priority '%s' (v, d, i, w, e, f or 2 to 7)", arg);
}

static void nslog_parse(struct nslog_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "b:p:t:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			o->buf = nslog_buf_from_name(optarg);
			if (o->buf < 0)
				tool_usage(PROG, "unknown buffer '%s' (main, system, radio or events)",
					    optarg);
			break;
		case 'p':
			o->prio = nslog_parse_prio(optarg);
			break;
		case 't':
			o->tag = optarg;
			break;
		case 'h':
			nslog_help();
			exit(EXIT_SUCCESS);
		default:
			fputs("Try '" PROG " --help' for more information.\n",
			      stderr);
			exit(EXIT_USAGE);
		}
	}

	if (o->buf != NSLOG_BUF_EVENTS)
		return;
	if (!o->tag)
		tool_usage(PROG, "-b events needs a numeric event tag: -t NUMBER");
	if (!nslog_parse_long(o->tag, INT32_MIN, INT32_MAX, &v))
		tool_usage(PROG, "event tag '%s' is not a 32-bit number", o->tag);
	o->event_tag = (int32_t)v;
}

static int nslog_put_event(int32_t tag, const char *msg, size_t len)
{
	unsigned char buf[sizeof(int32_t) + NSLOG_EVENT_STRING_MAX];
	int32_t n;

	if (len > NSLOG_EVENT_STRING_MAX)
		len = NSLOG_EVENT_STRING_MAX;
	n = (int32_t)len;
	memcpy(buf, &n, sizeof(n));
	memcpy(buf + sizeof(n), msg, len);
	return __android_log_btwrite(tag, EVENT_TYPE_STRING, buf,
				     sizeof(n) + len);
}

/* Write one record; on failure say why and return -1. */
static int nslog_put(const struct nslog_opts *o, const char *msg, size_t len)
{
	char path[NSLOG_PATH_MAX];
	int ret;

	if (o->buf == NSLOG_BUF_EVENTS)
		ret = nslog_put_event(o->event_tag, msg, len);
	else
		ret = __android_log_buf_write(o->buf, o->prio,
					      o->tag ? o->tag : PROG, msg);
	if (ret >= 0)
		return 0;

	if (nslog_dev_path(path, sizeof(path), o->buf, NULL))
		snprintf(path, sizeof(path), "the %s buffer",
			 nslog_buf_name(o->buf));
	fprintf(stderr, PROG ": cannot write to %s: %s\n", path,
		strerror(-ret));
	return -1;
}

static int nslog_put_args(const struct nslog_opts *o, int argc, char **argv)
{
	size_t len = 0;
	char *msg, *p;
	int i, ret;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	msg = malloc(len);
	if (!msg) {
		fprintf(stderr, PROG ": out of memory\n");
		return -1;
	}
	for (p = msg, i = 0; i < argc; i++) {
		if (i)
			*p++ = ' ';
		p = stpcpy(p, argv[i]);
	}
	ret = nslog_put(o, msg, (size_t)(p - msg));
	free(msg);
	return ret;
}

static int nslog_put_lines(const struct nslog_opts *o, FILE *in)
{
	size_t size = 0;
	char *line = NULL;
	ssize_t n;
	int ret = 0;

	while ((n = getline(&line, &size, in)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		ret = nslog_put(o, line, (size_t)n);
		if (ret)
			break;
	}
	if (!ret && ferror(in)) {
		perror(PROG ": reading standard input");
		ret = -1;
	}
	free(line);
	return ret;
}

int main(int argc, char **argv)
{
	struct nslog_opts o = {
		.buf = NSLOG_BUF_MAIN,
		.prio = NSLOG_PRIO_INFO,
	};
	int ret;

	nslog_parse(&o, argc, argv);
	if (optind < argc)
		ret = nslog_put_args(&o, argc - optind, argv + optind);
	else
		ret = nslog_put_lines(&o, stdin);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
