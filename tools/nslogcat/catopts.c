// SPDX-License-Identifier: GPL-2.0
/*
 * catopts: nslogcat's options, as logcat (Android 9 and later) takes them:
 * comma (or ":; " and whitespace) separated lists in -b and -v, -t/-T a
 * count or a time, -m, -e, --pid, --uid, -f/-r/-n, -g/-G, -S, -D, and
 * their long names.  Errors are logcat's: status 1, with its wording where
 * logcat has one.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catopts.h"

#define PROG	NSLOG_CAT_PROG

#ifndef NSLOG_VERSION
#define NSLOG_VERSION	"unknown"
#endif

/* logcat's separators of -b and -v lists. */
static const char nslog_cat_delims[] = ",:; \t\n\r\f";

enum {
	OPT_V2		= 0x100,
	OPT_DEV_DIR,
	OPT_NS,
	OPT_PID,
	OPT_UID,
	OPT_VERSION,
	OPT_EVENT_TAGS,
	OPT_WRAP,
	OPT_UNSUPPORTED,
};

static const char nslog_cat_help_text[] =
"Usage: " PROG " [options] [filterspecs]\n"
"Read the nslogger buffers (Android logger devices), like logcat.\n"
"\n"
"  -s              set the default filter to silent, like filterspec '*:S'\n"
"  -f FILE, --file=FILE\n"
"                  write to FILE (appending) instead of stdout\n"
"  -r KB, --rotate-kbytes=KB\n"
"                  rotate FILE every KB kilobytes; needs -f\n"
"  -n COUNT, --rotate-count=COUNT\n"
"                  keep COUNT rotated files, FILE.1 ... (default 4)\n"
"  -v FORMAT, --format=FORMAT\n"
"                  threadtime (the default, or $ANDROID_PRINTF_LOG), brief,\n"
"                  process, tag, thread, raw, time, long, or json (a JSON\n"
"                  object a line); modifiers: year, zone, UTC, epoch, usec,\n"
"                  nsec, uid, relay. Lists and several -v are taken; -v help\n"
"  -D, --dividers  print a divider line at every switch of buffer\n"
"  -c, --clear     clear (flush) the buffers and exit; with -f, remove FILE\n"
"                  and its rotated files instead\n"
"  -d              dump the buffers and exit (default: follow)\n"
"  -e EXPR, --regex=EXPR\n"
"                  print only records whose message matches EXPR, a POSIX\n"
"                  extended regular expression (logcat: a PCRE)\n"
"  -m COUNT, --max-count=COUNT\n"
"                  exit after printing COUNT records\n"
"  -t COUNT        print only the last COUNT records (implies -d)\n"
"  -t 'TIME'       print the records since TIME (implies -d)\n"
"  -T COUNT        print the last COUNT records, then follow\n"
"  -T 'TIME'       print the records since TIME, then follow\n"
"                  TIME is 'MM-DD hh:mm:ss.mmm', 'YYYY-MM-DD hh:mm:ss.mmm'\n"
"                  (local time) or 'sssss.mmm' (since the epoch)\n"
"  -g, --buffer-size\n"
"                  print the size of each buffer and exit\n"
"  -G SIZE, --buffer-size=SIZE\n"
"                  set the size of each buffer's ring (suffix K or M), as\n"
"                  far as the host allows; needs CAP_SYSLOG\n"
"  -b BUFFER, --buffer=BUFFER\n"
"                  main, system, radio, events, default (main and system)\n"
"                  or all; lists and several -b are taken; records of\n"
"                  several buffers are merged in time order. Default:\n"
"                  main and system (system only if it exists)\n"
"  -B, --binary    write the records in binary (Android's version 4 header)\n"
"  -S, --statistics\n"
"                  print what the module counts of each buffer and exit\n"
"                  (/proc/nslogger/namespaces; needs CAP_SYSLOG)\n"
"      --pid=PID   print only the records of process PID\n"
"      --uid=UIDS  print only the records of the writers' euids in UIDS,\n"
"                  a comma-separated list of numbers\n"
"      --event-tags=PATH\n"
"                  the events tag names (also $NSLOG_EVENT_TAGS); default\n"
"                  /system/etc/event-log-tags, if it exists\n"
"      --v2        read version 2 headers (fail if the device cannot)\n"
"      --dev-dir=DIR\n"
"                  find the devices in DIR (also $NSLOG_DEV_DIR): DIR/main,\n"
"                  DIR/log_main or DIR/log/main. Default /dev/log/main if\n"
"                  /dev/log is a directory, else /dev/log_main\n"
"      --ns=NS     read another IPC namespace's buffers (a container's), as\n"
"                  a host collector; needs CAP_SYSLOG. NS is a PID, an nsfs\n"
"                  file such as /proc/PID/ns/ipc, or a namespace id, ID or\n"
"                  ipc:[ID]. Not with -c or -G\n"
"  -h, --help      show this help\n"
"      --version   show the version\n"
"\n"
"Not in nslogger, and refused with status 1: -b crash, security, kernel,\n"
"stats (no such buffers); -L, --last (no pstore copy of the logs); -p,\n"
"-P, --prune (no logd, nothing chooses what to prune: the oldest records\n"
"go first); --wrap (the devices do not wake a reader before they wrap).\n"
"\n"
"filterspecs are TAG[:P] separated by spaces, P one of V D I W E F S\n"
"(minimum priority, S silences the tag); '*' sets the default, '*' alone\n"
"means '*:D', a tag alone means TAG:V. Without filterspecs\n"
"$ANDROID_LOG_TAGS is used; without either every record is printed.\n"
"Events tags are the names of the event tag map, else \"[NUMBER]\".\n"
"\n"
"Exit status: 0 on success, 1 on any error, usage errors included.\n";

static const char nslog_cat_format_help[] =
"-v FORMAT, --format=FORMAT: a layout and modifiers, in a list or several -v\n"
"  brief       P/TAG     (  PID): message\n"
"  process     P(  PID) message  (TAG)\n"
"  tag         P/TAG     : message\n"
"  thread      P(  PID:  TID) message\n"
"  raw         message\n"
"  time        TIME P/TAG     (  PID): message\n"
"  threadtime  TIME   PID   TID P TAG     : message (the default)\n"
"  long        [ TIME   PID:  TID P/TAG ] and the message, then a blank line\n"
"  json        a JSON object a line (nslogger's)\n"
"Modifiers: year, zone, UTC, epoch, usec, nsec (the time), uid (the\n"
"writer's euid before the pid), relay (before the pid, a relayed record's\n"
"relay: RELAY> if the kernel checked the writer, RELAY? if not).\n";

static void __attribute__((noreturn, format(printf, 1, 2)))
nslog_cat_usage(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROG " --help' for more information.\n", stderr);
	exit(EXIT_FAILURE);
}

/* logcat's getSizeTArg(): a whole number (any base strtoll takes). */
static bool nslog_cat_size_arg(const char *s, size_t *out, size_t min,
			       size_t max)
{
	long long v;
	char *end;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (*end || errno || end == s || v < 0 ||
	    (unsigned long long)v < min || (unsigned long long)v > max)
		return false;
	*out = (size_t)v;
	return true;
}

static void nslog_cat_add(struct nslog_catopts *o, int id)
{
	size_t i;

	for (i = 0; i < o->count; i++)
		if (o->ids[i] == id)
			return;
	o->ids[o->count++] = id;
}

static void nslog_cat_buffer(struct nslog_catopts *o, const char *arg)
{
	char *copy = strdup(arg), *word, *save = NULL;
	int id;

	if (!copy)
		nslog_cat_usage("out of memory");
	for (word = strtok_r(copy, nslog_cat_delims, &save); word;
	     word = strtok_r(NULL, nslog_cat_delims, &save)) {
		if (!strcmp(word, "all")) {
			for (id = 0; id < NSLOG_BUF_COUNT; id++)
				nslog_cat_add(o, id);
		} else if (!strcmp(word, "default")) {
			nslog_cat_add(o, NSLOG_BUF_MAIN);
			o->system_if_present = true;
		} else if (!strcmp(word, "crash") ||
			   !strcmp(word, "security") ||
			   !strcmp(word, "kernel") || !strcmp(word, "stats")) {
			nslog_cat_usage("-b %s: nslogger has no %s buffer "
					"(main, system, radio and events)",
					word, word);
		} else {
			id = nslog_buf_from_name(word);
			if (id < 0)
				nslog_cat_usage("unknown buffer %s", word);
			nslog_cat_add(o, id);
		}
	}
	free(copy);
}

static void nslog_cat_format(struct nslog_catopts *o, const char *arg,
			     bool env)
{
	char *copy = strdup(arg), *word, *save = NULL;
	const char *bad;

	if (!copy)
		nslog_cat_usage("out of memory");
	for (word = strtok_r(copy, nslog_cat_delims, &save); word;
	     word = strtok_r(NULL, nslog_cat_delims, &save)) {
		if (!nslog_fmt_parse(&o->fmt, word, &bad))
			continue;
		if (env) {
			fprintf(stderr, PROG ": invalid format in "
				"ANDROID_PRINTF_LOG '%s'\n", word);
			continue;
		}
		fputs(nslog_cat_format_help, stderr);
		nslog_cat_usage("Invalid parameter \"%s\" to -v", word);
	}
	free(copy);
}

/* Up to 9 digits of fraction after the '.', in nanoseconds. */
static const char *nslog_cat_fraction(const char *p, uint32_t *nsec)
{
	uint32_t ns = 0, scale = 100000000;

	if (*p != '.' || !isdigit((unsigned char)p[1]))
		return NULL;
	for (p++; isdigit((unsigned char)*p); p++) {
		ns += (uint32_t)(*p - '0') * scale;
		scale /= 10;
	}
	*nsec = ns;
	return p;
}

/**
 * nslog_catopts_parse_time() - a time as logcat's -t and -T take it
 * @s: "MM-DD hh:mm:ss.fff", "YYYY-MM-DD hh:mm:ss.fff" (local time; the
 *     first in the current year) or "sssss.fff" (seconds since the epoch);
 *     the fraction has 1 to 9 digits, more are ignored
 * @sec: set to the seconds since the epoch
 * @nsec: set to the nanoseconds
 * @end: set to what follows the time (logcat warns, and ignores it)
 *
 * Context: process context (reads the time zone).
 * Return: 0, or -EINVAL if @s starts with none of the forms.
 */
int nslog_catopts_parse_time(const char *s, uint32_t *sec, uint32_t *nsec,
			     const char **end)
{
	time_t now = time(NULL), t;
	struct tm tm, local;
	const char *p;
	char *q;

	localtime_r(&now, &local);
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = local.tm_year;
	p = strptime(s, "%m-%d %H:%M:%S", &tm);
	if (!p || *p != '.') {
		memset(&tm, 0, sizeof(tm));
		p = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	}
	if (p && *p == '.') {
		p = nslog_cat_fraction(p, nsec);
		if (!p)
			return -EINVAL;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t == (time_t)-1 || t < 0 || t > (time_t)UINT32_MAX)
			return -EINVAL;
		*sec = (uint32_t)t;
		*end = p;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	t = (time_t)strtoll(s, &q, 10);
	if (errno || t > (time_t)UINT32_MAX)
		return -EINVAL;
	p = nslog_cat_fraction(q, nsec);
	if (!p)
		return -EINVAL;
	*sec = (uint32_t)t;
	*end = p;
	return 0;
}

static void nslog_cat_tail(struct nslog_catopts *o, int c, const char *arg)
{
	const char *end;
	size_t n;

	if (c == 't') {
		o->got_t = true;
		o->dump = true;
	}
	if (strspn(arg, "0123456789") != strlen(arg)) {
		if (nslog_catopts_parse_time(arg, &o->start_sec,
					     &o->start_nsec, &end))
			nslog_cat_usage("-%c \"%s\" not in time format", c, arg);
		if (*end)
			fprintf(stderr, PROG ": WARNING: -%c \"%.*s\"\"%s\" "
				"time truncated\n", c, (int)(end - arg), arg,
				end);
		o->has_start = true;
		o->tail = 0;
		return;
	}
	if (!nslog_cat_size_arg(arg, &n, 1, UINT32_MAX)) {
		fprintf(stderr, PROG ": WARNING: -%c %s invalid, setting to 1\n",
			c, arg);
		n = 1;
	}
	o->tail = (unsigned int)n;
	o->has_start = false;
}

/**
 * nslog_catopts_parse_size() - a ring size as logcat's -G takes it
 * @s: a number (decimal, 0x hex or 0 octal) and an optional K, M or G
 * @size: set to the bytes
 *
 * Context: any.
 * Return: 0, or -EINVAL (logcat's "-G <num><multiplier>").
 */
int nslog_catopts_parse_size(const char *s, unsigned long *size)
{
	unsigned long long v;
	long long n;
	char *end;

	errno = 0;
	n = strtoll(s, &end, 0);
	if (errno || end == s || n <= 0)
		return -EINVAL;
	v = (unsigned long long)n;
	switch (*end) {
	case 'g':
	case 'G':
		v *= 1024;
		/* fall through */
	case 'm':
	case 'M':
		v *= 1024;
		/* fall through */
	case 'k':
	case 'K':
		v *= 1024;
		if (end[1])
			return -EINVAL;
		/* fall through */
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (v > ULONG_MAX || v / (unsigned long long)n == 0)
		return -EINVAL;
	*size = (unsigned long)v;
	return 0;
}

static void nslog_cat_uids(struct nslog_catopts *o, const char *arg)
{
	char *copy = strdup(arg), *word, *save = NULL, *end;
	unsigned long uid, *bigger;

	if (!copy)
		nslog_cat_usage("out of memory");
	for (word = strtok_r(copy, ",", &save); word;
	     word = strtok_r(NULL, ",", &save)) {
		errno = 0;
		uid = strtoul(word, &end, 10);
		if (errno || *end || !isdigit((unsigned char)*word) ||
		    uid > UINT32_MAX - 1)
			nslog_cat_usage("--uid: '%s' is not a uid (a number)",
					word);
		bigger = realloc(o->uids, (o->uid_count + 1) * sizeof(*bigger));
		if (!bigger)
			nslog_cat_usage("out of memory");
		o->uids = bigger;
		o->uids[o->uid_count++] = uid;
	}
	free(copy);
	if (!o->uid_count)
		nslog_cat_usage("--uid needs a list of uids");
}

static void nslog_cat_regex(struct nslog_catopts *o, const char *arg)
{
	char msg[256];
	int ret;

	if (o->has_regex)
		regfree(&o->regex);
	ret = regcomp(&o->regex, arg, REG_EXTENDED | REG_NOSUB);
	if (ret) {
		regerror(ret, &o->regex, msg, sizeof(msg));
		nslog_cat_usage("-e \"%s\": %s", arg, msg);
	}
	o->has_regex = true;
}

static void nslog_cat_filter(struct nslog_catopts *o, const char *specs,
			     const char *what)
{
	int ret = nslog_filter_parse(&o->filter, specs);

	if (ret == -ENOMEM)
		nslog_cat_usage("out of memory");
	if (ret)
		nslog_cat_usage("Invalid filter expression%s '%s'", what,
				specs);
}

static void nslog_cat_unsupported(const char *opt)
{
	static const struct {
		const char *opt;
		const char *why;
	} why[] = {
		{ "L", "nslogger keeps no pstore copy of the logs" },
		{ "p", "nslogger has no prune lists: the oldest records go first" },
		{ "P", "nslogger has no prune lists: the oldest records go first" },
		{ "wrap", "the devices do not wake a reader before they wrap" },
	};
	const size_t n = sizeof(why) / sizeof(why[0]);
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(opt, why[i].opt))
			break;
	fprintf(stderr, PROG ": %s%s: not supported: %s\n",
		opt[1] ? "--" : "-", opt, i < n ? why[i].why : "");
	exit(EXIT_FAILURE);
}

static void nslog_cat_check(struct nslog_catopts *o, int argc, char **argv)
{
	const char *env;

	if (o->max_count && o->got_t)
		nslog_cat_usage("Cannot use -m (--max-count) and -t together");
	if (o->rotate_kb && !o->file)
		nslog_cat_usage("-r requires -f as well");
	if (o->ns && o->clear)
		nslog_cat_usage("-c cannot clear another namespace's buffers "
				"(--ns reads only)");
	if (o->ns && o->set_size)
		nslog_cat_usage("-G cannot resize another namespace's buffers "
				"(--ns reads only)");
	if (optind < argc) {
		for (; optind < argc; optind++)
			nslog_cat_filter(o, argv[optind], "");
	} else {
		env = getenv("ANDROID_LOG_TAGS");
		if (env)
			nslog_cat_filter(o, env, " in ANDROID_LOG_TAGS");
	}
	if (!o->event_tags) {
		env = getenv("NSLOG_EVENT_TAGS");
		o->event_tags_given = env && *env;
		o->event_tags = o->event_tags_given ? env : NULL;
	}
	if (!o->count) {
		nslog_cat_add(o, NSLOG_BUF_MAIN);
		o->system_if_present = true;
	}
}

/* One option; split out of nslog_catopts_parse() for its size. */
static void nslog_cat_opt(struct nslog_catopts *o, int c, const char *name)
{
	switch (c) {
	case 's':
		nslog_cat_filter(o, "*:S", "");
		break;
	case 'c':
		o->clear = true;
		break;
	case 'd':
		o->dump = true;
		break;
	case 't':
	case 'T':
		nslog_cat_tail(o, c, optarg);
		break;
	case 'D':
		o->dividers = true;
		break;
	case 'e':
		nslog_cat_regex(o, optarg);
		break;
	case 'm':
		if (!nslog_cat_size_arg(optarg, &o->max_count, 0, SIZE_MAX))
			nslog_cat_usage("-%c \"%s\" isn't an integer greater "
					"than zero", c, optarg);
		break;
	case 'g':
		if (!optarg) {
			o->get_size = true;
			break;
		}
		/* --buffer-size=SIZE */
		/* fall through */
	case 'G':
		if (nslog_catopts_parse_size(optarg, &o->set_size))
			nslog_cat_usage("ERROR: -G <num><multiplier>");
		break;
	case 'b':
		nslog_cat_buffer(o, optarg);
		break;
	case 'B':
		o->binary = true;
		break;
	case 'f':
		o->file = optarg;
		break;
	case 'r':
		if (!nslog_cat_size_arg(optarg, &o->rotate_kb, 1, SIZE_MAX / 1024))
			nslog_cat_usage("Invalid parameter \"%s\" to -r", optarg);
		break;
	case 'n':
		if (!nslog_cat_size_arg(optarg, &o->rotate_count, 1, 999999))
			nslog_cat_usage("Invalid parameter \"%s\" to -n", optarg);
		break;
	case 'v':
		if (!strcmp(optarg, "help") || !strcmp(optarg, "--help")) {
			fputs(nslog_cat_format_help, stdout);
			exit(EXIT_SUCCESS);
		}
		nslog_cat_format(o, optarg, false);
		break;
	case 'S':
		o->stats = true;
		break;
	case OPT_PID: {
		size_t pid;

		if (!nslog_cat_size_arg(optarg, &pid, 1, 4194304))
			nslog_cat_usage("pid %s out of range", optarg);
		o->pid = (pid_t)pid;
		break;
	}
	case OPT_UID:
		nslog_cat_uids(o, optarg);
		break;
	case OPT_EVENT_TAGS:
		o->event_tags = optarg;
		o->event_tags_given = true;
		break;
	case OPT_V2:
		o->v2 = true;
		break;
	case OPT_DEV_DIR:
		o->dev_dir = optarg;
		break;
	case OPT_NS:
		o->ns = optarg;
		break;
	case 'L':
	case 'p':
	case 'P':
		nslog_cat_unsupported((char[]){ (char)c, '\0' });
		break;
	case OPT_WRAP:
		nslog_cat_unsupported("wrap");
		break;
	case 'h':
		fputs(nslog_cat_help_text, stdout);
		exit(EXIT_SUCCESS);
	case OPT_VERSION:
		printf(PROG " (nslogger) %s\n", NSLOG_VERSION);
		exit(EXIT_SUCCESS);
	case ':':
		nslog_cat_usage("Option %s needs an argument", name);
	default:
		nslog_cat_usage("Unrecognized Option %s", name);
	}
}

/**
 * nslog_catopts_parse() - nslogcat's command line and environment
 * @o: filled in
 * @argc: main()'s
 * @argv: main()'s
 *
 * Exits on a usage error (status 1) and after --help, -v help and
 * --version (status 0).
 *
 * Context: process context, at the start of main().
 */
void nslog_catopts_parse(struct nslog_catopts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "binary",	   no_argument,	      NULL, 'B' },
		{ "buffer",	   required_argument, NULL, 'b' },
		{ "buffer-size",   optional_argument, NULL, 'g' },
		{ "clear",	   no_argument,	      NULL, 'c' },
		{ "dividers",	   no_argument,	      NULL, 'D' },
		{ "dump",	   no_argument,	      NULL, 'd' },
		{ "file",	   required_argument, NULL, 'f' },
		{ "format",	   required_argument, NULL, 'v' },
		{ "grep",	   required_argument, NULL, 'e' },
		{ "head",	   required_argument, NULL, 'm' },
		{ "help",	   no_argument,	      NULL, 'h' },
		{ "last",	   no_argument,	      NULL, 'L' },
		{ "max-count",	   required_argument, NULL, 'm' },
		{ "pid",	   required_argument, NULL, OPT_PID },
		{ "prune",	   optional_argument, NULL, 'p' },
		{ "regex",	   required_argument, NULL, 'e' },
		{ "rotate-count",  required_argument, NULL, 'n' },
		{ "rotate-kbytes", required_argument, NULL, 'r' },
		{ "statistics",	   no_argument,	      NULL, 'S' },
		{ "tail",	   required_argument, NULL, 't' },
		{ "uid",	   required_argument, NULL, OPT_UID },
		{ "wrap",	   optional_argument, NULL, OPT_WRAP },
		{ "version",	   no_argument,	      NULL, OPT_VERSION },
		{ "event-tags",	   required_argument, NULL, OPT_EVENT_TAGS },
		{ "v2",		   no_argument,	      NULL, OPT_V2 },
		{ "dev-dir",	   required_argument, NULL, OPT_DEV_DIR },
		{ "ns",		   required_argument, NULL, OPT_NS },
		{ NULL, 0, NULL, 0 }
	};
	const char *env = getenv("ANDROID_PRINTF_LOG");
	char name[64];
	bool set_format = false;
	int c, prev;

	memset(o, 0, sizeof(*o));
	o->rotate_count = NSLOG_CAT_ROTATE_COUNT;
	o->fmt.layout = NSLOG_FMT_THREADTIME;
	nslog_filter_init(&o->filter);
	opterr = 0;
	for (;;) {
		prev = optind;
		c = getopt_long(argc, argv, ":cdDhLt:T:gG:sf:r:n:v:b:BSpP:m:e:",
				longopts, NULL);
		if (c == -1)
			break;
		/* the option as given, for the messages */
		if (optopt && (c == '?' || c == ':') &&
		    !(prev < argc && argv[prev][1] == '-'))
			snprintf(name, sizeof(name), "-%c", optopt);
		else
			snprintf(name, sizeof(name), "%s",
				 prev < argc ? argv[prev] : "");
		if (c == 'v' && !set_format) {
			/* -v replaces $ANDROID_PRINTF_LOG and the default */
			o->fmt = (struct nslog_fmt){ .layout = NSLOG_FMT_THREADTIME };
			set_format = true;
		}
		nslog_cat_opt(o, c, name);
	}
	if (!set_format && env && *env)
		nslog_cat_format(o, env, true);
	nslog_cat_check(o, argc, argv);
}

/**
 * nslog_catopts_free() - free what parsing allocated
 * @o: the options
 *
 * Context: any.
 */
void nslog_catopts_free(struct nslog_catopts *o)
{
	if (o->has_regex)
		regfree(&o->regex);
	free(o->uids);
	nslog_filter_free(&o->filter);
}
