/*
 * load_state.h - the state of one sizeup.catalog/1 document being read, shared by the
 * document reader (load.h) and its section readers (load_field.h, load_server.h). Not part of
 * the public API.
 */
#ifndef SIZEUP_CATALOGS_LOAD_STATE_H
#define SIZEUP_CATALOGS_LOAD_STATE_H

#include "catalog.h"
#include "jsonread.h"

/* State of one catalog document being read: the strict reader (util/jsonread.h) and the
 * catalogs the references are checked against. */
struct cat_jr {
    struct jr jr;                   /* positions, the JSON path, the message */
    const struct cat_catalog *base; /* files already loaded, or NULL */
    struct cat_catalog *cat;        /* this file */
    size_t n_where;                 /* instances given a position (cat_instance.where) */
};

#endif
