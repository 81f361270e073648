// Smoke test of zlib built by accc: checksums, one-shot compression at
// several levels and back, streaming deflate/inflate in small chunks (zlib
// and gzip wrappers), and a .gz file written and read back; a compute region
// checksums the data for a check against a host loop. Prints deterministic
// text only. argv[1]: a scratch file for the .gz round trip.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { LEN = 200000 };
static unsigned char data[LEN], back[LEN], packed[LEN + LEN / 8 + 64];

static int stream(int window_bits, int level)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    if (deflateInit2(&s, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t in = 0, out = 0;
    int r;
    do {
        size_t take = LEN - in < 4096 ? LEN - in : 4096;
        s.next_in = data + in;
        s.avail_in = (uInt)take;
        in += take;
        do {
            s.next_out = packed + out;
            s.avail_out = 1000;
            r = deflate(&s, in == LEN ? Z_FINISH : Z_NO_FLUSH);
            out += 1000 - s.avail_out;
        } while (s.avail_out == 0);
    } while (in < LEN);
    deflateEnd(&s);
    if (r != Z_STREAM_END)
        return -1;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, window_bits) != Z_OK)
        return -1;
    s.next_in = packed;
    s.avail_in = (uInt)out;
    size_t got = 0;
    do {
        s.next_out = back + got;
        s.avail_out = LEN - got < 777 ? (uInt)(LEN - got) : 777;
        r = inflate(&s, Z_NO_FLUSH);
        got = s.total_out;
    } while (r == Z_OK);
    inflateEnd(&s);
    if (r != Z_STREAM_END || got != LEN || memcmp(data, back, LEN) != 0)
        return -1;
    return (int)out;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    unsigned seed = 7;
    static const char *words[] = {"alpha ", "beta ", "gamma ", "delta ", "epsilon\n", "zeta "};
    for (size_t i = 0; i < LEN;) {
        seed = seed * 1664525u + 1013904223u;
        const char *w = words[(seed >> 24) % 6];
        for (size_t k = 0; w[k] && i < LEN; k++)
            data[i++] = (unsigned char)(w[k] ^ ((seed >> 11) & 1 ? 0 : 0x20 * (w[k] == 'a')));
    }
    printf("zlib %s\n", zlibVersion());
    printf("crc32 %08lx adler32 %08lx\n", crc32(0L, data, LEN), adler32(1L, data, LEN));
    for (int level = 1; level <= 9; level += 4) {
        uLongf plen = sizeof packed, blen = LEN;
        int c = compress2(packed, &plen, data, LEN, level);
        int u = uncompress(back, &blen, packed, plen);
        printf("level %d: %d %d packed %lu same %d\n", level, c, u, (unsigned long)plen,
               blen == LEN && memcmp(data, back, LEN) == 0);
    }
    printf("stream zlib %d gzip %d raw %d\n", stream(15, 6), stream(31, 9), stream(-12, 2));

    gzFile f = gzopen(argv[1], "wb9");
    if (!f)
        return 1;
    for (size_t i = 0; i < LEN; i += 10000)
        gzwrite(f, data + i, 10000);
    gzprintf(f, "tail %d\n", 42);
    gzclose(f);
    f = gzopen(argv[1], "rb");
    if (!f)
        return 1;
    int n = gzread(f, back, LEN);
    char line[32] = {0};
    gzgets(f, line, sizeof line);
    printf("gz read %d same %d tail %s", n, memcmp(data, back, LEN) == 0, line);
    gzclose(f);
    remove(argv[1]);

    // A checksum of the data in a compute region.
    unsigned long sum = 0, want = 0;
#pragma acc parallel loop reduction(+:sum) copyin(data)
    for (int i = 0; i < LEN; i++)
        sum += (unsigned long)data[i] * (unsigned long)(i % 251 + 1);
    for (int i = 0; i < LEN; i++)
        want += (unsigned long)data[i] * (unsigned long)(i % 251 + 1);
    printf("weighted %lu\n", sum);
    printf("%s\n", sum == want ? "PASS" : "FAIL");
    return 0;
}
