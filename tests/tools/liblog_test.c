// SPDX-License-Identifier: GPL-2.0
/*
 * liblog_test: the bytes libnslog writes, checked against regular files
 * standing in for the devices ($NSLOG_DEV_DIR).  A regular file keeps the
 * records of successive writev() calls back to back, so each check reads
 * what the last call appended.
 *
 * The directory has main and events but no radio (writes there must fail
 * with -ENOENT) and no system (system records must land in main).
 * __android_log_close() makes the library read its environment and the
 * log.tag file again, and open the nodes again: the filter and retry
 * cases use it to start afresh.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <android/log.h>
#include <log/log_event_list.h>
#include <log/log_id.h>
#include <log/log_safetynet.h>
#include "tap.h"

#define THREADS		4
#define PER_THREAD	100

static char dir[64];

struct devfile {
	const char *name;
	long pos;		/* bytes already checked */
};

static struct devfile dmain = { "main", 0 };
static struct devfile devents = { "events", 0 };

/* What was appended to @d since the last call, in @buf; its size. */
static size_t appended(struct devfile *d, char *buf, size_t size)
{
	char path[128];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, d->name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fseek(f, d->pos, SEEK_SET))
		n = fread(buf, 1, size, f);
	fclose(f);
	d->pos += (long)n;
	return n;
}

static void expect(const char *what, struct devfile *d, int ret,
		   const void *want, size_t n)
{
	static char got[8192];
	size_t len = appended(d, got, sizeof(got));

	if (tap_mem(what, got, len, want, n) && ret != (int)n) {
		tap_failed++;
		tap_passed--;
		printf("#   returned %d, want %zu\n", ret, n);
	}
}

static void *writer(void *arg)
{
	int id = (int)(intptr_t)arg;
	int i;

	for (i = 0; i < PER_THREAD; i++)
		__android_log_print(ANDROID_LOG_DEBUG, "thr", "t%d n%03d", id,
				    i);
	return NULL;
}

/* Count well-formed "\3thr\0tI nNNN\0" records; -1 at the first bad one. */
static int count_thread_records(const char *buf, size_t n)
{
	static const char rec_tag[] = "\3thr";
	const size_t rec_len = 1 + 4 + 8;
	int count = 0;
	size_t off;

	for (off = 0; off + rec_len <= n; off += rec_len, count++) {
		if (memcmp(buf + off, rec_tag, sizeof(rec_tag)) ||
		    buf[off + 5] != 't' || buf[off + rec_len - 1] != '\0')
			return -1;
	}
	return off == n ? count : -1;
}

static void test_threads(void)
{
	static char buf[THREADS * PER_THREAD * 16];
	pthread_t t[THREADS];
	size_t n;
	int i;

	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, writer, (void *)(intptr_t)i);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	n = appended(&dmain, buf, sizeof(buf));
	tap_int("threads: first use from 4 threads at once, 400 whole records",
		count_thread_records(buf, n), THREADS * PER_THREAD);
}

static void test_text(void)
{
	char want[1100];
	char big[2000];
	int ret;

	ret = __android_log_write(ANDROID_LOG_INFO, "tag", "msg");
	expect("write: [4][tag\\0][msg\\0], returns the byte count", &dmain,
	       ret, "\4tag\0msg", 9);

	ret = __android_log_print(ANDROID_LOG_WARN, NULL, "n=%d", 5);
	expect("print: formats; a NULL tag is the program's name", &dmain,
	       ret, "\5liblog_test\0n=5", 17);

	__android_log_set_default_tag("dflt");
	ret = __android_log_write(ANDROID_LOG_WARN, NULL, "m");
	expect("set_default_tag: names records with a NULL tag", &dmain, ret,
	       "\5dflt\0m", 8);
	__android_log_set_default_tag(NULL);

	ret = __android_log_write(ANDROID_LOG_ERROR, "t", NULL);
	expect("write: a NULL message is \"(null)\"", &dmain, ret,
	       "\6t\0(null)", 10);

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ret = __android_log_print(ANDROID_LOG_INFO, "T", "%s", big);
	want[0] = 4;
	memcpy(want + 1, "T", 2);
	memset(want + 3, 'a', 1023);
	want[3 + 1023] = '\0';
	expect("print: the message is cut to 1023 bytes", &dmain, ret, want,
	       3 + 1024);

	ret = __android_log_write(ANDROID_LOG_INFO, "big", big);
	tap_int("write: no cut without formatting (1+4+2000 bytes)", ret,
		1 + 4 + 2000);
	dmain.pos += ret;

	ret = __android_log_buf_print(LOG_ID_MAIN, 99, "p", "%s-%d", "x", 1);
	expect("buf_print: any priority byte is stored as given", &dmain, ret,
	       "\143p\0x-1", 7);
}

static void test_buffers(void)
{
	int ret;

	ret = __android_log_buf_write(LOG_ID_SYSTEM, ANDROID_LOG_INFO, "s",
				      "sys");
	expect("buf_write: system falls back to main when missing", &dmain,
	       ret, "\4s\0sys", 7);

	ret = __android_log_buf_write(LOG_ID_RADIO, ANDROID_LOG_INFO, "r",
				      "x");
	tap_int("buf_write: a missing radio node gives -ENOENT", ret,
		-ENOENT);
	ret = __android_log_buf_write(LOG_ID_MAX, ANDROID_LOG_INFO, "r", "x");
	tap_int("buf_write: LOG_ID_MAX is -EINVAL", ret, -EINVAL);
	ret = __android_log_buf_write(-1, ANDROID_LOG_INFO, "r", "x");
	tap_int("buf_write: buffer id -1 is -EINVAL", ret, -EINVAL);

	ret = __android_log_buf_write(LOG_ID_EVENTS, ANDROID_LOG_INFO, "e",
				      "x");
	expect("buf_write: a text record may go to events", &devents, ret,
	       "\4e\0x", 5);
}

static void test_events(void)
{
	static const unsigned char payload[] = { 0, 1, 0, 0, 0 };
	int32_t v = 0x01020304;
	int64_t l = -2;
	char want[32];
	int ret;

	ret = __android_log_bwrite(42, payload, sizeof(payload));
	memcpy(want, "\52\0\0\0", 4);
	memcpy(want + 4, payload, sizeof(payload));
	expect("bwrite: [__s32 tag][payload]", &devents, ret, want, 9);

	ret = __android_log_btwrite(-1, EVENT_TYPE_INT, &v, sizeof(v));
	memcpy(want, "\377\377\377\377\0\4\3\2\1", 9);
	expect("btwrite: [__s32 tag][type][payload]", &devents, ret, want, 9);

	ret = __android_log_btwrite(7, EVENT_TYPE_LONG, &l, sizeof(l));
	memcpy(want, "\7\0\0\0\1\376\377\377\377\377\377\377\377", 13);
	expect("btwrite: LONG", &devents, ret, want, 13);
}

/* Empty a stand-in node; after __android_log_close() writes start at 0. */
static void truncate_dev(struct devfile *d)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, d->name);
	if (truncate(path, 0))
		perror(path);
	d->pos = 0;
}

/* Forget the devices and the filter: the next call starts afresh. */
static void fresh(void)
{
	__android_log_close();
	truncate_dev(&dmain);
	truncate_dev(&devents);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A dropped record: -EPERM, and nothing appended. */
static void expect_dropped(const char *what, int ret)
{
	char got[64];
	size_t n = appended(&dmain, got, sizeof(got));

	if (!tap_ok(ret == -EPERM && !n, what))
		printf("#   returned %d, %zu bytes appended\n", ret, n);
}

static void test_filter_default(void)
{
	int ret;

	ret = __android_log_write(ANDROID_LOG_VERBOSE, "v", "m");
	expect("filter: unconfigured, VERBOSE is written", &dmain, ret,
	       "\2v\0m", 5);
	expect_dropped("filter: priority DEFAULT (1) is below VERBOSE",
		       __android_log_write(ANDROID_LOG_DEFAULT, "v", "m"));
	tap_int("is_loggable: unconfigured, default_prio decides (below)",
		__android_log_is_loggable(ANDROID_LOG_DEBUG, "t",
					  ANDROID_LOG_INFO), 0);
	tap_int("is_loggable: unconfigured, default_prio decides (at)",
		__android_log_is_loggable(ANDROID_LOG_INFO, "t",
					  ANDROID_LOG_INFO), 1);

	tap_int("set_minimum_priority: returns the old value (DEFAULT)",
		__android_log_set_minimum_priority(ANDROID_LOG_WARN),
		ANDROID_LOG_DEFAULT);
	tap_int("get_minimum_priority: what was set",
		__android_log_get_minimum_priority(), ANDROID_LOG_WARN);
	expect_dropped("set_minimum_priority(WARN): INFO is dropped",
		       __android_log_write(ANDROID_LOG_INFO, "t", "m"));
	expect_dropped("set_minimum_priority(WARN): print is dropped too",
		       __android_log_print(ANDROID_LOG_INFO, "t", "%d", 1));
	ret = __android_log_write(ANDROID_LOG_WARN, "t", "w");
	expect("set_minimum_priority(WARN): WARN is written", &dmain, ret,
	       "\5t\0w", 5);
	tap_int("is_loggable: the minimum beats default_prio",
		__android_log_is_loggable(ANDROID_LOG_INFO, "t",
					  ANDROID_LOG_VERBOSE), 0);
	__android_log_set_minimum_priority(ANDROID_LOG_DEFAULT);
}

static void test_filter_env(const char *tagfile)
{
	int ret;

	setenv("ANDROID_LOG_TAGS", "quiet:W *:I loud:V bare", 1);
	fresh();
	expect_dropped("ANDROID_LOG_TAGS quiet:W: DEBUG dropped",
		       __android_log_write(ANDROID_LOG_DEBUG, "quiet", "m"));
	ret = __android_log_write(ANDROID_LOG_WARN, "quiet", "m");
	expect("ANDROID_LOG_TAGS quiet:W: WARN written", &dmain, ret,
	       "\5quiet\0m", 9);
	expect_dropped("ANDROID_LOG_TAGS *:I: another tag's DEBUG dropped",
		       __android_log_write(ANDROID_LOG_DEBUG, "other", "m"));
	ret = __android_log_write(ANDROID_LOG_VERBOSE, "loud", "m");
	expect("ANDROID_LOG_TAGS loud:V beats *:I", &dmain, ret,
	       "\2loud\0m", 8);
	tap_int("ANDROID_LOG_TAGS: a bare tag is TAG:V",
		__android_log_is_loggable(ANDROID_LOG_VERBOSE, "bare",
					  ANDROID_LOG_INFO), 1);
	tap_int("is_loggable_len: the tag is the first len bytes",
		__android_log_is_loggable_len(ANDROID_LOG_VERBOSE, "loudXYZ",
					      4, ANDROID_LOG_INFO), 1);
	tap_int("is_loggable_len: a prefix is another tag",
		__android_log_is_loggable_len(ANDROID_LOG_VERBOSE, "loud", 3,
					      ANDROID_LOG_INFO), 0);

	/* A configured level and a minimum: the lower wins, as Android R. */
	__android_log_set_minimum_priority(ANDROID_LOG_ERROR);
	tap_int("set_minimum_priority(ERROR) with loud:V: VERBOSE loggable",
		__android_log_is_loggable(ANDROID_LOG_VERBOSE, "loud",
					  ANDROID_LOG_INFO), 1);
	tap_int("set_minimum_priority(DEBUG) with quiet:W: DEBUG loggable",
		(__android_log_set_minimum_priority(ANDROID_LOG_DEBUG),
		 __android_log_is_loggable(ANDROID_LOG_DEBUG, "quiet",
					   ANDROID_LOG_INFO)), 1);
	__android_log_set_minimum_priority(ANDROID_LOG_DEFAULT);

	/* The environment beats the file, tag for tag. */
	put_file(tagfile, "log.tag.quiet=VERBOSE\nlog.tag.filed=DEBUG\n");
	fresh();
	expect_dropped("env quiet:W beats the file's log.tag.quiet=VERBOSE",
		       __android_log_write(ANDROID_LOG_DEBUG, "quiet", "m"));
	ret = __android_log_write(ANDROID_LOG_DEBUG, "filed", "m");
	expect("the file's log.tag.filed=DEBUG beats env *:I", &dmain, ret,
	       "\3filed\0m", 9);
	unsetenv("ANDROID_LOG_TAGS");
}

static void test_filter_file(const char *tagfile)
{
	int ret;

	put_file(tagfile, "# a comment\n"
			  "log.tag=ERROR\n"
			  " log.tag.chatty = verbose\n"
			  "log.tag.mute=SUPPRESS\n"
			  "log.tag.bad=XYZ\n"
			  "log.tag.twice=VERBOSE\n"
			  "log.tag.twice=WARN\n"
			  "other.prop=VERBOSE\n");
	fresh();
	expect_dropped("log.tag=ERROR: WARN dropped",
		       __android_log_write(ANDROID_LOG_WARN, "x", "m"));
	ret = __android_log_write(ANDROID_LOG_ERROR, "x", "m");
	expect("log.tag=ERROR: ERROR written", &dmain, ret, "\6x\0m", 5);
	ret = __android_log_write(ANDROID_LOG_VERBOSE, "chatty", "m");
	expect("log.tag.chatty = verbose (spaces, lower case) beats log.tag",
	       &dmain, ret, "\2chatty\0m", 10);
	expect_dropped("log.tag.mute=SUPPRESS: even FATAL is dropped",
		       __android_log_write(ANDROID_LOG_FATAL, "mute", "m"));
	expect_dropped("log.tag.bad=XYZ is ignored: log.tag=ERROR applies",
		       __android_log_write(ANDROID_LOG_WARN, "bad", "m"));
	expect_dropped("the last log.tag.twice line wins (WARN)",
		       __android_log_write(ANDROID_LOG_INFO, "twice", "m"));

	/* Read once: a changed file is seen only after __android_log_close. */
	put_file(tagfile, "log.tag=VERBOSE\n");
	expect_dropped("the file is not read again on every record",
		       __android_log_write(ANDROID_LOG_WARN, "x", "m"));
	fresh();
	ret = __android_log_write(ANDROID_LOG_WARN, "x", "m");
	expect("__android_log_close(): the file is read again", &dmain, ret,
	       "\5x\0m", 5);
	unlink(tagfile);
	fresh();
}

static struct __android_log_message got_msg;
static char got_text[64];

static void test_logger_fn(const struct __android_log_message *m)
{
	got_msg = *m;
	snprintf(got_text, sizeof(got_text), "%s|%s", m->tag, m->message);
}

static void test_logger(void)
{
	struct __android_log_message m = {
		.struct_size = sizeof(m),
		.buffer_id = LOG_ID_CRASH,
		.priority = ANDROID_LOG_ERROR,
		.tag = "wl",
		.message = "crashed",
	};
	char buf[16];
	int ret;

	__android_log_set_logger(test_logger_fn);
	ret = __android_log_buf_write(LOG_ID_SYSTEM, ANDROID_LOG_INFO, NULL,
				      "to mine");
	tap_int("set_logger: a write returns 1", ret, 1);
	tap_ok(got_msg.buffer_id == LOG_ID_SYSTEM &&
	       got_msg.priority == ANDROID_LOG_INFO,
	       "set_logger: the logger gets the buffer and priority");
	tap_str("set_logger: tag (NULL is the default tag) and message",
		got_text, "liblog_test|to mine");
	tap_int("set_logger: nothing reaches the devices",
		(long)appended(&dmain, buf, sizeof(buf)), 0);
	expect_dropped("set_logger: the filter still applies",
		       __android_log_write(ANDROID_LOG_DEFAULT, "t", "m"));

	__android_log_set_logger(NULL);
	__android_log_write_log_message(&m);
	expect("write_log_message: the default logger writes to the devices",
	       &dmain, 12, "\6wl\0crashed", 12);
	m.buffer_id = LOG_ID_EVENTS;
	__android_log_write_log_message(&m);
	tap_int("write_log_message: events is not a text buffer: dropped",
		(long)appended(&dmain, buf, sizeof(buf)), 0);
}

static char aborted[32];

static void test_aborter_fn(const char *msg)
{
	snprintf(aborted, sizeof(aborted), "%s", msg);
}

static void test_aborter(void)
{
	__android_log_set_aborter(test_aborter_fn);
	__android_log_call_aborter("why");
	tap_str("set_aborter: call_aborter calls it with the message",
		aborted, "why");
	__android_log_set_aborter(NULL);
}

static void test_bswrite(void)
{
	int ret;

	ret = __android_log_bswrite(5, "abc");
	expect("bswrite: [tag][STRING][int32 length][bytes]", &devents, ret,
	       "\5\0\0\0\2\3\0\0\0abc", 12);
	ret = __android_log_bswrite(-1, "");
	expect("bswrite: an empty string", &devents, ret,
	       "\377\377\377\377\2\0\0\0\0", 9);
}

static void test_event_list(void)
{
	static const char want[] =
		"\350\3\0\0"			/* tag 1000 */
		"\3\5"				/* list of 5 */
		"\0\1\0\0\0"			/* int32 1 */
		"\1\376\377\377\377\377\377\377\377"	/* int64 -2 */
		"\2\2\0\0\0hi"			/* string "hi" */
		"\4\0\0\300\77"			/* float 1.5 */
		"\3\1"				/* list of 1 */
		"\0\3\0\0\0";			/* int32 3 */
	android_log_context ctx = create_android_logger(1000);
	const char *buf;
	int ret, i;

	android_log_write_int32(ctx, 1);
	android_log_write_int64(ctx, -2);
	android_log_write_string8(ctx, "hi");
	android_log_write_float32(ctx, 1.5f);
	android_log_write_list_begin(ctx);
	android_log_write_int32(ctx, 3);
	tap_int("event list: write_list with a list open is -EIO",
		android_log_write_list(ctx, LOG_ID_EVENTS), -EIO);
	android_log_write_list_end(ctx);
	tap_int("event list: only LOG_ID_EVENTS is written",
		android_log_write_list(ctx, LOG_ID_MAIN), -EINVAL);
	ret = android_log_write_list(ctx, LOG_ID_EVENTS);
	expect("event list: [tag][list of 5: int, long, string, float, list]",
	       &devents, ret, want, sizeof(want) - 1);
	ret = android_log_write_list_buffer(ctx, &buf);
	tap_mem("write_list_buffer: the same payload, not written", buf,
		ret > 0 ? (size_t)ret : 0, want + 4, sizeof(want) - 5);
	tap_int("list_end with no list open is -EOVERFLOW",
		android_log_write_list_end(ctx), -EOVERFLOW);
	android_log_destroy(&ctx);
	tap_ok(!ctx, "android_log_destroy: sets the context to NULL");

	ctx = create_android_logger(7);
	android_log_write_int32(ctx, 9);
	ret = android_log_write_list(ctx, LOG_ID_EVENTS);
	expect("event list: a single value is written bare", &devents, ret,
	       "\7\0\0\0\0\11\0\0\0", 9);
	android_log_reset(ctx);
	android_log_write_string8_len(ctx, "abcdef", 3);
	android_log_write_string8(ctx, NULL);
	ret = android_log_write_list(ctx, LOG_ID_EVENTS);
	expect("event list: string8_len cuts; NULL is \"\"; reset empties",
	       &devents, ret, "\7\0\0\0\3\2\2\3\0\0\0abc\2\0\0\0\0", 19);
	android_log_reset(ctx);
	for (i = 0; i < ANDROID_MAX_LIST_NEST_DEPTH; i++)
		android_log_write_list_begin(ctx);
	tap_int("event list: a ninth nested list is -EOVERFLOW",
		android_log_write_list_begin(ctx), -EOVERFLOW);
	tap_int("event list: after an overflow, values are -EIO",
		android_log_write_int32(ctx, 1), -EIO);
	android_log_destroy(&ctx);
}

static void test_event_list_full(void)
{
	android_log_context ctx = create_android_logger(1);
	static char big[5000];
	const char *buf;
	int32_t len;
	int ret;

	memset(big, 'x', sizeof(big) - 1);
	tap_int("event list: a string past the payload's end is cut, not lost",
		android_log_write_string8(ctx, big), 0);
	tap_int("event list: a value after a full payload is -EIO",
		android_log_write_int32(ctx, 1), -EIO);
	ret = android_log_write_list_buffer(ctx, &buf);
	/* 4076 less the tag, less the list header dropped for one value. */
	tap_int("event list: the payload fills 4072 bytes", ret, 4070);
	memcpy(&len, buf + 1, sizeof(len));
	tap_int("event list: the cut string's length", len, 4065);
	android_log_destroy(&ctx);
}

static void test_event_parser(void)
{
	static const char payload[] =
		"\3\3" "\0\1\0\0\0" "\2\2\0\0\0hi" "\3\1" "\1\5\0\0\0\0\0\0\0";
	android_log_context ctx = create_android_log_parser(payload,
							    sizeof(payload) - 1);
	android_log_list_element e;
	char seq[128] = "";
	size_t n = 0;
	int i;

	e = android_log_peek_next(ctx);
	tap_ok(e.type == EVENT_TYPE_LIST,
	       "parser: peek_next sees the list");
	for (i = 0; i < 10; i++) {
		e = android_log_read_next(ctx);
		switch (e.type) {
		case EVENT_TYPE_INT:
			n += snprintf(seq + n, sizeof(seq) - n, "i%d",
				      e.data.int32);
			break;
		case EVENT_TYPE_LONG:
			n += snprintf(seq + n, sizeof(seq) - n, "l%lld",
				      (long long)e.data.int64);
			break;
		case EVENT_TYPE_STRING:
			n += snprintf(seq + n, sizeof(seq) - n, "s%.*s",
				      e.len, e.data.string);
			break;
		case EVENT_TYPE_LIST:
			n += snprintf(seq + n, sizeof(seq) - n, "[");
			break;
		case EVENT_TYPE_LIST_STOP:
			n += snprintf(seq + n, sizeof(seq) - n, "]");
			break;
		default:
			n += snprintf(seq + n, sizeof(seq) - n, "?");
		}
		if (e.complete) {
			n += snprintf(seq + n, sizeof(seq) - n, ".");
			break;
		}
	}
	tap_str("parser: [int, string, [long]], complete on the last ]",
		seq, "[i1shi[l5]].");
	e = android_log_read_next(ctx);
	tap_ok(e.type == EVENT_TYPE_UNKNOWN && e.complete,
	       "parser: past the end, UNKNOWN and complete");
	android_log_parser_reset(ctx, "\0\7\0\0", 4);
	e = android_log_read_next(ctx);
	tap_ok(e.type == EVENT_TYPE_UNKNOWN && e.complete,
	       "parser: a value cut short is UNKNOWN");
	android_log_destroy(&ctx);
}

static void test_safetynet(void)
{
	static const char want[] =
		"TENS"				/* 0x534e4554 */
		"\3\3"
		"\2\10\0\0\0" "31335238"
		"\0\377\377\377\377"
		"\2\0\0\0\0";
	int ret;

	ret = android_errorWriteLog(0x534e4554, "31335238");
	expect("android_errorWriteLog: [subtag, uid -1, \"\"] in events",
	       &devents, ret, want, sizeof(want) - 1);
	tap_int("android_errorWriteWithInfoLog: no subtag is -EINVAL",
		android_errorWriteWithInfoLog(1, NULL, 0, "x", 1), -EINVAL);
}

/*
 * No node at first: the open fails; a write within the retry interval
 * does not try again even though the node now exists; a write after it
 * (an interval of 0) does.  No clock is waited for.
 */
static void test_retry(void)
{
	char rdir[80], path[96];
	int ret;

	snprintf(rdir, sizeof(rdir), "%s/late", dir);
	snprintf(path, sizeof(path), "%s/main", rdir);
	setenv("NSLOG_DEV_DIR", rdir, 1);
	setenv("NSLOG_LOG_RETRY_MS", "100000", 1);
	__android_log_close();
	tap_int("retry: no directory yet, -ENOENT",
		__android_log_write(ANDROID_LOG_INFO, "r", "1"), -ENOENT);
	mkdir(rdir, 0755);
	put_file(path, "");
	tap_int("retry: within the interval, not opened again",
		__android_log_write(ANDROID_LOG_INFO, "r", "2"), -ENOENT);

	setenv("NSLOG_LOG_RETRY_MS", "0", 1);
	__android_log_close();
	rename(path, rdir);
	rmdir(rdir);
	__android_log_write(ANDROID_LOG_INFO, "r", "3");
	mkdir(rdir, 0755);
	put_file(path, "");
	ret = __android_log_write(ANDROID_LOG_INFO, "r", "4");
	tap_int("retry: after the interval, opened and written", ret, 5);

	unlink(path);
	rmdir(rdir);
	unsetenv("NSLOG_LOG_RETRY_MS");
	setenv("NSLOG_DEV_DIR", dir, 1);
	fresh();
}

static void test_routing(void)
{
	int ret;

	ret = __android_log_buf_write(LOG_ID_CRASH, ANDROID_LOG_ERROR, "c",
				      "x");
	expect("buf_write: LOG_ID_CRASH goes to main", &dmain, ret,
	       "\6c\0x", 5);
	ret = __android_log_buf_write(LOG_ID_DEFAULT, ANDROID_LOG_ERROR, "d",
				      "y");
	expect("buf_write: LOG_ID_DEFAULT goes to main", &dmain, ret,
	       "\6d\0y", 5);
	tap_int("buf_write: LOG_ID_STATS is -EINVAL",
		__android_log_buf_write(LOG_ID_STATS, 4, "s", "x"), -EINVAL);
	tap_int("buf_write: LOG_ID_SECURITY is -EINVAL",
		__android_log_buf_write(LOG_ID_SECURITY, 4, "s", "x"),
		-EINVAL);
	tap_int("buf_write: LOG_ID_KERNEL is -EINVAL",
		__android_log_buf_write(LOG_ID_KERNEL, 4, "s", "x"), -EINVAL);

	tap_str("id_to_name: crash", android_log_id_to_name(LOG_ID_CRASH),
		"crash");
	tap_str("id_to_name: kernel", android_log_id_to_name(LOG_ID_KERNEL),
		"kernel");
	tap_str("id_to_name: an id out of range is main",
		android_log_id_to_name(LOG_ID_MAX), "main");
	tap_int("name_to_log_id: system",
		android_name_to_log_id("system"), LOG_ID_SYSTEM);
	tap_int("name_to_log_id: a path's last component",
		android_name_to_log_id("/dev/log/radio"), LOG_ID_RADIO);
	tap_int("name_to_log_id: security",
		android_name_to_log_id("security"), LOG_ID_SECURITY);
	tap_int("name_to_log_id: an unknown name is LOG_ID_MAX",
		android_name_to_log_id("mainx"), LOG_ID_MAX);
	tap_int("name_to_log_id: NULL is LOG_ID_MAX",
		android_name_to_log_id(NULL), LOG_ID_MAX);
}

static void test_assert(void)
{
	static const char want[] = "\7T\0Assertion failed: x > 0";
	struct rlimit no_core = { 0, 0 };
	int status = 0;
	pid_t pid;
	int ret;

	/*
	 * Open the node here, so that the children write through this
	 * process's open file and its offset in the stand-in file.
	 */
	ret = __android_log_write(ANDROID_LOG_INFO, "T", "parent");
	expect("assert: the parent's own record first", &dmain, ret,
	       "\4T\0parent", 10);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &no_core);
		__android_log_assert("x > 0", "T", NULL);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
	       "assert: the process aborts");
	expect("assert: a FATAL record names the condition", &dmain,
	       sizeof(want), want, sizeof(want));

	pid = fork();
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &no_core);
		__android_log_assert("ignored", "T", "bad %d", 7);
	}
	waitpid(pid, &status, 0);
	expect("assert: a format replaces the condition", &dmain, 9,
	       "\7T\0bad 7", 9);
}

static void cleanup(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/main", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/events", dir);
	unlink(path);
	rmdir(dir);
}

static int make_dir(void)
{
	char path[128];
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/nslog_liblog.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/main", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fclose(f);
	snprintf(path, sizeof(path), "%s/events", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fclose(f);
	return setenv("NSLOG_DEV_DIR", dir, 1);
}

int main(void)
{
	char tagfile[96];

	if (!tap_ok(!make_dir(), "set up a fake device directory"))
		return tap_done();
	/* Nothing of the host's: no filterspecs, a log.tag file of ours. */
	snprintf(tagfile, sizeof(tagfile), "%s/log.tag", dir);
	unsetenv("ANDROID_LOG_TAGS");
	setenv("NSLOG_LOG_TAG_FILE", tagfile, 1);
	test_retry();
	test_threads();
	test_text();
	test_buffers();
	test_events();
	test_routing();
	test_filter_default();
	test_filter_env(tagfile);
	test_filter_file(tagfile);
	test_logger();
	test_aborter();
	test_bswrite();
	test_event_list();
	test_event_list_full();
	test_event_parser();
	test_safetynet();
	test_assert();
	cleanup();
	return tap_done();
}
