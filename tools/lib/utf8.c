// SPDX-License-Identifier: GPL-2.0
/*
 * utf8: validation of UTF-8 sequences (RFC 3629): no overlong forms, no
 * surrogates (U+D800..U+DFFF), nothing above U+10FFFF.
 */
#include "utf8.h"

/**
 * nslog_utf8_seq() - length of the valid UTF-8 sequence at @s
 * @s: the bytes
 * @n: how many there are (at least 1)
 *
 * Context: any.
 * Return: 1 to 4, the length of the character starting at @s; 0 if the
 * bytes there are not valid UTF-8 (the caller replaces one byte).
 */
size_t nslog_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c < 0xc2)
		return 0;		/* continuation byte, or overlong */
	if (c < 0xe0) {
		len = 2;
	} else if (c < 0xf0) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (c < 0xf5) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}
