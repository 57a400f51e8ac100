/*
 * predict_output.h - a prediction (predict.h) as people and programs read it: the predicted
 * points as sizeup.point/1 JSON Lines (`sizeup predict --json`), the text report, and the
 * leave-one-out table (`--validate`) as text or sizeup.validation/1 JSON Lines.
 *
 * Thread-safety: functions touch only their arguments and f.
 */
#ifndef SIZEUP_ADVISOR_PREDICT_OUTPUT_H
#define SIZEUP_ADVISOR_PREDICT_OUTPUT_H

#include "predict.h"

#include <stdio.h>

/** Every predicted point as JSON Lines. @return 0 or -1 (I/O, memory). */
int predict_write_points(FILE *f, const struct predict_set *s);

/**
 * The text report: the groups and their leave-one-out error, one line per predicted
 * configuration (vCPU, peak with its interval, the configurations it came from, basis), and
 * the configurations not predicted with the reason, grouped by family. @return 0 or -1.
 */
int predict_write_text(FILE *f, const struct predict_set *s);

/** Leave-one-out table per group at opt.slo (predict --validate). @return 0 or -1. */
int predict_write_validation_text(FILE *f, const struct predict_set *s);

/** The same as sizeup.validation/1 JSON Lines, one object per group. @return 0 or -1. */
int predict_write_validation_json(FILE *f, const struct predict_set *s);

#endif
