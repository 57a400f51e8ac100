/*
 * load_server.h - the on-premises servers and the configurations of a sizeup.catalog/1
 * document: each entry checked (keys, types, ranges, the cost model's rules) and appended to
 * ld->cat. Not part of the public API; called by load.c for each element of $.servers and
 * $.configs, after $.disks and $.instances (a configuration refers to them).
 */
#ifndef SIZEUP_CATALOGS_LOAD_SERVER_H
#define SIZEUP_CATALOGS_LOAD_SERVER_H

#include "load_state.h"

#include <jansson.h>

/*
 * One server object v (docs/catalog-format.md, "servers") appended to ld->cat->servers; the
 * entry owns its strings (cat_catalog_free frees them) from the moment its id is read, also
 * when an error follows. Prices in their currency; power in kW or a curve of watts.
 * @return CAT_OK; CAT_EINVAL (ld->jr says where and why); CAT_ENOMEM.
 */
int cat_ld_server(struct cat_jr *ld, json_t *v);

/*
 * One config object v appended to ld->cat->configs: exactly one of an instance and a server
 * known to ld->cat or ld->base; its disk known, priced, of a capacity (GiB) in range, and a
 * local disk the machine's own and no larger than it has. Ownership as cat_ld_server.
 * @return CAT_OK; CAT_EINVAL (ld->jr says where and why); CAT_ENOMEM.
 */
int cat_ld_config(struct cat_jr *ld, json_t *v);

#endif
