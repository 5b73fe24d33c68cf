// SPDX-License-Identifier: GPL-2.0
/*
 * collector_state_fuzz: the collector's state file (cstate.c) read by
 * nslog_cstate_load(), as after a crash left it cut or a disk gave it
 * back damaged.
 *
 * Input: the file.
 *
 * Checked: a load that fails leaves the state empty, with this boot's
 * id; -EBADMSG names a line of the file (0: it ended early); a load that
 * succeeds round-trips: the text nslog_cstate_format() writes of it loads
 * again, and writes the same text.
 */
#include <errno.h>

#include "collector/cstate.h"
#include "fuzz.h"

#define BOOT_ID	"4a7c0f0e-33d4-4ad0-9c4e-0b0b3f1b6a1d"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nslog_cstate st = { 0 }, again = { 0 };
	char *text = NULL, *text2 = NULL;
	size_t len, len2;
	unsigned int line;
	int ret;

	ret = nslog_cstate_load(&st, fz_file(data, size), BOOT_ID, &line);
	FZ_CHECK(!strcmp(st.boot_id, BOOT_ID));
	if (ret) {
		FZ_CHECK(ret == -EBADMSG || ret == -ESTALE || ret == -ENOMEM);
		FZ_CHECK(!st.count);
		FZ_CHECK(ret != -EBADMSG ||
			 line <= fz_count(data, size, '\n') + 1);
		goto out;
	}
	if (nslog_cstate_format(&st, &text, &len))
		goto out;
	ret = nslog_cstate_load(&again, fz_file(text, len), BOOT_ID, &line);
	FZ_CHECK(!ret);
	FZ_CHECK(again.count == st.count);
	FZ_CHECK(!nslog_cstate_format(&again, &text2, &len2));
	FZ_CHECK(len2 == len && !memcmp(text, text2, len));
out:
	free(text);
	free(text2);
	nslog_cstate_free(&st);
	nslog_cstate_free(&again);
	return 0;
}
