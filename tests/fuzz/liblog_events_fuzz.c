// SPDX-License-Identifier: GPL-2.0
/*
 * liblog_events_fuzz: an events payload (a typed value, as a container's
 * writer makes it) through liblog's parser, create_android_log_parser()
 * and android_log_read_next() / android_log_peek_next(), as Android code
 * that decodes event records calls them.
 *
 * Input: the payload.
 *
 * Checked: peek gives what the next read gives; the walk ends (each
 * element read takes a byte of the payload or closes a list, so at most
 * twice as many elements as bytes, and lists no deeper than
 * ANDROID_MAX_LIST_NEST_DEPTH); a string lies in the parser's copy (its
 * bytes are read here, for ASan) and no longer than the payload; after
 * android_log_parser_reset() the same payload reads the same again.
 */
#include <log/log_event_list.h>

#include "fuzz.h"

#define MAX_ELEMS	(2 * 4096 + 16)

static android_log_list_element seen[MAX_ELEMS];

static bool same(const android_log_list_element *a,
		 const android_log_list_element *b)
{
	if (a->type != b->type || a->complete != b->complete ||
	    a->len != b->len)
		return false;
	switch (a->type) {
	case EVENT_TYPE_INT:
	case EVENT_TYPE_FLOAT:
		return a->data.int32 == b->data.int32;
	case EVENT_TYPE_LONG:
		return a->data.int64 == b->data.int64;
	case EVENT_TYPE_STRING:
		return !memcmp(a->data.string, b->data.string, a->len);
	default:
		return true;
	}
}

/* Read every element of @ctx into seen[]; their count. */
static size_t walk(android_log_context ctx, size_t size)
{
	android_log_list_element e, peek;
	size_t n = 0;
	int depth = 0;
	volatile unsigned char sink = 0;
	uint16_t i;

	for (;;) {
		peek = android_log_peek_next(ctx);
		e = android_log_read_next(ctx);
		FZ_CHECK(same(&peek, &e));
		FZ_CHECK(n < MAX_ELEMS && n <= 2 * size + 2);
		seen[n++] = e;
		if (e.type == EVENT_TYPE_LIST)
			FZ_CHECK(++depth <= ANDROID_MAX_LIST_NEST_DEPTH);
		else if (e.type == EVENT_TYPE_LIST_STOP)
			FZ_CHECK(--depth >= 0);
		if (e.type == EVENT_TYPE_STRING) {
			FZ_CHECK(e.len <= size);
			for (i = 0; i < e.len; i++)
				sink ^= (unsigned char)e.data.string[i];
		}
		if (e.complete || e.type == EVENT_TYPE_UNKNOWN)
			break;
	}
	(void)sink;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	android_log_context ctx;
	size_t n, i;
	android_log_list_element e;

	ctx = create_android_log_parser((const char *)data, size);
	if (!ctx)
		return 0;
	n = walk(ctx, size);
	/* past the end: nothing more, and it says so */
	e = android_log_read_next(ctx);
	FZ_CHECK(e.complete && e.type == EVENT_TYPE_UNKNOWN);

	FZ_CHECK(!android_log_parser_reset(ctx, (const char *)data, size));
	for (i = 0; i < n; i++) {
		e = android_log_read_next(ctx);
		FZ_CHECK(same(&e, &seen[i]));
	}
	android_log_destroy(&ctx);
	return 0;
}
