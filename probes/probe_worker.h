/*
 * probe_worker.h - inside probes/: the loop of one worker of a level's engine (probe_engine.h
 * says how the connections are split, driven and counted). Used by probe_engine.c only.
 */
#ifndef SIZEUP_PROBES_PROBE_WORKER_H
#define SIZEUP_PROBES_PROBE_WORKER_H

#include "engine_state.h"

/*
 * The thread function of worker arg (a struct engine_worker * of an engine made by
 * engine_init): connects and prepares its connections, counts itself ready or failed, waits
 * for the gate, then runs its events until finish, cut or cancel, adding them to its slot each
 * turn. Closes its connections before it returns; owns nothing the engine must free.
 * @return NULL.
 */
void *engine_worker_main(void *arg);

#endif
