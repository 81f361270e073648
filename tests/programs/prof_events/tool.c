/* A profiling tool for the OpenACC profiling interface (acc_prof.h), for
 * main.c: acc_register_library registers one callback for every event; the
 * callback checks each event's fields and records it; at exit (a
 * destructor: after the runtime's acc_ev_runtime_shutdown) the tool checks
 * that the events main.c causes came in order, and prints PASS, or FAIL
 * lines and exits with status 1. TOOL_VERBOSE=1 lists the events on stderr.
 * Built into the program (tests/programs) or as a shared library loaded
 * through ACC_PROFLIB (tests/prof.rs). */
#include <acc_prof.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lines.h"

#define NB (1000 * sizeof(float))
#define MAX 256

struct rec {
  int ev, line, implicit, devtype, devnum;
  long async;
  char var[16];
  size_t bytes;
  const void *host, *dev;
};

static struct rec recs[MAX];
static int nrec, nfail, first_thread = -1, registered;
static int markers[acc_ev_last];

static void fail(const char *what, int ev, int line)
{
  if (nfail++ < 20)
    printf("FAIL: %s (event %d, line %d)\n", what, ev, line);
}

static int is_start(int ev)
{
  switch (ev) {
  case acc_ev_device_init_start: case acc_ev_device_shutdown_start:
  case acc_ev_enter_data_start: case acc_ev_exit_data_start:
  case acc_ev_update_start: case acc_ev_compute_construct_start:
  case acc_ev_enqueue_launch_start: case acc_ev_enqueue_upload_start:
  case acc_ev_enqueue_download_start: case acc_ev_wait_start:
    return 1;
  }
  return 0;
}

static int is_data(int ev)
{
  return (ev >= acc_ev_create && ev <= acc_ev_free) ||
         (ev >= acc_ev_enqueue_upload_start && ev <= acc_ev_enqueue_download_end);
}

static int is_launch(int ev)
{
  return ev == acc_ev_enqueue_launch_start || ev == acc_ev_enqueue_launch_end;
}

static void cb(acc_prof_info *p, acc_event_info *e, acc_api_info *api)
{
  int ev = p->event_type;
  if (ev <= acc_ev_none || ev >= acc_ev_last || e->event_type != ev) {
    fail("event_type", ev, p->line_no);
    return;
  }
  if (p->valid_bytes != (int)_ACC_PROF_INFO_VALID_BYTES || p->version != _ACC_PROF_INFO_VERSION)
    fail("acc_prof_info valid_bytes or version", ev, p->line_no);
  if (api->valid_bytes != (int)_ACC_API_INFO_VALID_BYTES || api->device_type != p->device_type)
    fail("acc_api_info", ev, p->line_no);
  if (first_thread < 0)
    first_thread = p->thread_id;
  if (p->thread_id != first_thread)
    fail("thread_id", ev, p->line_no);
  if (p->line_no > 0 && (!p->src_file || !strstr(p->src_file, "main.c")))
    fail("src_file", ev, p->line_no);
  int valid = is_data(ev) ? (int)_ACC_DATA_EVENT_INFO_VALID_BYTES
              : is_launch(ev) ? (int)_ACC_LAUNCH_EVENT_INFO_VALID_BYTES
                              : (int)_ACC_OTHER_EVENT_INFO_VALID_BYTES;
  if (e->other_event.valid_bytes != valid)
    fail("event info valid_bytes", ev, p->line_no);
  /* tool_info: set by a start event, given back at its end. */
  if (is_start(ev))
    e->other_event.tool_info = &markers[ev];
  else if (is_start(ev - 1) && e->other_event.tool_info != &markers[ev - 1])
    fail("tool_info of the start event not given to its end", ev, p->line_no);
  if (nrec == MAX)
    return;
  struct rec *r = &recs[nrec++];
  r->ev = ev;
  r->line = p->line_no;
  r->implicit = e->other_event.implicit;
  r->devtype = p->device_type;
  r->devnum = p->device_number;
  r->async = p->async;
  if (is_data(ev)) {
    const acc_data_event_info *d = &e->data_event;
    snprintf(r->var, sizeof r->var, "%s", d->var_name ? d->var_name : "?");
    r->bytes = d->bytes;
    r->host = d->host_ptr;
    r->dev = d->device_ptr;
    if (!d->host_ptr || !d->device_ptr)
      fail("data event without host or device address", ev, p->line_no);
  }
  if (is_launch(ev)) {
    const acc_launch_event_info *l = &e->launch_event;
    if (!l->kernel_name || !l->kernel_name[0] || l->num_gangs < 1 || l->num_workers < 1 ||
        l->vector_length < 1)
      fail("launch event fields", ev, p->line_no);
  }
  if (getenv("TOOL_VERBOSE"))
    fprintf(stderr, "tool: event %d line %d dev %d/%d async %ld implicit %d %s %zu\n", ev,
            p->line_no, p->device_type, p->device_number, p->async, r->implicit, r->var,
            r->bytes);
}

void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup)
{
  (void)unreg;
  registered++;
  for (int ev = acc_ev_device_init_start; ev < acc_ev_last; ev++)
    reg((acc_event_t)ev, cb, acc_reg);
  /* A second registration counts, and is called once. */
  reg(acc_ev_update_start, cb, acc_reg);
  if (!lookup("acc_prof_register") || lookup("no_such_routine"))
    fail("acc_prof_lookup", 0, 0);
}

/* What main.c causes, in order: event, line (0: any), variable as written
 * up to its '[' ("": none checked), and on which devices ('h' the host
 * fallback, where the directives do not reach the runtime, 'm' the
 * multicore device, 'g' a GPU or the emulated one). */
struct want {
  int ev, line;
  const char *var, *on;
};

#define W(e, l, v, on) {acc_ev_##e, l, v, on}
static const struct want wants[] = {
  W(device_init_start, 0, "", "g"),
  W(device_init_end, 0, "", "g"),
  W(enter_data_start, L_ENTER, "", "mg"),
  W(alloc, L_ENTER, "a", "g"),
  W(enqueue_upload_start, L_ENTER, "a", "g"),
  W(enqueue_upload_end, L_ENTER, "a", "g"),
  W(create, L_ENTER, "a", "g"),
  W(alloc, L_ENTER, "b", "g"),
  W(create, L_ENTER, "b", "g"),
  W(enter_data_end, L_ENTER, "", "mg"),
  W(compute_construct_start, L_PAR, "", "mg"),
  W(enter_data_start, L_PAR, "", "mg"),
  W(enter_data_end, L_PAR, "", "mg"),
  W(enqueue_launch_start, L_PAR, "", "mg"),
  W(enqueue_launch_end, L_PAR, "", "mg"),
  W(exit_data_start, L_PAR, "", "mg"),
  W(exit_data_end, L_PAR, "", "mg"),
  W(compute_construct_end, L_PAR, "", "mg"),
  W(update_start, L_UPDATE, "", "mg"),
  W(enqueue_download_start, L_UPDATE, "b", "g"),
  W(enqueue_download_end, L_UPDATE, "b", "g"),
  W(update_end, L_UPDATE, "", "mg"),
  W(compute_construct_start, L_ASYNC, "", "mg"),
  W(enter_data_start, L_ASYNC, "", "mg"),
  W(alloc, L_ASYNC, "c", "g"),
  W(enqueue_upload_start, L_ASYNC, "c", "g"),
  W(enqueue_upload_end, L_ASYNC, "c", "g"),
  W(create, L_ASYNC, "c", "g"),
  W(enter_data_end, L_ASYNC, "", "mg"),
  W(enqueue_launch_start, L_ASYNC, "", "mg"),
  W(enqueue_launch_end, L_ASYNC, "", "mg"),
  W(exit_data_start, L_ASYNC, "", "mg"),
  W(enqueue_download_start, L_ASYNC, "c", "g"),
  W(enqueue_download_end, L_ASYNC, "c", "g"),
  W(delete, L_ASYNC, "c", "g"),
  W(free, L_ASYNC, "c", "g"),
  W(exit_data_end, L_ASYNC, "", "mg"),
  W(compute_construct_end, L_ASYNC, "", "mg"),
  W(wait_start, L_WAIT, "", "g"),
  W(wait_end, L_WAIT, "", "g"),
  W(exit_data_start, L_EXIT, "", "mg"),
  W(enqueue_download_start, L_EXIT, "b", "g"),
  W(enqueue_download_end, L_EXIT, "b", "g"),
  W(delete, L_EXIT, "b", "g"),
  W(free, L_EXIT, "b", "g"),
  W(delete, L_EXIT, "a", "g"),
  W(free, L_EXIT, "a", "g"),
  W(exit_data_end, L_EXIT, "", "mg"),
  W(enter_data_start, L_DATA, "", "mg"),
  W(alloc, L_DATA, "d", "g"),
  W(enqueue_upload_start, L_DATA, "d", "g"),
  W(enqueue_upload_end, L_DATA, "d", "g"),
  W(create, L_DATA, "d", "g"),
  W(enter_data_end, L_DATA, "", "mg"),
  W(exit_data_start, L_DATA, "", "mg"),
  W(delete, L_DATA, "d", "g"),
  W(free, L_DATA, "d", "g"),
  W(exit_data_end, L_DATA, "", "mg"),
  W(runtime_shutdown, 0, "", "hmg"),
};

static int count(int ev)
{
  int n = 0;
  for (int i = 0; i < nrec; i++)
    n += recs[i].ev == ev;
  return n;
}

__attribute__((destructor)) static void check(void)
{
  if (registered != 1)
    fail("acc_register_library not called once", 0, registered);
  /* Which device the constructs ran on: that of the first construct event. */
  char on = 'h';
  for (int i = 0; i < nrec; i++)
    if (recs[i].line > 0) {
      on = recs[i].devtype == acc_device_nvidia ? 'g'
           : recs[i].devtype == acc_device_multicore ? 'm' : 'h';
      break;
    }
  int k = 0, expected = 0;
  for (size_t w = 0; w < sizeof wants / sizeof wants[0]; w++) {
    const struct want *x = &wants[w];
    if (!strchr(x->on, on))
      continue;
    expected++;
    while (k < nrec && !(recs[k].ev == x->ev && (!x->line || recs[k].line == x->line) &&
                         (!x->var[0] || (strncmp(recs[k].var, x->var, strlen(x->var)) == 0 &&
                                          recs[k].var[strlen(x->var)] == '['))))
      k++;
    if (k == nrec) {
      printf("FAIL: missing or out of order: event %d line %d %s (device '%c')\n", x->ev,
             x->line, x->var, on);
      nfail++;
      break;
    }
    const struct rec *r = &recs[k];
    if (is_data(r->ev) && r->bytes != NB)
      fail("data event bytes", r->ev, r->line);
    long want_async = r->line == L_ASYNC ? 1 : r->line == L_WAIT ? 1 : acc_async_sync;
    if (r->line > 0 && (on == 'g' || r->line != L_WAIT) && r->async != want_async)
      fail("async", r->ev, r->line);
    int implicit = (r->line == L_PAR || r->line == L_ASYNC) &&
                   (r->ev == acc_ev_enter_data_start || r->ev == acc_ev_enter_data_end ||
                    r->ev == acc_ev_exit_data_start || r->ev == acc_ev_exit_data_end);
    if (!is_data(r->ev) && !is_launch(r->ev) && r->line > 0 && r->implicit != implicit)
      fail("implicit", r->ev, r->line);
    k++;
  }
  /* Nothing more than main.c causes, on each device. */
  int launches = on == 'h' ? 0 : 2, copies = on == 'g' ? 3 : 0, allocs = on == 'g' ? 4 : 0;
  if (count(acc_ev_enqueue_launch_start) != launches || count(acc_ev_enqueue_launch_end) != launches)
    fail("number of launches", acc_ev_enqueue_launch_start, launches);
  if (count(acc_ev_enqueue_upload_end) != copies || count(acc_ev_enqueue_download_end) != copies)
    fail("number of transfers", acc_ev_enqueue_upload_end, copies);
  if (count(acc_ev_alloc) != allocs || count(acc_ev_free) != allocs ||
      count(acc_ev_create) != allocs || count(acc_ev_delete) != allocs)
    fail("number of allocations", acc_ev_alloc, allocs);
  if (count(acc_ev_update_start) != (on != 'h') || count(acc_ev_runtime_shutdown) != 1 ||
      count(acc_ev_error))
    fail("number of update, runtime_shutdown or error events", 0, 0);
  /* The same device memory from alloc to free. */
  for (int i = 0; i < nrec; i++)
    for (int j = i + 1; j < nrec; j++)
      if (recs[i].ev == acc_ev_alloc && recs[j].ev == acc_ev_free &&
          strcmp(recs[i].var, recs[j].var) == 0 && recs[i].dev != recs[j].dev)
        fail("free of other device memory than the alloc", acc_ev_free, recs[j].line);
  if (getenv("TOOL_VERBOSE"))
    fprintf(stderr, "tool: %d events, %d expected on device '%c'\n", nrec, expected, on);
  if (nfail) {
    fflush(stdout);
    _exit(1);
  }
  printf("PASS\n");
}
