// expect-error-at: 8:17
// expect-error: the 'device_type' clause of 'set' names one device type
// The set directive makes one device type the current one (OpenACC 3.3
// 2.14.3), so its device_type clause names one.
void choose(int d)
{
#pragma acc set device_num(d)
#pragma acc set device_type(host, nvidia)
#pragma acc init device_type(host, nvidia)
}
