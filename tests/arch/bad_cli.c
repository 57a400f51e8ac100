/*
 * bad_cli.c - what the command line must not do (test_cli_calls.sh): connect to a server
 * itself. Built into an archive that is never linked; the check must fail it.
 */
struct obs_conn;
struct myconn_opts;
int obs_connect(struct obs_conn *oc, const struct myconn_opts *o);
int bad_cli_observe(struct obs_conn *oc, const struct myconn_opts *o);

/* A command that opens its own connection. */
int bad_cli_observe(struct obs_conn *oc, const struct myconn_opts *o)
{
    return obs_connect(oc, o);
}
