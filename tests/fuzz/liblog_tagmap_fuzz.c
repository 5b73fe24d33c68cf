// SPDX-License-Identifier: GPL-2.0
/*
 * liblog_tagmap_fuzz: an event-log-tags file read by liblog's
 * android_openEventTagMap() (nslogcat --event-tags, $NSLOG_EVENT_TAGS),
 * then looked up as nslogcat and Android code do.
 *
 * Input: the file.
 *
 * Checked, for the number at the start of each of the file's first
 * lines: a name found is not empty and only letters, digits and '_'; a
 * format found has no newline or '#' and no white space at its end;
 * looking the name up (android_lookupEventTagNum(), with and without the
 * format) gives a tag of that name (and format).
 */
#include <ctype.h>
#include <errno.h>

#include <log/event_tag_map.h>

#include "fuzz.h"

#define LINES	32

static void check_tag(EventTagMap *map, unsigned int num)
{
	char name[4096], format[4096];
	const char *p, *q;
	size_t len, flen, i, l2;
	int r;

	p = android_lookupEventTag_len(map, &len, num);
	if (!p) {
		FZ_CHECK(!len);
		return;
	}
	FZ_CHECK(len && len < sizeof(name));
	for (i = 0; i < len; i++)
		FZ_CHECK(isalnum((unsigned char)p[i]) || p[i] == '_');
	memcpy(name, p, len);
	name[len] = '\0';
	r = android_lookupEventTagNum(map, name, NULL, 0);
	q = android_lookupEventTag_len(map, &l2, (unsigned int)r);
	FZ_CHECK(q && l2 == len && !memcmp(q, name, len));

	q = android_lookupEventFormat_len(map, &flen, num);
	if (!q) {
		FZ_CHECK(!flen);
		format[0] = '\0';
	} else {
		FZ_CHECK(flen && flen < sizeof(format));
		FZ_CHECK(!memchr(q, '\n', flen) && !memchr(q, '#', flen));
		FZ_CHECK(!isspace((unsigned char)q[flen - 1]));
		memcpy(format, q, flen);
		format[flen] = '\0';
	}
	r = android_lookupEventTagNum(map, name, format, 0);
	q = android_lookupEventTag_len(map, &l2, (unsigned int)r);
	FZ_CHECK(q && l2 == len && !memcmp(q, name, len));
	q = android_lookupEventFormat_len(map, &l2, (unsigned int)r);
	FZ_CHECK(l2 == strlen(format) && (!l2 || !memcmp(q, format, l2)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	EventTagMap *map = android_openEventTagMap(fz_file(data, size));
	const char *p = (const char *)data, *end = p + size, *nl;
	unsigned long num;
	char digits[16];
	size_t k, lines = 0;

	if (!map)
		return 0;
	while (size && p < end && lines++ < LINES) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		for (k = 0; k + 1 < sizeof(digits) && p + k < end &&
			    isdigit((unsigned char)p[k]); k++)
			digits[k] = p[k];
		digits[k] = '\0';
		if (k && p < end) {
			num = strtoul(digits, NULL, 10);
			check_tag(map, (unsigned int)num);
		}
		nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		if (!nl)
			break;
		p = nl + 1;
	}
	android_closeEventTagMap(map);
	return 0;
}
