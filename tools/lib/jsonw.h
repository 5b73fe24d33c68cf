/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonw: write one JSON object on one line (JSON lines), with strings
 * escaped so that any bytes give valid JSON (RFC 8259) in valid UTF-8.
 */
#ifndef NSLOG_JSONW_H
#define NSLOG_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct nslog_json {
	FILE *out;
	bool first;	/* no member written yet */
};

void nslog_json_string(FILE *out, const void *s, size_t n);

void nslog_json_begin(struct nslog_json *j, FILE *out);
void nslog_json_str(struct nslog_json *j, const char *key, const char *s);
void nslog_json_strn(struct nslog_json *j, const char *key, const void *s,
		     size_t n);
void nslog_json_u64(struct nslog_json *j, const char *key, uint64_t v);
void nslog_json_s64(struct nslog_json *j, const char *key, int64_t v);
void nslog_json_bool(struct nslog_json *j, const char *key, bool v);
void nslog_json_null(struct nslog_json *j, const char *key);
int nslog_json_end(struct nslog_json *j);

#endif /* NSLOG_JSONW_H */
