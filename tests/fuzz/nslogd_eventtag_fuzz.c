// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd_eventtag_fuzz: the event-log-tags file as nslogd reads it
 * (eventtag.c), from the container's /system/etc: the container's own
 * bytes, answered back to any client by getEventTag.
 *
 * Input: the file.
 *
 * Checked: every tag has a name without white space and a format without
 * a newline or leading white space, both within the file's text; each
 * is found by its number and its name (the first of either); the line
 * getEventTag answers ("NUMBER NAME FORMAT"), read back as a file, gives
 * the same tag (for the first eight: each costs a file).
 */
#include "fuzz.h"
#include "nslogd/eventtag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nslogd_eventtags t = { 0 }, back = { 0 };
	const struct nslogd_eventtag *e, *x;
	char line[NSLOGD_EVENTTAG_FILE_MAX / 64];
	size_t i, n;

	if (nslogd_eventtags_load(&t, fz_file(data, size)))
		goto out;
	for (i = 0; i < t.n && i < 64; i++) {
		e = &t.tags[i];
		FZ_CHECK(*e->name && !strpbrk(e->name, " \t\n"));
		FZ_CHECK(!strchr(e->format, '\n') && *e->format != ' ' &&
			 *e->format != '\t');
		x = nslogd_eventtag_by_num(&t, e->num);
		FZ_CHECK(x && x->num == e->num && x <= e);
		x = nslogd_eventtag_by_name(&t, e->name);
		FZ_CHECK(x && !strcmp(x->name, e->name) && x <= e);

		if (i >= 8)
			continue;	/* a file read per tag: the first few */
		n = (size_t)snprintf(line, sizeof(line), "%u %s%s%s\n", e->num,
				     e->name, *e->format ? " " : "", e->format);
		if (n >= sizeof(line))
			continue;
		FZ_CHECK(!nslogd_eventtags_load(&back, fz_file(line, n)));
		FZ_CHECK(back.n == 1 && back.tags[0].num == e->num &&
			 !strcmp(back.tags[0].name, e->name) &&
			 !strcmp(back.tags[0].format, e->format));
	}
out:
	nslogd_eventtags_free(&t);
	nslogd_eventtags_free(&back);
	return 0;
}
