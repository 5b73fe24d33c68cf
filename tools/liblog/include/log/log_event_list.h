/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <log/log_event_list.h>, the C API that builds an
 * events payload item by item, and parses one.
 *
 * A payload is a typed value: [type byte][value], little-endian:
 *	EVENT_TYPE_INT (0)	int32_t
 *	EVENT_TYPE_LONG (1)	int64_t
 *	EVENT_TYPE_STRING (2)	int32_t length, then that many bytes
 *	EVENT_TYPE_LIST (3)	uint8_t count, then count values
 *	EVENT_TYPE_FLOAT (4)	IEEE 754 single
 * The builder collects the values written at its top level in a list; a
 * single value is written bare, as Android does.  Lists nest 8 deep and
 * hold 255 values; a payload holds 4072 bytes (the record's 4076, less
 * the tag).  A string past that is cut; any other value past it, and
 * every later one, is dropped (-EIO), the payload written as far as it
 * went.
 */
#ifndef NSLOG_LOG_LOG_EVENT_LIST_H
#define NSLOG_LOG_LOG_EVENT_LIST_H

#include <stddef.h>
#include <stdint.h>

#include <android/log.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ANDROID_MAX_LIST_NEST_DEPTH	8

typedef struct android_log_context_internal *android_log_context;

typedef struct {
	AndroidEventLogType type;
	uint16_t complete;	/* 1 on the payload's last element */
	uint16_t len;		/* of the value's bytes (a string's length) */
	union {
		int32_t int32;
		int64_t int64;
		char *string;	/* into the parser, not NUL-terminated */
		float float32;
	} data;
} android_log_list_element;

/* A builder of a payload for events tag @tag; NULL if out of memory. */
android_log_context create_android_logger(uint32_t tag);

/* 0, or -EBADF (a parser), -EIO (full), -EOVERFLOW (nesting). */
int android_log_write_list_begin(android_log_context ctx);
int android_log_write_list_end(android_log_context ctx);
int android_log_write_int32(android_log_context ctx, int32_t value);
int android_log_write_int64(android_log_context ctx, int64_t value);
int android_log_write_string8(android_log_context ctx, const char *value);
int android_log_write_string8_len(android_log_context ctx, const char *value,
				  size_t maxlen);
int android_log_write_float32(android_log_context ctx, float value);

/*
 * Write the payload as one record to @id (LOG_ID_EVENTS; -EINVAL for any
 * other): the bytes stored, or a negative errno (-EIO with a list open).
 */
int android_log_write_list(android_log_context ctx, log_id_t id);

/* The payload, without writing it: its length, and *@msg set to it. */
int android_log_write_list_buffer(android_log_context ctx, const char **msg);

/* A parser of the payload @msg (copied); NULL if out of memory. */
android_log_context create_android_log_parser(const char *msg, size_t len);

/* The next element, consumed, or only looked at. */
android_log_list_element android_log_read_next(android_log_context ctx);
android_log_list_element android_log_peek_next(android_log_context ctx);

/* Empty a builder; point a parser at another payload.  0 or -EBADF. */
int android_log_reset(android_log_context ctx);
int android_log_parser_reset(android_log_context ctx, const char *msg,
			     size_t len);

/* Free *@ctx and set it to NULL.  0, or -EBADF for NULL. */
int android_log_destroy(android_log_context *ctx);

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_LOG_LOG_EVENT_LIST_H */
