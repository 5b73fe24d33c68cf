// SPDX-License-Identifier: GPL-2.0
/*
 * jsonw: JSON lines.
 *
 * Strings: '"' and '\' are escaped, control characters (U+0000 to
 * U+001F, and U+007F) are written as \b \f \n \r \t or \u00XX, valid UTF-8
 * is copied, and each byte that is not part of valid UTF-8 becomes
 * \ufffd, so that the output is always valid JSON in valid UTF-8 however
 * a writer encoded its message.  Keys are the caller's constants, written
 * as they are.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "jsonw.h"
#include "utf8.h"

static void nslog_json_escape(FILE *out, unsigned char c)
{
	switch (c) {
	case '"':
		fputs("\\\"", out);
		break;
	case '\\':
		fputs("\\\\", out);
		break;
	case '\b':
		fputs("\\b", out);
		break;
	case '\f':
		fputs("\\f", out);
		break;
	case '\n':
		fputs("\\n", out);
		break;
	case '\r':
		fputs("\\r", out);
		break;
	case '\t':
		fputs("\\t", out);
		break;
	default:
		fprintf(out, "\\u%04x", c);
		break;
	}
}

/**
 * nslog_json_string() - write @n bytes as a JSON string, quotes included
 * @out: where to write
 * @s: the bytes, any
 * @n: how many
 *
 * Context: any.
 */
void nslog_json_string(FILE *out, const void *s, size_t n)
{
	const unsigned char *p = s, *end = p + n;
	const unsigned char *run = p;	/* bytes to copy as they are */
	size_t len;

	putc('"', out);
	while (p < end) {
		if (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\') {
			p++;
			continue;
		}
		len = *p < 0x80 ? 0 : nslog_utf8_seq(p, (size_t)(end - p));
		if (len) {
			p += len;
			continue;
		}
		fwrite(run, 1, (size_t)(p - run), out);
		if (*p < 0x80)
			nslog_json_escape(out, *p);
		else
			fputs("\\ufffd", out);
		run = ++p;
	}
	fwrite(run, 1, (size_t)(p - run), out);
	putc('"', out);
}

/**
 * nslog_json_begin() - start an object
 * @j: the writer
 * @out: where the object goes
 *
 * Context: any.
 */
void nslog_json_begin(struct nslog_json *j, FILE *out)
{
	j->out = out;
	j->first = true;
	putc('{', out);
}

static void nslog_json_key(struct nslog_json *j, const char *key)
{
	if (!j->first)
		putc(',', j->out);
	j->first = false;
	fprintf(j->out, "\"%s\":", key);
}

/* A string member; @s NUL-terminated. */
void nslog_json_str(struct nslog_json *j, const char *key, const char *s)
{
	nslog_json_strn(j, key, s, strlen(s));
}

/* A string member of @n bytes. */
void nslog_json_strn(struct nslog_json *j, const char *key, const void *s,
		     size_t n)
{
	nslog_json_key(j, key);
	nslog_json_string(j->out, s, n);
}

/* A number member; integers up to 2^53 are exact in every JSON reader. */
void nslog_json_u64(struct nslog_json *j, const char *key, uint64_t v)
{
	nslog_json_key(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

void nslog_json_s64(struct nslog_json *j, const char *key, int64_t v)
{
	nslog_json_key(j, key);
	fprintf(j->out, "%" PRId64, v);
}

void nslog_json_bool(struct nslog_json *j, const char *key, bool v)
{
	nslog_json_key(j, key);
	fputs(v ? "true" : "false", j->out);
}

void nslog_json_null(struct nslog_json *j, const char *key)
{
	nslog_json_key(j, key);
	fputs("null", j->out);
}

/**
 * nslog_json_end() - close the object and end the line
 * @j: the writer
 *
 * Context: any.
 * Return: 0, or -EIO if the stream has an error.
 */
int nslog_json_end(struct nslog_json *j)
{
	fputs("}\n", j->out);
	return ferror(j->out) ? -EIO : 0;
}
