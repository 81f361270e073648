// Smoke test of SQLite built by accc: tables, a transaction of prepared
// inserts, aggregates, window functions, a recursive CTE, string, printf
// and JSON functions; then a compute region sums what a query returned and
// checks it against SQLite's own sum. Prints deterministic text only.
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

static int print_row(void *unused, int n, char **vals, char **names)
{
    (void)unused;
    for (int i = 0; i < n; i++)
        printf("%s%s=%s", i ? " " : "", names[i], vals[i] ? vals[i] : "NULL");
    printf("\n");
    return 0;
}

static void exec(sqlite3 *db, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, print_row, NULL, &err) != SQLITE_OK) {
        printf("error: %s\n", err ? err : "?");
        sqlite3_free(err);
        exit(1);
    }
}

int main(void)
{
    enum { ROWS = 600 };
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK)
        return 1;
    printf("sqlite %s\n", sqlite3_libversion());
    exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, grp INT);"
             "CREATE INDEX t_grp ON t(grp);");
    exec(db, "BEGIN");
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT INTO t(name, score, grp) VALUES(?1, ?2, ?3)", -1, &ins,
                           NULL) != SQLITE_OK)
        return 1;
    unsigned seed = 12345;
    for (int i = 0; i < ROWS; i++) {
        seed = seed * 1103515245u + 12345u;
        char name[16];
        snprintf(name, sizeof name, "n%c%c%03d", 'a' + (int)(seed >> 16) % 26,
                 'a' + (int)(seed >> 8) % 26, i % 1000);
        sqlite3_bind_text(ins, 1, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_double(ins, 2, (double)((seed >> 4) % 10000) / 16.0);
        sqlite3_bind_int(ins, 3, i % 7);
        if (sqlite3_step(ins) != SQLITE_DONE)
            return 1;
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
    exec(db, "COMMIT");

    exec(db, "SELECT grp, count(*) AS n, printf('%.4f', sum(score)) AS s, printf('%.4f', avg(score)) AS a,"
             " min(name) AS lo, max(name) AS hi FROM t GROUP BY grp ORDER BY grp;");
    exec(db, "SELECT id, printf('%.3f', sum(score) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)) AS w,"
             " rank() OVER (PARTITION BY grp ORDER BY score DESC) AS r FROM t WHERE id % 97 = 0 ORDER BY id;");
    exec(db, "WITH RECURSIVE fib(a, b, n) AS (SELECT 0, 1, 0 UNION ALL SELECT b, a + b, n + 1 FROM fib"
             " WHERE n < 60) SELECT max(a) AS fib60, count(*) AS terms FROM fib;");
    exec(db, "SELECT upper(name) AS u, substr(name, 2, 3) AS s, printf('%08.3f|%-5d|%x', score, grp, id) AS p,"
             " hex(zeroblob(2)) AS z, length(replace(name, 'a', 'xyz')) AS l FROM t WHERE id < 5;");
    exec(db, "SELECT json_object('a', 1, 'b', json_array(1, 2.5, 'x')) AS j,"
             " json_extract('{\"x\":[5,6,{\"y\":7}]}', '$.x[2].y') AS e;");
    exec(db, "SELECT grp, group_concat(id, ',') AS ids FROM (SELECT * FROM t WHERE score > 600 ORDER BY id)"
             " GROUP BY grp HAVING count(*) > 1 ORDER BY grp;");
    exec(db, "UPDATE t SET score = score * 2 WHERE grp = 3; DELETE FROM t WHERE id % 5 = 0;"
             " SELECT count(*) AS left_rows, printf('%.4f', total(score)) AS total FROM t;");

    // The scores of one group, summed in a compute region.
    static double score[ROWS];
    int n = 0;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT score FROM t WHERE grp = 3 ORDER BY id", -1, &q, NULL) != SQLITE_OK)
        return 1;
    while (sqlite3_step(q) == SQLITE_ROW && n < ROWS)
        score[n++] = sqlite3_column_double(q, 0);
    sqlite3_finalize(q);
    double sum = 0;
#pragma acc parallel loop reduction(+:sum) copyin(score[0:n])
    for (int i = 0; i < n; i++)
        sum += score[i];
    double want = 0;
    if (sqlite3_prepare_v2(db, "SELECT total(score) FROM t WHERE grp = 3", -1, &q, NULL) != SQLITE_OK)
        return 1;
    if (sqlite3_step(q) == SQLITE_ROW)
        want = sqlite3_column_double(q, 0);
    sqlite3_finalize(q);
    printf("rows %d sum %.6e\n", n, sum);
    sqlite3_close(db);
    printf("%s\n", fabs(sum - want) <= 1e-9 * fabs(want) ? "PASS" : "FAIL");
    return 0;
}
