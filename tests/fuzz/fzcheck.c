// SPDX-License-Identifier: GPL-2.0
/*
 * fzcheck: a UTF-8 check and a small JSON parser that accepts exactly
 * RFC 8259's grammar (no extension: no trailing comma, no control
 * character in a string, no lone surrogate escape is looked at, as JSON
 * allows those), used on the tools' JSON lines.
 */
#include <string.h>

#include "fzcheck.h"

/* The code point's length in UTF-8, by its first byte; 0 if invalid. */
static size_t lead_len(unsigned char c, unsigned int *cp)
{
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0) {
		*cp = c & 0x1f;
		return 2;
	}
	if ((c & 0xf0) == 0xe0) {
		*cp = c & 0x0f;
		return 3;
	}
	if ((c & 0xf8) == 0xf0) {
		*cp = c & 0x07;
		return 4;
	}
	return 0;
}

/**
 * fz_utf8_valid() - whether @n bytes are UTF-8
 * @s: the bytes
 * @n: how many
 *
 * Decodes each sequence and checks the code point: shortest form, not a
 * surrogate, at most U+10FFFF.
 *
 * Return: true if valid.
 */
bool fz_utf8_valid(const char *s, size_t n)
{
	static const unsigned int min_cp[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len, k;
	unsigned int cp;

	while (i < n) {
		len = lead_len(p[i], &cp);
		if (!len || i + len > n)
			return false;
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		if (cp < min_cp[len] || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

struct jp {
	const char *s;
	size_t n, i;
	int depth;
};

static void ws(struct jp *j)
{
	while (j->i < j->n && strchr(" \t\r\n", j->s[j->i]) && j->s[j->i])
		j->i++;
}

static bool lit(struct jp *j, const char *w)
{
	size_t l = strlen(w);

	if (j->n - j->i < l || memcmp(j->s + j->i, w, l))
		return false;
	j->i += l;
	return true;
}

static bool hex4(struct jp *j)
{
	int k;

	for (k = 0; k < 4; k++, j->i++)
		if (j->i >= j->n || !strchr("0123456789abcdefABCDEF",
					     j->s[j->i]) || !j->s[j->i])
			return false;
	return true;
}

static bool string(struct jp *j)
{
	unsigned char c;

	if (!lit(j, "\""))
		return false;
	while (j->i < j->n) {
		c = (unsigned char)j->s[j->i++];
		if (c == '"')
			return true;
		if (c < 0x20)
			return false;
		if (c != '\\')
			continue;
		if (j->i >= j->n)
			return false;
		c = (unsigned char)j->s[j->i++];
		if (c == 'u') {
			if (!hex4(j))
				return false;
		} else if (!c || !strchr("\"\\/bfnrt", c)) {
			return false;
		}
	}
	return false;
}

static bool digits(struct jp *j)
{
	size_t start = j->i;

	while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9')
		j->i++;
	return j->i > start;
}

static bool number(struct jp *j)
{
	if (j->i < j->n && j->s[j->i] == '-')
		j->i++;
	if (j->i < j->n && j->s[j->i] == '0')
		j->i++;
	else if (!digits(j))
		return false;
	if (j->i < j->n && j->s[j->i] == '.') {
		j->i++;
		if (!digits(j))
			return false;
	}
	if (j->i < j->n && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
		j->i++;
		if (j->i < j->n && (j->s[j->i] == '+' || j->s[j->i] == '-'))
			j->i++;
		if (!digits(j))
			return false;
	}
	return true;
}

static bool value(struct jp *j);

/* An object or array: @open, members, @close. */
static bool compound(struct jp *j, char open, char close, bool object)
{
	bool first = true;

	if (j->i >= j->n || j->s[j->i] != open || ++j->depth > 64)
		return false;
	j->i++;
	ws(j);
	if (j->i < j->n && j->s[j->i] == close) {
		j->i++;
		j->depth--;
		return true;
	}
	for (;;) {
		if (!first) {
			ws(j);
			if (j->i < j->n && j->s[j->i] == close) {
				j->i++;
				j->depth--;
				return true;
			}
			if (!lit(j, ","))
				return false;
		}
		first = false;
		ws(j);
		if (object) {
			if (!string(j))
				return false;
			ws(j);
			if (!lit(j, ":"))
				return false;
			ws(j);
		}
		if (!value(j))
			return false;
	}
}

static bool value(struct jp *j)
{
	if (j->i >= j->n)
		return false;
	switch (j->s[j->i]) {
	case '{':
		return compound(j, '{', '}', true);
	case '[':
		return compound(j, '[', ']', false);
	case '"':
		return string(j);
	case 't':
		return lit(j, "true");
	case 'f':
		return lit(j, "false");
	case 'n':
		return lit(j, "null");
	}
	return number(j);
}

/**
 * fz_json_object() - whether @n bytes are one JSON object in UTF-8
 * @s: the bytes (a line without its newline)
 * @n: how many
 *
 * Return: true if they are an object and nothing else but white space.
 */
bool fz_json_object(const char *s, size_t n)
{
	struct jp j = { .s = s, .n = n };

	if (!fz_utf8_valid(s, n))
		return false;
	ws(&j);
	if (j.i >= n || s[j.i] != '{' || !value(&j))
		return false;
	ws(&j);
	return j.i == n;
}
