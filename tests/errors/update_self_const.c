// expect-error-at: 9:25
// expect-error: 'table[0:2]' is const-qualified; 'update self' would write to it
// `update self` of a const object would write memory the host may keep
// read-only.
const int table[4] = { 1, 2, 3, 4 };

int main(void)
{
#pragma acc update self(table[0:2])
    return table[0];
}
