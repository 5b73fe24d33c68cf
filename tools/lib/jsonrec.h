/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonrec: records (and records of lost records) as JSON lines, for
 * nslogcat -v json and nslog-collector -o json.
 */
#ifndef NSLOG_JSONREC_H
#define NSLOG_JSONREC_H

#include <stdbool.h>
#include <stdio.h>

#include "logformat.h"
#include "recmeta.h"

int nslog_json_record(FILE *out, const struct nslog_rec *rec,
		      const struct nslog_decoded *t, const struct nslog_meta *m,
		      bool events);
int nslog_json_loss(FILE *out, const struct nslog_meta *m,
		    const struct nslog_loss *loss);

#endif /* NSLOG_JSONREC_H */
