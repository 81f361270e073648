// expect-error-at: 9:13
// expect-error: 'set' directive requires at least one 'default_async', 'device_num' or 'device_type' clause
// A set directive needs one of its clauses (OpenACC 3.3 2.14.3): an if
// clause alone is not enough.
void choose(int c)
{
#pragma acc init
    c++;
#pragma acc set if(c)
#pragma acc shutdown
}
