/* The source lines of main.c's constructs, which tool.c expects in the
 * events (main.c checks each with a _Static_assert). */
#define L_ENTER 29
#define L_PAR 31
#define L_UPDATE 35
#define L_ASYNC 37
#define L_WAIT 40
#define L_EXIT 42
#define L_DATA 44
