// expect-error-at: 7:28
// expect-error: use of undeclared identifier 'table'
// expect-error: gnu_unparsed_declare.c:6:65: note: 'table' is declared in code accc cannot parse
// A global in an `acc declare` directive whose declaration accc cannot
// parse: the directive names it, so that is an error with the reason.
static int table[4] = {1, 2, 3, __builtin_types_compatible_p(int, int)};
#pragma acc declare copyin(table)

int first(void) { return table[0]; }
