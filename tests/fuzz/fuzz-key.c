/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The Senseval key reader, and the same bytes read as the two filter lists
 * (instances and sense tags).  Input: a flags byte (unused), then the file.
 */
#include <stdlib.h>

#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in;
	fuzz_split(data, size, 1, &in);
	const struct fuzz_part *f = &in.part[0];
	const unsigned format = FUZZ_BIT(TAGEVAL_EFORMAT);
	struct tageval_error err;
	struct tageval_inventory *inv = tageval_inventory_new();
	struct tageval_filter *filter = tageval_filter_new();
	if (inv == NULL || filter == NULL)
		abort();

	struct tageval_key *key = NULL;
	int rc = tageval_key_read_buffer(inv, f->data, f->size, "key", &key, &err);
	fuzz_check_error(rc, format, &err, f, "key");
	if ((rc == TAGEVAL_OK) != (key != NULL))
		fuzz_fail("key: status %d with key %p", rc, (void *)key);
	if (key && tageval_key_size(key) == 0)
		fuzz_fail("key: read without any instance");

	rc = tageval_filter_read_instances_buffer(filter, f->data, f->size, "instances", &err);
	fuzz_check_error(rc, format, &err, f, "instances");
	rc = tageval_filter_read_tags_buffer(filter, inv, f->data, f->size, "tags", &err);
	fuzz_check_error(rc, format, &err, f, "tags");

	/* every tag the key interned has a name that looks it up again */
	for (size_t i = 0; i < tageval_inventory_size(inv); i++) {
		size_t id;
		const char *name = tageval_inventory_name(inv, i);
		if (name == NULL || tageval_inventory_find(inv, name, &id) || id != i)
			fuzz_fail("key: tag %zu does not look itself up", i);
	}
	tageval_key_free(key);
	tageval_filter_free(filter);
	tageval_inventory_free(inv);
	return 0;
}
