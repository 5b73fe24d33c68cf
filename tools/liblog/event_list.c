// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * event_list: build an events payload value by value, and parse one
 * (<log/log_event_list.h>, which has the encoding).
 *
 * The builder keeps the payload in its own storage, starting with an
 * open list at the top level (type byte, count byte) whose count is
 * filled in when written; count[d] counts the values of the list open at
 * depth d, and list[d] is where its count byte is.  The parser keeps,
 * for each open list, how many of its values are left to read: the top
 * level is one value.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nslogger.h>
#include <log/log_event_list.h>
#include "internal.h"

/* The record's payload, less the event tag in front of it. */
#define NSLOG_EVENT_MAX	(LOGGER_ENTRY_MAX_PAYLOAD - sizeof(int32_t))
#define NSLOG_LIST_MAX	255

enum nslog_ctx_kind { NSLOG_CTX_WRITE, NSLOG_CTX_READ };

struct android_log_context_internal {
	enum nslog_ctx_kind kind;
	uint32_t tag;
	size_t pos;			/* builder: end; parser: next byte */
	size_t len;			/* parser: the payload's length */
	int depth;
	int overflow;			/* builder: full, later values dropped */
	unsigned int count[ANDROID_MAX_LIST_NEST_DEPTH + 1];
	size_t list[ANDROID_MAX_LIST_NEST_DEPTH + 1];
	unsigned char storage[NSLOG_EVENT_MAX];
};

static void nslog_builder_init(android_log_context ctx)
{
	memset(ctx->count, 0, sizeof(ctx->count));
	ctx->storage[0] = EVENT_TYPE_LIST;
	ctx->storage[1] = 0;
	ctx->list[0] = 1;
	ctx->pos = 2;
	ctx->depth = 0;
	ctx->overflow = 0;
}

NSLOG_EXPORT android_log_context create_android_logger(uint32_t tag)
{
	android_log_context ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->kind = NSLOG_CTX_WRITE;
	ctx->tag = tag;
	nslog_builder_init(ctx);
	return ctx;
}

/* Room for one more value of @size bytes in the open list, or an error. */
static int nslog_builder_room(android_log_context ctx, size_t size)
{
	if (!ctx || ctx->kind != NSLOG_CTX_WRITE)
		return -EBADF;
	if (ctx->overflow)
		return -EIO;
	if (ctx->pos + size > NSLOG_EVENT_MAX ||
	    ctx->count[ctx->depth] >= NSLOG_LIST_MAX) {
		ctx->overflow = 1;
		return -EIO;
	}
	return 0;
}

/* A fixed-size value: the type byte, then @size little-endian bytes. */
static int nslog_builder_put(android_log_context ctx, char type,
			     const void *value, size_t size)
{
	int ret = nslog_builder_room(ctx, 1 + size);

	if (ret)
		return ret;
	ctx->storage[ctx->pos] = (unsigned char)type;
	memcpy(&ctx->storage[ctx->pos + 1], value, size);
	ctx->pos += 1 + size;
	ctx->count[ctx->depth]++;
	return 0;
}

NSLOG_EXPORT int android_log_write_list_begin(android_log_context ctx)
{
	int ret;

	if (ctx && ctx->kind == NSLOG_CTX_WRITE &&
	    ctx->depth >= ANDROID_MAX_LIST_NEST_DEPTH) {
		ctx->overflow = 1;
		return -EOVERFLOW;
	}
	ret = nslog_builder_room(ctx, 2);
	if (ret)
		return ret;
	ctx->count[ctx->depth]++;
	ctx->depth++;
	ctx->storage[ctx->pos] = EVENT_TYPE_LIST;
	ctx->list[ctx->depth] = ctx->pos + 1;
	ctx->count[ctx->depth] = 0;
	ctx->pos += 2;
	return 0;
}

NSLOG_EXPORT int android_log_write_list_end(android_log_context ctx)
{
	if (!ctx || ctx->kind != NSLOG_CTX_WRITE)
		return -EBADF;
	if (!ctx->depth) {
		ctx->overflow = 1;
		return -EOVERFLOW;
	}
	ctx->storage[ctx->list[ctx->depth]] =
		(unsigned char)ctx->count[ctx->depth];
	ctx->depth--;
	return 0;
}

NSLOG_EXPORT int android_log_write_int32(android_log_context ctx,
					 int32_t value)
{
	return nslog_builder_put(ctx, EVENT_TYPE_INT, &value, sizeof(value));
}

NSLOG_EXPORT int android_log_write_int64(android_log_context ctx,
					 int64_t value)
{
	return nslog_builder_put(ctx, EVENT_TYPE_LONG, &value, sizeof(value));
}

NSLOG_EXPORT int android_log_write_float32(android_log_context ctx,
					   float value)
{
	return nslog_builder_put(ctx, EVENT_TYPE_FLOAT, &value,
				 sizeof(value));
}

/* At most @maxlen bytes of @value; cut to what still fits, as Android. */
NSLOG_EXPORT int android_log_write_string8_len(android_log_context ctx,
					       const char *value,
					       size_t maxlen)
{
	const size_t head = 1 + sizeof(int32_t);
	size_t len;
	int32_t len32;
	int ret;

	if (!value)
		value = "";
	len = strnlen(value, maxlen);
	ret = nslog_builder_room(ctx, head);
	if (ret)
		return ret;
	if (ctx->pos + head + len > NSLOG_EVENT_MAX) {
		len = NSLOG_EVENT_MAX - ctx->pos - head;
		ctx->overflow = 1;
	}
	len32 = (int32_t)len;
	ctx->storage[ctx->pos] = EVENT_TYPE_STRING;
	memcpy(&ctx->storage[ctx->pos + 1], &len32, sizeof(len32));
	memcpy(&ctx->storage[ctx->pos + head], value, len);
	ctx->pos += head + len;
	ctx->count[ctx->depth]++;
	return 0;
}

NSLOG_EXPORT int android_log_write_string8(android_log_context ctx,
					   const char *value)
{
	return android_log_write_string8_len(ctx, value, NSLOG_EVENT_MAX);
}

/* The payload: the top list, or its only value bare. */
NSLOG_EXPORT int android_log_write_list_buffer(android_log_context ctx,
					       const char **msg)
{
	size_t skip;

	if (!ctx || ctx->kind != NSLOG_CTX_WRITE || !msg)
		return -EBADF;
	if (ctx->depth)
		return -EIO;
	ctx->storage[1] = (unsigned char)ctx->count[0];
	skip = ctx->count[0] <= 1 ? 2 : 0;
	*msg = (const char *)ctx->storage + skip;
	return (int)(ctx->pos - skip);
}

NSLOG_EXPORT int android_log_write_list(android_log_context ctx, log_id_t id)
{
	const char *msg;
	int len;

	if (id != LOG_ID_EVENTS)
		return -EINVAL;
	len = android_log_write_list_buffer(ctx, &msg);
	if (len < 0)
		return len;
	return __android_log_bwrite((int32_t)ctx->tag, msg, (size_t)len);
}

static void nslog_parser_init(android_log_context ctx, const char *msg,
			      size_t len)
{
	if (len > sizeof(ctx->storage))
		len = sizeof(ctx->storage);
	memmove(ctx->storage, msg, len);	/* msg is storage on a reset */
	memset(ctx->count, 0, sizeof(ctx->count));
	ctx->len = len;
	ctx->pos = 0;
	ctx->depth = 0;
	ctx->count[0] = 1;
}

NSLOG_EXPORT android_log_context create_android_log_parser(const char *msg,
							   size_t len)
{
	android_log_context ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->kind = NSLOG_CTX_READ;
	nslog_parser_init(ctx, msg, len);
	return ctx;
}

/* The end of the payload, or a malformed one: stop for good. */
static android_log_list_element nslog_parser_stop(android_log_context ctx)
{
	android_log_list_element e = { .type = EVENT_TYPE_UNKNOWN };

	e.complete = 1;
	ctx->depth = 0;
	ctx->count[0] = 0;
	return e;
}

/* @size bytes of value at pos, or 0 if the payload ends first. */
static int nslog_parser_take(android_log_context ctx, void *to, size_t size)
{
	if (ctx->pos + size > ctx->len)
		return 0;
	memcpy(to, &ctx->storage[ctx->pos], size);
	ctx->pos += size;
	return 1;
}

static int nslog_parser_done(const android_log_context ctx)
{
	return !ctx->depth && !ctx->count[0];
}

static android_log_list_element nslog_parser_next(android_log_context ctx)
{
	android_log_list_element e = { .type = EVENT_TYPE_UNKNOWN };
	unsigned char type, n;
	int32_t len;

	if (ctx->depth && !ctx->count[ctx->depth]) {
		ctx->depth--;
		e.type = EVENT_TYPE_LIST_STOP;
		e.complete = nslog_parser_done(ctx);
		return e;
	}
	if (nslog_parser_done(ctx) || !nslog_parser_take(ctx, &type, 1))
		return nslog_parser_stop(ctx);
	ctx->count[ctx->depth]--;
	e.type = (AndroidEventLogType)type;
	switch (type) {
	case EVENT_TYPE_INT:
	case EVENT_TYPE_FLOAT:
		e.len = sizeof(int32_t);
		if (!nslog_parser_take(ctx, &e.data.int32, e.len))
			return nslog_parser_stop(ctx);
		break;
	case EVENT_TYPE_LONG:
		e.len = sizeof(int64_t);
		if (!nslog_parser_take(ctx, &e.data.int64, e.len))
			return nslog_parser_stop(ctx);
		break;
	case EVENT_TYPE_STRING:
		if (!nslog_parser_take(ctx, &len, sizeof(len)) || len < 0)
			return nslog_parser_stop(ctx);
		/* A string cut by the payload's end is what is there. */
		if ((size_t)len > ctx->len - ctx->pos)
			len = (int32_t)(ctx->len - ctx->pos);
		e.len = (uint16_t)len;
		e.data.string = (char *)&ctx->storage[ctx->pos];
		ctx->pos += (size_t)len;
		break;
	case EVENT_TYPE_LIST:
		if (ctx->depth >= ANDROID_MAX_LIST_NEST_DEPTH ||
		    !nslog_parser_take(ctx, &n, 1))
			return nslog_parser_stop(ctx);
		ctx->count[++ctx->depth] = n;
		return e;
	default:
		return nslog_parser_stop(ctx);
	}
	e.complete = nslog_parser_done(ctx);
	return e;
}

NSLOG_EXPORT android_log_list_element android_log_read_next(
	android_log_context ctx)
{
	android_log_list_element e = { .type = EVENT_TYPE_UNKNOWN };

	if (!ctx || ctx->kind != NSLOG_CTX_READ) {
		e.complete = 1;
		return e;
	}
	return nslog_parser_next(ctx);
}

/* The next element, the parser left where it was. */
NSLOG_EXPORT android_log_list_element android_log_peek_next(
	android_log_context ctx)
{
	android_log_list_element e = { .type = EVENT_TYPE_UNKNOWN };
	unsigned int count[ANDROID_MAX_LIST_NEST_DEPTH + 1];
	size_t pos;
	int depth;

	if (!ctx || ctx->kind != NSLOG_CTX_READ) {
		e.complete = 1;
		return e;
	}
	memcpy(count, ctx->count, sizeof(count));
	pos = ctx->pos;
	depth = ctx->depth;
	e = nslog_parser_next(ctx);
	memcpy(ctx->count, count, sizeof(count));
	ctx->pos = pos;
	ctx->depth = depth;
	return e;
}

NSLOG_EXPORT int android_log_reset(android_log_context ctx)
{
	if (!ctx)
		return -EBADF;
	if (ctx->kind == NSLOG_CTX_WRITE)
		nslog_builder_init(ctx);
	else
		nslog_parser_init(ctx, (const char *)ctx->storage, ctx->len);
	return 0;
}

NSLOG_EXPORT int android_log_parser_reset(android_log_context ctx,
					  const char *msg, size_t len)
{
	if (!ctx || ctx->kind != NSLOG_CTX_READ)
		return -EBADF;
	nslog_parser_init(ctx, msg, len);
	return 0;
}

NSLOG_EXPORT int android_log_destroy(android_log_context *ctx)
{
	if (!ctx || !*ctx)
		return -EBADF;
	free(*ctx);
	*ctx = NULL;
	return 0;
}
