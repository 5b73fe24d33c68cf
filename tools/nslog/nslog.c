// SPDX-License-Identifier: GPL-2.0
/*
 * nslog: write records to the nslogger buffers from the shell.  The
 * options are the union of Android's log (-p letter, -t, default tag
 * "log") and those of util-linux logger that mean something for a log
 * that is not syslog (long options, level names and facility.level,
 * --file, --skip-empty, --size, --stderr, --id).  Installed or linked as
 * "log", it names itself so in its messages.
 *
 * Writes through libnslog, so a record is exactly what an Android program
 * would have written, and is subject to the library's filter as Android's
 * log is to liblog's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <android/log.h>
#include <linux/nslogger.h>

#include "devpath.h"
#include "prioname.h"

#ifndef NSLOG_VERSION
#define NSLOG_VERSION	"unknown"
#endif

/* Android's log's default tag: "log", whatever the program's name. */
#define NSLOG_DEFAULT_TAG	"log"

/* A text payload is [priority][tag][NUL][message][NUL]. */
#define NSLOG_TEXT_OVERHEAD	3
/* The longest tag that leaves room for an empty message. */
#define NSLOG_TAG_MAX		(LOGGER_ENTRY_MAX_PAYLOAD - NSLOG_TEXT_OVERHEAD)

/* Payload room for a STRING value after [tag][type][length]. */
#define NSLOG_EVENT_STRING_MAX	(LOGGER_ENTRY_MAX_PAYLOAD - 9)

struct nslog_opts {
	int buf;
	int prio;
	const char *tag;	/* NULL until parsed: the default */
	int32_t event_tag;
	const char *file;	/* --file: its lines instead of stdin's */
	size_t size;		/* --size: a message's most bytes */
	bool skip_empty;	/* --skip-empty: no record for an empty line */
	bool to_stderr;		/* --stderr: each message on stderr too */
};

/* "nslog", or "log" when run under that name. */
static const char *nslog_prog = "nslog";

static const char nslog_help_text[] =
"Write records to an nslogger buffer (Android logger device), like\n"
"Android's log and util-linux logger.\n"
"\n"
"  -p, --priority PRIO  the records' priority (default i, INFO); see below\n"
"  -t, --tag TAG        the records' tag (default \"" NSLOG_DEFAULT_TAG "\")\n"
"  -b, --buffer BUFFER  main (default), system, radio or events\n"
"  -f, --file FILE      one record per line of FILE, instead of MESSAGE\n"
"  -e, --skip-empty     no record for an empty line\n"
"  -S, --size SIZE      cut each message to SIZE bytes\n"
"  -s, --stderr         also write each message to standard error\n"
"  -i, --id             accepted: the kernel records the writer's pid\n"
"                       anyway; --id=PID is refused, as it cannot be set\n"
"  -V, --version        show the version and exit\n"
"  -h, --help           show this help and exit\n"
"\n"
"The MESSAGE words, joined by spaces, make one record. Without MESSAGE,\n"
"every line of standard input (or of FILE; newline removed) makes one.\n"
"A message longer than a record holds (%d bytes of payload: the\n"
"priority, the tag, the message and a NUL after each) is cut, with a\n"
"warning.\n"
"\n"
"PRIO is any of, in either case:\n"
"  v d i w e f a s         Android's letters (a: assert = f, s: silent)\n"
"  2 to 8                  Android's numbers (VERBOSE to SILENT)\n"
"  verbose debug info warn error fatal assert silent\n"
"  emerg panic alert crit  = f\n"
"  err error / warning warn / notice info / debug   = e / w / i / d\n"
"  FACILITY.LEVEL          user.err, local0.notice ...: LEVEL a syslog\n"
"                          name or 0 to 7, FACILITY checked and ignored\n"
"\n"
"With -b events, TAG must be a number: the event tag (a 32-bit integer).\n"
"The message is written as one STRING value, [tag][2][length][bytes],\n"
"cut to %d bytes; -p is ignored.\n"
"\n"
"The device is DIR/main, DIR/log_main or DIR/log/main if $NSLOG_DEV_DIR\n"
"is set to DIR, else /dev/log/main if /dev/log is a directory, else\n"
"/dev/log_main (and likewise for the other buffers).\n"
"\n"
"Exit status: 0 on success (a cut message too), 1 if a record cannot be\n"
"written, the input cannot be read, or for a usage error.\n";

static void nslog_help(void)
{
	printf("Usage: %s [OPTION]... [MESSAGE...]\n", nslog_prog);
	printf(nslog_help_text, LOGGER_ENTRY_MAX_PAYLOAD,
	       NSLOG_EVENT_STRING_MAX);
}

/*
 * A usage error: the message and a pointer to --help, and exit status 1,
 * as both Android's log and util-linux logger have it.
 */
static void __attribute__((noreturn, format(printf, 1, 2)))
nslog_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", nslog_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n",
		nslog_prog);
	exit(EXIT_FAILURE);
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

static size_t nslog_parse_size(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > SIZE_MAX)
		nslog_usage("bad size '%s' (a number of bytes)", s);
	return (size_t)v;
}

static int nslog_parse_prio(const char *arg)
{
	int prio = nslog_prio_parse(arg);

	if (prio == NSLOG_PRIONAME_BAD_FACILITY)
		nslog_usage("unknown facility in '%s' (user, daemon, local0 ...)",
			    arg);
	if (prio < 0)
		nslog_usage("bad priority '%s' (v d i w e f a s, 2 to 8, or a syslog level)",
			    arg);
	return prio;
}

/* getopt_long's errors, in nslog's words (opterr is 0). */
static void __attribute__((noreturn))
nslog_bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];
	bool is_long = !strncmp(arg, "--", 2);

	if (c == ':' && is_long)
		nslog_usage("option '%s' needs an argument", arg);
	if (c == ':')
		nslog_usage("option '-%c' needs an argument", optopt);
	if (is_long || !optopt)
		nslog_usage("unknown option '%s'", arg);
	nslog_usage("unknown option '-%c'", optopt);
}

static void nslog_parse(struct nslog_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "buffer", required_argument, NULL, 'b' },
		{ "priority", required_argument, NULL, 'p' },
		{ "tag", required_argument, NULL, 't' },
		{ "file", required_argument, NULL, 'f' },
		{ "skip-empty", no_argument, NULL, 'e' },
		{ "size", required_argument, NULL, 'S' },
		{ "stderr", no_argument, NULL, 's' },
		{ "id", optional_argument, NULL, 'i' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long v;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:p:t:f:eS:siVh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'b':
			o->buf = nslog_buf_from_name(optarg);
			if (o->buf < 0)
				nslog_usage("unknown buffer '%s' (main, system, radio or events)",
					    optarg);
			break;
		case 'p':
			o->prio = nslog_parse_prio(optarg);
			break;
		case 't':
			o->tag = optarg;
			break;
		case 'f':
			o->file = optarg;
			break;
		case 'e':
			o->skip_empty = true;
			break;
		case 'S':
			o->size = nslog_parse_size(optarg);
			break;
		case 's':
			o->to_stderr = true;
			break;
		case 'i':
			/*
			 * logger's --id=PID puts another pid in the syslog
			 * header; here the kernel writes the header, with
			 * the writer's pid, and nothing can replace it.
			 */
			if (optarg)
				nslog_usage("--id=%s: the kernel stamps a record with its writer's pid",
					    optarg);
			break;
		case 'V':
			printf("%s from nslogger %s\n", nslog_prog,
			       NSLOG_VERSION);
			exit(EXIT_SUCCESS);
		case 'h':
			nslog_help();
			exit(EXIT_SUCCESS);
		default:
			nslog_bad_option(c, argv);
		}
	}

	if (o->file && optind < argc)
		nslog_usage("--file and a MESSAGE cannot both be given");

	if (o->buf != NSLOG_BUF_EVENTS) {
		if (!o->tag)
			o->tag = NSLOG_DEFAULT_TAG;
		if (strlen(o->tag) > NSLOG_TAG_MAX)
			nslog_usage("the tag is longer than %d bytes, a record's most",
				    NSLOG_TAG_MAX);
		return;
	}
	if (!o->tag)
		nslog_usage("-b events needs a numeric event tag: -t NUMBER");
	if (!nslog_parse_long(o->tag, INT32_MIN, INT32_MAX, &v))
		nslog_usage("event tag '%s' is not a 32-bit number", o->tag);
	o->event_tag = (int32_t)v;
}

/*
 * nslog_cut_len() - how much of a message a record keeps
 *
 * At most @max of its @len bytes, and fewer if the byte at @max continues
 * a UTF-8 character: the whole character goes, not a part of it.  Bytes
 * that are not UTF-8 are cut where they are.
 */
static size_t nslog_cut_len(const char *msg, size_t len, size_t max)
{
	size_t n = max;

	if (len <= max)
		return len;
	while (n > 0 && max - n < 3 && ((unsigned char)msg[n] & 0xc0) == 0x80)
		n--;
	if (n < max && (unsigned char)msg[n] >= 0xc0)
		return n;
	return max;
}

static int nslog_put_event(int32_t tag, const char *msg, size_t len)
{
	unsigned char buf[sizeof(int32_t) + NSLOG_EVENT_STRING_MAX];
	int32_t n = (int32_t)len;

	memcpy(buf, &n, sizeof(n));
	memcpy(buf + sizeof(n), msg, len);
	return __android_log_btwrite(tag, EVENT_TYPE_STRING, buf,
				     sizeof(n) + len);
}

/*
 * Write one record of the @len bytes at @msg (which has room for a NUL
 * after them); @line is its line number, or 0 for the arguments.  On
 * failure say why and return -1.
 */
static int nslog_put(const struct nslog_opts *o, char *msg, size_t len,
		     unsigned long line)
{
	bool events = o->buf == NSLOG_BUF_EVENTS;
	char path[NSLOG_PATH_MAX];
	size_t room, keep;
	int ret;

	if (events) {
		room = NSLOG_EVENT_STRING_MAX;
	} else {
		/* A text message ends at its first NUL. */
		len = strnlen(msg, len);
		room = LOGGER_ENTRY_MAX_PAYLOAD - NSLOG_TEXT_OVERHEAD -
			strlen(o->tag);
	}
	keep = nslog_cut_len(msg, len, o->size);
	if (keep > room) {
		keep = nslog_cut_len(msg, keep, room);
		fprintf(stderr, "%s: warning: ", nslog_prog);
		if (line)
			fprintf(stderr, "line %lu: ", line);
		fprintf(stderr, "message cut from %zu to %zu bytes, to fit a record's %d-byte payload\n",
			len, keep, LOGGER_ENTRY_MAX_PAYLOAD);
	}
	msg[keep] = '\0';

	if (o->to_stderr) {
		fwrite(msg, 1, keep, stderr);
		fputc('\n', stderr);
	}

	if (events)
		ret = nslog_put_event(o->event_tag, msg, keep);
	else
		ret = __android_log_buf_write(o->buf, o->prio, o->tag, msg);
	/*
	 * -EPERM is liblog's "not loggable": the tag and priority filter
	 * dropped the record, which is no error for Android's log either.
	 */
	if (ret >= 0 || ret == -EPERM)
		return 0;

	if (nslog_dev_path(path, sizeof(path), o->buf, NULL))
		snprintf(path, sizeof(path), "the %s buffer",
			 nslog_buf_name(o->buf));
	fprintf(stderr, "%s: cannot write to %s: %s\n", nslog_prog, path,
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
		fprintf(stderr, "%s: out of memory\n", nslog_prog);
		return -1;
	}
	for (p = msg, i = 0; i < argc; i++) {
		if (i)
			*p++ = ' ';
		p = stpcpy(p, argv[i]);
	}
	ret = nslog_put(o, msg, (size_t)(p - msg), 0);
	free(msg);
	return ret;
}

static int nslog_put_lines(const struct nslog_opts *o, FILE *in,
			   const char *name)
{
	unsigned long lineno = 0;
	size_t size = 0;
	char *line = NULL;
	ssize_t n;
	int ret = 0;

	while ((n = getline(&line, &size, in)) >= 0) {
		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (!n && o->skip_empty)
			continue;
		ret = nslog_put(o, line, (size_t)n, lineno);
		if (ret)
			break;
	}
	if (!ret && ferror(in)) {
		fprintf(stderr, "%s: cannot read %s: %s\n", nslog_prog, name,
			strerror(errno));
		ret = -1;
	}
	free(line);
	return ret;
}

static int nslog_put_file(const struct nslog_opts *o)
{
	FILE *in;
	int ret;

	if (!o->file)
		return nslog_put_lines(o, stdin, "standard input");
	in = fopen(o->file, "r");
	if (!in) {
		fprintf(stderr, "%s: cannot open %s: %s\n", nslog_prog, o->file,
			strerror(errno));
		return -1;
	}
	ret = nslog_put_lines(o, in, o->file);
	fclose(in);
	return ret;
}

int main(int argc, char **argv)
{
	struct nslog_opts o = {
		.buf = NSLOG_BUF_MAIN,
		.prio = NSLOG_PRIO_INFO,
		.size = SIZE_MAX,
	};
	const char *base = argc ? strrchr(argv[0], '/') : NULL;
	int ret;

	base = base ? base + 1 : argc ? argv[0] : "";
	if (!strcmp(base, "log"))
		nslog_prog = "log";

	nslog_parse(&o, argc, argv);
	if (optind < argc)
		ret = nslog_put_args(&o, argc - optind, argv + optind);
	else
		ret = nslog_put_file(&o);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
