/*
 * setparams: writes npbparams.h, the problem sizes of one benchmark in one
 * class, into the current folder. Built and run at build time by the
 * benchmarks' Makefiles (with the host's plain cc, whatever compiles the
 * benchmarks):
 *
 *     ../sys/setparams jr S
 *
 * The header is rewritten only when its contents change, so a make that
 * runs setparams every time still rebuilds nothing when the class is the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct class_size {
    char cls;
    int nx, ny, nz; /* grid points, boundary included */
    int itmax;      /* relaxation sweeps */
    int inorm;      /* residual norms printed every inorm sweeps */
};

static const struct class_size jr_sizes[] = {
    { 'S', 24, 20, 16, 50, 10 },
    { 'W', 48, 40, 32, 100, 20 },
    { 'A', 96, 80, 64, 200, 50 },
};

#define MAXTEXT 2048

static int write_jr(char cls, char *text, size_t cap)
{
    const struct class_size *s = NULL;
    size_t i;
    for (i = 0; i < sizeof jr_sizes / sizeof jr_sizes[0]; i++)
        if (jr_sizes[i].cls == cls)
            s = &jr_sizes[i];
    if (!s)
        return 0;
    snprintf(text, cap,
             "/* npbparams.h: written by sys/setparams for jr, class %c; do not edit. */\n"
             "#define CLASS '%c'\n"
             "/* grid points in x, y and z, boundary included */\n"
             "#define ISIZ1 %d\n"
             "#define ISIZ2 %d\n"
             "#define ISIZ3 %d\n"
             "/* relaxation sweeps; residual norms are printed every INORM_DEFAULT */\n"
             "#define ITMAX_DEFAULT %d\n"
             "#define INORM_DEFAULT %d\n",
             s->cls, s->cls, s->nx, s->ny, s->nz, s->itmax, s->inorm);
    return 1;
}

/* Whether `path` holds exactly `text`. */
static int same_contents(const char *path, const char *text)
{
    char old[MAXTEXT + 1];
    size_t n;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    n = fread(old, 1, MAXTEXT, f);
    old[n] = '\0';
    fclose(f);
    return strcmp(old, text) == 0;
}

int main(int argc, char **argv)
{
    char text[MAXTEXT];
    char cls;
    FILE *f;

    if (argc != 3 || strlen(argv[2]) != 1) {
        fprintf(stderr, "usage: setparams <benchmark> <class>\n");
        return 1;
    }
    cls = argv[2][0];
    if (strcmp(argv[1], "jr") != 0 && strcmp(argv[1], "JR") != 0) {
        fprintf(stderr, "setparams: unknown benchmark %s\n", argv[1]);
        return 1;
    }
    if (!write_jr(cls, text, sizeof text)) {
        fprintf(stderr, "setparams: class %c is not one of S, W, A (make jr CLASS=S)\n", cls);
        return 1;
    }
    if (same_contents("npbparams.h", text))
        return 0;
    f = fopen("npbparams.h", "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        perror("setparams: npbparams.h");
        return 1;
    }
    return 0;
}
